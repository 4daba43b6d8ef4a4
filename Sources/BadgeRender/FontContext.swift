import BadgeCore
internal import CFreeType
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A FreeType library and the faces opened with it, used by one thread at a time.
///
/// FreeType wants one `FT_Library` per thread; a `Renderer` checks a context out
/// of a process-wide pool when it is made and returns it when it goes, so batch
/// workers never share one and never lock while rendering. Contexts and their
/// faces are never freed (see `FontFace`); there are at most as many as threads.
///
/// `@unchecked Sendable`: a context moves between threads only through the pool's
/// mutex, and is used by one renderer, on one thread, between check-out and check-in.
final class FontContext: @unchecked Sendable {
    let library: FT_Library
    /// Opened faces by "origin#index": a list, not a dictionary, as a context holds a
    /// few faces and a [String: FontFace] costs the Swift runtime a scan of every
    /// protocol conformance (String: Hashable) at each start (callgrind).
    private var faces: [(key: String, face: FontFace)] = []

    private init() throws(BadgeError) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw .internalError("FreeType could not be initialised")
        }
        self.library = library
    }

    /// The face `index` of `data`, opened once per context.
    ///
    /// - Throws: `BadgeError.badInput` when the bytes are not a font.
    func face(_ data: FontData, index: Int = 0) throws(BadgeError) -> FontFace {
        let key = "\(data.origin)#\(index)"
        if let known = faces.first(where: { $0.key == key }) { return known.face }
        let face = try FontFace(data: data, index: index, library: library)
        faces.append((key, face))
        return face
    }

    /// Contexts not checked out by a renderer.
    private static let pool = Mutex<[FontContext]>([])

    /// Takes a free context from the pool, or makes one.
    static func checkOut() throws(BadgeError) -> FontContext {
        if let context = pool.withLock({ $0.popLast() }) { return context }
        return try FontContext()
    }

    /// Returns a context to the pool for the next renderer.
    static func checkIn(_ context: FontContext) {
        pool.withLock { $0.append(context) }
    }
}
