/// A distance given on the command line: points at 1x (× scale into pixels), or a
/// percentage of the icon's width (for x) or height (for y).
public enum Length: Equatable, Sendable {
    /// Points at 1x; pixels = points × scale.
    case points(Double)
    /// Percent of the icon's extent along the same axis (`-20` is -20 %).
    case percent(Double)

    /// The length in pixels, given the scale and the icon's extent (pixels) on this axis.
    public func pixels(scale: Double, extent: Double) -> Double {
        switch self {
        case .points(let value): return value * scale
        case .percent(let value): return value / 100 * extent
        }
    }
}

/// A screen-space displacement (+x right, +y down), each axis in points or percent.
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
}
