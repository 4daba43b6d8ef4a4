/// A length as given on the command line or in a manifest: points at 1x (× the
/// badge's pixels per point), or a percentage of the reference box's shorter side
/// (`--height 28%`), which gives the same look at every icon size.
public enum Length: Equatable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// Points at 1x; pixels = points × the badge's pixels per point.
    case points(Double)
    /// Percent of the reference box's shorter side (`28` is 28 %).
    case percent(Double)

    /// Points, from an integer literal.
    public init(integerLiteral value: Int) { self = .points(Double(value)) }
    /// Points, from a floating-point literal.
    public init(floatLiteral value: Double) { self = .points(value) }

    /// The length in pixels: points × `unit` (pixels per point), or the percentage of
    /// `side` (pixels).
    public func pixels(unit: Double, side: Double) -> Double {
        switch self {
        case .points(let value): return value * unit
        case .percent(let value): return value / 100 * side
        }
    }

    /// Whether the length is a percentage.
    public var isPercent: Bool {
        if case .percent = self { return true }
        return false
    }

    /// The number as written (points or percent).
    public var value: Double {
        switch self {
        case .points(let value), .percent(let value): return value
        }
    }
}

/// A screen-space displacement (+x right, +y down), each axis in points or percent of
/// the reference box's shorter side.
public struct Offset: Equatable, Sendable {
    /// Horizontal displacement, +x right.
    public var dx: Length
    /// Vertical displacement, +y down.
    public var dy: Length

    /// Creates an offset from its two components.
    public init(dx: Length, dy: Length) {
        self.dx = dx
        self.dy = dy
    }

    /// No displacement.
    public static let zero = Offset(dx: .points(0), dy: .points(0))

    /// Whether the offset moves anything.
    public var isZero: Bool { dx.value == 0 && dy.value == 0 }
}

/// A width and a height, each a `Length` (`--image-size`).
public struct LengthSize: Equatable, Sendable {
    /// The width.
    public var width: Length
    /// The height.
    public var height: Length

    /// Creates a size from its two lengths.
    public init(width: Length, height: Length) {
        self.width = width
        self.height = height
    }
}
