import BadgeCore
internal import CImageLoaders
import Synchronization

/// A parsed SVG document (librsvg handle), drawn as vectors onto any Cairo context.
/// Made only inside an isolated child (`IsolatedRenderer`'s vector render), never in
/// the process that reads the command line.
///
/// `@unchecked Sendable`: the librsvg handle is only used under `lock`.
final class SVGDocument: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    /// Intrinsic size in CSS pixels at 96 DPI, or the viewBox size; nil when the
    /// document has neither (a size must then be given).
    let intrinsicSize: Size?
    let path: String
    /// librsvg handles are not safe to render from two threads at once.
    private let lock = Mutex(())
    /// Held while any SVG document is drawn onto a vector surface and that surface is
    /// finished (see `Scene.draw(onto:_:)`): Cairo 1.16's FreeType backend is not
    /// safe for the fonts Pango opens when two threads use them at once. (The child
    /// that draws is single-threaded; the lock stays for any in-process use.)
    static let vectorLock = Mutex(())

    /// Parses `bytes` (already gunzipped) that came from `path`.
    ///
    /// - Throws: 65 when librsvg rejects the document (including its own limits:
    ///   "SVG too complex"); 69 when librsvg is not installed.
    init(_ bytes: [UInt8], path: String) throws(BadgeError) {
        var width = 0.0
        var height = 0.0
        var hasSize: Int32 = 0
        var status: Int32 = 0
        var message = [CChar](repeating: 0, count: 512)
        let handle = bytes.withUnsafeBufferPointer {
            ib_svg_load($0.baseAddress, $0.count, &width, &height, &hasSize, &status, &message, message.count)
        }
        guard let handle else {
            throw SVGDocument.error(status: status, message: String(nulTerminated: message), path: path)
        }
        self.handle = handle
        self.path = path
        intrinsicSize = hasSize != 0 ? Size(width: width, height: height) : nil
    }

    deinit { ib_svg_free(handle) }

    /// Draws the document fitted into `rect` (pixels of the context's user space).
    /// Only for vector outputs, in the isolated child.
    ///
    /// - Throws: 65 when librsvg fails part way (for example on its own limits).
    func render(into cr: OpaquePointer, rect: Rect) throws(BadgeError) {
        var message = [CChar](repeating: 0, count: 512)
        let status = lock.withLock { _ in
            ib_svg_render(
                handle, UnsafeMutableRawPointer(cr), rect.x, rect.y, rect.width, rect.height, &message, message.count)
        }
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
