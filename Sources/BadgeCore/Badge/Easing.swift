/// A CSS timing function (CSS Easing Functions Level 1): a cubic Bézier from (0, 0)
/// to (1, 1) through the control points (x1, y1) and (x2, y2), or `linear`.
///
/// `progress(at:)` maps the fraction of the duration elapsed (x, 0...1) to the
/// fraction of the change done (y), which may leave 0...1: `cubic-bezier(0.4, 1.3, 1,
/// 1)` overshoots to 1.0299169 (at x ≈ 0.85) and comes back (a bounce), and the overshoot is kept.
public struct Easing: Equatable, Sendable, CustomStringConvertible {
    /// The first control point's time, 0...1 (a fraction of the duration).
    public let x1: Double
    /// The first control point's progress; any finite number (above 1 overshoots).
    public let y1: Double
    /// The second control point's time, 0...1.
    public let x2: Double
    /// The second control point's progress; any finite number.
    public let y2: Double

    /// A cubic Bézier timing function.
    ///
    /// - Throws: `EasingError.xOutOfRange` when x1 or x2 lies outside 0...1 (CSS
    ///   requires it: the curve must be a function of time), `.notFinite` for NaN or
    ///   an infinity.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) throws(EasingError) {
        for value in [x1, y1, x2, y2] where !value.isFinite { throw .notFinite }
        guard (0...1).contains(x1), (0...1).contains(x2) else { throw .xOutOfRange(x1: x1, x2: x2) }
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    private init(unchecked x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// CSS's named easings (CSS Easing Functions Level 1, §2.2 "cubic-bezier()"):
    /// `linear`, progress equal to time.
    public static let linear = Easing(unchecked: 0, 0, 1, 1)
    /// `ease`: cubic-bezier(0.25, 0.1, 0.25, 1), CSS's default.
    public static let ease = Easing(unchecked: 0.25, 0.1, 0.25, 1)
    /// `ease-in`: cubic-bezier(0.42, 0, 1, 1); `fade-out`'s curve (UIView+Badge).
    public static let easeIn = Easing(unchecked: 0.42, 0, 1, 1)
    /// `ease-out`: cubic-bezier(0, 0, 0.58, 1); `fade-in`'s curve.
    public static let easeOut = Easing(unchecked: 0, 0, 0.58, 1)
    /// `ease-in-out`: cubic-bezier(0.42, 0, 0.58, 1).
    public static let easeInOut = Easing(unchecked: 0.42, 0, 0.58, 1)

    /// The names `parse` accepts, as CSS spells them.
    public static let names: KeyValuePairs<String, Easing> = [
        "linear": .linear, "ease": .ease, "ease-in": .easeIn, "ease-out": .easeOut, "ease-in-out": .easeInOut,
    ]

    /// The CSS text of this function: a name when it is one, else `cubic-bezier(...)`
    /// with the shortest decimals that read back as the same doubles.
    public var description: String {
        if let name = Self.names.first(where: { $0.value == self })?.key { return name }
        return "cubic-bezier(\([x1, y1, x2, y2].map { Easing.shortest($0) }.joined(separator: ", ")))"
    }

    /// The shortest decimal that reads back as `value` (Swift's own), without ".0".
    public static func shortest(_ value: Double) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// The curve's x and y at parameter t (0...1): B(t) = 3(1−t)²t·P1 + 3(1−t)t²·P2 + t³.
    private static func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        // Horner form of the polynomial: ((a t + b) t + c) t.
        let c = 3 * p1
        let b = 3 * (p2 - p1) - c
        let a = 1 - c - b
        return ((a * t + b) * t + c) * t
    }

    private static func slope(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let c = 3 * p1
        let b = 3 * (p2 - p1) - c
        let a = 1 - c - b
        return (3 * a * t + 2 * b) * t + c
    }

    /// The tolerance on x of the solver: 1e-6 of the duration, as WebKit's
    /// `UnitBezier` and Chromium's `gfx::CubicBezier` solve it.
    public static let epsilon = 1e-6

