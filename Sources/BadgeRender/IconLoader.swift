import BadgeCore
internal import CCairo
internal import CImageLoaders

/// A decoded icon or badge image, at the pixel size it is drawn at.
struct LoadedIcon {
    enum Content {
        /// Premultiplied ARGB32 pixels.
        case raster(ImageSurface)
        /// An SVG document, drawn as vectors into any output.
        case vector(SVGDocument)
    }

    let content: Content
    /// Width it is drawn at (pixels).
    let width: Int
    /// Height it is drawn at (pixels).
    let height: Int
    /// The format sniffed from the bytes, for reports ("png", "svg", "jpeg").
    let format: String

    /// The pixels, rasterising an SVG at the drawn size.
    func surface() throws(BadgeError) -> ImageSurface {
        switch content {
        case .raster(let surface):
            return surface
        case .vector(let document):
            let surface = try ImageSurface(width: width, height: height)
            let cr = cairo_create(surface.surface)!
            defer { cairo_destroy(cr) }
            try document.render(into: cr, rect: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
            cairo_surface_flush(surface.surface)
            return surface
        }
    }
}

/// How an image is sized when loaded.
struct ImageSizing {
    /// Multiplies an SVG's intrinsic size (raster images keep their pixels).
    var scale: Double = 1
    /// An exact size (pixels) for any image, resampled or re-rendered; nil keeps it.
    var size: (width: Int, height: Int)?
    /// Resamples a raster image by this factor when no `size` is given (a @1x
    /// source made into @2x and @3x by `--scales`); SVG ignores it.
    var rasterScale: Double = 1
}

/// Reads and decodes icons and badge images. The format is sniffed from the
/// bytes; the file name is never trusted.
enum IconLoader {
    /// Loads the image at `path` (or standard input for `-`) within `limits`.
    ///
    /// - Throws: 66 when the file is missing, a folder, a FIFO or a device; 65 when
    ///   it is not a supported image, is corrupt, or is over a limit; 69 when the
    ///   library for its format is not installed. Messages name the path and the
    ///   reason, never a library's raw status.
    static func load(_ path: String, limits: ImageLimits, sizing: ImageSizing = ImageSizing()) throws(BadgeError)
        -> LoadedIcon
    {
        let bytes = try InputFile.bytes(at: path, limit: limits.maxRasterBytes, what: "image file")
        return try decode(bytes, path: path, limits: limits, sizing: sizing)
    }

    /// Decodes image bytes that came from `path`.
    static func decode(_ bytes: [UInt8], path: String, limits: ImageLimits, sizing: ImageSizing = ImageSizing())
        throws(BadgeError) -> LoadedIcon
    {
        if bytes.isEmpty { throw .badInput(path: path, reason: "is empty, not an image") }
        guard let format = ImageFormat.sniff(bytes) else {
            if bytes.count >= 16, bytes[1...3].elementsEqual("PNG".utf8) || bytes[12..<16].elementsEqual("IHDR".utf8) {
                throw .badInput(path: path, reason: "corrupt PNG: bad signature (the first 8 bytes are damaged)")
            }
            throw .badInput(path: path, reason: "is not a supported image (\(ImageFormat.supported))")
        }
        switch format {
        case .png:
            let header: PNGHeader
            switch bytes.withUnsafeBytes({ raw in
                Result { () throws(PNGPreflightError) in try PNGPreflight.check(raw, limits: limits) }
            }) {
            case .success(let value): header = value
            case .failure(.corrupt(let reason)): throw .badInput(path: path, reason: "corrupt PNG: \(reason)")
            case .failure(.tooLarge(let reason)): throw .badInput(path: path, reason: reason)
            }
            return try resized(
                try PNGCodec.decode(bytes, header: header, path: path), format: "png", sizing, limits, path)
        case .svg:
            guard bytes.count <= limits.maxSVGBytes else {
                throw .badInput(
                    path: path, reason: "is \(bytes.count) bytes, over the \(limits.maxSVGBytes)-byte limit for an SVG")
            }
            return try vector(SVGDocument(bytes, path: path), format: "svg", sizing, limits, path)
        case .svgz:
            let document = try gunzip(bytes, limit: limits.maxSVGBytes, path: path)
            guard ImageFormat.looksLikeSVG(document) else {
                throw .badInput(path: path, reason: "is gzip data but not an SVG document")
            }
            return try vector(SVGDocument(document, path: path), format: "svgz", sizing, limits, path)
        case .jpeg, .webp, .gif, .bmp, .tiff, .ico:
            return try resized(
                try decodeWithPixbuf(bytes, format: format, path: path, limits: limits), format: format.rawValue,
                sizing, limits, path)
        }
    }

