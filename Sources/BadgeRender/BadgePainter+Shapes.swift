import BadgeCore
internal import CCairo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension BadgePainter {
    /// Draws a ribbon or banner: the band, its border along both long sides, and its
    /// text rotated along it, all in one group that is cut to the platform's shape
    /// (and, where the icon's pixels are its shape, masked by the icon's alpha), so
    /// every pixel outside the band keeps the icon's value.
    ///
    /// In SVG and PDF the band and the text stay vectors (glyphs are drawn through
    /// Cairo's scaled font under a rotated matrix); the alpha mask is the icon's
    /// pixels, or for an SVG icon its own vector drawing.
    ///
    /// - Throws: `BadgeError.internalError` when the icon's pixels cannot be had.
    static func paintBand(
        _ badge: Scene.Badge, _ layout: BadgeLayout, _ band: BandLayout, icon: Scene.IconLayer,
        into cr: OpaquePointer, vector: Bool
    ) throws(BadgeError) {
        let paint = badge.paint
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if let clip = badge.band?.clip {
            shapePath(cr, clip)
            cairo_clip(cr)
        }
        cairo_push_group(cr)
        let footprint = Scene.Badge.Footprint.band(polygon: band.polygon, clip: badge.band?.clip)
        outline(cr, footprint)
        setColor(cr, paint.background)
        cairo_fill(cr)
        if layout.borderWidth > 0 {
            // Inside the band: clip to it and stroke at twice the width.
            cairo_save(cr)
            outline(cr, footprint)
            cairo_clip(cr)
            outline(cr, footprint)
            setColor(cr, paint.borderColor)
            cairo_set_line_width(cr, 2 * layout.borderWidth)
            cairo_stroke(cr)
            cairo_restore(cr)
        }
        if let text = badge.text, let origin = band.textOrigin {
            cairo_save(cr)
            cairo_translate(cr, band.centre.x, band.centre.y)
            cairo_rotate(cr, band.angle)
            paintLabel(text, at: origin, paint, into: cr, alongRotatedBaseline: band.angle != 0)
            cairo_restore(cr)
        }
        let drawn = cairo_pop_group(cr)!
        defer { cairo_pattern_destroy(drawn) }
        cairo_set_source(cr, drawn)
        guard badge.band?.followsIconAlpha == true else {
            cairo_paint(cr)
            return
        }
        if vector, let svg = icon.vector {
            // An SVG icon drawn as vectors masks the band with its own vector drawing, so
            // the mask stays sharp at any zoom.
            cairo_push_group(cr)
            try svg.render(into: cr, rect: layout.iconRect)
            let mask = cairo_pop_group(cr)!
            defer { cairo_pattern_destroy(mask) }
            cairo_set_source(cr, drawn)
            cairo_mask(cr, mask)
        } else if let mask = try alphaMask(icon.decoded.surface) {
            cairo_mask_surface(cr, mask, layout.iconRect.x, layout.iconRect.y)
            cairo_surface_destroy(mask)
        } else {
            cairo_paint(cr)
        }
    }

    /// The icon's alpha alone, as a Cairo A8 surface the caller destroys, when some
    /// pixel is not opaque (a band is then masked by it); nil when every pixel is
    /// opaque, so an opaque icon adds no mask image to SVG and PDF. Alpha alone: the
    /// mask embedded in an SVG or PDF carries no colour (an icon shared between jobs
    /// is unfiltered while this job's is filtered; the mask must not tell).
    ///
    /// - Throws: `BadgeError.internalError` when Cairo cannot make the surface.
    private static func alphaMask(_ pixels: ImageSurface) throws(BadgeError) -> OpaquePointer? {
        var opaque = true
        for row in 0..<pixels.height where opaque {
            let words = UnsafeRawPointer(pixels.data + row * pixels.stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<pixels.width where words[column] >> 24 != 0xFF {
                opaque = false
                break
            }
        }
        guard !opaque else { return nil }
        let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(pixels.width), Int32(pixels.height))!
        guard cairo_surface_status(mask) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(mask) else {
            cairo_surface_destroy(mask)
            throw .internalError("Cairo could not make a \(pixels.width) × \(pixels.height) alpha mask")
        }
        let stride = Int(cairo_image_surface_get_stride(mask))
        for row in 0..<pixels.height {
            let words = UnsafeRawPointer(pixels.data + row * pixels.stride).assumingMemoryBound(to: UInt32.self)
            let alphas = data + row * stride
            for column in 0..<pixels.width { alphas[column] = UInt8(words[column] >> 24) }
        }
        cairo_surface_mark_dirty(mask)
        return mask
    }

    /// Draws a shield: the rounded outline filled in two colours (label part, message
    /// part), the border, and both texts on one baseline.
    static func paintShield(_ badge: Scene.Badge, _ layout: BadgeLayout, _ shield: ShieldParts, into cr: OpaquePointer)
    {
        let paint = badge.paint
        let rect = layout.badgeRect
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_save(cr)
        if let footprint = badge.footprint { outline(cr, footprint) }
        cairo_clip(cr)
        for (part, color) in [(shield.labelRect, paint.labelBackground), (shield.messageRect, paint.background)] {
            cairo_rectangle(cr, part.x, part.y, part.width, part.height)
            setColor(cr, color)
            cairo_fill(cr)
        }
        cairo_restore(cr)
        strokeBorder(cr, rect, layout, color: paint.borderColor)
        for (text, origin) in [(badge.text, shield.labelOrigin), (badge.message, shield.messageOrigin)] {
            if let text { paintLabel(text, at: origin, paint, into: cr) }
        }
    }

    /// A closed polygon (pixels).
    static func polygonPath(_ cr: OpaquePointer, _ points: [Point]) {
        cairo_new_path(cr)
        for (index, point) in points.enumerated() {
            if index == 0 { cairo_move_to(cr, point.x, point.y) } else { cairo_line_to(cr, point.x, point.y) }
        }
        cairo_close_path(cr)
    }

    /// The outline of a platform's mask as a path: its rectangle, its superellipse
    /// as a 720-point polygon (within 0.01 px of the curve on a 1024 px icon), or,
    /// for an icon's own pixels, their bounding box (the alpha mask does the rest).
    static func shapePath(_ cr: OpaquePointer, _ mask: ShapeMask) {
        cairo_new_path(cr)
        switch mask.kind {
        case .rectangle(let rect):
            cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        case .superellipse(let center, let radiusX, let radiusY, let exponent):
            let steps = 720
            for step in 0..<steps {
                let theta = Double(step) / Double(steps) * 2 * Double.pi
                let c = cos(theta)
                let s = sin(theta)
                let x = center.x + radiusX * (c < 0 ? -1 : 1) * pow(abs(c), 2 / exponent)
                let y = center.y + radiusY * (s < 0 ? -1 : 1) * pow(abs(s), 2 / exponent)
                if step == 0 { cairo_move_to(cr, x, y) } else { cairo_line_to(cr, x, y) }
            }
            cairo_close_path(cr)
        case .rows:
            let box = mask.bounds
            cairo_rectangle(cr, box.x, box.y, box.width, box.height)
        }
    }
}
