import BadgeCore
internal import CCairo

/// A scene painted as pixels: premultiplied ARGB32 of the canvas's size, with what
/// turns them into an output's exact straight pixels (the icon's lost straight
/// pixels, `StraightRestore`) and the icon's colour chunks, which a PNG keeps.
///
/// Made by `Scene.raster(at:consumingIcon:)`; read only.
public struct Raster {
    let surface: ImageSurface
    let restore: StraightRestore?
    let color: ColorChunks?

    /// The canvas's width (pixels).
    public var width: Int { surface.width }
    /// The canvas's height (pixels).
    public var height: Int { surface.height }

    /// The pixels as straight-alpha RGBA, as `pngData` writes them.
    public func pixels() -> PixelBuffer { surface.pixelBuffer(restore: restore) }

    /// PNG bytes: 8-bit RGB when every pixel is opaque, RGBA otherwise; the icon's
    /// colour chunks, no others, so the same pixels give the same bytes.
    ///
    /// - Parameter encoderThreads: threads for a large PNG (0: one per available
    ///   CPU); the bytes do not depend on it.
    /// - Throws: `BadgeError.internalError` when libpng fails.
    public func pngData(compression: PNGCompression = .default, encoderThreads: Int = 0) throws(BadgeError) -> [UInt8] {
        try PNGCodec.encode(surface, compression: compression, restore: restore, color: color, threads: encoderThreads)
    }
}

extension Scene {
    /// Paints the scene at `frame` (its own by default) as a `Raster`.
    ///
    /// With `consumingIcon`, when the scene owns its icon's pixels (`IconPixels.owned`:
    /// no `IconCache`), the canvas is the icon's size and nothing clips the icon or
    /// reads it while the badges are painted, the badges are painted straight onto
    /// those pixels: no second canvas, so a render's peak memory is about one image,
    /// not two. The pixels are then spent (`OwnedSurface`): a later raster of the same
    /// frame is that same image, and any other painting is refused.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo fails, or when the icon's pixels
    ///   were spent and another frame is asked for; 65 when an SVG fails.
    public func raster(at frame: BadgeFrameState? = nil, consumingIcon: Bool = false) throws(BadgeError) -> Raster {
        let frame = frame ?? self.frame
        if case .owned(let owned) = icon.pixels, owned.spent || (consumingIcon && paintsOntoIcon && frame == self.frame)
        {
            if owned.spend() {
                // The filters (if any) were applied to these very pixels by the builder.
                try paint(onto: owned.surface, at: frame, iconAlreadyThere: true)
            } else if frame != self.frame {
                throw .internalError("the icon's pixels were drawn on in place (pngData(consumingIcon:))")
            }
            return Raster(surface: owned.surface, restore: icon.straightRestore, color: icon.decoded.color)
        }
        let target = try ImageSurface(width: canvasWidth, height: canvasHeight)
        try paint(onto: target, at: frame)
        return Raster(surface: target, restore: icon.straightRestore, color: icon.decoded.color)
    }

    /// Whether the badges can be painted onto the icon's own pixels: the canvas is the
    /// icon where it is drawn, unclipped, and no badge reads the icon while it is
    /// painted (a band masked by its alpha).
    private var paintsOntoIcon: Bool {
        stillLayers.icon && icon.mask == .none
            && !badges.contains { $0.layout?.band != nil && $0.band?.followsIconAlpha == true }
            && icon.width == canvasWidth && icon.height == canvasHeight && icon.rect == canvasRect
    }

    /// Paints the scene at `frame` onto `target`, premultiplied ARGB32 of the canvas's
    /// size, and flushes it.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo fails; 65 when an SVG fails.
    func paint(onto target: ImageSurface, at frame: BadgeFrameState, iconAlreadyThere: Bool = false)
        throws(BadgeError)
    {
        let context = cairo_create(target.surface)!
        defer { cairo_destroy(context) }
        try ScenePainter.paint(
            self, at: frame, layers: stillLayers, into: context, vector: false, iconAlreadyThere: iconAlreadyThere)
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .internalError("Cairo: \(String(cString: cairo_status_to_string(status)))")
        }
        cairo_surface_flush(target.surface)
    }

    /// The scene as PNG bytes (`Raster.pngData`), at its own frame.
    ///
    /// - Parameter consumingIcon: the caller wants this one raster output only, so
    ///   the badges may be painted onto the decoded icon itself (see `raster`).
    /// - Parameter encoderThreads: threads for a large PNG (0: one per available
    ///   CPU); the bytes do not depend on it.
    /// - Throws: `BadgeError.internalError` when Cairo or libpng fail.
    public func pngData(compression: PNGCompression = .default, consumingIcon: Bool = false, encoderThreads: Int = 0)
        throws(BadgeError) -> [UInt8]
    {
        try raster(consumingIcon: consumingIcon).pngData(compression: compression, encoderThreads: encoderThreads)
    }

    /// The scene's pixels at `frame` (its own by default), straight-alpha RGBA, as
    /// `pngData` writes them (for comparisons, tests and animation frames; a frame at
    /// rest is exactly the still image's pixels).
    ///
    /// - Throws: `BadgeError.internalError` when Cairo fails; 65 when an SVG fails.
    public func pixels(at frame: BadgeFrameState? = nil) throws(BadgeError) -> PixelBuffer {
        try raster(at: frame).pixels()
    }
}
