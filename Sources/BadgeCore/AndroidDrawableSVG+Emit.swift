extension AndroidDrawableConverter {
    /// `drawable` drawn into `rect` (dp, the document's user space) as SVG, as the
    /// drawable draws into bounds of that rectangle.
    func emit(_ drawable: AndroidDrawable, in rect: Rect) throws(AndroidDrawableProblem) -> String {
        let n = AndroidSVGNumber.text
        guard rect.width > 0, rect.height > 0 else { return "" }
        let box = "x=\"\(n(rect.x))\" y=\"\(n(rect.y))\" width=\"\(n(rect.width))\" height=\"\(n(rect.height))\""
        switch drawable {
        case .nothing:
            return ""
        case .color(let color):
            guard color.alpha > 0 else { return "" }
            return "<rect \(box)\(AndroidPaint.color(color).svg("fill", alpha: 1))/>\n"
        case .vector(let vector):
            // VectorDrawable scales its viewport to its bounds, whatever their aspect,
            // and draws nothing outside them.
            var body = vector.body
            if let tint = vector.tint {
                let region = Rect(x: 0, y: 0, width: vector.viewportWidth, height: vector.viewportHeight)
                body = "<g filter=\"url(#\(try tintFilter(tint, region: region)))\">\n\(body)</g>\n"
            }
            if vector.alpha < 1 { body = "<g opacity=\"\(n(vector.alpha))\">\n\(body)</g>\n" }
            return
                "<svg \(box) viewBox=\"0 0 \(n(vector.viewportWidth)) \(n(vector.viewportHeight))\" preserveAspectRatio=\"none\" overflow=\"hidden\">\n\(body)</svg>\n"
        case .bitmap(let bitmap):
            // BitmapDrawable: Gravity.apply of its intrinsic size in its bounds (fill by default).
            let placed = (bitmap.gravity ?? AndroidDrawable.Gravity(horizontal: .fill, vertical: .fill)).apply(
                width: bitmap.width, height: bitmap.height, in: rect)
            let at =
                "x=\"\(n(placed.x))\" y=\"\(n(placed.y))\" width=\"\(n(placed.width))\" height=\"\(n(placed.height))\""
            var image = "<image \(at) preserveAspectRatio=\"none\" xlink:href=\"\(bitmap.url)\"/>\n"
            if let tint = bitmap.tint {
                image = "<g filter=\"url(#\(try tintFilter(tint, region: placed)))\">\n\(image)</g>\n"
            }
            if bitmap.alpha < 1 { image = "<g opacity=\"\(n(bitmap.alpha))\">\n\(image)</g>\n" }
            return image
        case .shape(let shape):
            return try emitShape(shape, in: rect)
        case .inset(let inset):
            // InsetDrawable.onBoundsChange: each side's inset, fractions of the bounds.
            let left = inset.left.value(of: rect.width)
            let top = inset.top.value(of: rect.height)
            let inner = Rect(
                x: rect.x + left, y: rect.y + top,
                width: rect.width - left - inset.right.value(of: rect.width),
                height: rect.height - top - inset.bottom.value(of: rect.height))
            return try emit(inset.inner, in: inner)
        case .layers(let list):
            var out = ""
            var padding = AndroidDrawable.Insets()
            for item in list.items {
                // LayerDrawable.updateLayerBounds: the item's insets and the padding
                // of the items before it, then its size and gravity.
                let insets = item.insets + padding
                let container = Rect(
                    x: rect.x + insets.left, y: rect.y + insets.top,
                    width: rect.width - insets.left - insets.right, height: rect.height - insets.top - insets.bottom)
                let intrinsic = item.drawable.intrinsicSize
                let gravity = Self.resolveGravity(
                    item.gravity, width: item.width, height: item.height, intrinsic: intrinsic)
                let bounds = gravity.apply(
                    width: item.width ?? intrinsic.width, height: item.height ?? intrinsic.height, in: container)
                out += try emit(item.drawable, in: bounds)
                try checkSize(definedBytes + out.utf8.count, at: nil)
                if list.nest { padding = padding + item.drawable.padding(in: bounds) }
            }
            return out
        }
    }

    /// LayerDrawable.resolveGravity: an axis with no gravity fills when no size is
    /// given for it, else starts; an axis with neither size nor intrinsic size fills.
    static func resolveGravity(
        _ gravity: AndroidDrawable.Gravity?, width: Double?, height: Double?,
        intrinsic: (width: Double, height: Double)
    ) -> AndroidDrawable.Gravity {
        var resolved = gravity ?? AndroidDrawable.Gravity(horizontal: nil, vertical: nil)
        if resolved.horizontal == nil { resolved.horizontal = width == nil ? .fill : .start }
        if resolved.vertical == nil { resolved.vertical = height == nil ? .fill : .start }
        if width == nil, intrinsic.width < 0 { resolved.horizontal = .fill }
        if height == nil, intrinsic.height < 0 { resolved.vertical = .fill }
        return resolved
    }

    /// A tint as an SVG filter over `region` (the tinted content's user space):
    /// the colour composited with the content by `mode`. Returns the filter's id.
    func tintFilter(_ tint: AndroidDrawable.Tint, region: Rect) throws(AndroidDrawableProblem) -> String {
        let n = AndroidSVGNumber.text
        let id = id("t")
        let hex = String(tint.color.description.dropLast(2)).lowercased()
        let operation: String
        switch tint.mode {
        case "src_atop": operation = "<feComposite in=\"tint\" in2=\"SourceGraphic\" operator=\"atop\"/>"
        case "src_over": operation = "<feComposite in=\"tint\" in2=\"SourceGraphic\" operator=\"over\"/>"
        default: operation = "<feComposite in=\"tint\" in2=\"SourceGraphic\" operator=\"in\"/>"
        }
        let text =
            "<filter id=\"\(id)\" filterUnits=\"userSpaceOnUse\" x=\"\(n(region.x))\" y=\"\(n(region.y))\" width=\"\(n(region.width))\" height=\"\(n(region.height))\" color-interpolation-filters=\"sRGB\"><feFlood flood-color=\"\(hex)\" flood-opacity=\"\(n(Double(tint.color.alpha) / 255))\" result=\"tint\"/>\(operation)</filter>"
        definedBytes += text.utf8.count
        try checkSize(definedBytes, at: nil)
        defs.append(text)
        return id
    }

    /// A `<shape>` in `rect`: GradientDrawable insets its rectangle by half the
    /// stroke, fills it, then strokes it; corner radii are clamped to half the
    /// shorter side.
    func emitShape(_ shape: AndroidDrawable.Shape, in rect: Rect) throws(AndroidDrawableProblem) -> String {
        let n = AndroidSVGNumber.text
        let half = (shape.stroke?.width ?? 0) / 2
        let r = Rect(x: rect.x + half, y: rect.y + half, width: rect.width - 2 * half, height: rect.height - 2 * half)
        guard r.width > 0, r.height > 0 else { return "" }
        var outline: String
        if shape.oval {
            outline =
                "<ellipse cx=\"\(n(r.center.x))\" cy=\"\(n(r.center.y))\" rx=\"\(n(r.width / 2))\" ry=\"\(n(r.height / 2))\""
        } else {
            let limit = min(r.width, r.height) / 2
            let radii = shape.radii.map { min($0, limit) }
            if radii.allSatisfy({ $0 == radii[0] }) {
                outline =
                    "<rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\""
                    + (radii[0] > 0 ? " rx=\"\(n(radii[0]))\" ry=\"\(n(radii[0]))\"" : "")
            } else {
                let (tl, tr, br, bl) = (radii[0], radii[1], radii[2], radii[3])
                var d = "M \(n(r.minX + tl)) \(n(r.minY)) H \(n(r.maxX - tr))"
                if tr > 0 { d += " A \(n(tr)) \(n(tr)) 0 0 1 \(n(r.maxX)) \(n(r.minY + tr))" }
                d += " V \(n(r.maxY - br))"
                if br > 0 { d += " A \(n(br)) \(n(br)) 0 0 1 \(n(r.maxX - br)) \(n(r.maxY))" }
                d += " H \(n(r.minX + bl))"
                if bl > 0 { d += " A \(n(bl)) \(n(bl)) 0 0 1 \(n(r.minX)) \(n(r.maxY - bl))" }
                d += " V \(n(r.minY + tl))"
                if tl > 0 { d += " A \(n(tl)) \(n(tl)) 0 0 1 \(n(r.minX + tl)) \(n(r.minY))" }
                outline = "<path d=\"\(d) Z\""
            }
        }
        switch shape.fill {
        case .color(let color)?:
            outline += AndroidPaint.color(color).svg("fill", alpha: 1)
        case .gradient(let gradient)?:
            outline += AndroidPaint.gradient(try shapeGradient(gradient, in: r)).svg("fill", alpha: 1)
        case nil:
            outline += " fill=\"none\""
        }
        if let stroke = shape.stroke, stroke.color.alpha > 0 {
            outline += AndroidPaint.color(stroke.color).svg("stroke", alpha: 1) + " stroke-width=\"\(n(stroke.width))\""
            if let dash = stroke.dash { outline += " stroke-dasharray=\"\(n(dash.width)) \(n(dash.gap))\"" }
        }
        return outline + "/>\n"
    }

    /// A shape's gradient over `r` as an SVG gradient in user space; its id.
    /// GradientDrawable.ensureValidRect: a linear gradient runs between the edges or
    /// corners its angle names (0: left to right, 90: bottom to top); a radial one
    /// about `centerX`, `centerY` of the bounds.
    func shapeGradient(_ gradient: AndroidDrawable.Shape.Gradient, in r: Rect) throws(AndroidDrawableProblem) -> String
    {
        let n = AndroidSVGNumber.text
        let id = id("g")
        let stops = Self.stops(Array(zip(gradient.positions, gradient.colors)).map { ($0.0, $0.1) })
        var text: String
        if gradient.radial {
            let radius = gradient.radiusIsFraction ? gradient.radius * min(r.width, r.height) : gradient.radius
            let cx = r.x + r.width * gradient.centerX
            let cy = r.y + r.height * gradient.centerY
            text =
                "<radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"\(n(cx))\" cy=\"\(n(cy))\" fx=\"\(n(cx))\" fy=\"\(n(cy))\" r=\"\(n(radius))\">\(stops)</radialGradient>"
        } else {
            let (x0, y0, x1, y1): (Double, Double, Double, Double)
            switch gradient.angle {
            case 45: (x0, y0, x1, y1) = (r.minX, r.maxY, r.maxX, r.minY)
            case 90: (x0, y0, x1, y1) = (r.minX, r.maxY, r.minX, r.minY)
            case 135: (x0, y0, x1, y1) = (r.maxX, r.maxY, r.minX, r.minY)
            case 180: (x0, y0, x1, y1) = (r.maxX, r.minY, r.minX, r.minY)
            case 225: (x0, y0, x1, y1) = (r.maxX, r.minY, r.minX, r.maxY)
            case 270: (x0, y0, x1, y1) = (r.minX, r.minY, r.minX, r.maxY)
            case 315: (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
            default: (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.minY)
            }
            text =
                "<linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(n(x0))\" y1=\"\(n(y0))\" x2=\"\(n(x1))\" y2=\"\(n(y1))\">\(stops)</linearGradient>"
        }
        definedBytes += text.utf8.count
        try checkSize(definedBytes, at: nil)
        defs.append(text)
        return id
    }
}
