extension AndroidDrawableConverter {
    /// `drawable` drawn into `rect` (dp, the drawing's coordinates), as the
    /// drawable draws into bounds of that rectangle.
    func emit(_ drawable: AndroidDrawable, in rect: Rect) throws(AndroidDrawableProblem) -> [AndroidDrawing.Node] {
        guard rect.width > 0, rect.height > 0 else { return [] }
        switch drawable {
        case .nothing:
            return []
        case .color(let color):
            guard color.alpha > 0 else { return [] }
            try charge(120, at: nil)
            return [.shape(AndroidDrawing.Shape(outline: .rect(rect, radius: 0), fill: .color(color)))]
        case .vector(let vector):
            // VectorDrawable scales its viewport to its bounds, whatever their aspect,
            // and draws nothing outside them.
            var body = vector.body
            if let tint = vector.tint {
                let region = Rect(x: 0, y: 0, width: vector.viewportWidth, height: vector.viewportHeight)
                body = [.group(AndroidDrawing.Group(effect: try tintEffect(tint, region: region), children: body))]
            }
            if vector.alpha < 1 {
                body = [.group(AndroidDrawing.Group(effect: .opacity(vector.alpha), children: body))]
            }
            try charge(200, at: nil)
            return [
                .viewport(
                    AndroidDrawing.Viewport(
                        rect: rect, viewportWidth: vector.viewportWidth, viewportHeight: vector.viewportHeight,
                        children: body))
            ]
        case .bitmap(let bitmap):
            // BitmapDrawable: Gravity.apply of its intrinsic size in its bounds (fill by default).
            let placed = (bitmap.gravity ?? AndroidDrawable.Gravity(horizontal: .fill, vertical: .fill)).apply(
                width: bitmap.width, height: bitmap.height, in: rect)
            var image: [AndroidDrawing.Node] = [
                .image(AndroidDrawing.Image(rect: placed, bytes: bitmap.bytes, type: bitmap.type))
            ]
            if let tint = bitmap.tint {
                image = [.group(AndroidDrawing.Group(effect: try tintEffect(tint, region: placed), children: image))]
            }
            if bitmap.alpha < 1 {
                image = [.group(AndroidDrawing.Group(effect: .opacity(bitmap.alpha), children: image))]
            }
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
            var out: [AndroidDrawing.Node] = []
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

    /// A tint over `region` (the tinted content's coordinates): the colour
    /// composited with the content by its mode.
    func tintEffect(_ tint: AndroidDrawable.Tint, region: Rect) throws(AndroidDrawableProblem) -> AndroidDrawing.Effect
    {
        try charge(320, at: nil)
        return .tint(id: id("t"), color: tint.color, mode: tint.mode, region: region)
    }

    /// A `<shape>` in `rect`: GradientDrawable insets its rectangle by half the
    /// stroke, fills it, then strokes it; corner radii are clamped to half the
    /// shorter side.
    func emitShape(_ shape: AndroidDrawable.Shape, in rect: Rect) throws(AndroidDrawableProblem) -> [AndroidDrawing
        .Node]
    {
        let n = AndroidSVGNumber.text
        let half = (shape.stroke?.width ?? 0) / 2
        let r = Rect(x: rect.x + half, y: rect.y + half, width: rect.width - 2 * half, height: rect.height - 2 * half)
        guard r.width > 0, r.height > 0 else { return [] }
        let outline: AndroidDrawing.Outline
        if shape.oval {
            outline = .ellipse(r)
        } else {
            let limit = min(r.width, r.height) / 2
            let radii = shape.radii.map { min($0, limit) }
            if radii.allSatisfy({ $0 == radii[0] }) {
                outline = .rect(r, radius: radii[0])
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
                outline = .path(d + " Z")
            }
        }
        var drawn = AndroidDrawing.Shape(outline: outline)
        switch shape.fill {
        case .color(let color)?: drawn.fill = .color(color)
        case .gradient(let gradient)?: drawn.fill = .gradient(try shapeGradient(gradient, in: r))
        case nil: break
        }
        if let stroke = shape.stroke, stroke.color.alpha > 0 {
            drawn.stroke = AndroidDrawing.Stroke(
                paint: .color(stroke.color), width: stroke.width, dash: stroke.dash.map { [$0.width, $0.gap] })
        }
        try charge(300, at: nil)
        return [.shape(drawn)]
    }

    /// A shape's gradient over `r`, in the drawing's coordinates.
    /// GradientDrawable.ensureValidRect: a linear gradient runs between the edges or
    /// corners its angle names (0: left to right, 90: bottom to top); a radial one
    /// about `centerX`, `centerY` of the bounds.
    func shapeGradient(_ gradient: AndroidDrawable.Shape.Gradient, in r: Rect) throws(AndroidDrawableProblem)
        -> AndroidDrawing.Gradient
    {
        let id = id("g")
        let stops = zip(gradient.positions, gradient.colors).map {
            AndroidDrawing.Gradient.Stop(offset: min(1, max(0, $0.0)), color: $0.1)
        }
        let kind: AndroidDrawing.Gradient.Kind
        if gradient.radial {
            let radius = gradient.radiusIsFraction ? gradient.radius * min(r.width, r.height) : gradient.radius
            kind = .radial(cx: r.x + r.width * gradient.centerX, cy: r.y + r.height * gradient.centerY, r: radius)
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
            kind = .linear(x1: x0, y1: y0, x2: x1, y2: y1)
        }
        try charge(200 + 70 * stops.count, at: nil)
        return AndroidDrawing.Gradient(id: id, kind: kind, stops: stops, spread: nil)
    }
}
