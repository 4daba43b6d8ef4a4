import BadgeCore
import BadgeSystem
internal import CCairo
internal import CImageLoaders

/// A decoded icon or badge image, at the pixel size it is drawn at.
struct LoadedIcon: Sendable {
    /// Premultiplied ARGB32 pixels at the drawn size (an SVG rendered there by the
    /// isolated decoder).
    let surface: ImageSurface
    /// For an SVG: its source, drawn as vectors into SVG and PDF outputs.
    let svg: SVGSource?
    /// Width it is drawn at (pixels).
    var width: Int { surface.width }
    /// Height it is drawn at (pixels).
    var height: Int { surface.height }
    /// The format sniffed from the bytes, for reports ("png", "svg", "jpeg").
    let format: String
    /// For a PNG drawn at its own size: the straight pixels `surface` cannot carry.
    var lost: LostStraightPixels? = nil
}

/// An SVG icon's bytes, parsed in this process only when a vector output needs
/// the document itself (the isolated decoder has rendered it safely already).
final class SVGSource: @unchecked Sendable {
    let bytes: [UInt8]
    let path: String
    private let lock = Lock()
    private var parsed: Result<SVGDocument, BadgeError>?

    init(bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
    }

    /// The parsed document, made once.
    func document() throws(BadgeError) -> SVGDocument {
        let result = lock.locked { () -> Result<SVGDocument, BadgeError> in
            if let parsed { return parsed }
            let made = Result { () throws(BadgeError) in try SVGDocument(bytes, path: path) }
            parsed = made
            return made
        }
        return try result.get()
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
    ///   it is not a supported image, is corrupt, is over a limit, or makes its
    ///   decoder crash or run over time (SVG and the gdk-pixbuf formats are decoded
    ///   in a child process, `IsolatedDecoder`); 69 when the library for its format
    ///   is not installed. Messages name the path and the reason, never a library's
    ///   raw status.
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
            let header = try pngHeader(bytes, path: path, limits: limits)!
            let decoded = try PNGCodec.decode(bytes, header: header, path: path)
            return try resized(decoded.surface, lost: decoded.lost, format: "png", sizing, limits, path)
        case .svg, .svgz:
            var document = bytes
            if format == .svgz {
                document = try gunzip(bytes, limit: limits.maxSVGBytes, path: path)
                guard ImageFormat.looksLikeSVG(document) else {
                    throw .badInput(path: path, reason: "is gzip data but not an SVG document")
                }
            }
            guard document.count <= limits.maxSVGBytes else {
                throw .badInput(
                    path: path,
                    reason: "is \(document.count) bytes, over the \(limits.maxSVGBytes)-byte limit for an SVG")
            }
            let decoded = try IsolatedDecoder.decode(
                document, kind: "svg", scale: sizing.scale, size: sizing.size, limits: limits, path: path)
            return LoadedIcon(
                surface: decoded.surface, svg: SVGSource(bytes: document, path: path), format: format.rawValue)
        case .jpeg, .webp, .gif, .bmp, .tiff, .ico:
            let decoded = try IsolatedDecoder.decode(
                bytes, kind: format.pixbufLoader!, scale: 1, size: nil, limits: limits, path: path)
            return try resized(decoded.surface, format: format.rawValue, sizing, limits, path)
        }
    }

    /// The header of a PNG that passes `PNGPreflight`, nil when the bytes are not a
    /// PNG at all.
    ///
    /// - Throws: 65 naming what is corrupt or over which limit.
    static func pngHeader(_ bytes: [UInt8], path: String, limits: ImageLimits) throws(BadgeError) -> PNGHeader? {
        guard bytes.withUnsafeBytes({ PNGPreflight.hasSignature($0) }) else { return nil }
        switch bytes.withUnsafeBytes({ raw in
            Result { () throws(PNGPreflightError) in try PNGPreflight.check(raw, limits: limits) }
        }) {
        case .success(let header): return header
        case .failure(.corrupt(let reason)): throw .badInput(path: path, reason: "corrupt PNG: \(reason)")
        case .failure(.tooLarge(let limit)): throw .overLimit(path: path, limit)
        }
    }

    private static func checkSize(_ width: Int, _ height: Int, _ limits: ImageLimits, _ path: String) throws(BadgeError)
    {
        do throws(PNGPreflightError) {
            try PNGPreflight.checkSize(width: width, height: height, limits: limits)
        } catch {
            if case .tooLarge(let limit) = error { throw .overLimit(path: path, limit) }
            throw .badInput(path: path, reason: error.reason)
        }
    }

    /// Resamples a raster image to `sizing.size` in premultiplied space (no dark
    /// fringe on transparent edges), with Cairo's GOOD filter and edge padding.
    /// `lost` is kept only when the size stays (resampling makes new pixels).
    private static func resized(
        _ surface: ImageSurface, lost: LostStraightPixels? = nil, format: String, _ sizing: ImageSizing,
        _ limits: ImageLimits, _ path: String
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
            return LoadedIcon(surface: surface, svg: nil, format: format, lost: lost)
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
        return LoadedIcon(surface: target, svg: nil, format: format)
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

}
