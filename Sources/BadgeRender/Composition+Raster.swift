import BadgeCore
internal import CCairo

extension Composition {
    /// Draws the composition into a new premultiplied ARGB32 image.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo fails.
    func rasterize() throws(BadgeError) -> ImageSurface {
        let target = try ImageSurface(width: canvasWidth, height: canvasHeight)
        let context = cairo_create(target.surface)!
        defer { cairo_destroy(context) }
        try BadgePainter.paint(self, into: context, vector: false)
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .internalError("Cairo: \(String(cString: cairo_status_to_string(status)))")
        }
        cairo_surface_flush(target.surface)
        return target
    }

    /// The composition as PNG bytes: 8-bit RGB when every pixel is opaque, RGBA
    /// otherwise; no ancillary chunks, so the same pixels give the same bytes.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo or libpng fail.
    public func pngData(compression: PNGCompression = .default) throws(BadgeError) -> [UInt8] {
        try PNGCodec.encode(try rasterize(), compression: compression)
    }

    /// The composition's pixels, straight-alpha RGBA (for comparisons and tests).
    ///
    /// - Throws: `BadgeError.internalError` when Cairo fails.
    public func pixels() throws(BadgeError) -> PixelBuffer {
        try rasterize().pixelBuffer()
    }
}
