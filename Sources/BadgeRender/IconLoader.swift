import BadgeCore
import BadgeSystem
internal import CCairo
internal import CImageLoaders
import Synchronization

/// A decoded icon or badge image, at the pixel size it is drawn at.
struct LoadedIcon: Sendable {
    /// Premultiplied ARGB32 pixels at the drawn size (an SVG rendered there by the
    /// isolated decoder).
    let surface: ImageSurface
    /// For an SVG: its source, drawn as vectors into SVG and PDF outputs.
    let svg: SVGSource?
    /// Width it is drawn at (pixels).
    let width: Int
    /// Height it is drawn at (pixels).
    let height: Int
    /// The format sniffed from the bytes, for reports ("png", "svg", "jpeg").
    let format: String
    /// For a PNG or WebP drawn at its own size: the straight pixels `surface` cannot
    /// carry.
    var lost: LostStraightPixels? = nil
    /// For a PNG: its colour chunks and bit depth (kept in a PNG output).
    var color: ColorChunks? = nil

    init(surface: ImageSurface, svg: SVGSource?, format: String, lost: LostStraightPixels? = nil) {
        self.surface = surface
        self.svg = svg
        width = surface.width
        height = surface.height
        self.format = format
        self.lost = lost
    }
}

/// An image badge before layout: a raster decoded at its natural size, or an SVG
/// whose natural size is known and which is rendered once the badge's drawn size is.
enum BadgeImageSource {
    case ready(LoadedIcon)
    case svg(bytes: [UInt8], path: String, natural: (width: Int, height: Int)?)
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
    ///   it is not a supported image, is corrupt, is over a limit (an SVG's embedded
    ///   images included: `SVGEmbeddedImages`), or makes its decoder crash, run out
    ///   of its memory cap or run over time (SVG and the gdk-pixbuf formats are
    ///   decoded in a child process, `IsolatedLoader`); 69 when the library for its
    ///   format is not installed. Messages name the path and the reason, never a
    ///   library's raw status.
    static func load(_ path: String, limits: ImageLimits, sizing: ImageSizing = ImageSizing()) throws(BadgeError)
        -> LoadedIcon
    {
        let bytes = try InputFile.bytes(at: path, limit: limits.maxRasterBytes, what: "image file")
        return try decode(bytes, path: path, limits: limits, sizing: sizing)
    }

    /// An image drawn in memory (`DrawnImage`), as a PNG of its pixels decodes,
    /// sized per `sizing`; `path` names it in messages.
    ///
    /// - Throws: 65 for a size over `limits`, 69 when memory runs out.
    static func drawn(_ image: DrawnImage, path: String, limits: ImageLimits, sizing: ImageSizing)
        throws(BadgeError) -> LoadedIcon
    {
        // The limits a PNG of it would be checked against (`PNGPreflight`).
        try checkSize(image.width, image.height, limits, path)
        return try resized(try image.surface(), format: "png", sizing, limits, path)
    }

    /// Decodes image bytes that came from `path`.
    static func decode(
        _ bytes: [UInt8], path: String, limits: ImageLimits, sizing: ImageSizing = ImageSizing()
    ) throws(BadgeError) -> LoadedIcon {
        let format = try sniff(bytes, path: path)
        switch format {
        case .png:
            let header = try pngHeader(bytes, path: path, limits: limits)!
            let decoded = try PNGCodec.decode(bytes, header: header, path: path)
            var icon = try resized(decoded.surface, lost: decoded.lost, format: "png", sizing, limits, path)
            icon.color = decoded.color
            return icon
        case .svg, .svgz:
            let (document, embedded) = try checkedSVG(bytes, format: format, limits: limits, path: path)
            return try decodeSVG(
                document, embeddedPixels: embedded, format: format, path: path, limits: limits, sizing: sizing)
        case .jpeg, .webp, .gif, .bmp, .tiff, .ico:
            // A JPEG that libjpeg-turbo reads cleanly, and a still WebP, are decoded here
            // with the libraries linked into the binary (JPEGCodec, WebPCodec); the
            // rest go to gdk-pixbuf in the isolated child.
            if format == .jpeg, let surface = JPEGCodec.decodeSurface(bytes, limits: limits) {
                return try resized(surface, format: format.rawValue, sizing, limits, path)
            }
            if format == .webp, let decoded = WebPCodec.decodeSurface(bytes, limits: limits) {
                return try resized(decoded.surface, lost: decoded.lost, format: format.rawValue, sizing, limits, path)
            }
            // In iconbadge-loader.
            let surface = try IsolatedLoader.decode(
                bytes, kind: format.pixbufLoader!, scale: 1, size: nil, limits: limits, path: path
            ).surface
            return try resized(surface, format: format.rawValue, sizing, limits, path)
        }
    }

