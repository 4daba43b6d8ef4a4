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
/// The child builds the same scene from the same `RenderRequest` with the same Swift
/// code (fonts, shaping, layout) (`DecodeSite.inProcessVector`); an SVG document it
/// draws is recorded by iconbadge-loader, its own child, as a Cairo script that it
/// replays onto the output (`SVGDocument`), and a gdk-pixbuf format is decoded there
/// too. It is sent what it cannot know (`Order`): the painting asked for,
/// the bytes of the SVG documents the parent checked and of standard input, the
/// icon's opaque pixels and a filtered SVG icon's pixels. The bytes it answers are
/// exactly what this process drew before it moved there. The parent keeps its own
/// scene for reports and messages.
enum IsolatedRenderer {
    /// The `--isolated-decode` kind that selects the vector render.
    static let kind = "render"

    /// What the parent sends the child: the request and the painting asked for, the
    /// canvas the parent's scene has (the child's must be the same), and what the
    /// child cannot find out itself. Made by `render` from the parent's scene, read
    /// once by the child; never changed.
    struct Order: Equatable {
        let request: RenderRequest
        let painting: VectorPainting
        let canvasWidth: Int
        let canvasHeight: Int
        /// The icon's opaque pixels, when the scene needed them: the child may have no
        /// pixels to find them in (an SVG icon it only sizes).
        let contentShape: ContentShape?
        /// The bytes of inputs that cannot be read again (standard input) or must not
        /// change (the SVG documents the parent checked), by path; at most two.
        let files: [String: [UInt8]]
        /// A filtered SVG icon's pixels, filtered already (premultiplied ARGB32 as
        /// bytes, width × 4 a row): the child renders no SVG to pixels.
        let iconPixels: (width: Int, height: Int, bytes: [UInt8])?
        /// Each badge's contrast as the parent measured it (its badges, then a pop's
        /// old value): the child may have no pixels to measure, and must draw the
        /// same rings.
        let contrasts: [BadgeContrast?]

        static func == (a: Order, b: Order) -> Bool {
            a.request == b.request && a.painting == b.painting && a.canvasWidth == b.canvasWidth
                && a.canvasHeight == b.canvasHeight && a.contentShape == b.contentShape && a.files == b.files
                && a.contrasts == b.contrasts
                && a.iconPixels?.width == b.iconPixels?.width && a.iconPixels?.height == b.iconPixels?.height
                && a.iconPixels?.bytes == b.iconPixels?.bytes
        }
    }

