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
        if !iconAlreadyThere, composition.layers != .moving { try paintIcon(composition, into: cr, vector: vector) }
        // Every badge in order; a hidden one (a count of 0) draws nothing. Only the
        // first moves (its frame state); an animated SVG draws it apart from the rest.
        for (index, shown) in composition.badges.enumerated() {
            if index == 0, composition.layers == .still { continue }
            if index > 0, composition.layers == .moving { break }
            let state = shown.frameState
            // A pop's first frames show the old value (composed apart; none when hidden).
            var badge = shown
            if state.showsOldValue {
                guard let previous = shown.previous else { continue }
                badge = previous
            }
            guard let layout = badge.layout else { continue }
            // Fully faded, or scaled to nothing (a curve through y = 3): nothing drawn.
            guard state.opacity > 0, abs(state.scale) > 1e-9 else { continue }
            if state == .rest {
                try paintBadgeAnyKind(badge, layout, into: cr, vector: vector)
                continue
            }
            // A frame of an animation: the badge scaled about its centre, as vectors
            // (never its pixels resampled), and faded as one layer, so that where its
            // shape and text overlap the text does not show through.
            cairo_save(cr)
            let centre = layout.band?.centre ?? layout.badgeRect.center
            cairo_translate(cr, centre.x, centre.y)
            cairo_scale(cr, state.scale, state.scale)
            cairo_translate(cr, -centre.x, -centre.y)
            if state.opacity < 1 { cairo_push_group(cr) }
            do {
                try paintBadgeAnyKind(badge, layout, into: cr, vector: vector)
            } catch {
                if state.opacity < 1 { cairo_pattern_destroy(cairo_pop_group(cr)) }
                cairo_restore(cr)
                throw error
            }
            if state.opacity < 1 {
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, state.opacity)
            }
            cairo_restore(cr)
        }
    }

    /// One badge as its kind draws it: greyscale, or shape, border, image and text.
    private static func paintBadgeAnyKind(
        _ badge: Composition, _ layout: BadgeLayout, into cr: OpaquePointer, vector: Bool
    ) throws(BadgeError) {
        if badge.greyscaleBadge {
            try paintGreyscaleBadge(badge, layout, into: cr)
        } else {
            try paintBadge(badge, layout, into: cr, vector: vector)
        }
    }

    /// Draws the badge into its own pixels, turns them grey (`IconFilter.greyscale`:
    /// Rec. 709 luma on the premultiplied values, which is the premultiplied luma),
    /// and composites them at a whole-pixel offset. Every kind of badge, colour
    /// glyphs and badge images included, comes out grey; in SVG and PDF the badge is
    /// then an embedded image at the canvas's pixel size.
    ///
    /// - Throws: as `paintBadge`; `BadgeError.internalError` when Cairo fails.
    private static func paintGreyscaleBadge(_ composition: Composition, _ layout: BadgeLayout, into cr: OpaquePointer)
        throws(BadgeError)
    {
        let rect = layout.badgeRect
        let x0 = max(0, Int(rect.minX.rounded(.down)))
        let y0 = max(0, Int(rect.minY.rounded(.down)))
        let x1 = min(composition.canvasWidth, Int(rect.maxX.rounded(.up)))
        let y1 = min(composition.canvasHeight, Int(rect.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        let layer = try ImageSurface(width: x1 - x0, height: y1 - y0)
        let context = cairo_create(layer.surface)!
        cairo_translate(context, Double(-x0), Double(-y0))
        do {
            try paintBadge(composition, layout, into: context, vector: false)
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
        _ composition: Composition, _ layout: BadgeLayout, into cr: OpaquePointer, vector: Bool
    ) throws(BadgeError) {
        if let band = layout.band {
            try paintBand(composition, layout, band, into: cr, vector: vector)
            return
        }
        if let shield = layout.shield {
            paintShield(composition, layout, shield, into: cr)
            return
        }
        let style = composition.style
        let rect = layout.badgeRect
        cairo_save(cr)
        if let image = composition.badgeImage {
            try paintImage(image, in: rect, into: cr, vector: vector, conversion: composition.colorConversion)
        } else {
            roundedRectangle(cr, rect, radius: layout.cornerRadius)
            setColor(cr, style.background)
            cairo_fill(cr)
            strokeBorder(cr, rect, layout, color: style.borderColor)
        }
        if let text = composition.text, let origin = layout.textOrigin {
            paintLabel(text, at: origin, composition, into: cr)
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
    /// DEST_OUT) for `knockoutText`; the operator is OVER again afterwards.
    static func paintLabel(_ text: ShapedText, at origin: Point, _ composition: Composition, into cr: OpaquePointer) {
        if composition.knockoutText {
            cairo_set_operator(cr, CAIRO_OPERATOR_DEST_OUT)
            paintText(text, at: origin, color: .black, into: cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        } else {
            paintText(text, at: origin, color: composition.style.textColor, into: cr)
        }
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
        if vector, composition.drawsIconAsSVG, let svg = composition.icon.svg {
            do {
                try svg.document().render(into: cr, rect: iconRect)
            } catch {
                cairo_restore(cr)
                throw error
            }
        } else {
            do {
                cairo_set_source_surface(cr, try composition.iconPixelsToDraw().surface, iconRect.x, iconRect.y)
            } catch {
                cairo_restore(cr)
                throw error
            }
            cairo_paint(cr)
        }
        cairo_restore(cr)
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
            try svg.document().render(into: cr, rect: rect)
        } else {
            cairo_translate(cr, rect.x, rect.y)
            cairo_scale(cr, rect.width / Double(image.width), rect.height / Double(image.height))
            var pixels = try image.pixels()
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

    static func paintText(_ text: ShapedText, at origin: Point, color: Color, into cr: OpaquePointer) {
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
