import BadgeCore
internal import CCairo
internal import CImageLoaders
import Synchronization

/// An SVG document drawn as vectors onto a Cairo context: librsvg draws it in
/// iconbadge-loader onto a Cairo script surface (`IsolatedDecoder.record`), and the
/// script is replayed here with Cairo's script interpreter (`ib_script_replay`).
/// Made only inside an isolated child (`IsolatedRenderer`'s vector render), never in
/// the process that reads the command line; librsvg never runs in iconbadge, which
/// is static and loads no library.
final class SVGDocument: Sendable {
    let bytes: [UInt8]
    /// Intrinsic size in CSS pixels at 96 DPI, or the viewBox size; nil when the
    /// document has neither (a size must then be given).
    let intrinsicSize: Size?
    let path: String
    let limits: ImageLimits
    /// The pixels of the raster images it embeds (`SVGEmbeddedImages`).
    let embeddedPixels: Int
    /// Held while any SVG document is drawn onto a vector surface and that surface is
    /// finished (see `Scene.draw(onto:_:)`): the fonts and images a replayed script
    /// makes live in Cairo's process-wide caches. (The child that draws is
    /// single-threaded; the lock stays for any in-process use.)
    static let vectorLock = Mutex(())

    /// Probes `bytes` (already gunzipped) that came from `path` in the loader.
    ///
    /// - Throws: 65 when librsvg rejects the document (including its own limits:
    ///   "SVG too complex"); 69 when the loader or librsvg is missing.
    init(_ bytes: [UInt8], path: String, limits: ImageLimits, embeddedPixels: Int) throws(BadgeError) {
        intrinsicSize = try IsolatedDecoder.probe(bytes, limits: limits, path: path, embeddedPixels: embeddedPixels)
        self.bytes = bytes
        self.path = path
        self.limits = limits
        self.embeddedPixels = embeddedPixels
    }

    /// Draws the document fitted into `rect` (the context's user space) as vectors.
    /// Only for vector outputs, in the isolated child.
    ///
    /// - Throws: 65 when librsvg fails part way (for example on its own limits), or
    ///   its drawing is over `IsolatedDecoder.scriptLimit`; 69 when librsvg is missing.
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
        let drawing = try IsolatedDecoder.record(
            bytes, viewport: rect, matrix: [matrix.xx, matrix.yx, matrix.xy, matrix.yy, matrix.x0, matrix.y0],
            extent: extent, limits: limits, path: path, embeddedPixels: embeddedPixels)
        var message = [CChar](repeating: 0, count: 512)
        let status = ib_script_replay(
            UnsafeMutableRawPointer(cr), drawing.script, drawing.size, drawing.replayMatrix, &message, message.count)
        guard status == Int32(IB_IMAGE_OK) else {
            throw SVGDocument.error(status: status, message: String(nulTerminated: message), path: path)
        }
    }

    static func error(status: Int32, message: String, path: String) -> BadgeError {
        if status == Int32(IB_IMAGE_UNAVAILABLE) {
            return .unavailable(resource: "SVG support", reason: message)
        }
        if status == Int32(IB_IMAGE_NO_MEMORY) {
            return IsolatedDecoder.outOfMemory(path, "drawing it")
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
