import BadgeCore
import BadgeSystem
internal import CImageLoaders
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes SVG (librsvg) and the gdk-pixbuf formats in a child process, the
/// iconbadge binary run with `--isolated-decode`.
///
/// librsvg 2.54.7 aborts its process on some documents (Rust panics in CSS
/// language tags and filter bounds: librsvg's `crash` and `render-crash` test
/// files) and Cairo can crash under it; a C image loader can too. In a child a
/// crash, a hang (killed at the time limit) or a library's noise on stderr costs
/// only that one file, which is then refused with exit 65; the parent never loads
/// GLib for a PNG render, and batch workers are not taken down by one bad file.
enum IsolatedDecoder {
    /// Whether this process's executable is the CLI (it answers `--isolated-decode`),
    /// set by `IsolatedDecoding.executableDecodes` before any decode.
    static let executableDecodes = Mutex(false)

    /// The binary that decodes: this process's own executable when it is the CLI
    /// (under any name), else an `iconbadge` beside it (test runners, fuzz targets).
    static let helper: String? = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let executable = String(nulTerminated: Array(buffer[0..<length]) + [0])
        if executableDecodes.withLock({ $0 }) || executable.hasSuffix("/iconbadge") { return executable }
        var folder = OutputFile.parentFolder(of: executable)
        for _ in 0..<2 {
            let candidate = folder + "/iconbadge"
            if access(candidate, X_OK) == 0 { return candidate }
            folder = OutputFile.parentFolder(of: folder)
        }
        return nil
    }()

    /// What came back: premultiplied ARGB32 pixels and, for an SVG, its intrinsic
    /// size (nil for a raster or an SVG with only a viewBox... of no size).
    struct Decoded {
        let surface: ImageSurface
        let intrinsicSize: Size?
    }

    /// Decodes `bytes` of `kind` (`svg`, or a gdk-pixbuf loader name) from `path`.
    ///
    /// - Parameter size: an exact pixel size, or nil for the natural one (an SVG's
    ///   intrinsic size × `scale`).
    /// - Throws: 65 for a corrupt file, one over `limits`, a decoder crash or an
    ///   overrun of the time limit; 69 when a library or loader is missing.
    static func decode(
        _ bytes: [UInt8], kind: String, scale: Double, size: (width: Int, height: Int)?, limits: ImageLimits,
        path: String
    ) throws(BadgeError) -> Decoded {
        guard let helper else {
            throw .unavailable(
                resource: "\(kind.uppercased()) support",
                reason: "the iconbadge binary that decodes it in isolation was not found")
        }
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var intrinsicWidth = 0.0
        var intrinsicHeight = 0.0
        var message = [CChar](repeating: 0, count: 512)
        let side = min(limits.maxSide, ImageLimits.cairoMaxSide)
        let seconds = limits.svgTimeLimit
        let status = bytes.withUnsafeBufferPointer { input in
            ib_isolated_decode(
                helper, kind, scale, Int32(size?.width ?? 0), Int32(size?.height ?? 0), Int32(side),
                Int64(limits.maxPixels), seconds, input.baseAddress, input.count, &pixels, &width, &height,
                &intrinsicWidth, &intrinsicHeight, &message, message.count)
        }
        let text = String(nulTerminated: message)
        let name = kind == "svg" ? "SVG" : kind.uppercased()
        switch status {
        case Int32(IB_IMAGE_OK):
            break
        case Int32(IB_IMAGE_TOO_LARGE):
            // "SIZE w h" from the SVG path, "w x h" from gdk-pixbuf's header.
            let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if numbers.count >= 2 {
                do throws(PNGPreflightError) {
                    try PNGPreflight.checkSize(width: numbers[0], height: numbers[1], limits: limits)
                } catch {
                    if case .tooLarge(let limit) = error { throw .overLimit(path: path, limit) }
                }
            }
            throw .overLimit(
                path: path,
                .renderSide(width: numbers.count >= 2 ? numbers[0] : nil, height: numbers.count >= 2 ? numbers[1] : nil)
            )
        case Int32(IB_IMAGE_UNAVAILABLE):
            throw .unavailable(resource: "\(name) support", reason: text)
        case Int32(IB_IMAGE_TIMEOUT):
            throw .badInput(path: path, reason: "\(name) too complex: it \(text)")
        case Int32(IB_IMAGE_CRASHED):
            throw .badInput(path: path, reason: text)
        case Int32(IB_IMAGE_NO_MEMORY):
            // The child may use 1 GiB of address space (isolated.c): a picture too big
            // for that is the document's size, not an internal failure.
            throw .overLimit(path: path, .decoderMemory(limit: 1 << 30))
        default:
            if kind == "svg" { throw SVGDocument.error(status: status, message: text, path: path) }
            throw .badInput(path: path, reason: "corrupt \(name): \(text)")
        }
        guard let pixels else { throw .internalError("the isolated decoder returned no pixels") }
        let surface = try ImageSurface(adopting: pixels, width: Int(width), height: Int(height))
        let intrinsic =
            intrinsicWidth > 0 && intrinsicHeight > 0 ? Size(width: intrinsicWidth, height: intrinsicHeight) : nil
        return Decoded(surface: surface, intrinsicSize: intrinsic)
    }

    /// The child: `iconbadge --isolated-decode ...`; returns its exit status.
    static func childMain(_ arguments: [String]) -> Int32 {
        var storage = arguments.map { strdup($0) }
        defer { storage.forEach { free($0) } }
        return storage.withUnsafeMutableBufferPointer { ib_isolated_child_main(Int32($0.count), $0.baseAddress) }
    }
}

/// The entry of the isolated decoder's child process, for `main`.
public enum IsolatedDecoding {
    /// The argument that starts the child (`iconbadge --isolated-decode ...`).
    public static let flag = "--isolated-decode"

    /// Runs the child and returns its exit status.
    public static func childMain(_ arguments: [String]) -> Int32 { IsolatedDecoder.childMain(arguments) }

    /// Says that this process's executable runs `childMain` for `flag` (the CLI's
    /// `main` does), so it can be its own decoder whatever its file name.
    public static func executableDecodes() { IsolatedDecoder.executableDecodes.withLock { $0 = true } }
}
