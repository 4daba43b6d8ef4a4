import BadgeCore
internal import CCairo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paints a `ContactSheet`: each tile composed as the device shows it (its layers
/// back to front under the device's mask, recoloured as the system does, on its
/// backdrop), then the sheet: the title and notes, each section's groups flowing in
/// rows, each tile at 1:1 and, when small, at 2× with every pixel a 2 × 2 block,
/// captions under them. A function of the sheet: the same sheet gives the same bytes
/// (the bundled fonts, no fontconfig, PNG written by the project's encoder).
///
/// Images are read as the renderer reads icons (`IconLoader`: PNG in process, other
/// formats and SVG in the isolated decoder), within `limits`, each once per size.
public struct ContactSheetPainter {
    /// Bounds on the images read.
    let limits: ImageLimits
    private let renderer: Renderer
    private let regular: FontChain
    private let bold: FontChain
    private var images: [String: ImageSurface] = [:]
    /// Drawings already drawn, by size and name (the drawing compared in full).
    private var drawings: [String: (AndroidDrawing, ImageSurface)] = [:]

    /// The sheet's colours: white paper, iOS's label colours, and a red for layers
    /// not drawn.
    static let paper = Color.white
    static let ink = Color(rgb: 0x1C1C1E)
    static let secondaryInk = Color(rgb: 0x6E6E73)
    static let warningInk = Color(rgb: 0xB3261E)
    /// Spacing (pixels): the margin, between groups, between tiles, around an image on
    /// its backdrop.
    static let margin = 24.0
    static let groupGap = 20.0
    static let tileGap = 10.0
    static let backdropPadding = 8.0
    /// The narrowest sheet (pixels); a wider group widens it.
    static let minimumWidth = 1200.0

    /// A painter reading images within `limits`.
    ///
    /// - Throws: `BadgeError.internalError` when FreeType cannot start; font errors
    ///   of the bundled fonts (none in practice).
    public init(limits: ImageLimits) throws(BadgeError) {
        self.limits = limits
        renderer = try Renderer()
        regular = try renderer.fontChain(
            RenderRequest.Badge(content: .dot, font: .bundled(.regular), systemFallback: false))
        bold = try renderer.fontChain(RenderRequest.Badge(content: .dot, font: .bundled(.bold), systemFallback: false))
    }

    /// The sheet as a PNG.
    ///
    /// - Throws: an image's read and decode errors (65, 66); 65 when the sheet would
    ///   be taller or wider than Cairo's largest surface.
    public mutating func pngData(_ sheet: ContactSheet) throws(BadgeError) -> [UInt8] {
        try ImageFile.pngData(of: try pixels(sheet))
    }

    /// Each tile composed at its own size, as a PNG, in `sheet.tiles` order (the HTML
    /// page shows them at 1:1 and 2×).
    ///
    /// - Throws: as `pngData`.
    public mutating func tilePNGs(_ sheet: ContactSheet) throws(BadgeError) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for tile in sheet.tiles {
            out.append(try ImageFile.pngData(of: try composed(tile).pixelBuffer()))
        }
        return out
    }

    /// One tile composed at its own size, without its backdrop, held in memory
    /// (the pixels `tilePNGs` writes as a PNG).
    ///
    /// - Throws: as `pngData`.
    public mutating func tileImage(_ tile: ContactSheet.Tile) throws(BadgeError) -> DrawnImage {
        DrawnImage(try composed(tile))
    }

    /// The sheet's pixels (straight alpha; opaque).
    ///
    /// - Throws: as `pngData`.
    public mutating func pixels(_ sheet: ContactSheet) throws(BadgeError) -> PixelBuffer {
        let layout = SheetLayout(sheet, measure: { self.advance($0, bold: $1, size: $2) })
        guard layout.width <= Double(ImageLimits.cairoMaxSide), layout.height <= Double(ImageLimits.cairoMaxSide) else {
            throw .badInput(
                path: "",
                reason:
                    "the preview would be \(Int(layout.width)) × \(Int(layout.height)) px, over Cairo's \(ImageLimits.cairoMaxSide); preview fewer sets at once"
            )
        }
        let surface = try ImageSurface(width: Int(layout.width), height: Int(layout.height))
        let cr = cairo_create(surface.surface)!
        defer { cairo_destroy(cr) }
        BadgePainter.setColor(cr, Self.paper)
        cairo_paint(cr)
        for text in layout.texts {
            let shaped = TextShaper.shape(
                text.string, chain: text.bold ? bold : regular, pixelSize: text.size, features: [])
            BadgePainter.paintText(shaped, at: text.origin, color: text.color, into: cr)
        }
        for view in layout.views {
            let tile = sheet.sections[view.section].groups[view.group].tiles[view.tile]
            let image = try composed(tile)
            let padding = Self.backdropPadding * Double(view.zoom)
            let box = Rect(
                x: view.origin.x, y: view.origin.y, width: Double(tile.side * view.zoom) + 2 * padding,
                height: Double(tile.side * view.zoom) + 2 * padding)
            cairo_rectangle(cr, box.x, box.y, box.width, box.height)
            BadgePainter.setColor(cr, tile.backdrop)
            cairo_fill(cr)
            cairo_save(cr)
            cairo_translate(cr, box.x + padding, box.y + padding)
            cairo_scale(cr, Double(view.zoom), Double(view.zoom))
            cairo_set_source_surface(cr, image.surface, 0, 0)
            // Each pixel a 2 × 2 block: the 2× view shows the pixels, not a smoothing.
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
            cairo_paint(cr)
            cairo_restore(cr)
        }
        cairo_surface_flush(surface.surface)
        return surface.pixelBuffer()
    }

    /// The text's advance at `size` (pixels).
    private func advance(_ text: String, bold: Bool, size: Double) -> Double {
        TextShaper.shape(text, chain: bold ? self.bold : regular, pixelSize: size, features: []).metrics.advance
    }

    /// `tile` as the device shows it, `side` × `side` pixels, without its backdrop:
    /// the layers under the mask, recoloured by the filter.
    ///
    /// - Throws: an image's read and decode errors.
    mutating func composed(_ tile: ContactSheet.Tile) throws(BadgeError) -> ImageSurface {
        let side = Double(tile.side)
        let surface = try ImageSurface(width: tile.side, height: tile.side)
        let cr = cairo_create(surface.surface)!
        defer { cairo_destroy(cr) }
        Self.maskPath(cr, tile.mask, side: side)
        cairo_clip(cr)
        if case .tinted = tile.filter {
            // A tinted icon is seen over black: its own background is black there.
            BadgePainter.setColor(cr, .black)
            cairo_paint(cr)
            cairo_push_group(cr)
        }
        for layer in tile.layers {
            switch layer {
            case .fill(let color, let rect):
                cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
                BadgePainter.setColor(cr, color)
                cairo_fill(cr)
            case .image(let source, let rect):
                guard let image = try image(source, rect) else { continue }
                cairo_save(cr)
                cairo_set_source_surface(cr, image.surface, rect.x, rect.y)
                cairo_paint(cr)
                cairo_restore(cr)
            case .alpha(let source, let rect, let color):
                guard let image = try image(source, rect) else { continue }
                BadgePainter.setColor(cr, color)
                cairo_mask_surface(cr, image.surface, rect.x, rect.y)
            case .missing(_, let rect):
                Self.hatch(cr, rect)
            }
        }
        if case .tinted(let tint) = tile.filter {
            let group = cairo_pop_group(cr)!
            defer { cairo_pattern_destroy(group) }
            let layer = try ImageSurface(width: tile.side, height: tile.side)
            let inner = cairo_create(layer.surface)!
            cairo_set_source(inner, group)
            cairo_paint(inner)
            cairo_destroy(inner)
            cairo_surface_flush(layer.surface)
            Self.tint(layer, tint)
            cairo_set_source_surface(cr, layer.surface, 0, 0)
            cairo_paint(cr)
        }
        cairo_surface_flush(surface.surface)
        return surface
    }

    /// The image of `source` resampled (an SVG rendered) to `rect`'s size (whole
    /// pixels, at least 1); nil for an empty rectangle. Each image and size is decoded
    /// once.
    ///
    /// - Throws: the image's read and decode errors.
    private mutating func image(_ source: ContactSheet.Source, _ rect: Rect) throws(BadgeError) -> ImageSurface? {
        let width = Int(rect.width.rounded())
        let height = Int(rect.height.rounded())
        guard width > 0, height > 0, width <= ImageLimits.cairoMaxSide, height <= ImageLimits.cairoMaxSide else {
            return nil
        }
        switch source {
        case .file(let path):
            // A file is read as an icon is: an SVG goes to the SVG renderer.
            let key = "\(width)x\(height):file:\(path)"
            if let cached = images[key] { return cached }
            var sizing = ImageSizing()
            sizing.size = (width, height)
            let surface = try IconLoader.load(path, limits: limits, sizing: sizing).surface
            images[key] = surface
            return surface
        case .drawing(let drawing, let name):
            // An Android drawable is drawn here, natively: never by the SVG renderer.
            let key = "\(width)x\(height):\(name)"
            if let (cached, surface) = drawings[key], cached == drawing { return surface }
            let surface = try AndroidDrawingPainter.surface(
                drawing, width: width, height: height, name: name, limits: limits)
            drawings[key] = (drawing, surface)
            return surface
        }
    }

    /// iOS 18's tinted look on premultiplied pixels: each pixel's Rec. 709 luma
    /// (`Rec709`, on the premultiplied values, so it is the premultiplied luma) times
    /// the tint colour, alpha kept.
    static func tint(_ layer: ImageSurface, _ tint: Color) {
        for row in 0..<layer.height {
            let words = UnsafeMutableRawPointer(layer.data + row * layer.stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<layer.width {
                let word = words[column]
                let luma = UInt32(
                    Rec709.luma(
                        red: UInt8((word >> 16) & 0xFF), green: UInt8((word >> 8) & 0xFF), blue: UInt8(word & 0xFF)))
                func scaled(_ channel: UInt8) -> UInt32 { (luma * UInt32(channel) + 127) / 255 }
                words[column] =
                    (word & 0xFF00_0000) | scaled(tint.red) << 16 | scaled(tint.green) << 8 | scaled(tint.blue)
            }
        }
        layer.markDirty()
    }

    /// A layer that cannot be drawn: hatched at 45° every 6 px in translucent grey, no
    /// fill, so the layers under it still show and it is never taken for a drawn layer.
    static func hatch(_ cr: OpaquePointer, _ rect: Rect) {
        cairo_save(cr)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cr)
        BadgePainter.setColor(cr, Color(red: 128, green: 128, blue: 128, alpha: 170))
        cairo_set_line_width(cr, 1.5)
        var offset = -rect.height
        while offset < rect.width {
            cairo_move_to(cr, rect.x + offset, rect.maxY)
            cairo_line_to(cr, rect.x + offset + rect.height, rect.y)
            offset += 6
        }
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// A device's mask as the current path, in a `side` × `side` square.
    static func maskPath(_ cr: OpaquePointer, _ mask: ContactSheet.Mask, side: Double) {
        cairo_new_path(cr)
        switch mask {
        case .none:
            cairo_rectangle(cr, 0, 0, side, side)
        case .circle:
            cairo_arc(cr, side / 2, side / 2, side / 2, 0, 2 * Double.pi)
        case .appleSquare:
            BadgePainter.shapePath(
                cr,
                ShapeMask(
                    .superellipse(
                        center: Point(x: side / 2, y: side / 2), radiusX: side / 2, radiusY: side / 2, exponent: 5),
                    width: Int(side), height: Int(side)))
        case .android(.circle):
            // AOSP's circle is two arcs of radius 50: the same circle.
            cairo_arc(cr, side / 2, side / 2, side / 2, 0, 2 * Double.pi)
        case .android(let shape):
            cairo_save(cr)
            cairo_scale(cr, side / 100, side / 100)
            for command in PathData.commands(shape.pathData) {
                switch command {
                case .move(let p): cairo_move_to(cr, p.x, p.y)
                case .line(let p): cairo_line_to(cr, p.x, p.y)
                case .curve(let a, let b, let p): cairo_curve_to(cr, a.x, a.y, b.x, b.y, p.x, p.y)
                case .close: cairo_close_path(cr)
                }
            }
            cairo_restore(cr)
        }
    }
}
