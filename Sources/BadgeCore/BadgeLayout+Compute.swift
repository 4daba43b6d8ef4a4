extension BadgeLayout {
    /// Lays out a badge on an icon of `iconWidth` × `iconHeight` pixels.
    ///
    /// Rules (DESIGN.md "Units and geometry"), all in pixels = points × `scale`:
    /// - height: `style.height` fixed, or seed 001's auto rule;
    ///   width: max(advance + 2 × horizontal padding, height, min width);
    ///   a dot is `dotSize` square; an image is `imageSize` or the height with the
    ///   image's aspect ratio. Width and height are rounded to whole pixels (≥ 1).
    /// - place: the badge's `badgeAnchor` point on the icon's `anchor` point, moved
    ///   by `offset`, rounded to whole pixels so edges are crisp.
    /// - overflow: `clamp` moves the badge inward, `clip` leaves it, `expand` grows
    ///   the canvas to the union of icon and badge (icon moved, never resampled); at
    ///   a whole-number scale it grows by whole points, so a job's @2x and @3x
    ///   canvases are exactly 2× and 3× its @1x canvas.
    /// - text: the centre of `TextMetrics.centringBox` on the badge's centre, the
    ///   pen origin rounded to whole pixels (Cairo 1.16 draws glyphs at whole pixels).
    ///
    /// - Throws: `BadgeError.overLimit` when the badge or the expanded canvas
    ///   would exceed `maxSide` pixels, or when `clamp` cannot fit a badge larger
    ///   than the icon.
    public static func compute(
        iconWidth: Int, iconHeight: Int, style: BadgeStyle, body: BadgeBody, scale: Double,
        maxSide: Int = 8192
    ) throws(BadgeError) -> BadgeLayout {
        let iconW = Double(iconWidth)
        let iconH = Double(iconHeight)
        var width: Double
        var height: Double
        switch body {
        case .text(let metrics):
            switch style.height {
            case .fixed(let points): height = points * scale
            case .auto:
                height = max(metrics.lineHeight, style.minHeight * scale) + 2 * style.padding.vertical * scale
            }
            width = max(metrics.advance + 2 * style.padding.horizontal * scale, height, style.minWidth * scale)
        case .dot:
            width = style.dotSize * scale
            height = width
        case .image(let naturalWidth, let naturalHeight):
            if let size = style.imageSize {
                width = size.width * scale
                height = size.height * scale
            } else {
                switch style.height {
                case .fixed(let points): height = points * scale
                case .auto: height = Double(naturalHeight)
                }
                width = naturalHeight > 0 ? height * Double(naturalWidth) / Double(naturalHeight) : height
            }
        }
        let limit = Double(maxSide)
        guard width.isFinite, height.isFinite, width <= limit, height <= limit else {
            throw .overLimit(path: "", .badgeSide(width: width, height: height, limit: maxSide))
        }
        let badgeW = max(1, roundHalfUp(width))
        let badgeH = max(1, roundHalfUp(height))
        let radius = min(max(0, (style.radius.map { $0 * scale }) ?? badgeH / 2), min(badgeW, badgeH) / 2)

        var iconRect = Rect(x: 0, y: 0, width: iconW, height: iconH)
        let anchorPoint = style.anchor.point(in: iconRect)
        let unit = style.badgeAnchor.unit
        let offsetX = style.offset.dx.pixels(scale: scale, extent: iconW)
        let offsetY = style.offset.dy.pixels(scale: scale, extent: iconH)
        var badgeX = roundHalfUp(anchorPoint.x - unit.x * badgeW + offsetX)
        var badgeY = roundHalfUp(anchorPoint.y - unit.y * badgeH + offsetY)
        var canvasW = iconW
        var canvasH = iconH

        switch style.overflow {
        case .clamp:
            guard badgeW <= iconW, badgeH <= iconH else {
                throw .overLimit(
                    path: "",
                    .badgeLargerThanIcon(
                        badgeWidth: Int(badgeW), badgeHeight: Int(badgeH), iconWidth: iconWidth, iconHeight: iconHeight)
                )
            }
            badgeX = min(max(badgeX, 0), iconW - badgeW)
            badgeY = min(max(badgeY, 0), iconH - badgeH)
        case .clip:
            break
        case .expand:
            var union = iconRect.union(Rect(x: badgeX, y: badgeY, width: badgeW, height: badgeH))
            if scale >= 1, scale == scale.rounded() {
                // Grow by whole points, taken from the unrounded geometry (the same at
                // every scale), so that @2x and @3x canvases are exactly 2× and 3× the
                // @1x one, as asset catalogs expect; never less than the rounded badge.
                let exactX = anchorPoint.x - unit.x * width + offsetX
                let exactY = anchorPoint.y - unit.y * height + offsetY
                func grow(_ exact: Double, _ rounded: Double) -> Double {
                    let points = (max(0, exact) / scale - 1e-9).rounded(.up)
                    let needed = (max(0, rounded) / scale - 1e-9).rounded(.up)
                    return max(points, needed) * scale
                }
                let left = grow(-exactX, -badgeX)
                let top = grow(-exactY, -badgeY)
                let right = grow(exactX + width - iconW, badgeX + badgeW - iconW)
                let bottom = grow(exactY + height - iconH, badgeY + badgeH - iconH)
                union = Rect(x: -left, y: -top, width: iconW + left + right, height: iconH + top + bottom)
            }
            guard union.width <= limit, union.height <= limit else {
                throw .overLimit(path: "", .expandedCanvas(width: union.width, height: union.height, limit: maxSide))
            }
            iconRect = iconRect.offsetBy(dx: -union.minX, dy: -union.minY)
            badgeX -= union.minX
            badgeY -= union.minY
            canvasW = union.width
            canvasH = union.height
        }
        let badgeRect = Rect(x: badgeX, y: badgeY, width: badgeW, height: badgeH)

        var textOrigin: Point?
        var inkBounds: Rect?
        if case .text(let metrics) = body {
            let box = metrics.centringBox
            let origin = Point(
                x: roundHalfUp(badgeRect.center.x - (box.minX + box.maxX) / 2),
                y: roundHalfUp(badgeRect.center.y - (box.minY + box.maxY) / 2))
            textOrigin = origin
            inkBounds = metrics.inkBounds?.offsetBy(dx: origin.x, dy: origin.y)
        }
        return BadgeLayout(
            canvasWidth: Int(canvasW), canvasHeight: Int(canvasH), iconRect: iconRect, badgeRect: badgeRect,
            cornerRadius: radius, borderWidth: min(max(0, style.borderWidth * scale), min(badgeW, badgeH) / 2),
            textOrigin: textOrigin, inkBounds: inkBounds, scale: scale)
    }

    /// Rounds half up (toward +infinity), the same way on both sides of zero, so a
    /// layout moved by whole pixels rounds the same.
    static func roundHalfUp(_ value: Double) -> Double { (value + 0.5).rounded(.down) }
}
