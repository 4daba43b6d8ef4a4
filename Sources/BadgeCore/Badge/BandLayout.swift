#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A band drawn across the icon, a ribbon over a corner or a banner along an edge, in
/// **pixels** of the output canvas (+y down).
///
/// The band lies in the box of the platform's visible shape (`ShapeMask.bounds`: the
/// whole canvas, iOS's square, macOS's body, the adaptive icon's 66 dp safe zone), so
/// a ribbon is seen on every launcher mask. Its ends reach past that box and are cut
/// by the shape when drawn; the text is kept on pixels the shape shows whole.
public struct BandLayout: Equatable, Sendable {
    /// The band's outline: four corners, its ends past the box (pixels).
    public var polygon: [Point]
    /// The middle of the band's centre line inside the box: where the text is centred.
    public var centre: Point
    /// The text's direction, in radians from +x toward +y (screen space): −π/4 for a
    /// ribbon read upward, π/4 downward, 0 for a banner. Text always reads left to
    /// right.
    public var angle: Double
    /// The band's width across its length (pixels).
    public var thickness: Double
    /// The box the band is placed in (pixels): the bounds of the platform's mask.
    public var box: Rect
    /// The text's em size after shrinking to fit (pixels); nil when the band has no
    /// text (too small to read, `--small-text dot`).
    public var textSize: Double?
    /// The text's pen origin in the band's own frame: relative to `centre`, +x along
    /// `angle` (pixels, not rounded: rotated text has no pixel grid).
    public var textOrigin: Point?
    /// The length the text may take along the band at its final size (pixels).
    public var textRoom: Double?
    /// How far the text was moved off the centre line toward the icon's centre to find
    /// room (pixels, +y of the text's frame); 0 when centred.
    public var textShift: Double = 0

    /// The shifts tried, in order, for a banner's text that does not fit centred: toward
    /// the band's inner edge (the one facing the icon's centre), where a rounded or
    /// circular shape is wider, in quarters of the slack `slack` (pixels). A ribbon's
    /// text stays centred.
    public func shifts(slack: Double, edge: Anchor) -> [Double] {
        guard angle == 0, slack > 0 else { return [0] }
        let inward: Double = edge.unit.y == 0 ? 1 : -1
        return [0, 0.25, 0.5, 0.75, 1].map { $0 * slack * inward }
    }

    /// A ribbon's distance from its corner when none is given (pixels): 40 % of the
    /// box's shorter side S (a 4-letter word fits a 16 % band on a square), or, where
    /// the shape's outline lies farther in along the corner's diagonal (a circle, an
    /// icon's own round pixels), 2d + 0.22 S, d being how far in (per axis) the first
    /// whole pixel of `mask` lies: the band's centre line then crosses the diagonal
    /// 0.11 S inside the outline. A circle gets 0.51 S, a chord of 0.7 S; iOS's
    /// squircle (d = 0.065 S) keeps 40 %.
    public static func defaultDistance(corner: Anchor, box: Rect, mask: ShapeMask) -> Double {
        let side = min(box.width, box.height)
        let sx: Double = corner.unit.x == 0 ? 1 : -1
        let sy: Double = corner.unit.y == 0 ? 1 : -1
        let origin = corner.point(in: box)
        var inward = side / 2
        var t = 0.0
        while t < side / 2 {
            // The middle of each quarter-pixel step, so a pixel edge is never sampled.
            let x = origin.x + sx * (t + 0.125)
            let y = origin.y + sy * (t + 0.125)
            if mask.contains(x: Int(x.rounded(.down)), y: Int(y.rounded(.down))) {
                inward = t
                break
            }
            t += 0.25
        }
        return min(side, max(0.4 * side, 2 * inward + 0.22 * side))
    }

    /// A ribbon across `corner` of `box`: its centre line meets both edges at
    /// `distance` pixels from the corner, `thickness` pixels wide.
    ///
    /// Geometry: with the corner at the origin and the box to +x +y, the centre line is
    /// x + y = distance, at distance / √2 from the corner; the band is that line ±
    /// thickness / 2 along its normal.
    public static func ribbon(corner: Anchor, box: Rect, thickness: Double, distance: Double) -> BandLayout {
        let sx: Double = corner.unit.x == 0 ? 1 : -1
        let sy: Double = corner.unit.y == 0 ? 1 : -1
        let origin = corner.point(in: box)
        let root2 = 2.0.squareRoot()
        // The unit normal pointing into the box, and the reading direction along the
        // band (left to right: positive x).
        let normal = Point(x: sx / root2, y: sy / root2)
        let along = Point(x: 1 / root2, y: -sx * sy / root2)
        let centre = Point(x: origin.x + sx * distance / 2, y: origin.y + sy * distance / 2)
        let reach = (box.width + box.height) * 2
        func vertex(_ a: Double, _ n: Double) -> Point {
            Point(x: centre.x + along.x * a + normal.x * n, y: centre.y + along.y * a + normal.y * n)
        }
        let half = thickness / 2
        return BandLayout(
            polygon: [vertex(-reach, -half), vertex(reach, -half), vertex(reach, half), vertex(-reach, half)],
            centre: centre, angle: atan2(along.y, along.x), thickness: thickness, box: box)
    }

