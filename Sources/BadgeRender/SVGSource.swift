import BadgeCore
internal import CCairo
internal import CImageLoaders
import Synchronization

/// An SVG document's bytes (gunzipped, checked by `SVGEmbeddedImages`), drawn as
/// vectors into SVG and PDF outputs onto a Cairo context: librsvg draws it in
/// iconbadge-loader onto a Cairo script surface (`IsolatedLoader.record`, under the
/// loader's memory cap and time limit, the script at most
/// `IsolatedLoader.scriptLimit`), and the script is replayed here with Cairo's script
/// interpreter (`ib_script_replay`, its images and fonts inflated to at most
/// `IsolatedLoader.inflatedLimit`). librsvg never runs in iconbadge, which is static
/// and loads no library.
final class SVGSource: Sendable {
    let bytes: [UInt8]
    let path: String
    /// The pixels of the raster images it embeds (`SVGEmbeddedImages`).
    let embeddedPixels: Int
    /// The limits it was loaded under (the loader's time limit).
    let limits: ImageLimits
    /// Held while any SVG document is drawn onto a vector surface and that surface is
    /// finished (see `Scene.draw(onto:_:)`): the fonts and images a replayed script
    /// makes live in Cairo's process-wide caches.
    static let vectorLock = Mutex(())

    init(bytes: [UInt8], path: String, embeddedPixels: Int, limits: ImageLimits) {
        self.bytes = bytes
        self.path = path
        self.embeddedPixels = embeddedPixels
        self.limits = limits
    }

    /// Draws the document fitted into `rect` (the context's user space) as vectors.
    /// Only for vector outputs.
    ///
    /// - Throws: 65 when librsvg fails part way (for example on its own limits), runs
    ///   out of the loader's memory cap or over the time limit, or its drawing is over
    ///   `IsolatedLoader.scriptLimit` or `IsolatedLoader.inflatedLimit`; 69 when
    ///   librsvg is missing.
    func render(into cr: OpaquePointer, rect: Rect) throws(BadgeError) {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        // What of the device can be drawn on: the clip's extents in device space (the
        // page, when nothing clips). The script covers (0, 0) to its far corner.
        var x1 = 0.0
        var y1 = 0.0
        var x2 = 0.0
        var y2 = 0.0
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
        cairo_restore(cr)
        let side = Double(ImageLimits.cairoMaxSide)
        let extent = (width: min(side, x2.rounded(.up)), height: min(side, y2.rounded(.up)))
        guard extent.width >= 1, extent.height >= 1, rect.width > 0, rect.height > 0 else { return }
        let drawing = try IsolatedLoader.record(
            bytes, viewport: rect, matrix: [matrix.xx, matrix.yx, matrix.xy, matrix.yy, matrix.x0, matrix.y0],
            extent: extent, limits: limits, path: path, embeddedPixels: embeddedPixels)
        let inflated = IsolatedLoader.inflatedLimit(
            extentPixels: Int(extent.width * extent.height), embeddedPixels: embeddedPixels)
        try Self.replay(drawing, into: cr, inflatedLimit: inflated, path: path)
    }

    /// Replays `drawing` onto `cr` (`ib_script_replay`, which takes its script), its
    /// compressed strings inflated to at most `inflatedLimit` bytes in all.
    ///
    /// - Throws: 65 when the script is over `inflatedLimit` or the interpreter rejects
    ///   it; 65 naming the memory when Cairo runs out of it.
    static func replay(
        _ drawing: IsolatedLoader.RecordedDrawing, into cr: OpaquePointer, inflatedLimit: Int, path: String
    ) throws(BadgeError) {
        var message = [CChar](repeating: 0, count: 512)
        let status = ib_script_replay(
            UnsafeMutableRawPointer(cr), drawing.script, drawing.size, drawing.replayMatrix, max(0, inflatedLimit),
            IsolatedLoader.commandLimit, IsolatedLoader.colorStopLimit, &message, message.count)
        if status == Int32(IB_IMAGE_TOO_LARGE) {
            throw .badInput(path: path, reason: "SVG too complex: \(String(nulTerminated: message))")
        }
        if status == Int32(IB_IMAGE_NO_MEMORY) { throw IsolatedLoader.outOfMemory(path, "drawing it", inProcess: true) }
        guard status == Int32(IB_IMAGE_OK) else {
            throw SVGSource.error(status: status, message: String(nulTerminated: message), path: path)
        }
    }

    static func error(status: Int32, message: String, path: String) -> BadgeError {
        if status == Int32(IB_IMAGE_UNAVAILABLE) {
            return .unavailable(resource: "SVG support", reason: message)
        }
        if status == Int32(IB_IMAGE_NO_MEMORY) {
            return IsolatedLoader.outOfMemory(path, "drawing it")
        }
        let lower = message.lowercased()
        if lower.contains("limit") || lower.contains("too many") || lower.contains("recursion")
            || lower.contains("exceeded")
            || lower.contains("too deep") || lower.contains("instanc")
        {
            return .badInput(path: path, reason: "SVG too complex: \(message)")
        }
        return .badInput(path: path, reason: "cannot read the SVG: \(message)")
    }
}
