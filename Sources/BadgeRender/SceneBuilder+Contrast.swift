import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SceneBuilder {
    /// The most icon pixels compared around one badge: beyond it every n-th row and
    /// column is taken (n the smallest that brings the count under), so a badge on a
    /// 1024 px icon costs what one on a 256 px icon does. The median moves by less
    /// than the measure's own rounding.
    static let maxContrastSamples = 40_000

    /// The badge's fill against the icon pixels around it (`BadgeVisibility`): the
    /// pixels within `surroundWidth` outside its footprint (cut to the band's clip for
    /// a ribbon or banner), at least half opaque (a transparent margin shows whatever
    /// is behind the icon, unknown here), compared with `fill` by ΔE_OK (the median
    /// over them) and by WCAG contrast (against their median luminance): medians, so
    /// a white glyph beside a red badge on a red icon does not hide that most of what
    /// surrounds it is red. Nil when no pixel qualifies.
    ///
    /// `pixels` are premultiplied ARGB32 in canvas coordinates offset by `origin`
    /// (the icon's rectangle on the canvas).
    static func contrast(
        of footprint: Scene.Badge.Footprint, badgeHeight: Double, fill: Color, pixels: ImageSurface,
        origin: Point
    ) -> BadgeContrast? {
        let reach = BadgeVisibility.surroundWidth(badgeHeight: badgeHeight)
        // The footprint's signed distance (pixels, negative inside) at a point, and
        // the box to look in.
        let distance: (Double, Double) -> Double
        var box: Rect
        var clip: ShapeMask?
        switch footprint {
        case .roundedRect(let rect, let radius):
            let r = min(radius, min(rect.width, rect.height) / 2)
            let halfWidth = rect.width / 2 - r
            let halfHeight = rect.height / 2 - r
            let centre = rect.center
            distance = { x, y in
                let qx = abs(x - centre.x) - halfWidth
                let qy = abs(y - centre.y) - halfHeight
                let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
                return outside + min(max(qx, qy), 0) - r
            }
            box = rect
        case .band(let polygon, let bandClip):
            guard polygon.count == 4 else { return nil }
            // The band is the strip between its two long sides: v0–v1 and v3–v2.
            let across = Point(x: polygon[3].x - polygon[0].x, y: polygon[3].y - polygon[0].y)
            let thickness = (across.x * across.x + across.y * across.y).squareRoot()
            guard thickness > 0 else { return nil }
            let normal = Point(x: across.x / thickness, y: across.y / thickness)
            let middle = Point(x: (polygon[0].x + polygon[3].x) / 2, y: (polygon[0].y + polygon[3].y) / 2)
            distance = { x, y in abs((x - middle.x) * normal.x + (y - middle.y) * normal.y) - thickness / 2 }
            box = Rect(x: 0, y: 0, width: Double(pixels.width) + origin.x, height: Double(pixels.height) + origin.y)
            clip = bandClip
        }
        let left = max(Int(origin.x), Int((box.minX - reach).rounded(.down)))
        let top = max(Int(origin.y), Int((box.minY - reach).rounded(.down)))
        let right = min(Int(origin.x) + pixels.width, Int((box.maxX + reach).rounded(.up)))
        let bottom = min(Int(origin.y) + pixels.height, Int((box.maxY + reach).rounded(.up)))
        guard right > left, bottom > top else { return nil }
        let area = (right - left) * (bottom - top)
        var step = 1
        while area / (step * step) > maxContrastSamples { step += 1 }
        let target = fill.oklab
        var deltas: [Double] = []
        var luminances: [Double] = []
        let base = UnsafeRawPointer(pixels.data)
        var y = top
        while y < bottom {
            var x = left
            while x < right {
                defer { x += step }
                let d = distance(Double(x) + 0.5, Double(y) + 0.5)
                guard d > 0, d <= reach else { continue }
                if let clip, !clip.contains(x: x, y: y) { continue }
                let word = base.loadUnaligned(
                    fromByteOffset: (y - Int(origin.y)) * pixels.stride + (x - Int(origin.x)) * 4, as: UInt32.self)
                let alpha = word >> 24
                guard alpha >= 128 else { continue }
                func straight(_ shift: UInt32) -> UInt8 {
                    UInt8(min(255, ((word >> shift) & 0xFF) * 255 / alpha))
                }
                let color = Color(red: straight(16), green: straight(8), blue: straight(0))
                let lab = color.oklab
                let dl = lab.l - target.l
                let da = lab.a - target.a
                let db = lab.b - target.b
                deltas.append((dl * dl + da * da + db * db).squareRoot())
                luminances.append(color.relativeLuminance)
            }
            y += step
        }
        guard !deltas.isEmpty else { return nil }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
        let luminance = median(luminances)
        let fillLuminance = fill.relativeLuminance
        return BadgeContrast(
            deltaE: median(deltas),
            ratio: (max(luminance, fillLuminance) + 0.05) / (min(luminance, fillLuminance) + 0.05),
            surroundLuminance: luminance, pixels: deltas.count)
    }
}

