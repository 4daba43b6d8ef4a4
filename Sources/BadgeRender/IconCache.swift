import BadgeCore
import BadgeSystem
import Synchronization

/// Decoded icons and badge images shared by the jobs of a batch, so a file is
/// decoded once however many jobs use it, and however its path is spelled: entries
/// are keyed by the file's identity (device and inode), not its spelling, so
/// `./a.png`, `a.png` and `x/../a.png` are one entry.
///
/// The cache holds at most `byteBudget` bytes of decoded pixels: the least recently
/// used entries are dropped beyond it (a job that still draws one keeps it alive
/// until it is done). Failures are cached too (they cost nothing), so every job
/// naming a broken file reports the same error without reading it again. Safe to use
/// from several threads; different files decode in parallel.
public final class IconCache: Sendable {
    /// The bytes of decoded pixels kept (256 MiB: a 1024 px app icon at 3 scales is
    /// 16 MiB; 8192² at the default limit is 256 MiB, kept alone).
    public static let defaultByteBudget = 256 << 20

    /// One file at one size: decoded at most once at a time.
    private final class Slot: Sendable {
        let result = Mutex<Result<LoadedIcon, BadgeError>?>(nil)
        /// Bytes of pixels once decoded (0 for a failure).
        let bytes = Atomic<Int>(0)
    }

    private struct State {
        /// Slots in least-recently-used order (oldest first), with their keys: a batch
        /// holds a few dozen distinct images, so a list is enough.
        var slots: [(key: String, slot: Slot)] = []
        var bytes = 0
    }

    private let state = Mutex(State())
    private let byteBudget: Int

    /// An empty cache holding at most `byteBudget` bytes of pixels.
    public init(byteBudget: Int = IconCache.defaultByteBudget) {
        self.byteBudget = byteBudget
    }

    /// The image at `path` with `sizing`, decoded once (an SVG is rendered at its size
    /// once, and its document parsed once if a vector output needs it).
    func icon(_ path: String, sizing: ImageSizing, limits: ImageLimits) throws(BadgeError) -> LoadedIcon {
        let key = IconCache.key(path, sizing: sizing, limits: limits)
        let slot = state.withLock { state -> Slot in
            if let index = state.slots.firstIndex(where: { $0.key == key }) {
                let entry = state.slots.remove(at: index)
                state.slots.append(entry)
                return entry.slot
            }
            let slot = Slot()
            state.slots.append((key, slot))
            return slot
        }
        let result = slot.result.withLock { stored -> Result<LoadedIcon, BadgeError> in
            if let stored { return stored }
            let loaded = Result { () throws(BadgeError) -> LoadedIcon in
                try IconLoader.load(path, limits: limits, sizing: sizing)
            }
            stored = loaded
            if case .success(let icon) = loaded { slot.bytes.store(icon.width * icon.height * 4, ordering: .relaxed) }
            return loaded
        }
        evict()
        return try result.get()
    }

    /// Drops the least recently used decoded images until the cache is within budget
    /// (the newest always stays, however large).
    private func evict() {
        state.withLock { state in
            var total = state.slots.reduce(0) { $0 + $1.slot.bytes.load(ordering: .relaxed) }
            while total > byteBudget, state.slots.count > 1 {
                let oldest = state.slots.removeFirst()
                total -= oldest.slot.bytes.load(ordering: .relaxed)
            }
            state.bytes = total
        }
    }

    /// The bytes of decoded pixels held now (for tests).
    public var heldBytes: Int { state.withLock { $0.bytes } }

    /// The file's identity (standard input by its spelling, `-`), the size asked for
    /// and the limits, which change what a decode gives.
    private static func key(_ path: String, sizing: ImageSizing, limits: ImageLimits) -> String {
        let file: String
        switch path == "-" ? .standardInput : FileIdentity.key(path) {
        case .inode(let device, let inode): file = "inode:\(device):\(inode)"
        case .path(let text): file = "path:" + text
        case .standardInput: file = "stdin"
        }
        let size = sizing.size.map { "\($0.width)x\($0.height)" } ?? "natural"
        return "\(file)\u{0}\(size)\u{0}\(sizing.scale)\u{0}\(sizing.rasterScale)\u{0}\(limits.maxSide)\u{0}"
            + "\(limits.maxPixels)\u{0}\(limits.svgTimeLimit)"
    }
}
