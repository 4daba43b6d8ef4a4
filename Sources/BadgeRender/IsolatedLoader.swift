import BadgeCore
import BadgeSystem
internal import CImageLoaders

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The isolation mechanism, one name for all of it: SVG (librsvg) and the gdk-pixbuf
/// formats are decoded, and an SVG's vector drawing recorded (`record`), in a child
/// process, iconbadge-loader run with `--isolated-decode` (loader/loader.h): iconbadge itself is
/// static and never loads a shared library, and the loader, linked against glibc
/// alone, opens the system's librsvg and gdk-pixbuf.
///
/// librsvg 2.54.7 aborts its process on some documents (Rust panics in CSS
/// language tags and filter bounds: librsvg's `crash` and `render-crash` test
/// files) and Cairo can crash under it; a C image loader can too. In a child a
/// crash, a hang (killed at the time limit) or a library's noise on stderr costs
/// only that one file, which is then refused with exit 65; the parent never loads
/// GLib for a PNG render, and batch workers are not taken down by one bad file.
public enum IsolatedLoader {
    /// The argument that starts iconbadge-loader's isolated work
    /// (`iconbadge-loader --isolated-decode ...`, loader/loader.h).
    static let flag = "--isolated-decode"

    /// Where iconbadge-loader is looked for, relative to this process's executable
    /// (`/proc/self/exe`, never `$PATH`): beside it (the build tree's .build/debug and
    /// .build/release, a test binary there), then `../libexec/iconbadge/` (installed
    /// under a PREFIX, the .deb, the tarball's tree).
    static let loaderCandidates: [String] = {
        guard let executable = Platform.executablePath() else { return [] }
        let folder = OutputFile.parentFolder(of: executable)
        return [
            folder + "/iconbadge-loader",
            OutputFile.parentFolder(of: folder) + "/libexec/iconbadge/iconbadge-loader",
        ]
    }()

    /// The loader's path: the first candidate that is an executable file, else nil.
    static let loader: String? = loaderCandidates.first { access($0, X_OK) == 0 }

    /// The loader, or the error naming where it was looked for (69). A loader that
    /// is there but cannot be run (its mode lost its execute bits in a copy) is named
    /// as such, not as missing: reinstalling is not the fix, `chmod +x` is.
    static func requireLoader(_ what: String) throws(BadgeError) -> String {
        if let loader { return loader }
        if let present = loaderCandidates.first(where: { access($0, F_OK) == 0 }) {
            throw .unavailable(
                resource: "\(what) support",
                reason:
                    "iconbadge-loader, which decodes it with the system's libraries, is at \(Quoted(present)) but is not executable; make it so: chmod 755 \(Quoted(present))"
            )
        }
        throw .unavailable(
            resource: "\(what) support",
            reason:
                "iconbadge-loader, which decodes it with the system's libraries, is missing: not at \(loaderCandidates.first ?? "iconbadge-loader") nor \(loaderCandidates.dropFirst().first ?? "PREFIX/libexec/iconbadge/iconbadge-loader"); reinstall iconbadge"
        )
    }

    /// What came back: premultiplied ARGB32 pixels and, for an SVG, its intrinsic
    /// size (nil for a raster or an SVG with only a viewBox... of no size).
    struct Decoded {
        let surface: ImageSurface
        let intrinsicSize: Size?
    }

    /// The private writable memory (bytes, `RLIMIT_DATA`) an isolated child may use
    /// to parse `documentBytes` of SVG and render `pixels` pixels in all (its output
    /// or vector page, the rasters it decodes, the images the SVG embeds:
    /// `SVGEmbeddedImages`): 128 MiB + 48 bytes a document byte + 24 bytes a pixel
    /// (`IB_MEMORY_CAP_*` in image_loaders.h). Off under sanitizers.
    ///
    /// Measured here (VmData peaks; files mapped read-only, such as fonts, do not
    /// count, which is why the cap is RLIMIT_DATA and not RLIMIT_AS):
    /// - 128 MiB: the 227 SVGs of the corpus (librsvg's and resvg's suites, Adwaita,
    ///   Papirus) peak at 4 MiB (median) to 45 MiB at their own size, as PNG, SVG or
    ///   PDF; text in 22 Noto CJK faces peaks at 51 MiB, and at 92 MiB drawn as PDF
    ///   (font subsets).
    /// - 48 bytes a document byte: librsvg keeps about 2.5 KB an element; 100,000
    ///   `<rect>` (5.8 MB) peak at 232 MiB as PNG and 355 MiB drawn as SVG (the cap:
    ///   393 MiB).
    /// - 24 bytes a pixel: six ARGB32 surfaces of the render size (the target, groups,
    ///   filter results); 177 bytes of nested `mix-blend-mode` at 4096² peak at 201
    ///   MiB, 12 bytes a pixel. At the default limits (8192², 67 M pixels) a render
    ///   may use 128 MiB + 1.5 GiB, so every render those limits allow fits.
    /// - Hostile documents at small sizes stop at their cap and are refused (65): the
    ///   pattern billion-laughs (8.7 KB, 1512 × 756 px) drawn as SVG or PDF stops at
    ///   its 187 MiB cap (214 MB resident with the libraries) in about 1 s, where it
    ///   took 0.7-1.3 GB in the parent before. A document of many tiny elements is
    ///   bounded by its size: 3.6 MB of `<g/>` stops at its 293 MiB cap (316 MB
    ///   resident; it needs 1.1 GB), and a 10 MiB one at 608 MiB.
    static func memoryCap(pixels: Int, documentBytes: Int) -> Int {
        Int(ib_memory_cap(Int64(pixels), Int64(documentBytes)))
    }