    /// The parameter t where the curve's x is `x`: Newton's method from t = x for at
    /// most 8 steps, then bisection on 0...1 (x(t) rises monotonically there, since
    /// x1 and x2 lie in 0...1), to within `epsilon`: the method browsers use.
    func parameter(forX x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = Self.bezier(t, x1, x2) - x
            if abs(error) < Self.epsilon { return t }
            let derivative = Self.slope(t, x1, x2)
            if abs(derivative) < 1e-6 { break }
            t -= error / derivative
        }
        var low = 0.0
        var high = 1.0
        t = x
        guard t > low else { return low }
        guard t < high else { return high }
        while low < high {
            let value = Self.bezier(t, x1, x2)
            if abs(value - x) < Self.epsilon { return t }
            if x > value { low = t } else { high = t }
            let middle = (high - low) / 2 + low
            if middle == t { return t }  // no double between: as close as it gets
            t = middle
        }
        return t
    }

    /// The progress (y) at `x`, the fraction of the duration elapsed, clamped to
    /// 0...1 first; y is not clamped (an overshoot is kept).
    public func progress(at x: Double) -> Double {
        let x = min(1, max(0, x))
        if x == 0 { return 0 }
        if x == 1 { return 1 }
        if self == .linear { return x }
        return Self.bezier(parameter(forX: x), y1, y2)
    }

    /// The largest progress over 0...1 and where it is (x): the peak of an
    /// overshoot. Found where dy/dt = 0 (a quadratic in t), or at an end.
    public var peak: (x: Double, progress: Double) {
        var best = (x: 1.0, progress: 1.0)
        for t in turningPoints {
            let y = Self.bezier(t, y1, y2)
            if y > best.progress { best = (Self.bezier(t, x1, x2), y) }
        }
        return best
    }

    /// The smallest progress over 0...1 (0, or below it where the curve dips first).
    public var trough: Double {
        turningPoints.map { Self.bezier($0, y1, y2) }.reduce(0, min)
    }

    /// The curve's parameters t in (0, 1) where dy/dt = 0 (a quadratic in t).
    private var turningPoints: [Double] {
        let c = 3 * y1
        let b = 3 * (y2 - y1) - c
        let a = 1 - c - b
        // dy/dt = 3a t² + 2b t + c = 0
        var roots: [Double] = []
        if abs(a) < 1e-12 {
            if abs(b) > 1e-12 { roots.append(-c / (2 * b)) }
        } else {
            let discriminant = 4 * b * b - 12 * a * c
            if discriminant >= 0 {
                let root = discriminant.squareRoot()
                roots += [(-2 * b + root) / (6 * a), (-2 * b - root) / (6 * a)]
            }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }

    /// Parses a CSS easing: a name of `names`, or `cubic-bezier(x1, y1, x2, y2)` with
    /// plain decimal numbers (spaces allowed around them, case-insensitive name).
    ///
    /// - Throws: `EasingError.malformed` naming the text, `.xOutOfRange` as `init`.
    public static func parse(_ text: String) throws(EasingError) -> Easing {
        let trimmed = String(text.trimmingASCIIWhitespace()).lowercased()
        if let named = names.first(where: { $0.key == trimmed })?.value { return named }
        let prefix = "cubic-bezier("
        guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(")") else { throw .malformed(text) }
        let inner = trimmed.dropFirst(prefix.count).dropLast()
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0).trimmingASCIIWhitespace()
        }
        guard parts.count == 4 else { throw .malformed(text) }
        var values: [Double] = []
        for part in parts {
            guard let value = DecimalNumber.parse(part) else { throw .malformed(text) }
            values.append(value)
        }
        return try Easing(x1: values[0], y1: values[1], x2: values[2], y2: values[3])
    }
}

/// Why an easing was refused.
public enum EasingError: Error, Equatable, Sendable {
    /// Not a CSS easing name nor `cubic-bezier(x1, y1, x2, y2)`.
    case malformed(String)
    /// x1 or x2 outside 0...1.
    case xOutOfRange(x1: Double, x2: Double)
    /// NaN or an infinity.
    case notFinite

    /// The reason, naming the text.
    public var reason: String {
        if case .malformed(let text) = self { return "\(Quoted(text)) \(problem)" }
        return problem
    }

    /// The reason without the text, for an error line that names the option and value.
    public var problem: String {
        switch self {
        case .malformed:
            return "is not an easing: use linear, ease, ease-in, ease-out, ease-in-out or "
                + "cubic-bezier(x1, y1, x2, y2)"
        case .xOutOfRange(let x1, let x2):
            return "cubic-bezier's x1 and x2 must lie in 0...1 (got \(Easing.shortest(x1)) and "
                + "\(Easing.shortest(x2))): the curve must move forward in time"
        case .notFinite:
            return "cubic-bezier needs four finite numbers"
        }
    }
}
