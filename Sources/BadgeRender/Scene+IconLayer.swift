import BadgeCore
import Synchronization

extension Scene {
    /// The icon as a scene draws it: its decoded image, where on the canvas, its mask,
    /// and its pixels after the filters.
    ///
    /// Made by `SceneBuilder` (which decodes the icon and applies the filters) and
    /// never changed; who may change its pixels is said by `IconPixels`.
    public struct IconLayer {
        /// The icon as decoded: size, format, SVG source, colour chunks.
        let decoded: LoadedIcon
        /// The pixels drawn: the decoded ones, after `filters`.
        let pixels: IconPixels
        /// Where the icon is drawn on the canvas (pixels): its own size, moved only by
        /// expand placement.
        public let rect: Rect
        /// The clip applied to it, and the scale its rounded radius (points) is in.
        let mask: IconMask
        let maskScale: Double
        /// The colour filters its pixels went through, in order, a tint's colour
        /// converted into the icon's colour space like the badges' colours.
        public let filters: [IconFilter]

        /// The icon's drawn size (pixels) and its format ("png", "svg", "jpeg").
        public var width: Int { decoded.width }
        /// The icon's drawn height (pixels).
        public var height: Int { decoded.height }
        /// The icon's format as reports name it: "png", "svg", "jpeg".
        public var format: String { decoded.format }

        /// The SVG document drawn as vectors into SVG and PDF outputs; nil for a raster
        /// icon, and for a filtered SVG icon (filters work on pixels: its filtered
        /// pixels are drawn instead).
        var vector: SVGSource? { filters.isEmpty ? decoded.svg : nil }

        /// The pixels to draw.
        ///
        /// - Throws: `BadgeError.internalError` for pixels a raster output already
        ///   painted on.
        func surface() throws(BadgeError) -> ImageSurface {
            switch pixels {
            case .owned(let owned):
                guard !owned.spent else {
                    throw .internalError("the icon's pixels were drawn on in place (pngData(consumingIcon:))")
                }
                return owned.surface
            case .shared(let surface): return surface
            }
        }

        /// Whether a raster output painted onto the icon's own pixels (`OwnedSurface`).
        var spent: Bool {
            if case .owned(let owned) = pixels { return owned.spent }
            return false
        }

        /// Refuses to paint once a raster output painted onto the icon's own pixels.
        ///
        /// - Throws: `BadgeError.internalError` then.
        func checkNotSpent() throws(BadgeError) {
            if spent {
                throw .internalError("vector output after the icon was drawn on in place (pngData(consumingIcon:))")
            }
        }

        /// Where the icon's lost straight pixels sit on the canvas: only when it is
        /// drawn at its own size at a whole-pixel position (anything else resamples),
        /// and not filtered (the filtered pixels are the icon now, not the decoded
        /// ones).
        var straightRestore: StraightRestore? {
            guard let lost = decoded.lost, filters.isEmpty else { return nil }
            guard rect.width == Double(width), rect.height == Double(height), rect.x == rect.x.rounded(),
                rect.y == rect.y.rounded(), abs(rect.x) < 1e9, abs(rect.y) < 1e9
            else { return nil }
            return StraightRestore(lost: lost, x: Int(rect.x), y: Int(rect.y), width: width)
        }
    }
}

/// The icon's pixels as drawn, and who holds them: the type says whether a painter
/// may draw onto them. Decided by `SceneBuilder` (a cache or none), never changed.
enum IconPixels {
    /// Decoded for this scene alone (no `IconCache`), filtered in place by the builder:
    /// its one raster output may paint the badges onto them (`OwnedSurface`).
    case owned(OwnedSurface)
    /// Decoded once for a batch (`IconCache`) and read by other jobs at the same time,
    /// or this scene's filtered copy of such pixels: only read, never drawn on.
    case shared(ImageSurface)

    /// Whether the scene holds the decoded pixels alone.
    var isOwned: Bool {
        if case .owned = self { return true }
        return false
    }
}

/// Decoded pixels one scene holds alone. Its one raster output (`Scene.pngData`
/// with `consumingIcon`) may paint the badges onto them instead of onto a canvas of
/// its own, so a render's peak memory is about one image, not two: they are then
/// that raster, no longer the icon (`spent`), so a later raster is that same image
/// and a later vector output is refused.
///
/// `Sendable`: the surface is drawn on only by the thread that builds and paints
/// the scene; `spent` is atomic.
final class OwnedSurface: Sendable {
    let surface: ImageSurface
    private let painted = Atomic(false)

    init(_ surface: ImageSurface) { self.surface = surface }

    /// Whether a raster output painted onto these pixels.
    var spent: Bool { painted.load(ordering: .relaxed) }

    /// Records that a raster output paints onto these pixels; false when one did
    /// already (they hold that raster).
    func spend() -> Bool { !painted.exchange(true, ordering: .relaxed) }
}
