import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An image drawn in this process and held in memory, standing in for a file a
/// render would otherwise read: an Android layer drawn at a density's pixel size
/// (`AndroidDrawingPainter`), layers composed (`ContactSheetPainter.tileImage`), or
/// a blank canvas. A value: the same pixels give an equal image, and each render
/// that reads it gets its own copy.
///
/// Held as the premultiplied pixels Cairo drew, never through PNG: decoding the PNG
/// of them gave the same pixels (8-bit premultiplied pixels survive straight alpha
/// and back, `AndroidDrawingPainter.png`), so a render of either is the same.
public struct DrawnImage: Equatable, Sendable {
    /// Width (pixels).
    public let width: Int
    /// Height (pixels).
    public let height: Int
    /// Cairo ARGB32 words (0xAARRGGBB, premultiplied), row after row with no
    /// padding; empty for a blank (transparent) canvas.
    let words: [UInt32]

    /// A transparent canvas of `width` × `height` pixels (nothing held but its size).
    public static func blank(width: Int, height: Int) -> DrawnImage {
        DrawnImage(width: width, height: height, words: [])
    }

    private init(width: Int, height: Int, words: [UInt32]) {
        self.width = width
        self.height = height
        self.words = words
    }

    /// The pixels of `surface`, copied.
    init(_ surface: ImageSurface) {
        let base = surface.data
        let stride = surface.stride
        let (width, height) = (surface.width, surface.height)
        let words = [UInt32](unsafeUninitializedCapacity: width * height) { buffer, count in
            for row in 0..<height {
                memcpy(buffer.baseAddress! + row * width, base + row * stride, width * 4)
            }
            count = width * height
        }
        self.init(width: width, height: height, words: words)
    }

    /// `drawing` drawn onto `width` × `height` pixels, as `AndroidDrawingPainter.png`
    /// draws it (without the PNG).
    ///
    /// - Throws: as `AndroidDrawingPainter.png`: 65 over `limits` or for an
    ///   embedded bitmap that cannot be decoded, 69 when memory runs out.
    public static func drawing(
        _ drawing: AndroidDrawing, width: Int, height: Int, name: String, limits: ImageLimits
    ) throws(BadgeError) -> DrawnImage {
        DrawnImage(try AndroidDrawingPainter.surface(drawing, width: width, height: height, name: name, limits: limits))
    }

    /// A new surface holding these pixels, for one render.
    ///
    /// - Throws: 69 when Cairo cannot allocate it.
    func surface() throws(BadgeError) -> ImageSurface {
        let surface = try ImageSurface(width: width, height: height)
        guard !words.isEmpty else { return surface }
        let base = surface.data
        let stride = surface.stride
        words.withUnsafeBufferPointer { source in
            for row in 0..<height {
                memcpy(base + row * stride, source.baseAddress! + row * width, width * 4)
            }
        }
        surface.markDirty()
        return surface
    }
}

extension RenderRequest {
    /// The same request with `drawn` as its icon's images held in memory
    /// (`Icon.drawn`).
    public func holding(_ drawn: [String: DrawnImage]) -> RenderRequest {
        RenderRequest(
            icon: Icon(
                path: icon.path, size: icon.size, rasterScale: icon.rasterScale, mask: icon.mask,
                filters: icon.filters, platform: icon.platform, backdrop: icon.backdrop, drawn: drawn),
            badge: badges[0], moreBadges: Array(badges.dropFirst()), output: output, limits: limits,
            animation: animation)
    }
}
