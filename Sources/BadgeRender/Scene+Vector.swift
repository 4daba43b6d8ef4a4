import BadgeCore
internal import CCairo

/// Collects the bytes a Cairo vector surface writes, at most `limit`: past it the
/// surface's writes fail and `over` is set.
private final class ByteSink {
    var bytes: [UInt8] = []
    let limit: Int
    var over = false

    init(limit: Int) { self.limit = limit }
}

private let appendToSink: cairo_write_func_t = { closure, data, length in
    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
    let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
    guard !sink.over, Int(length) <= sink.limit - sink.bytes.count else {
        sink.over = true
        return CAIRO_STATUS_WRITE_ERROR
    }
    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
    return CAIRO_STATUS_SUCCESS
}

extension Scene {
    /// The scene at its own frame in `format`.
    ///
    /// - Parameters:
    ///   - creationDate: for PDF, the `CreationDate` to record; nil records none
    ///     (see `pdfData`).
    ///   - consumingIcon: PNG only: this is the scene's one output (see
    ///     `raster(at:consumingIcon:)`).
    ///   - encoderThreads: PNG only: threads for a large image (0: one per available
    ///     CPU); the bytes do not depend on it.
    /// - Throws: `BadgeError.internalError` when Cairo or libpng fail; 65 when an
    ///   SVG icon fails to render.
    public func data(
        format: OutputFormat, compression: PNGCompression = .default, creationDate: String? = nil,
        consumingIcon: Bool = false, encoderThreads: Int = 0
    ) throws(BadgeError) -> [UInt8] {
        switch format {
        case .png:
            return try pngData(compression: compression, consumingIcon: consumingIcon, encoderThreads: encoderThreads)
        case .webp:
            // Checked before the pixels are drawn: a canvas too large for WebP is refused
            // at once, not after seconds of drawing.
            try WebPCodec.checkSize(width: canvasWidth, height: canvasHeight)
            return try WebPCodec.encode(try pixels())
        case .svg: return try svgData()
        case .pdf: return try pdfData(creationDate: creationDate)
        }
    }

    /// SVG 1.1: the badge and its text as vector paths and glyph symbols, a raster
    /// icon embedded once as a PNG data URI, an SVG icon as vectors. Cairo numbers
    /// its ids from process-wide counters, so they are renumbered in document order
    /// (`SVGIdentifiers`): the same scene gives the same bytes in any process.
    ///
    /// An SVG icon or badge image is drawn as vectors: recorded by iconbadge-loader
    /// under its memory cap and time limit, replayed here within its bounds
    /// (`SVGSource.render`).
    ///
    /// - Throws: `BadgeError.internalError` when Cairo fails; 65 when an SVG document
    ///   fails to render, runs out of its memory cap, over time or over the bounds of
    ///   its drawing.
    public func svgData() throws(BadgeError) -> [UInt8] {
        try vectorData(VectorPainting(format: .svg, frame: frame, layers: stillLayers, creationDate: nil))
    }

    /// PDF 1.5, one page of canvasWidth × canvasHeight points (one point per pixel).
    /// No date is recorded unless `creationDate` (ISO 8601, `YYYY-MM-DDTHH:mm:SSZ`;
    /// the CLI takes it from `SOURCE_DATE_EPOCH`) is given, so the bytes do not
    /// change run to run (Cairo's own current-time stamp is cleared).
    ///
    /// An SVG icon or badge image is drawn as vectors, as for `svgData`.
    ///
    /// - Throws: as `svgData`.
    public func pdfData(creationDate: String? = nil) throws(BadgeError) -> [UInt8] {
        try vectorData(VectorPainting(format: .pdf, frame: frame, layers: stillLayers, creationDate: creationDate))
    }

