import BadgeCore
internal import CImageLoaders

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Draws SVG and PDF outputs that contain an SVG document (the icon or an `--image`
/// badge) in an isolated child, `iconbadge --isolated-decode render CAP PARENT_PID`,
/// which answers with the output's bytes.
///
/// librsvg draws such a document again at the output's size, as vectors, and that
/// render costs what a raster one does and more (Cairo's fallback images, patterns
/// and filters rendered at the page's size): a 177-byte document took 2.3 GB and a
/// pattern billion-laughs 1.28 GB in this process, with no limit. In the child it
/// runs under the limits of every other SVG render: an address-space cap
/// (`IsolatedDecoder.memoryCap` of the canvas, Cairo's fallback image, the decoded
/// images and the images the SVGs embed), the time limit (`svgTimeLimit` per SVG
/// document drawn), the embedded-image check, and a crash costs that render only.
///
/// The child composes the same `RenderRequest` with the same Swift code (fonts,
/// shaping, layout), decoding in its own process (`DecodeSite.inProcessVector`: it
/// is the isolation, and never starts a grandchild), and is handed the bytes of the
/// SVG documents the parent checked and of standard input. The bytes it answers are
/// exactly what this process drew before it moved there. The parent keeps its own
/// composition for reports and messages.
enum IsolatedRenderer {
    /// The `--isolated-decode` kind that selects the vector render.
    static let kind = "render"

    /// The SVG or PDF bytes of `composition`, drawn in the child.
    ///
    /// - Throws: the child's own error (65 for a document librsvg rejects, 70 for a
    ///   Cairo failure); 65 when it runs out of its memory cap, over the time limit,
    ///   or crashes; 69 when the helper binary is missing or `FONTCONFIG_FILE` is
    ///   refused.
    static func render(_ composition: Composition, format: OutputFormat, creationDate: String?) throws(BadgeError)
        -> [UInt8]
    {
        guard var request = composition.request else {
            throw .internalError("a composition without its request cannot be drawn in isolation")
        }
        // The child sizes an SVG icon without drawing its pixels: the icon's shape for
        // content placement comes from the parent, which has them.
        // Any badge's: a ribbon or banner after a pill found it for itself (the first
        // badge then has none), and the child needs it for that badge too.
        request.contentShape = composition.contentShape ?? composition.overlays.lazy.compactMap(\.contentShape).first
        // A filtered SVG icon is drawn as its filtered pixels, which the child cannot
        // make (it renders no SVG to pixels): they are sent, and filtered already.
        var iconPixels: ImageSurface?
        if composition.icon.svg != nil, !composition.drawsIconAsSVG {
            iconPixels = try composition.iconPixelsToDraw()
            request.iconFilters = []
        }
        let svgs =
            ([composition.drawsIconAsSVG ? composition.icon.svg : nil] + composition.badges.map { $0.badgeImage?.svg })
            .compactMap { $0 }
        let path = svgs.first?.path ?? request.iconPath
        guard let helper = IsolatedDecoder.helper else {
            throw .unavailable(
                resource: "SVG support", reason: "the iconbadge binary that renders it in isolation was not found")
        }
        try FontConfig.checkConfigurationFile()
        var files: [String: [UInt8]] = [:]
        if iconPixels != nil {
            // The child draws the pixels sent, not the file.
        } else if let svg = composition.icon.svg {
            files[request.iconPath] = svg.bytes
        } else if let bytes = composition.icon.standardInput {
            files[request.iconPath] = bytes
        }
        for drawn in composition.badges {
            guard case .image(let badgePath) = drawn.request?.content, let badge = drawn.badgeImage else { continue }
            if let svg = badge.svg {
                files[badgePath] = svg.bytes
            } else if let bytes = badge.standardInput {
                files[badgePath] = bytes
            }
        }
        var message = WireWriter()
        request.write(to: &message)
        message.tag(format == .svg ? 0 : 1)
        message.optional(creationDate) { $0.string($1) }
        message.int(composition.canvasWidth)
        message.int(composition.canvasHeight)
        message.int(files.count)
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            message.string(name)
            message.data(bytes)
        }
        message.optional(iconPixels) { message, pixels in
            message.int(pixels.width)
            message.int(pixels.height)
            var bytes = [UInt8](repeating: 0, count: pixels.width * pixels.height * 4)
            let source = pixels.data
            bytes.withUnsafeMutableBytes { target in
                for row in 0..<pixels.height {
                    (target.baseAddress! + row * pixels.width * 4).copyMemory(
                        from: source + row * pixels.stride, byteCount: pixels.width * 4)
                }
            }
            message.data(bytes)
        }
        let pixels = capPixels(composition)
        let documentBytes = svgs.reduce(0) { $0 + $1.bytes.count }
        let cap = IsolatedDecoder.memoryCap(pixels: pixels, documentBytes: documentBytes)
        let seconds = request.limits.svgTimeLimit * Double(svgs.count)
        var arguments: [UnsafeMutablePointer<CChar>?] =
            ["iconbadge", IsolatedDecoding.flag, kind, String(pixels), String(documentBytes), String(getpid())].map {
                (text: String) in
                text.withCString { strdup($0) }
            }
        arguments.append(nil)
        defer { arguments.forEach { free($0) } }
        var run = ib_run_result()
        var text = [CChar](repeating: 0, count: 512)
        let status = message.bytes.withUnsafeBufferPointer { input in
            arguments.withUnsafeBufferPointer { argv in
                ib_isolated_run(
                    helper, argv.baseAddress, input.baseAddress, input.count, seconds, max(cap, 1 << 20), 0, &run,
                    &text, text.count)
            }
        }
        defer { free(run.output) }
        let drawing = "drawing it as \(format == .svg ? "SVG" : "PDF")"
        switch status {
        case Int32(IB_IMAGE_OK): break
        case Int32(IB_IMAGE_UNAVAILABLE):
            throw .unavailable(resource: "SVG support", reason: String(nulTerminated: text))
        default:
            throw .badInput(path: path, reason: "\(drawing) failed: \(String(nulTerminated: text))")
        }
        if run.timed_out != 0 {
            throw .badInput(
                path: path,
                reason:
                    "SVG too complex: \(drawing) took more than \(formatSeconds(seconds)) s (the limit is set with --svg-time-limit)"
            )
        }
        let output = run.output.map { Array(UnsafeBufferPointer(start: $0, count: run.output_size)) } ?? []
        var reply = WireReader(output)
        let answered: Result<[UInt8], BadgeError>? = {
            do throws(WireReader.Malformed) {
                switch try reply.tag() {
                case 0:
                    let bytes = try reply.data()
                    return reply.isAtEnd ? .success(bytes) : nil
                case 1:
                    let error = try BadgeError(from: &reply)
                    return reply.isAtEnd ? .failure(error) : nil
                default: return nil
                }
            } catch {
                return nil
            }
        }()
        if run.signaled == 0, run.exit_code == 0, let answered { return try answered.get() }
        if ib_run_ran_out_of_memory(&run) != 0 {
            throw .badInput(path: path, reason: IsolatedDecoder.outOfMemory(drawing))
        }
        if run.signaled != 0 {
            throw .badInput(
                path: path,
                reason: "the SVG renderer (librsvg) crashed \(drawing) (signal \(run.signaled)); the file is refused")
        }
        throw .badInput(path: path, reason: "the isolated renderer ended without an answer \(drawing)")
    }

    /// The pixels the child's cap is made for: the canvas, the raster icon or badge
    /// it decodes or is sent (an SVG drawn as vectors is drawn, not decoded), the
    /// images the SVGs embed, and Cairo's largest fallback image for the canvas as a
    /// third (one ARGB32 surface, 8 of the 24 bytes a pixel).
    static func capPixels(_ composition: Composition) -> Int {
        let canvas = composition.canvasWidth * composition.canvasHeight
        var pixels = canvas + Composition.fallbackPixels(canvasPixels: canvas) / 3
        let icon = composition.icon
        if let svg = icon.svg, composition.drawsIconAsSVG {
            pixels += svg.embeddedPixels
        } else {
            pixels += icon.width * icon.height
        }
        if let image = composition.badgeImage {
            if let svg = image.svg {
                pixels += svg.embeddedPixels
            } else {
                pixels += image.width * image.height
            }
        }
        return pixels
    }

    private static func formatSeconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(Int(seconds)) : String(seconds)
    }

    /// The child: reads the request, composes and draws it here, answers with the
    /// bytes or the error; returns the process's exit status.
    static func childMain(capPixels: String, documentBytes: String, parent: String) -> Int32 {
        guard ib_child_begin(parent) == 0 else { return 70 }
        ib_set_memory_cap(ib_memory_cap(Int64(capPixels) ?? 0, Int64(documentBytes) ?? 0))
        var input: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard ib_read_all_input(&input, &size) == 0, let input else { return 70 }
        let bytes = Array(UnsafeBufferPointer(start: input, count: size))
        free(input)
        var reply = WireWriter()
        do throws(BadgeError) {
            let output = try renderHere(bytes)
            reply.tag(0)
            reply.data(output)
        } catch {
            reply.tag(1)
            error.write(to: &reply)
        }
        var offset = 0
        let answer = reply.bytes
        while offset < answer.count {
            let written = answer.withUnsafeBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return 74
            }
            offset += written
        }
        return 0
    }

    private static func renderHere(_ input: [UInt8]) throws(BadgeError) -> [UInt8] {
        var message = WireReader(input)
        let request: RenderRequest
        let format: OutputFormat
        let creationDate: String?
        let canvas: (Int, Int)
        var files: [String: [UInt8]] = [:]
        var sentIcon: (width: Int, height: Int, bytes: [UInt8])?
        do throws(WireReader.Malformed) {
            request = try RenderRequest(from: &message)
            format = try message.tag() == 0 ? .svg : .pdf
            creationDate = try message.optional { (r) throws(WireReader.Malformed) in try r.string() }
            canvas = (try message.int(), try message.int())
            let count = try message.int()
            guard count >= 0, count <= 2 else { throw WireReader.Malformed() }
            for _ in 0..<count { files[try message.string()] = try message.data() }
            sentIcon = try message.optional { (r) throws(WireReader.Malformed) in
                (width: try r.int(), height: try r.int(), bytes: try r.data())
            }
            guard message.isAtEnd else { throw WireReader.Malformed() }
        } catch {
            throw .internalError("the isolated renderer got a malformed request")
        }
        var iconPixels: ImageSurface?
        if let sentIcon {
            guard (1...ImageLimits.cairoMaxSide).contains(sentIcon.width),
                (1...ImageLimits.cairoMaxSide).contains(sentIcon.height),
                sentIcon.bytes.count == sentIcon.width * sentIcon.height * 4
            else { throw .internalError("the isolated renderer got a malformed request") }
            let surface = try ImageSurface(width: sentIcon.width, height: sentIcon.height)
            let target = surface.data
            sentIcon.bytes.withUnsafeBytes { source in
                for row in 0..<sentIcon.height {
                    (target + row * surface.stride).update(
                        from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * sentIcon.width * 4,
                        count: sentIcon.width * 4)
                }
            }
            surface.markDirty()
            iconPixels = surface
        }
        try FontConfig.checkConfigurationFile()
        let renderer = try Renderer()
        let composition = try renderer.compose(
            request, cache: nil, site: .inProcessVector, files: files, iconPixels: iconPixels)
        guard composition.canvasWidth == canvas.0, composition.canvasHeight == canvas.1 else {
            throw .badInput(
                path: request.iconPath,
                reason: "changed while it was being rendered (the canvas is no longer \(canvas.0) × \(canvas.1) px)")
        }
        do throws(BadgeError) {
            return try composition.data(format: format, creationDate: creationDate)
        } catch {
            // Out of memory reads the same however librsvg or Cairo noticed it.
            if case .badInput(let path, let reason) = error, reason == IsolatedDecoder.outOfMemory("drawing it") {
                throw .badInput(
                    path: path, reason: IsolatedDecoder.outOfMemory("drawing it as \(format == .svg ? "SVG" : "PDF")"))
            }
            throw error
        }
    }
}