    /// The error of a child that ran out of its address space while `doing` ("decoding
    /// it", "drawing it as SVG") the file at `path`, saying how much it may use; with
    /// `inProcess`, of Cairo running out while this process replayed its drawing.
    static func outOfMemory(_ path: String, _ doing: String, inProcess: Bool = false) -> BadgeError {
        .render(
            .outOfMemory(
                path: path, doing: doing,
                budget: inProcess
                    ? "Cairo could not allocate what replaying its drawing in iconbadge needs"
                    : "an isolated render may use \(Int(IB_MEMORY_CAP_BASE) >> 20) MiB, plus "
                        + "\(IB_MEMORY_CAP_PER_DOCUMENT_BYTE) bytes a byte of SVG and \(IB_MEMORY_CAP_PER_PIXEL) bytes a pixel "
                        + "of its size and of the images the SVG embeds"))
    }

    /// Decodes `bytes` of `kind` (`svg`, or a gdk-pixbuf loader name) from `path`.
    ///
    /// - Parameter size: an exact pixel size, or nil for the natural one (an SVG's
    ///   intrinsic size × `scale`).
    /// - Parameter embeddedPixels: the pixels of the raster images an SVG embeds
    ///   (`SVGEmbeddedImages`), which raise the child's memory cap.
    /// - Throws: 65 for a corrupt file, one over `limits`, a decoder crash, running
    ///   out of its memory cap or an overrun of the time limit; 69 when a library or
    ///   loader is missing.
    static func decode(
        _ bytes: [UInt8], kind: String, scale: Double, size: (width: Int, height: Int)?, limits: ImageLimits,
        path: String, embeddedPixels: Int = 0
    ) throws(BadgeError) -> Decoded {
        let answer = try run(
            bytes, kind: kind, scale: scale, size: size.map { ($0.width, $0.height) } ?? (0, 0), limits: limits,
            path: path, embeddedPixels: embeddedPixels)
        guard let pixels = answer.pixels else { throw .internalError("the isolated decoder returned no pixels") }
        let surface = try ImageSurface(adopting: pixels, width: answer.width, height: answer.height)
        return Decoded(surface: surface, intrinsicSize: answer.intrinsicSize)
    }

    /// An SVG's intrinsic size (CSS pixels at 96 DPI, or its viewBox's), read in the
    /// isolated child without rendering; nil when it has neither.
    ///
    /// - Throws: 65 when librsvg rejects the document, crashes or runs over time; 69
    ///   when librsvg is missing.
    static func probe(_ bytes: [UInt8], limits: ImageLimits, path: String, embeddedPixels: Int = 0)
        throws(BadgeError) -> Size?
    {
        try run(
            bytes, kind: "svg", scale: 1, size: (-1, -1), limits: limits, path: path, embeddedPixels: embeddedPixels
        ).intrinsicSize
    }

    private struct Answer {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int
        var height: Int
        var intrinsicSize: Size?
    }