    private static func vector(
        _ document: SVGDocument, format: String, _ sizing: ImageSizing, _ limits: ImageLimits, _ path: String
    )
        throws(BadgeError) -> LoadedIcon
    {
        var width: Double
        var height: Double
        if let size = sizing.size {
            width = Double(size.width)
            height = Double(size.height)
        } else if let intrinsic = document.intrinsicSize {
            width = intrinsic.width * sizing.scale
            height = intrinsic.height * sizing.scale
        } else {
            throw .badInput(path: path, reason: "the SVG has neither width and height nor a viewBox; give --size WxH")
        }
        guard width.isFinite, height.isFinite, width < 1e9, height < 1e9 else {
            throw .badInput(path: path, reason: "the SVG's size is not finite")
        }
        let w = max(1, Int(width.rounded()))
        let h = max(1, Int(height.rounded()))
        try checkSize(w, h, limits, path)
        return LoadedIcon(content: .vector(document), width: w, height: h, format: format)
    }

    private static func checkSize(_ width: Int, _ height: Int, _ limits: ImageLimits, _ path: String) throws(BadgeError)
    {
        do throws(PNGPreflightError) {
            try PNGPreflight.checkSize(width: width, height: height, limits: limits)
        } catch {
            throw .badInput(path: path, reason: error.reason)
        }
    }

    /// Resamples a raster image to `sizing.size` in premultiplied space (no dark
    /// fringe on transparent edges), with Cairo's GOOD filter and edge padding.
    private static func resized(
        _ surface: ImageSurface, format: String, _ sizing: ImageSizing, _ limits: ImageLimits, _ path: String
    )
        throws(BadgeError) -> LoadedIcon
    {
        var wanted = sizing.size
        if wanted == nil, sizing.rasterScale != 1 {
            wanted = (
                max(1, Int((Double(surface.width) * sizing.rasterScale).rounded())),
                max(1, Int((Double(surface.height) * sizing.rasterScale).rounded()))
            )
        }
        guard let size = wanted, size.width != surface.width || size.height != surface.height else {
            return LoadedIcon(content: .raster(surface), width: surface.width, height: surface.height, format: format)
        }
        try checkSize(size.width, size.height, limits, path)
        let target = try ImageSurface(width: size.width, height: size.height)
        let cr = cairo_create(target.surface)!
        cairo_scale(cr, Double(size.width) / Double(surface.width), Double(size.height) / Double(surface.height))
        cairo_set_source_surface(cr, surface.surface, 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(target.surface)
        return LoadedIcon(content: .raster(target), width: size.width, height: size.height, format: format)
    }

    private static func gunzip(_ bytes: [UInt8], limit: Int, path: String) throws(BadgeError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer {
            ib_gunzip($0.baseAddress, $0.count, limit, &output, &size, &message, message.count)
        }
        guard status == Int32(IB_IMAGE_OK), let output else {
            if status == Int32(IB_IMAGE_TOO_LARGE) {
                throw .badInput(path: path, reason: "decompresses to more than the \(limit)-byte limit for an SVG")
            }
            throw .badInput(path: path, reason: "corrupt gzip data: \(String(nulTerminated: message))")
        }
        defer { ib_image_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    private static func decodeWithPixbuf(_ bytes: [UInt8], format: ImageFormat, path: String, limits: ImageLimits)
        throws(BadgeError) -> ImageSurface
    {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let side = min(limits.maxSide, ImageLimits.cairoMaxSide)
        let status = bytes.withUnsafeBufferPointer {
            ib_pixbuf_decode(
                $0.baseAddress, $0.count, format.pixbufLoader!, Int32(side), Int64(limits.maxPixels), &pixels, &width,
                &height, &message, message.count)
        }
        let text = String(nulTerminated: message)
        switch status {
        case Int32(IB_IMAGE_OK):
            break
        case Int32(IB_IMAGE_TOO_LARGE):
            let parts = text.split(separator: " ")
            let w = Int(parts.first ?? "") ?? 0
            let h = Int(parts.last ?? "") ?? 0
            try checkSize(w, h, limits, path)
            throw .badInput(path: path, reason: "the image size \(text) is not usable")
        case Int32(IB_IMAGE_UNAVAILABLE):
            throw .unavailable(resource: "\(format.rawValue.uppercased()) support", reason: text)
        case Int32(IB_IMAGE_NO_MEMORY):
            throw .internalError("image decoder: \(text)")
        default:
            throw .badInput(path: path, reason: "corrupt \(format.rawValue.uppercased()): \(text)")
        }
        guard let pixels else { throw .internalError("image decoder returned no pixels") }
        defer { ib_image_free(pixels) }
        return try ImageSurface(argb: pixels, width: Int(width), height: Int(height))
    }
}
