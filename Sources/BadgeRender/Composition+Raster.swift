import BadgeCore
internal import CCairo

extension Composition {
    /// Draws the composition as premultiplied ARGB32 pixels, once (later calls
    /// return the same image).
    ///
    /// With `consumingIcon`, when the composition owns its icon (not shared through
    /// an `IconCache`), the canvas is the icon's size and nothing clips the icon, the
    /// badge is painted straight onto the decoded icon: no second canvas, so a
    /// render's peak memory is about one image, not two. The icon is then spent:
    /// only raster output may follow.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo fails.
    func rasterize(consumingIcon: Bool = false) throws(BadgeError) -> ImageSurface {
        if let rasterized { return rasterized }
        // A band masked by the icon's alpha reads the icon while drawing: not in place.
        let inPlace =
            consumingIcon && ownsIcon && iconMask == .none && !readsIconWhilePainting
            && icon.width == canvasWidth && icon.height == canvasHeight
            && (layout?.iconRect ?? Rect(x: 0, y: 0, width: Double(canvasWidth), height: Double(canvasHeight)))
                == Rect(x: 0, y: 0, width: Double(canvasWidth), height: Double(canvasHeight))
        // In place, the filters (if any) are applied to the decoded icon, the canvas.
        let target = inPlace ? try iconPixelsToDraw() : try ImageSurface(width: canvasWidth, height: canvasHeight)
        try paint(onto: target, iconAlreadyThere: inPlace)
        rasterized = target
        iconSpent = inPlace
        return target
    }

    /// Paints the composition (at its current frame state) onto `target`, premultiplied
    /// ARGB32 of the canvas's size, and flushes it.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo fails; 65 when an SVG fails.
    func paint(onto target: ImageSurface, iconAlreadyThere: Bool = false) throws(BadgeError) {
        let context = cairo_create(target.surface)!
        defer { cairo_destroy(context) }
        try BadgePainter.paint(self, into: context, vector: false, iconAlreadyThere: iconAlreadyThere)
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .internalError("Cairo: \(String(cString: cairo_status_to_string(status)))")
        }
        cairo_surface_flush(target.surface)
    }

    /// The composition as PNG bytes: 8-bit RGB when every pixel is opaque, RGBA
    /// otherwise; no ancillary chunks, so the same pixels give the same bytes.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo or libpng fail.
    /// - Parameter consumingIcon: the caller wants this one raster output only, so
    ///   the badge may be drawn onto the decoded icon itself (see `rasterize`).
    /// - Parameter encoderThreads: threads for a large PNG (0: one per available
    ///   CPU); the bytes do not depend on it.
    public func pngData(compression: PNGCompression = .default, consumingIcon: Bool = false, encoderThreads: Int = 0)
        throws(BadgeError) -> [UInt8]
    {
        let surface = try rasterize(consumingIcon: consumingIcon)
        return try PNGCodec.encode(
            surface, compression: compression, restore: straightRestore, color: icon.color,
            threads: encoderThreads)
    }

    /// The composition's pixels, straight-alpha RGBA, as `pngData` writes them (for
    /// comparisons and tests).
    ///
    /// - Throws: `BadgeError.internalError` when Cairo fails.
    public func pixels() throws(BadgeError) -> PixelBuffer {
        try rasterize().pixelBuffer(restore: straightRestore)
    }

    /// Where the icon's lost straight pixels sit on the canvas: only when it is
    /// drawn at its own size at a whole-pixel position (anything else resamples), and
    /// not filtered (the filtered pixels are the icon now, not the decoded ones).
    var straightRestore: StraightRestore? {
        guard let lost = icon.lost, iconFilters.isEmpty else { return nil }
        let rect = layout?.iconRect ?? Rect(x: 0, y: 0, width: Double(icon.width), height: Double(icon.height))
        guard rect.width == Double(icon.width), rect.height == Double(icon.height), rect.x == rect.x.rounded(),
            rect.y == rect.y.rounded(), abs(rect.x) < 1e9, abs(rect.y) < 1e9
        else { return nil }
        return StraightRestore(lost: lost, x: Int(rect.x), y: Int(rect.y), width: icon.width)
    }
}