    /// The SVG or PDF of `painting` (an animated SVG's layers too).
    func vectorData(_ painting: VectorPainting) throws(BadgeError) -> [UInt8] {
        try icon.checkNotSpent()
        let svgs = ([icon.vector] + badges.map { $0.image?.svg }).compactMap { $0 }
        let limit = Self.outputLimit(
            canvasPixels: canvasWidth * canvasHeight, embeddedPixels: svgs.reduce(0) { $0 + $1.embeddedPixels })
        let sink = ByteSink(limit: limit)
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let surface: OpaquePointer
        switch painting.format {
        case .pdf:
            surface = cairo_pdf_surface_create_for_stream(
                appendToSink, closure, Double(canvasWidth), Double(canvasHeight))!
            // Cairo 1.16 stamps the current time as CreationDate when the surface is made.
            // A date it cannot parse as ISO 8601 ("") clears it (cairo-pdf-interchange.c,
            // iso8601_to_pdf_date_string returns NULL), which is how "no date" is written.
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, painting.creationDate ?? "")
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "iconbadge")
        default:
            surface = cairo_svg_surface_create_for_stream(
                appendToSink, closure, Double(canvasWidth), Double(canvasHeight))!
            cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1)
        }
        do throws(BadgeError) {
            try draw(onto: surface, painting)
            if sink.over { throw .internalError("Cairo: error while writing to output stream") }
        } catch {
            let kind = painting.format == .svg ? "SVG" : "PDF"
            if sink.over {
                throw .badInput(
                    path: svgs.first?.path ?? "the \(kind) output",
                    reason:
                        "SVG too complex: drawing it as \(kind) writes more than \((limit + (1 << 20) - 1) >> 20) MiB")
            }
            // Out of memory reads the same however librsvg or Cairo noticed it.
            if case .render(.outOfMemory(let path, "drawing it", let budget), _) = error {
                throw IsolatedLoader.outOfMemory(
                    path, "drawing it as \(kind)", inProcess: budget.hasPrefix("Cairo could not allocate"))
            }
            throw error
        }
        guard painting.format == .svg else { return withExtendedLifetime(sink) { sink.bytes } }
        var svg = SVGIdentifiers.renumber(String(decoding: sink.bytes, as: UTF8.self))
        // Cairo 1.16 sizes the document in pt (1.17 added cairo_svg_surface_set_document_unit);
        // at 96 DPI a reader would make a 132 pt canvas 176 px. The canvas is pixels.
        let pointSize = "width=\"\(canvasWidth)pt\" height=\"\(canvasHeight)pt\""
        if let range = svg.firstRange(of: pointSize) {
            svg.replaceSubrange(range, with: "width=\"\(canvasWidth)px\" height=\"\(canvasHeight)px\"")
        }
        return Array(svg.utf8)
    }

    /// The most bytes an SVG or PDF output may have: 64 MiB, plus 8 bytes a pixel of
    /// the canvas and of the images its SVG documents embed (a raster icon or image is
    /// written deflated, base64 in SVG: at most about 6 bytes a pixel). Cairo's PDF
    /// writer has no bound of its own on what some drawings make of it: a 349-byte
    /// SVG whose gradient repeats every 10⁻⁸ px wrote a 2 GB PDF in 73 s, one
    /// reference a repetition. Past it the output is refused, 65, after about a
    /// second's writing.
    static func outputLimit(canvasPixels: Int, embeddedPixels: Int) -> Int {
        (64 << 20) + 8 * (max(0, canvasPixels) + max(0, embeddedPixels))
    }

    /// Cairo draws what a vector surface cannot express (a blend mode in SVG 1.1) as
    /// an image at its fallback resolution, 300 ppi by default: 17.4 times the
    /// canvas's pixels (the canvas is one point per pixel, 72 ppi), so 177 bytes of
    /// nested `mix-blend-mode` at 4096 px made two 17067² images (2.3 GB) and at 8192
    /// px failed. Up to 4,194,304 fallback pixels (2048², 16 MiB; canvases up to
    /// 491² px, the usual icon sizes) the resolution stays 300 ppi, so those outputs
    /// keep their bytes; above, it is lowered to keep a fallback image at that many
    /// pixels, and never below 72 ppi (the canvas's own pixels).
    static func fallbackResolution(canvasPixels: Int) -> Double {
        let budget = 4_194_304.0
        let scale = 300.0 / 72
        let pixels = Double(max(1, canvasPixels))
        if pixels * scale * scale <= budget { return 300 }
        return max(72, 72 * (budget / pixels).squareRoot())
    }

    /// The most pixels a fallback image of this canvas can have.
    static func fallbackPixels(canvasPixels: Int) -> Int {
        let ppi = fallbackResolution(canvasPixels: canvasPixels)
        return Int((Double(canvasPixels) * (ppi / 72) * (ppi / 72)).rounded(.up))
    }

    private func draw(onto surface: OpaquePointer, _ painting: VectorPainting) throws(BadgeError) {
        defer { cairo_surface_destroy(surface) }
        try icon.checkNotSpent()
        let ppi = Self.fallbackResolution(canvasPixels: canvasWidth * canvasHeight)
        cairo_surface_set_fallback_resolution(surface, ppi, ppi)
        // librsvg draws an SVG's text with fonts that Pango opens by file, which Cairo
        // 1.16's FreeType backend keeps in one process-wide cache of faces, closing and
        // reopening them (at most 10 open). Two threads drawing or subsetting such
        // fonts at once crash in it (batch, SVG icons with text in many fonts, PDF
        // output), so these documents are drawn and finished one at a time.
        func paintAndFinish() throws(BadgeError) -> cairo_status_t {
            let context = cairo_create(surface)!
            do {
                try ScenePainter.paint(
                    self, at: painting.frame, layers: painting.layers, into: context, vector: true)
            } catch {
                cairo_destroy(context)
                throw error
            }
            let status = cairo_status(context)
            cairo_destroy(context)
            cairo_surface_finish(surface)
            return status
        }
        var status =
            try drawsSVG
            ? SVGSource.vectorLock.withLock { (_) throws(BadgeError) in try paintAndFinish() } : paintAndFinish()
        // The context can be fine while the surface failed (finishing it): report the
        // surface's status then, never "no error has occurred".
        if status == CAIRO_STATUS_SUCCESS { status = cairo_surface_status(surface) }
        guard status == CAIRO_STATUS_SUCCESS else {
            if status == CAIRO_STATUS_NO_MEMORY, let svg = icon.decoded.svg ?? badge.image?.svg {
                throw IsolatedLoader.outOfMemory(svg.path, "drawing it", inProcess: true)
            }
            throw .internalError("Cairo: \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

/// What a vector painter draws of a scene, and how: the format, the frame, the
/// layers and a PDF's creation date. Made per SVG or PDF output (`svgData`,
/// `pdfData`, an animated SVG's layers) and never changed.
struct VectorPainting: Equatable {
    /// `.svg` or `.pdf`.
    let format: OutputFormat
    /// The frame the first badge is drawn at.
    let frame: BadgeFrameState
    /// The parts drawn.
    let layers: SceneLayers
    /// For PDF, the `CreationDate` (ISO 8601), or nil for none.
    let creationDate: String?
}