    private static func run(
        _ bytes: [UInt8], kind: String, scale: Double, size: (Int, Int), limits: ImageLimits, path: String,
        embeddedPixels: Int
    ) throws(BadgeError) -> Answer {
        let helper = try requireLoader(kind == "svg" ? "SVG" : kind.uppercased())
        if kind == "svg" { try FontConfig.checkConfigurationFile() }
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var intrinsicWidth = 0.0
        var intrinsicHeight = 0.0
        var hasSize: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let side = min(limits.maxSide, ImageLimits.cairoMaxSide)
        let seconds = limits.svgTimeLimit
        let status = bytes.withUnsafeBufferPointer { input in
            ib_isolated_decode(
                helper, kind, scale, Int32(size.0), Int32(size.1), Int32(side), Int64(limits.maxPixels),
                Int64(embeddedPixels), seconds, input.baseAddress, input.count, &pixels, &width, &height,
                &intrinsicWidth, &intrinsicHeight, &hasSize, &message, message.count)
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
            throw .render(.overTimeLimit(path: path, reason: "\(name) too complex: it \(text)"))
        case Int32(IB_IMAGE_CRASHED):
            throw .badInput(path: path, reason: text)
        case Int32(IB_IMAGE_NO_MEMORY):
            throw outOfMemory(path, "decoding it")
        default:
            if kind == "svg" { throw SVGSource.error(status: status, message: text, path: path) }
            throw .badInput(path: path, reason: "corrupt \(name): \(text)")
        }
        let intrinsic =
            hasSize != 0 && intrinsicWidth > 0 && intrinsicHeight > 0
            ? Size(width: intrinsicWidth, height: intrinsicHeight) : nil
        return Answer(pixels: pixels, width: Int(width), height: Int(height), intrinsicSize: intrinsic)
    }