    /// Reads a badge image: a raster is decoded at its natural size (through
    /// `raster`, the batch's cache, when given); an SVG is only probed for its
    /// intrinsic size, to be rendered at the badge's drawn size (`decodeSVGBadge`).
    /// `naturalSize` false: the layout does not need it (an explicit image size), so
    /// an SVG is not even probed. A probe, not a render at the natural size: that
    /// render would be thrown away, could be refused for a size never drawn, and
    /// would say nothing about the cost at the drawn size.
    ///
    /// - Throws: as `load`.
    static func badgeImage(
        _ path: String, limits: ImageLimits, scale: Double, naturalSize: Bool,
        raster: ((ImageSizing) throws(BadgeError) -> LoadedIcon)?
    ) throws(BadgeError) -> BadgeImageSource {
        let bytes = try InputFile.bytes(at: path, limit: limits.maxRasterBytes, what: "image file")
        let format = try sniff(bytes, path: path)
        guard format == .svg || format == .svgz else {
            // Through the batch's cache when there is one (it reads the file again).
            if let raster, path != "-" { return .ready(try raster(ImageSizing(scale: scale))) }
            return .ready(try decode(bytes, path: path, limits: limits, sizing: ImageSizing(scale: scale)))
        }
        let (document, embedded) = try checkedSVG(bytes, format: format, limits: limits, path: path)
        guard naturalSize else { return .svg(bytes: document, path: path, natural: nil) }
        let intrinsic = try IsolatedLoader.probe(document, limits: limits, path: path, embeddedPixels: embedded)
        // As the isolated decoder would have rendered it before: intrinsic size ×
        // scale, rounded; only its aspect ratio (and, for an auto height, its
        // height) reaches the layout, so no pixel limit applies to it.
        let natural = try svgPixelSize(
            intrinsic, scale: scale, size: nil, maxSide: Int(Int32.max), maxPixels: Int.max, path: path)
        return .svg(bytes: document, path: path, natural: natural)
    }

    /// Renders an SVG badge at the size the layout draws it (`width` × `height`
    /// pixels), within `limits`.
    ///
    /// - Throws: as `load`.
    static func decodeSVGBadge(
        _ document: [UInt8], path: String, width: Int, height: Int, limits: ImageLimits
    ) throws(BadgeError) -> LoadedIcon {
        var sizing = ImageSizing()
        sizing.size = (width, height)
        let (checked, embedded) = try checkedSVG(document, format: .svg, limits: limits, path: path)
        return try decodeSVG(
            checked, embeddedPixels: embedded, format: .svg, path: path, limits: limits, sizing: sizing)
    }

    private static func sniff(_ bytes: [UInt8], path: String) throws(BadgeError) -> ImageFormat {
        if bytes.isEmpty { throw .badInput(path: path, reason: "is empty, not an image") }
        guard let format = ImageFormat.sniff(bytes) else {
            if bytes.count >= 16, bytes[1...3].elementsEqual("PNG".utf8) || bytes[12..<16].elementsEqual("IHDR".utf8) {
                throw .badInput(path: path, reason: "corrupt PNG: bad signature (the first 8 bytes are damaged)")
            }
            throw .badInput(path: path, reason: "is not a supported image (\(ImageFormat.supported))")
        }
        return format
    }

    /// The document gunzipped, within the size limit, and its embedded images
    /// counted (`SVGEmbeddedImages`): the bytes librsvg may be given, and their pixels.
    ///
    /// - Throws: 65 naming the problem (`RenderProblem.embeddedImagesOverLimit` for a
    /// limit, which the command line says how to change).
    static func checkedSVG(_ bytes: [UInt8], format: ImageFormat, limits: ImageLimits, path: String)
        throws(BadgeError) -> (document: [UInt8], embeddedPixels: Int)
    {
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
        do throws(SVGEmbeddedImagesProblem) {
            return (document, try SVGEmbeddedImages.scan(document, limits: limits).totalPixels)
        } catch {
            switch error {
            case .sideTooLong, .tooManyPixels, .totalTooLarge:
                throw .render(.embeddedImagesOverLimit(path: path, reason: error.reason))
            default:
                throw .badInput(path: path, reason: error.reason)
            }
        }
    }

    private static func decodeSVG(
        _ document: [UInt8], embeddedPixels: Int, format: ImageFormat, path: String, limits: ImageLimits,
        sizing: ImageSizing
    ) throws(BadgeError) -> LoadedIcon {
        let decoded = try IsolatedLoader.decode(
            document, kind: "svg", scale: sizing.scale, size: sizing.size, limits: limits, path: path,
            embeddedPixels: embeddedPixels)
        return LoadedIcon(
            surface: decoded.surface,
            svg: SVGSource(bytes: document, path: path, embeddedPixels: embeddedPixels, limits: limits),
            format: format.rawValue)
    }

    /// The pixel size an SVG renders at, by the isolated decoder's own rule
    /// (`ib_svg_pixel_size`).
    ///
    /// - Throws: 65 when the document has no size and none is given, renders under
    ///   half a pixel, or is over the limits.
    static func svgPixelSize(
        _ intrinsic: Size?, scale: Double, size: (width: Int, height: Int)?, maxSide: Int, maxPixels: Int,
        path: String
    ) throws(BadgeError) -> (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = ib_svg_pixel_size(
            intrinsic?.width ?? 0, intrinsic?.height ?? 0, intrinsic == nil ? 0 : 1, scale,
            Int32(clamping: size?.width ?? 0), Int32(clamping: size?.height ?? 0), Int32(clamping: maxSide),
            Int64(maxPixels), &width, &height, &message, message.count)
        switch status {
        case Int32(IB_IMAGE_OK):
            return (Int(width), Int(height))
        case Int32(IB_IMAGE_TOO_LARGE):
            let limits = {
                var l = ImageLimits(); l.maxSide = maxSide; l.maxPixels = maxPixels; return l
            }()
            do throws(PNGPreflightError) {
                try PNGPreflight.checkSize(width: Int(width), height: Int(height), limits: limits)
            } catch {
                throw .badInput(path: path, reason: error.reason)
            }
            throw .render(.svgRenderSide(path: path, width: Int(width), height: Int(height)))
        default:
            throw SVGSource.error(status: status, message: String(nulTerminated: message), path: path)
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