    /// The SVG or PDF bytes of `painting` of `scene`, drawn in the child.
    ///
    /// - Throws: the child's own error (65 for a document librsvg rejects, 70 for a
    ///   Cairo failure); 65 when it runs out of its memory cap, over the time limit,
    ///   or crashes; 69 when the helper binary is missing or `FONTCONFIG_FILE` is
    ///   refused.
    static func render(_ scene: Scene, _ painting: VectorPainting) throws(BadgeError) -> [UInt8] {
        let request = scene.request
        // A filtered SVG icon is drawn as its filtered pixels, which the child cannot
        // make (it renders no SVG to pixels): they are sent, filtered already.
        var iconPixels: ImageSurface?
        if scene.icon.decoded.svg != nil, scene.icon.vector == nil {
            iconPixels = try scene.icon.surface()
        }
        let svgs = ([scene.icon.vector] + scene.badges.map { $0.image?.svg }).compactMap { $0 }
        let path = svgs.first?.path ?? request.icon.path
        guard let helper = IsolatedDecoder.helper else {
            throw .unavailable(
                resource: "SVG support", reason: "the iconbadge binary that renders it in isolation was not found")
        }
        try FontConfig.checkConfigurationFile()
        var files: [String: [UInt8]] = [:]
        if iconPixels != nil {
            // The child draws the pixels sent, not the file.
        } else if let svg = scene.icon.decoded.svg {
            files[request.icon.path] = svg.bytes
        } else if let bytes = scene.icon.decoded.standardInput {
            files[request.icon.path] = bytes
        }
        for (asked, drawn) in zip(request.badges, scene.badges) {
            guard case .image(let badgePath) = asked.content, let image = drawn.image else { continue }
            if let svg = image.svg {
                files[badgePath] = svg.bytes
            } else if let bytes = image.standardInput {
                files[badgePath] = bytes
            }
        }
        let order = Order(
            request: request, painting: painting, canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight,
            contentShape: scene.contentShape, files: files,
            iconPixels: iconPixels.map { ($0.width, $0.height, $0.bytes) },
            contrasts: scene.badges.map(\.contrast) + (scene.previous.map { [$0.contrast] } ?? []))
        var message = WireWriter()
        order.write(to: &message)
        let pixels = capPixels(scene)
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
        let drawing = "drawing it as \(painting.format == .svg ? "SVG" : "PDF")"
        switch status {
        case Int32(IB_IMAGE_OK): break
        case Int32(IB_IMAGE_UNAVAILABLE):
            throw .unavailable(resource: "SVG support", reason: String(nulTerminated: text))
        default:
            throw .badInput(path: path, reason: "\(drawing) failed: \(String(nulTerminated: text))")
        }
        if run.timed_out != 0 {
            throw .render(
                .overTimeLimit(
                    path: path, reason: "SVG too complex: \(drawing) took more than \(formatSeconds(seconds)) s"))
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
        if ib_run_ran_out_of_memory(&run) != 0 { throw IsolatedDecoder.outOfMemory(path, drawing) }
        if run.signaled != 0 {
            throw .badInput(
                path: path,
                reason: "the SVG renderer (librsvg) crashed \(drawing) (signal \(run.signaled)); the file is refused")
        }
        throw .badInput(path: path, reason: "the isolated renderer ended without an answer \(drawing)")
    }

    /// The pixels the child's cap is made for: the canvas, the raster icon or badge
    /// it decodes or is sent (an SVG drawn as vectors is drawn, not decoded), the
    /// images the SVGs embed, Cairo's largest fallback image for the canvas as a
    /// third (one ARGB32 surface, 8 of the 24 bytes a pixel), and for each SVG four
    /// times its largest recorded drawing (`IsolatedDecoder.scriptLimit`: the script,
    /// its inflated copy and what replaying it builds), as pixels of 24 bytes.
    static func capPixels(_ scene: Scene) -> Int {
        let canvas = scene.canvasWidth * scene.canvasHeight
        var pixels = canvas + Scene.fallbackPixels(canvasPixels: canvas) / 3
        func script(_ svg: SVGSource) -> Int {
            4
                * IsolatedDecoder.scriptLimit(
                    extentPixels: canvas, documentBytes: svg.bytes.count, embeddedPixels: svg.embeddedPixels)
                / Int(IB_MEMORY_CAP_PER_PIXEL)
        }
        if let svg = scene.icon.vector {
            pixels += svg.embeddedPixels + script(svg)
        } else {
            pixels += scene.icon.width * scene.icon.height
        }
        if let image = scene.badge.image {
            if let svg = image.svg {
                pixels += svg.embeddedPixels + script(svg)
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
        let order: Order
        do throws(WireReader.Malformed) {
            order = try Order(from: &message)
            guard message.isAtEnd else { throw WireReader.Malformed() }
        } catch {
            throw .internalError("the isolated renderer got a malformed request")
        }
        var iconPixels: ImageSurface?
        if let sent = order.iconPixels {
            guard (1...ImageLimits.cairoMaxSide).contains(sent.width),
                (1...ImageLimits.cairoMaxSide).contains(sent.height),
                sent.bytes.count == sent.width * sent.height * 4
            else { throw .internalError("the isolated renderer got a malformed request") }
            iconPixels = try ImageSurface(width: sent.width, height: sent.height, bytes: sent.bytes)
        }
        try FontConfig.checkConfigurationFile()
        let renderer = try Renderer()
        let scene = try SceneBuilder(
            renderer: renderer, request: order.request,
            images: ImageSupply(site: .inProcessVector, cache: nil, files: order.files, limits: order.request.limits),
            known: SceneBuilder.Known(
                contentShape: order.contentShape, filteredIcon: iconPixels, contrasts: order.contrasts)
        ).build()
        guard scene.canvasWidth == order.canvasWidth, scene.canvasHeight == order.canvasHeight else {
            throw .badInput(
                path: order.request.icon.path,
                reason:
                    "changed while it was being rendered (the canvas is no longer \(order.canvasWidth) × \(order.canvasHeight) px)"
            )
        }
        let painting = order.painting
        do throws(BadgeError) {
            return try scene.vectorData(painting)
        } catch {
            // Out of memory reads the same however librsvg or Cairo noticed it.
            if case .render(.outOfMemory(let path, "drawing it", _), _) = error {
                throw IsolatedDecoder.outOfMemory(path, "drawing it as \(painting.format == .svg ? "SVG" : "PDF")")
            }
            throw error
        }
    }
}
