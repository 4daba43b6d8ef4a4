import BadgeCore
internal import CCairo

/// Draws one badge of a scene onto any Cairo context (image, SVG or PDF surface):
/// its shape and border, its image, its text; `ScenePainter` calls it for each badge.
enum BadgePainter {
    /// Draws `badge`, laid out as `layout`, in its kind's way: in greys, or as its
    /// shape, border, image and text.
    ///
    /// - Throws: 65 when an SVG badge image fails to render (librsvg limits);
    ///   `internalError` when Cairo fails.
    static func paint(
        _ badge: Scene.Badge, _ layout: BadgeLayout, in scene: Scene, into cr: OpaquePointer, vector: Bool
    ) throws(BadgeError) {
        if badge.paint.greyscale {
            try paintGreyscaleBadge(badge, layout, in: scene, into: cr)
        } else {
            try paintBadge(badge, layout, in: scene, into: cr, vector: vector)
        }
    }

    /// Draws the badge into its own pixels, turns them grey (`IconFilter.greyscale`:
    /// Rec. 709 luma on the premultiplied values, which is the premultiplied luma),
    /// and composites them at a whole-pixel offset. Every kind of badge, colour
    /// glyphs and badge images included, comes out grey; in SVG and PDF the badge is
    /// then an embedded image at the canvas's pixel size.
    ///
    /// - Throws: as `paintBadge`; `BadgeError.internalError` when Cairo fails.
    private static func paintGreyscaleBadge(
        _ badge: Scene.Badge, _ layout: BadgeLayout, in scene: Scene, into cr: OpaquePointer
    ) throws(BadgeError) {
        let rect = layout.badgeRect
        let x0 = max(0, Int(rect.minX.rounded(.down)))
        let y0 = max(0, Int(rect.minY.rounded(.down)))
        let x1 = min(scene.canvasWidth, Int(rect.maxX.rounded(.up)))
        let y1 = min(scene.canvasHeight, Int(rect.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        let layer = try ImageSurface(width: x1 - x0, height: y1 - y0)
        let context = cairo_create(layer.surface)!
        cairo_translate(context, Double(-x0), Double(-y0))
        do {
            try paintBadge(badge, layout, in: scene, into: context, vector: false)
        } catch {
            cairo_destroy(context)
            throw error
        }
        cairo_destroy(context)
        cairo_surface_flush(layer.surface)
        layer.apply([.greyscale])
        cairo_save(cr)
        cairo_set_source_surface(cr, layer.surface, Double(x0), Double(y0))
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Draws the badge: its shape and border, or its image, then its text.
    ///
    /// - Throws: 65 when an SVG badge image fails to render (librsvg limits).
    private static func paintBadge(
        _ badge: Scene.Badge, _ layout: BadgeLayout, in scene: Scene, into cr: OpaquePointer, vector: Bool
    ) throws(BadgeError) {
        if let band = layout.band {
            try paintBand(badge, layout, band, icon: scene.icon, into: cr, vector: vector)
            return
        }
        if let shield = layout.shield {
            paintShield(badge, layout, shield, into: cr)
            return
        }
        let rect = layout.badgeRect
        cairo_save(cr)
        if let image = badge.image {
            try paintImage(image, in: rect, into: cr, vector: vector, conversion: scene.colorConversion)
        } else if let footprint = badge.footprint {
            outline(cr, footprint)
            setColor(cr, badge.paint.background)
            cairo_fill(cr)
            strokeBorder(cr, rect, layout, color: badge.paint.borderColor)
        }
        if let text = badge.text, let origin = layout.textOrigin {
            paintLabel(text, at: origin, badge.paint, into: cr)
        }
        cairo_restore(cr)
    }

    /// The border of a rounded badge `rect`, inside its bounds: the path inset by half
    /// the stroke width (pixels); nothing when the layout has no border.
    static func strokeBorder(_ cr: OpaquePointer, _ rect: Rect, _ layout: BadgeLayout, color: Color) {
        guard layout.borderWidth > 0 else { return }
        let half = layout.borderWidth / 2
        let inner = Rect(
            x: rect.x + half, y: rect.y + half, width: rect.width - layout.borderWidth,
            height: rect.height - layout.borderWidth)
        roundedRectangle(cr, inner, radius: max(0, layout.cornerRadius - half))
        setColor(cr, color)
        cairo_set_line_width(cr, layout.borderWidth)
        cairo_stroke(cr)
    }

    /// Draws a badge's text in its colour, or cuts it out of what is drawn (Cairo's
    /// DEST_OUT) when `paint.knocksOutText`; the operator is OVER again afterwards.
    /// `alongRotatedBaseline`: the text is drawn under a rotation (`paintText`).
    static func paintLabel(
        _ text: ShapedText, at origin: Point, _ paint: Scene.Badge.Paint, into cr: OpaquePointer,
        alongRotatedBaseline: Bool = false
    ) {
        if paint.knocksOutText {
            cairo_set_operator(cr, CAIRO_OPERATOR_DEST_OUT)
            paintText(text, at: origin, color: .black, into: cr, alongRotatedBaseline: alongRotatedBaseline)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        } else {
            paintText(text, at: origin, color: paint.textColor, into: cr, alongRotatedBaseline: alongRotatedBaseline)
        }
    }

    /// Draws a badge image into `rect`; with `conversion`, a copy of its pixels
    /// converted from sRGB into the icon's colour space (the image may be shared
    /// through the icon cache, so it is never converted in place).
    private static func paintImage(
        _ image: LoadedIcon, in rect: Rect, into cr: OpaquePointer, vector: Bool, conversion: ColorConversion?
    ) throws(BadgeError) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cr)
        if vector, let svg = image.svg {
            try svg.render(into: cr, rect: rect)
        } else {
            cairo_translate(cr, rect.x, rect.y)
            cairo_scale(cr, rect.width / Double(image.width), rect.height / Double(image.height))
            var pixels = image.surface
            if let conversion {
                let copy = try pixels.copy()
                conversion.convert(copy)
                pixels = copy
            }
            cairo_set_source_surface(cr, pixels.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BEST)
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_paint(cr)
        }
    }

    /// Draws `text` with its pen at `origin`. With `alongRotatedBaseline` (a
    /// ribbon's text, drawn under a rotation, its glyphs at exact positions:
    /// `ShapedText.exactPositions`) the glyphs are filled as outlines at those
    /// positions: Cairo 1.16's image backend would put each glyph's bitmap at whole
    /// device pixels, rounding each glyph's x and y apart, so the gaps between letters
    /// along the band differed by up to 2 px ("DEB UG" at 45°). One subpixel rule in
    /// both directions keeps them even. Vector surfaces keep the glyphs as text
    /// either way, and so do colour and bitmap glyphs, which have no outline.
    static func paintText(
        _ text: ShapedText, at origin: Point, color: Color, into cr: OpaquePointer, alongRotatedBaseline: Bool = false
    ) {
        setColor(cr, color)
        let outlines = alongRotatedBaseline && isRasterTarget(cr)
        for run in text.runs {
            let scaled = run.face.scaledFont(pixelSize: text.pixelSize)
            cairo_set_scaled_font(cr, scaled)
            let glyphs = run.glyphs.map {
                cairo_glyph_t(index: UInt($0.index), x: origin.x + $0.x, y: origin.y + $0.y)
            }
            if outlines, run.face.isScalable, !run.face.hasColor {
                cairo_new_path(cr)
                glyphs.withUnsafeBufferPointer { cairo_glyph_path(cr, $0.baseAddress, Int32($0.count)) }
                cairo_fill(cr)
            } else {
                glyphs.withUnsafeBufferPointer { cairo_show_glyphs(cr, $0.baseAddress, Int32($0.count)) }
            }
            cairo_scaled_font_destroy(scaled)
        }
    }

    /// Whether `cr` draws into pixels (an image surface, or a group pushed on one):
    /// SVG and PDF keep glyphs as text.
    static func isRasterTarget(_ cr: OpaquePointer) -> Bool {
        cairo_surface_get_type(cairo_get_group_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE
    }

    /// A badge's footprint as the current path: its rounded rectangle, or its band's
    /// polygon (the caller clips to the band's shape first).
    static func outline(_ cr: OpaquePointer, _ footprint: Scene.Badge.Footprint) {
        switch footprint {
        case .roundedRect(let rect, let radius): roundedRectangle(cr, rect, radius: radius)
        case .band(let polygon, _): polygonPath(cr, polygon)
        }
    }

    /// A rectangle with circular corners of `radius` (0 gives sharp corners).
    static func roundedRectangle(_ cr: OpaquePointer, _ rect: Rect, radius: Double) {
        cairo_new_sub_path(cr)
        guard radius > 0 else {
            cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
            return
        }
        let r = min(radius, min(rect.width, rect.height) / 2)
        let halfPi = Double.pi / 2
        cairo_arc(cr, rect.maxX - r, rect.minY + r, r, -halfPi, 0)
        cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, halfPi)
        cairo_arc(cr, rect.minX + r, rect.maxY - r, r, halfPi, 2 * halfPi)
        cairo_arc(cr, rect.minX + r, rect.minY + r, r, 2 * halfPi, 3 * halfPi)
        cairo_close_path(cr)
    }

    /// Sets a straight-alpha colour; Cairo premultiplies when compositing.
    static func setColor(_ cr: OpaquePointer, _ color: Color) {
        cairo_set_source_rgba(
            cr, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255,
            Double(color.alpha) / 255)
    }
}
