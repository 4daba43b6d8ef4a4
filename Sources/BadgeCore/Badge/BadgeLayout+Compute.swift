extension BadgeLayout {
    /// Lays out a badge on an icon of `iconWidth` × `iconHeight` pixels, the canvas as
    /// its reference shape, with `style` in points at `scale` pixels per point: the
    /// placement of iconbadge before platforms (`compute(iconWidth:iconHeight:style:body:shape:maxSide:)`).
    ///
    /// - Throws: as the other `compute`.
    public static func compute(
        iconWidth: Int, iconHeight: Int, style: BadgeStyle, body: BadgeBody, scale: Double, maxSide: Int = 8192
    ) throws(BadgeError) -> BadgeLayout {
        let shape = ReferenceShape.canvas(width: iconWidth, height: iconHeight)
        return try compute(
            iconWidth: iconWidth, iconHeight: iconHeight,
            style: style.pixels(scale: scale, side: min(shape.box.width, shape.box.height)), body: body, shape: shape,
            maxSide: maxSide)
    }

    /// Lays out a badge on an icon of `iconWidth` × `iconHeight` pixels.
    ///
    /// Rules (docs/DESIGN.md "Units and geometry"), all in pixels:
    /// - height: `style.height`, or the UIKit auto rule (line height, at least the
    ///   minimum, plus vertical padding); width: max(advance + 2 × horizontal padding,
    ///   height, min width); a dot is `dotSize` square; an image is `imageSize` or the
    ///   height with the image's aspect ratio. Width and height round to whole pixels.
    /// - place: the badge's `badgeAnchor` point on the `anchor` point of the shape's
    ///   reference box, moved by the offset, rounded to whole pixels.
    /// - overflow: `clamp` moves the badge to the nearest position where it lies
    ///   wholly inside the shape's mask (`BadgePlacement`; on the plain canvas, per
    ///   axis), then with `style.avoidsContent` to the one covering the fewest of
    ///   `content`'s pixels in the anchor's quadrant (`leastCovering`); `clip` leaves it; `expand` grows the canvas to the union of icon and
    ///   badge (icon moved, never resampled), at a whole-number scale by whole points,
    ///   so a job's @2x and @3x canvases are exactly 2× and 3× its @1x canvas.
    /// - text: the centre of `TextMetrics.centringBox` on the badge's centre, the pen
    ///   origin rounded to whole pixels (Cairo 1.16 draws glyphs at whole pixels); its
    ///   ink must lie inside the badge.
    ///
    /// - Throws: `BadgeError.overLimit` when the badge or the expanded canvas would
    ///   exceed `maxSide` pixels, when `clamp` cannot fit a badge larger than the icon on
    ///   the canvas, or when the text's ink does not fit inside the badge;
    ///   `BadgeError.render(.badgeOutsideShape)` (64) when a badge cannot fit inside a
    ///   platform's shape anywhere, with the largest size that would.
    public static func compute(
        iconWidth: Int, iconHeight: Int, style: PixelStyle, body: BadgeBody, shape: ReferenceShape,
        maxSide: Int = 8192, content: ContentShape? = nil
    ) throws(BadgeError) -> BadgeLayout {
        let iconW = Double(iconWidth)
        let iconH = Double(iconHeight)
        var width: Double
        var height: Double
        switch body {
        case .text(let metrics):
            height = style.height ?? (max(metrics.lineHeight, style.minHeight) + 2 * style.paddingY)
            width = max(metrics.advance + 2 * style.paddingX, height, style.minWidth)
        case .shield(let label, let message):
            height =
                style.height
                ?? (max(max(label.lineHeight, message.lineHeight), style.minHeight) + 2 * style.paddingY)
            width = max(label.advance + message.advance + 4 * style.paddingX, height, style.minWidth)
        case .dot:
            width = style.dotSize
            height = width
        case .image(let naturalWidth, let naturalHeight):
            if let size = style.imageSize {
                width = size.width
                height = size.height
            } else {
                height = style.height ?? Double(naturalHeight)
                width = naturalHeight > 0 ? height * Double(naturalWidth) / Double(naturalHeight) : height
            }
        }
        let limit = Double(maxSide)
        guard width.isFinite, height.isFinite, width <= limit, height <= limit else {
            throw .overLimit(path: "", .badgeSide(width: width, height: height, limit: maxSide))
        }
        let badgeW = max(1, roundHalfUp(width))
        let badgeH = max(1, roundHalfUp(height))
        // A shield's corners default to shields.io's flat style: a 3 px radius on its
        // 20 px height (15 %); every other shape's to half the height (a pill).
        let defaultRadius = style.shape == .shield ? badgeH * 0.15 : badgeH / 2
        let radius = min(max(0, style.radius ?? defaultRadius), min(badgeW, badgeH) / 2)

        var iconRect = Rect(x: 0, y: 0, width: iconW, height: iconH)
        let anchorPoint = style.anchor.point(in: shape.box)
        let unit = style.badgeAnchor.unit
        let exactX = anchorPoint.x - unit.x * width + style.offsetX
        let exactY = anchorPoint.y - unit.y * height + style.offsetY
        var badgeX = roundHalfUp(anchorPoint.x - unit.x * badgeW + style.offsetX)
        var badgeY = roundHalfUp(anchorPoint.y - unit.y * badgeH + style.offsetY)
        let requested = Rect(x: badgeX, y: badgeY, width: badgeW, height: badgeH)
        var offsetIgnored = false
        var coverage: BadgePlacement.ContentCoverage?
        var canvasW = iconW
        var canvasH = iconH

        switch style.overflow {
        case .clamp:
            if shape.isCanvasRectangle {
                guard badgeW <= iconW, badgeH <= iconH else {
                    throw .overLimit(
                        path: "",
                        .badgeLargerThanIcon(
                            badgeWidth: Int(badgeW), badgeHeight: Int(badgeH), iconWidth: iconWidth,
                            iconHeight: iconHeight))
                }
                func clamp(_ x: Double, _ y: Double) -> (Double, Double) {
                    (min(max(x, 0), iconW - badgeW), min(max(y, 0), iconH - badgeH))
                }
                (badgeX, badgeY) = clamp(badgeX, badgeY)
                if style.offsetX != 0 || style.offsetY != 0 {
                    let plain = clamp(
                        roundHalfUp(anchorPoint.x - unit.x * badgeW), roundHalfUp(anchorPoint.y - unit.y * badgeH))
                    offsetIgnored = plain == (badgeX, badgeY)
                }
            } else {
                let footprint = BadgePlacement.Footprint(width: Int(badgeW), height: Int(badgeH), radius: radius)
                guard
                    let fitted = BadgePlacement.nearest(footprint, to: (Int(badgeX), Int(badgeY)), in: shape.mask)
                else {
                    let fraction = BadgePlacement.largestFittingFraction(
                        width: Int(badgeW), height: Int(badgeH), radius: radius, in: shape.mask)
                    throw .render(
                        .badgeOutsideShape(
                            RenderProblem.OutsideShape(
                                badgeWidth: Int(badgeW), badgeHeight: Int(badgeH), platform: shape.platform,
                                iconWidth: iconWidth, iconHeight: iconHeight,
                                largest: fraction > 0
                                    ? Size(
                                        width: Double(Int(badgeW * fraction)), height: Double(Int(badgeH * fraction)))
                                    : nil)))
                }
                badgeX = Double(fitted.x)
                badgeY = Double(fitted.y)
                if style.offsetX != 0 || style.offsetY != 0 {
                    let plain = (
                        Int(roundHalfUp(anchorPoint.x - unit.x * badgeW)),
                        Int(roundHalfUp(anchorPoint.y - unit.y * badgeH))
                    )
                    if let without = BadgePlacement.nearest(footprint, to: plain, in: shape.mask) {
                        offsetIgnored = without == fitted
                    }
                }
            }
            if style.avoidsContent, let content {
                let footprint = BadgePlacement.Footprint(width: Int(badgeW), height: Int(badgeH), radius: radius)
                if let found = BadgePlacement.leastCovering(
                    footprint, clamped: (Int(badgeX), Int(badgeY)), in: shape.mask, content: content, box: shape.box,
                    anchor: style.anchor)
                {
                    badgeX = Double(found.x)
                    badgeY = Double(found.y)
                    coverage = found.coverage
                }
            }
        case .clip:
            break
        case .expand:
            // Room for the badge at `roomScale` about its centre (an animation's largest
            // frame); the badge itself is placed as at rest.
            let room = max(1, style.roomScale)
            func scaled(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> (Double, Double, Double, Double) {
                (x - (room - 1) * w / 2, y - (room - 1) * h / 2, w * room, h * room)
            }
            var (roomX, roomY, roomW, roomH) = scaled(badgeX, badgeY, badgeW, badgeH)
            let scale = style.unit
            let wholeScale = scale >= 1 && scale == scale.rounded()
            // Whole scales grow by whole points below; any other, out to whole pixels
            // here, so that the icon stays at a whole-pixel offset.
            if room > 1, !wholeScale {
                let (right, bottom) = ((roomX + roomW).rounded(.up), (roomY + roomH).rounded(.up))
                (roomX, roomY) = (roomX.rounded(.down), roomY.rounded(.down))
                (roomW, roomH) = (right - roomX, bottom - roomY)
            }
            let (exactRoomX, exactRoomY, exactRoomW, exactRoomH) = scaled(exactX, exactY, width, height)
            var union = iconRect.union(Rect(x: roomX, y: roomY, width: roomW, height: roomH))
            if wholeScale {
                // Grow by whole points, taken from the unrounded geometry (the same at
                // every scale), so that @2x and @3x canvases are exactly 2× and 3× the
                // @1x one, as asset catalogs expect; never less than the rounded badge.
                func grow(_ exact: Double, _ rounded: Double) -> Double {
                    guard room == 1 else { return growForRoom(exact) }
                    let points = (max(0, exact) / scale - 1e-9).rounded(.up)
                    let needed = (max(0, rounded) / scale - 1e-9).rounded(.up)
                    return max(points, needed) * scale
                }
                // With room for a larger frame, from the unrounded geometry alone (its
                // rounding differs from scale to scale) plus `room` points, more than
                // the drawn badge's rounding (under 1 px, times `room`) can add.
                func growForRoom(_ exact: Double) -> Double {
                    let points = exact / scale + room
                    return points <= room ? 0 : (points - 1e-9).rounded(.up) * scale
                }
                let left = grow(-exactRoomX, -roomX)
                let top = grow(-exactRoomY, -roomY)
                let right = grow(exactRoomX + exactRoomW - iconW, roomX + roomW - iconW)
                let bottom = grow(exactRoomY + exactRoomH - iconH, roomY + roomH - iconH)
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
        // Canvas space moved with the icon (expand): the requested rect moves too.
        let shiftX = iconRect.minX
        let shiftY = iconRect.minY

        var textOrigin: Point?
        var inkBounds: Rect?
        if case .text(let metrics) = body {
            let box = metrics.centringBox
            let origin = Point(
                x: roundHalfUp(badgeRect.center.x - (box.minX + box.maxX) / 2),
                y: roundHalfUp(badgeRect.center.y - (box.minY + box.maxY) / 2))
            textOrigin = origin
            inkBounds = metrics.inkBounds?.offsetBy(dx: origin.x, dy: origin.y)
            if let ink = inkBounds, !badgeRect.contains(ink) {
                throw .overLimit(
                    path: "",
                    .textInk(
                        inkWidth: Int(ink.width.rounded(.up)), inkHeight: Int(ink.height.rounded(.up)),
                        badgeWidth: Int(badgeW), badgeHeight: Int(badgeH)))
            }
        }
        var shield: ShieldParts?
        if case .shield(let label, let message) = body {
            let labelWidth = min(badgeW - 1, max(1, roundHalfUp(label.advance + 2 * style.paddingX)))
            let labelRect = Rect(x: badgeRect.x, y: badgeRect.y, width: labelWidth, height: badgeH)
            let messageRect = Rect(
                x: badgeRect.x + labelWidth, y: badgeRect.y, width: badgeW - labelWidth, height: badgeH)
            // One baseline for both parts: the union of their centring boxes is centred.
            let labelBox = label.centringBox
            let messageBox = message.centringBox
            let top = min(labelBox.minY, messageBox.minY)
            let bottom = max(labelBox.maxY, messageBox.maxY)
            let baseline = roundHalfUp(badgeRect.center.y - (top + bottom) / 2)
            let labelOrigin = Point(
                x: roundHalfUp(labelRect.center.x - (labelBox.minX + labelBox.maxX) / 2), y: baseline)
            let messageOrigin = Point(
                x: roundHalfUp(messageRect.center.x - (messageBox.minX + messageBox.maxX) / 2), y: baseline)
            for (metrics, origin, part) in [(label, labelOrigin, labelRect), (message, messageOrigin, messageRect)] {
                if let ink = metrics.inkBounds?.offsetBy(dx: origin.x, dy: origin.y), !part.contains(ink) {
                    throw .overLimit(
                        path: "",
                        .textInk(
                            inkWidth: Int(ink.width.rounded(.up)), inkHeight: Int(ink.height.rounded(.up)),
                            badgeWidth: Int(part.width), badgeHeight: Int(part.height)))
                }
            }
            shield = ShieldParts(
                labelRect: labelRect, messageRect: messageRect, labelOrigin: labelOrigin, messageOrigin: messageOrigin)
            inkBounds = [
                label.inkBounds?.offsetBy(dx: labelOrigin.x, dy: labelOrigin.y),
                message.inkBounds?.offsetBy(dx: messageOrigin.x, dy: messageOrigin.y),
            ].compactMap { $0 }.reduce(nil) { $0?.union($1) ?? $1 }
        }
        var layout = BadgeLayout(
            canvasWidth: Int(canvasW), canvasHeight: Int(canvasH), iconRect: iconRect, badgeRect: badgeRect,
            cornerRadius: radius, borderWidth: min(max(0, style.borderWidth), min(badgeW, badgeH) / 2),
            textOrigin: textOrigin, inkBounds: inkBounds, scale: style.unit)
        layout.requestedRect = requested.offsetBy(dx: shiftX, dy: shiftY)
        layout.referenceBox = shape.box.offsetBy(dx: shiftX, dy: shiftY)
        layout.offsetIgnored = offsetIgnored
        layout.contentCovered = coverage
        layout.shield = shield
        return layout
    }

    /// Rounds half up (toward +infinity), the same way on both sides of zero, so a
    /// layout moved by whole pixels rounds the same.
    static func roundHalfUp(_ value: Double) -> Double { (value + 0.5).rounded(.down) }
}
