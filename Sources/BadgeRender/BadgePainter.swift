import BadgeCore
internal import CCairo

/// Draws a composition onto any Cairo context (image, SVG or PDF surface): one
/// drawing code path for every output format.
enum BadgePainter {
    /// Draws the icon, then the badge (shape, border, text or image).
    ///
    /// - Throws: 65 when an SVG icon or badge image fails to render (librsvg limits).
    ///
    /// - Parameter vector: whether the target is an SVG or PDF surface: SVG icons
    ///   and badge images are then drawn as vectors, else as their pixels.
    /// - Parameter iconAlreadyThere: the target already holds the icon's pixels.
    static func paint(_ composition: Composition, into cr: OpaquePointer, vector: Bool, iconAlreadyThere: Bool = false)
        throws(BadgeError)
    {
        if !iconAlreadyThere { try paintIcon(composition, into: cr, vector: vector) }
        guard let layout = composition.layout else { return }
        let style = composition.style
        let rect = layout.badgeRect
        cairo_save(cr)
        if let image = composition.badgeImage {
            try paintImage(image, in: rect, into: cr, vector: vector)
        } else {
            roundedRectangle(cr, rect, radius: layout.cornerRadius)
            setColor(cr, style.background)
            cairo_fill(cr)
            if layout.borderWidth > 0 {
                // Inside the bounds: the path is inset by half the stroke width.
                let half = layout.borderWidth / 2
                let inner = Rect(
                    x: rect.x + half, y: rect.y + half, width: rect.width - layout.borderWidth,
                    height: rect.height - layout.borderWidth)
                roundedRectangle(cr, inner, radius: max(0, layout.cornerRadius - half))
                setColor(cr, style.borderColor)
                cairo_set_line_width(cr, layout.borderWidth)
                cairo_stroke(cr)
            }
        }
        if let text = composition.text, let origin = layout.textOrigin {
            paintText(text, at: origin, color: style.textColor, into: cr)
        }
        cairo_restore(cr)
    }

    private static func paintIcon(_ composition: Composition, into cr: OpaquePointer, vector: Bool) throws(BadgeError) {
        let iconRect =
            composition.layout?.iconRect
            ?? Rect(
                x: 0, y: 0, width: Double(composition.icon.width), height: Double(composition.icon.height))
        cairo_save(cr)
        switch composition.iconMask {
        case .none:
            break
        case .circle:
            let radius = min(iconRect.width, iconRect.height) / 2
            cairo_arc(cr, iconRect.center.x, iconRect.center.y, radius, 0, 2 * Double.pi)
            cairo_clip(cr)
        case .rounded(let points):
            roundedRectangle(
                cr, iconRect, radius: min(points * composition.scale, min(iconRect.width, iconRect.height) / 2))
            cairo_clip(cr)
        }
        if vector, let svg = composition.icon.svg {
            do {
                try svg.document().render(into: cr, rect: iconRect)
            } catch {
                cairo_restore(cr)
                throw error
            }
        } else {
            do {
                cairo_set_source_surface(cr, try composition.icon.pixels().surface, iconRect.x, iconRect.y)
            } catch {
                cairo_restore(cr)
                throw error
            }
            cairo_paint(cr)
        }
        cairo_restore(cr)
    }

    private static func paintImage(_ image: LoadedIcon, in rect: Rect, into cr: OpaquePointer, vector: Bool)
        throws(BadgeError)
    {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cr)
        if vector, let svg = image.svg {
            try svg.document().render(into: cr, rect: rect)
        } else {
            cairo_translate(cr, rect.x, rect.y)
            cairo_scale(cr, rect.width / Double(image.width), rect.height / Double(image.height))
            cairo_set_source_surface(cr, try image.pixels().surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BEST)
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_paint(cr)
        }
    }

    private static func paintText(_ text: ShapedText, at origin: Point, color: Color, into cr: OpaquePointer) {
        setColor(cr, color)
        for run in text.runs {
            let scaled = run.face.scaledFont(pixelSize: text.pixelSize)
            cairo_set_scaled_font(cr, scaled)
            let glyphs = run.glyphs.map {
                cairo_glyph_t(index: UInt($0.index), x: origin.x + $0.x, y: origin.y + $0.y)
            }
            glyphs.withUnsafeBufferPointer { cairo_show_glyphs(cr, $0.baseAddress, Int32($0.count)) }
            cairo_scaled_font_destroy(scaled)
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