/// A contrasting ring round a badge: a border of its own colour inside the badge's
/// bounds (pixels), chosen by `SceneBuilder.contrasted`.
struct Ring {
    let width: Double
    let color: Color
}

extension SceneBuilder {
    /// The pixels the badges are measured against: the request's backdrop (what a
    /// launcher shows under a badge layer), else the icon as drawn; nil where there is
    /// nothing to measure for (a tinted set's greyscale badges and a monochrome
    /// layer's, which the system colours itself).
    ///
    /// - Throws: the backdrop's read and decode errors (65, 66).
    func measuredPixels(_ drawn: IconPixels, icon: LoadedIcon) throws(BadgeError) -> ImageSurface? {
        guard !request.output.greyscaleBadges, !request.output.knockoutText else {
            return nil
        }
        if let backdrop = request.icon.backdrop {
            var sizing = ImageSizing(scale: 1)
            sizing.size = (icon.width, icon.height)
            return try images.image(backdrop, sizing: sizing).image.surface
        }
        switch drawn {
        case .owned(let owned): return owned.surface
        case .shared(let surface): return surface
        }
    }

    /// `build`s the badge, measures it against `measured`, and when its fill is close to the icon around it notes so
    /// and, where its ring rule asks (`RingRule`: a dot that stands in for text, or
    /// every badge with `auto`) and no border is drawn already, builds it again with
    /// a ring (`BadgeVisibility.ringWidth`, `ringColor`).
    ///
    /// - Throws: `build`'s errors.
    func contrasted(
        _ asked: RenderRequest.Badge, measured: ImageSurface?,
        build: (Ring?) throws(BadgeError) -> Scene.Badge
    ) throws(BadgeError) -> Scene.Badge {
        let plain = try build(nil)
        guard let layout = plain.layout, plain.image == nil, let footprint = plain.footprint else { return plain }
        let bordered = layout.borderWidth > 0
        let edge = bordered ? plain.paint.borderColor : plain.paint.background
        // A band's height is its thickness; its rectangle is its bounds on the canvas.
        let height = layout.band?.thickness ?? layout.badgeRect.height
        let contrast: BadgeContrast?
        if let measured {
            contrast = Self.contrast(
                of: footprint, badgeHeight: height, fill: edge, pixels: measured,
                origin: Point(x: layout.iconRect.x, y: layout.iconRect.y))
        } else {
            contrast = nil
        }
        guard let contrast, contrast.isClose else { return plain.measured(contrast, note: nil) }
        let standsInForText = plain.isDot && plain.notes.contains { if case .smallText = $0 { true } else { false } }
        let wanted = asked.ring == .auto || (asked.ring == .dots && standsInForText)
        guard wanted, !bordered else {
            return plain.measured(
                contrast, note: .lowContrast(fill: asked.style.background, measured: contrast, ring: nil))
        }
        let ring = Ring(
            width: BadgeVisibility.ringWidth(badgeHeight: height),
            color: BadgeVisibility.ringColor(surroundLuminance: contrast.surroundLuminance))
        return try build(ring).measured(
            contrast, note: .lowContrast(fill: asked.style.background, measured: contrast, ring: ring.color))
    }
}
