#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AndroidPathData {
    /// The path data `AndroidPathData.svg` wrote, as absolute moves, lines, cubic
    /// curves and closes, for a painter: relative commands made absolute, `H` and `V`
    /// made lines, quadratic curves raised to cubics, `S` and `T` given their
    /// reflected control point, arcs split into cubic curves of at most a quarter
    /// turn each (SVG 1.1 appendix F.6, as Android's `PathParser` and librsvg draw
    /// them). After a close the current point is the subpath's start.
    ///
    /// Text that is not of that form ends the path where it stops (it never is:
    /// only `svg` writes it).
    public static func segments(_ data: String) -> [PathData.Command] {
        var commands: [PathData.Command] = []
        var tokens = data.split(separator: " ").makeIterator()
        var pending = tokens.next()
        var current = Point(x: 0, y: 0)
        var start = Point(x: 0, y: 0)
        // The last control point of a cubic (for S) or quadratic (for T).
        var lastCubic: Point?
        var lastQuad: Point?
        func isNumber(_ token: Substring?) -> Bool {
            guard let first = token?.utf8.first else { return false }
            return startsNumber(first)
        }
        while let token = pending {
            guard token.count == 1, let letter = token.first, letter.isLetter else { break }
            pending = tokens.next()
            let relative = letter.isLowercase
            let upper = Character(letter.uppercased())
            if upper == "Z" {
                commands.append(.close)
                current = start
                lastCubic = nil
                lastQuad = nil
                continue
            }
            let arity = ["M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7][upper] ?? 0
            var first = true
            while isNumber(pending) {
                var numbers: [Double] = []
                while numbers.count < arity, isNumber(pending), let text = pending, let value = Double(text) {
                    numbers.append(value)
                    pending = tokens.next()
                }
                guard numbers.count == arity else { return commands }
                let base = relative ? current : Point(x: 0, y: 0)
                func point(_ i: Int) -> Point { Point(x: base.x + numbers[i], y: base.y + numbers[i + 1]) }
                var cubic: Point?
                var quad: Point?
                switch upper {
                case "M":
                    let p = point(0)
                    commands.append(first ? .move(p) : .line(p))
                    if first { start = p }
                    current = p
                case "L":
                    current = point(0)
                    commands.append(.line(current))
                case "H":
                    current = Point(x: (relative ? current.x : 0) + numbers[0], y: current.y)
                    commands.append(.line(current))
                case "V":
                    current = Point(x: current.x, y: (relative ? current.y : 0) + numbers[0])
                    commands.append(.line(current))
                case "C":
                    let (c1, c2, p) = (point(0), point(2), point(4))
                    commands.append(.curve(c1, c2, p))
                    (cubic, current) = (c2, p)
                case "S":
                    let c1 = lastCubic.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                    let (c2, p) = (point(0), point(2))
                    commands.append(.curve(c1, c2, p))
                    (cubic, current) = (c2, p)
                case "Q":
                    let (c, p) = (point(0), point(2))
                    commands.append(raise(current, c, p))
                    (quad, current) = (c, p)
                case "T":
                    let c = lastQuad.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                    let p = point(0)
                    commands.append(raise(current, c, p))
                    (quad, current) = (c, p)
                default:  // "A"
                    let end = Point(
                        x: (relative ? current.x : 0) + numbers[5], y: (relative ? current.y : 0) + numbers[6])
                    commands += arc(
                        from: current, to: end, rx: numbers[0], ry: numbers[1], rotation: numbers[2],
                        large: numbers[3] != 0, sweep: numbers[4] != 0)
                    current = end
                }
                lastCubic = cubic
                lastQuad = quad
                first = false
            }
        }
        return commands
    }

    /// A quadratic curve from `p0` as the cubic that draws it.
    private static func raise(_ p0: Point, _ c: Point, _ p: Point) -> PathData.Command {
        .curve(
            Point(x: p0.x + 2 / 3 * (c.x - p0.x), y: p0.y + 2 / 3 * (c.y - p0.y)),
            Point(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y)), p)
    }

    /// An elliptical arc as cubic curves (SVG 1.1 F.6.5 and F.6.6: radii scaled up
    /// when too small, a zero radius draws a line, an arc to its own start nothing).
    private static func arc(
        from p0: Point, to p1: Point, rx: Double, ry: Double, rotation: Double, large: Bool, sweep: Bool
    ) -> [PathData.Command] {
        if p0 == p1 { return [] }
        var rx = abs(rx)
        var ry = abs(ry)
        if rx == 0 || ry == 0 { return [.line(p1)] }
        let phi = rotation * Double.pi / 180
        let (cosPhi, sinPhi) = (cos(phi), sin(phi))
        let dx = (p0.x - p1.x) / 2
        let dy = (p0.y - p1.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy
        let y1 = -sinPhi * dx + cosPhi * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            rx *= lambda.squareRoot()
            ry *= lambda.squareRoot()
        }
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var factor = denominator == 0 ? 0 : max(0, numerator / denominator).squareRoot()
        if large == sweep { factor = -factor }
        let cx1 = factor * rx * y1 / ry
        let cy1 = -factor * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (p0.x + p1.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (p0.y + p1.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep, delta > 0 { delta -= 2 * Double.pi }
        if sweep, delta < 0 { delta += 2 * Double.pi }
        let count = max(1, Int((abs(delta) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = delta / Double(count)
        let k = 4.0 / 3 * tan(step / 4)
        func onEllipse(_ t: Double) -> (Point, Point) {
            // The point at angle t and its derivative direction.
            let (c, s) = (cos(t), sin(t))
            let point = Point(x: cx + rx * cosPhi * c - ry * sinPhi * s, y: cy + rx * sinPhi * c + ry * cosPhi * s)
            let tangent = Point(x: -rx * cosPhi * s - ry * sinPhi * c, y: -rx * sinPhi * s + ry * cosPhi * c)
            return (point, tangent)
        }
        var commands: [PathData.Command] = []
        var t = theta1
        var (from, fromTangent) = onEllipse(t)
        for index in 0..<count {
            t += step
            var (to, toTangent) = onEllipse(t)
            if index == count - 1 { to = p1 }
            commands.append(
                .curve(
                    Point(x: from.x + k * fromTangent.x, y: from.y + k * fromTangent.y),
                    Point(x: to.x - k * toTangent.x, y: to.y - k * toTangent.y), to))
            (from, fromTangent) = (to, toTangent)
        }
        return commands
    }
}