    /// The drawing of an SVG document as a Cairo script (`ib_isolated_record`), made by
    /// the loader with librsvg: the document fitted into `viewport` (user space) under
    /// `matrix` (user to device space), on `extent` device pixels, and the matrix to
    /// replay it under (`ib_isolated_record`), which `SVGSource.render` replays onto
    /// the output.
    ///
    /// - Throws: 65 when librsvg rejects the document, crashes, runs out of its memory
    ///   cap or over the time limit, or its drawing is over `scriptLimit`; 69 when the
    ///   loader, librsvg or Cairo's script surface is missing.
    static func record(
        _ bytes: [UInt8], viewport: Rect, matrix: [Double], extent: (width: Double, height: Double),
        limits: ImageLimits, path: String, embeddedPixels: Int
    ) throws(BadgeError) -> RecordedDrawing {
        let helper = try requireLoader("SVG")
        let maxScript = scriptLimit(extentPixels: Int(extent.width * extent.height), embeddedPixels: embeddedPixels)
        var script: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 512)
        var replay = [Double](repeating: 0, count: 6)
        let rect = [viewport.x, viewport.y, viewport.width, viewport.height]
        let status = bytes.withUnsafeBufferPointer { input in
            ib_isolated_record(
                helper, input.baseAddress, input.count, rect, matrix, extent.width, extent.height,
                Int64(embeddedPixels), maxScript, limits.svgTimeLimit, &script, &size, &replay, &message,
                message.count)
        }
        let text = String(nulTerminated: message)
        switch status {
        case Int32(IB_IMAGE_OK):
            guard let script else { throw .internalError("the loader returned no drawing") }
            return RecordedDrawing(script: script, size: size, replayMatrix: replay)
        case Int32(IB_IMAGE_UNAVAILABLE):
            throw .unavailable(resource: "SVG support", reason: text)
        case Int32(IB_IMAGE_TIMEOUT):
            throw .render(.overTimeLimit(path: path, reason: "SVG too complex: it \(text)"))
        case Int32(IB_IMAGE_CRASHED):
            throw .badInput(path: path, reason: text)
        case Int32(IB_IMAGE_TOO_LARGE):
            throw .badInput(path: path, reason: "SVG too complex: \(text)")
        default:
            throw SVGSource.error(status: status, message: text, path: path)
        }
    }

    /// What iconbadge-loader finds on this system, for `--version`: librsvg's,
    /// gdk-pixbuf's and Cairo's versions ("2.54.7"), "not installed", what is wrong
    /// with one found, or why the loader could not say (missing, did not answer).
    /// Asked of the loader, never loaded here: iconbadge loads no library.
    static func loaderVersions() -> [(name: String, version: String)] {
        let names = ["librsvg", "gdk-pixbuf", "cairo (for SVG)"]
        guard let loader else {
            if let present = loaderCandidates.first(where: { access($0, F_OK) == 0 }) {
                return names.map { ($0, "unknown: iconbadge-loader at \(present) is not executable") }
            }
            let looked = loaderCandidates.first ?? "iconbadge-loader"
            return names.map { ($0, "unknown: iconbadge-loader is missing (not at \(looked))") }
        }
        var arguments: [UnsafeMutablePointer<CChar>?] =
            ["iconbadge-loader", flag, "versions", String(getpid())].map { (text: String) in
                text.withCString { strdup($0) }
            }
        arguments.append(nil)
        defer { arguments.forEach { free($0) } }
        var run = ib_run_result()
        var message = [CChar](repeating: 0, count: 256)
        let status = arguments.withUnsafeBufferPointer { argv in
            ib_isolated_run(loader, argv.baseAddress, nil, 0, 30, 1 << 16, 0, &run, &message, message.count)
        }
        defer { free(run.output) }
        let output =
            status == Int32(IB_IMAGE_OK) && run.exit_code == 0 && run.signaled == 0
            ? run.output.map { String(decoding: UnsafeBufferPointer(start: $0, count: run.output_size), as: UTF8.self) }
            : nil
        var found: [String: String] = [:]
        let lines = output?.split(separator: "\n").map(String.init) ?? []
        if lines.first == "VS" {
            for line in lines.dropFirst() {
                let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
                if fields.count == 2 { found[fields[0]] = fields[1] }
            }
        }
        let keys = ["librsvg", "gdk-pixbuf", "cairo"]
        return zip(names, keys).map { name, key in
            (name, found[key] ?? "unknown: iconbadge-loader (\(loader)) did not answer")
        }
    }

    /// A drawing the loader recorded (`record`): the script, malloc'd, which
    /// `ib_script_replay` takes and frees (held once: it can be tens of MiB), and the
    /// matrix to replay it under.
    struct RecordedDrawing {
        let script: UnsafeMutablePointer<UInt8>
        let size: Int
        let replayMatrix: [Double]
    }

    /// The most bytes a recorded drawing (`record`) may have: 16 MiB, plus 6 bytes a
    /// pixel of the extent and of the images it embeds (images and filter results,
    /// deflated and base85-encoded: at most 5 bytes a pixel). Its drawing commands
    /// alone are held to `commandLimit` when it is replayed. Measured: the corpus's
    /// icons record 1-60 KB; text drawn by librsvg 2.50 embeds each font (DejaVu Sans:
    /// 475 KB). A pattern billion-laughs (8.7 KB, 1512 × 756 px) records 62 MB of
    /// nested patterns and stops here (its limit is 22 MiB). The document's own size
    /// is not counted: bytes that draw nothing (a 3 MB comment) lifted it, and a
    /// padded billion-laughs was then replayed in 1.4 GB.
    static func scriptLimit(extentPixels: Int, embeddedPixels: Int) -> Int {
        (16 << 20) + 6 * (max(0, extentPixels) + max(0, embeddedPixels))
    }

    /// The most bytes of drawing commands (all but the images and fonts) a recorded
    /// drawing may have when it is replayed in this process: 16 MiB, whatever the
    /// canvas. Replaying costs a multiple of them that Cairo does not bound (a pattern
    /// billion-laughs: 23 times, nested recording surfaces), so they are held to a
    /// size whose replay stays in the hundreds of MiB; the corpus's icons have 1-60 KB.
    static let commandLimit = 16 << 20

    /// The most gradient colour stops a recorded drawing may have in all: 16,384.
    /// Cairo's PDF and SVG writers spend time on each stop at each use of its
    /// gradient, with no limit (50,000 stops on 4 shapes: 30 s of PDF writing, after a
    /// recording that took under the time limit); icons use tens.
    static let colorStopLimit = 16_384

    /// The most bytes the compressed strings of a recorded drawing (the images and
    /// fonts Cairo's script surface deflates) may inflate to in all when it is
    /// replayed (`ib_script_replay`): four times `scriptLimit`, what replaying was
    /// given when it ran in a child of its own under a memory cap. A deflated string
    /// can claim a thousand times its size (a flat image), so the script's own limit
    /// does not bound them. Checked against each string's declared length before it is
    /// allocated. For a 64 px icon with no embedded image it is 64 MiB (a font
    /// librsvg 2.50 embeds inflates to its file's size: DejaVu Sans 740 KB); a 5792²
    /// PNG embedded in one (a 130 KB flat image, 134 MB of ARGB32 once inflated) has
    /// 873 MB, and that PDF is drawn as before (its 694 MB peak is the image, its
    /// base85 copy and Cairo's).
    static func inflatedLimit(extentPixels: Int, embeddedPixels: Int) -> Int {
        4 * scriptLimit(extentPixels: extentPixels, embeddedPixels: embeddedPixels)
    }
}

/// What the CLI and the tests may ask of it.
extension IsolatedLoader {
    /// Starts this thread's iconbadge-loader now, if it has none, rather than at its
    /// first job: it loads librsvg and GLib (as long as the rest of a small render)
    /// while the caller goes on. Nothing is sent to it; a renderer never used ends
    /// with the thread or the process.
    public static func prestart() {
        guard let loader = IsolatedLoader.loader else { return }
        ib_server_prestart(loader)
    }

    /// Whether isolated children run under their memory cap (`RLIMIT_DATA`): not in a
    /// build with AddressSanitizer or ThreadSanitizer, whose shadow memory the cap
    /// would refuse. Tests that prove the cap ask this.
    public static var memoryCapEnforced: Bool { ib_memory_cap_enforced() != 0 }
}
