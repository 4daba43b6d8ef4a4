import BadgeCore

/// Decoded icons and badge images shared by every job of a batch, so each file is
/// read and decoded once however many jobs use it. Failures are cached too: every
/// job naming a broken file reports the same error without reading it again.
/// Safe to use from several threads; different files decode in parallel.
public final class IconCache: @unchecked Sendable {
    private final class Slot: @unchecked Sendable {
        let lock = Lock()
        var result: Result<LoadedIcon, BadgeError>?
    }

    private let lock = Lock()
    private var slots: [String: Slot] = [:]

    /// An empty cache.
    public init() {}

    /// The image at `path` with `sizing`, decoded once (an SVG is rendered at its
    /// size once, and its document parsed once if a vector output needs it).
    func icon(_ path: String, sizing: ImageSizing, limits: ImageLimits) throws(BadgeError) -> LoadedIcon {
        let size = sizing.size.map { "\($0.width)x\($0.height)" } ?? "natural"
        let key =
            "\(path)\u{0}\(size)\u{0}\(sizing.scale)\u{0}\(sizing.rasterScale)\u{0}\(limits.maxSide)\u{0}\(limits.maxPixels)\u{0}\(limits.svgTimeLimit)"
        let slot = lock.locked { () -> Slot in
            if let slot = slots[key] { return slot }
            let slot = Slot()
            slots[key] = slot
            return slot
        }
        let result = slot.lock.locked { () -> Result<LoadedIcon, BadgeError> in
            if let result = slot.result { return result }
            let loaded = Result { () throws(BadgeError) -> LoadedIcon in
                try IconLoader.load(path, limits: limits, sizing: sizing)
            }
            slot.result = loaded
            return loaded
        }
        return try result.get()
    }
}