    /// A banner along the top or bottom edge of `box`, `thickness` pixels tall. With
    /// `ends` `.straight`, its ends are vertical, where its inner edge (the one facing
    /// the icon's centre) meets `mask`, and only its outer corners follow the shape;
    /// with `.shape`, they reach past the box and the shape cuts them.
    public static func banner(
        edge: Anchor, box: Rect, thickness: Double, ends: BandEnds, mask: ShapeMask
    ) -> BandLayout {
        let top = edge.unit.y == 0 ? box.minY : box.maxY - thickness
        var left = box.minX - thickness
        var right = box.maxX + thickness
        if ends == .straight {
            // The row of the band's inner edge (the one facing the icon's centre): its
            // span around the centre gives the ends.
            let row =
                edge.unit.y == 0 ? Int((top + thickness).rounded(.down)) - 1 : Int(top.rounded(.up))
            let centreX = Int(box.center.x.rounded(.down))
            if let span = mask.spans(row: row).first(where: { $0.contains(centreX) }) {
                left = Double(span.lowerBound)
                right = Double(span.upperBound)
            } else {
                left = Double(centreX)
                right = Double(centreX)
            }
        }
        let bottom = top + thickness
        let centre = Point(x: ends == .straight ? (left + right) / 2 : box.center.x, y: top + thickness / 2)
        return BandLayout(
            polygon: [
                Point(x: left, y: top), Point(x: right, y: top), Point(x: right, y: bottom),
                Point(x: left, y: bottom),
            ],
            centre: centre, angle: 0, thickness: thickness, box: box)
    }

    /// The band's bounding box, cut to `canvas` (pixels, whole pixels outward).
    public func bounds(within canvas: Rect) -> Rect {
        let xs = polygon.map(\.x)
        let ys = polygon.map(\.y)
        let minX = max(canvas.minX, xs.min()!.rounded(.down))
        let minY = max(canvas.minY, ys.min()!.rounded(.down))
        let maxX = min(canvas.maxX, xs.max()!.rounded(.up))
        let maxY = min(canvas.maxY, ys.max()!.rounded(.up))
        return Rect(x: minX, y: minY, width: max(0, maxX - minX), height: max(0, maxY - minY))
    }

    /// The longest text box `height` pixels tall, centred on `centre` along the band,
    /// whose every point lies on a pixel `mask` shows whole and inside the band's
    /// ends: twice the shorter of the walks outward from the centre along the text
    /// box's top, middle and bottom lines, in 1/4-pixel steps (pixels; 0 when the
    /// centre itself is outside). `shift` moves the text box across the band (pixels,
    /// +y of the text's frame).
    public func room(forTextHeight height: Double, mask: ShapeMask, shift: Double = 0) -> Double {
        let dx = cos(angle)
        let dy = sin(angle)
        // Across the band: the text's own frame's +y, rotated.
        let centre = Point(x: self.centre.x - dy * shift, y: self.centre.y + dx * shift)
        // The band's own ends (a straight banner's): its length along the band.
        let xs = polygon.map { ($0.x - centre.x) * dx + ($0.y - centre.y) * dy }
        let endLow = xs.min()!
        let endHigh = xs.max()!
        var shortest = Double.infinity
        for offset in [-height / 2, 0, height / 2] {
            let baseX = centre.x - dy * offset
            let baseY = centre.y + dx * offset
            for direction in [-1.0, 1.0] {
                let end = direction < 0 ? -endLow : endHigh
                var walked = 0.0
                while walked + 0.25 <= min(end, shortest) {
                    let next = walked + 0.25
                    let x = baseX + direction * dx * next
                    let y = baseY + direction * dy * next
                    guard mask.contains(x: Int(x.rounded(.down)), y: Int(y.rounded(.down))) else { break }
                    walked = next
                }
                shortest = min(shortest, walked)
            }
        }
        return shortest.isFinite ? 2 * shortest : 0
    }
}

extension ShapeMask {
    /// The smallest rectangle holding the shape (pixels): the superellipse's box, the
    /// rectangle, or the whole pixels of the rows; the canvas when the rows are empty.
    public var bounds: Rect {
        switch kind {
        case .rectangle(let rect):
            return rect
        case .superellipse(let center, let radiusX, let radiusY, _):
            return Rect(x: center.x - radiusX, y: center.y - radiusY, width: 2 * radiusX, height: 2 * radiusY)
        case .rows(let rows):
            let content = ContentShape(rows: rows)
            return content.bounds ?? Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        }
    }
}
