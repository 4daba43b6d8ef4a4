/// A point in pixels (or points, where a doc comment says so); +x right, +y down.
public struct Point: Equatable, Hashable, Sendable {
    /// Horizontal coordinate, +x right.
    public var x: Double
    /// Vertical coordinate, +y down.
    public var y: Double

    /// Creates a point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A width and a height, in pixels unless a doc comment says points.
public struct Size: Equatable, Hashable, Sendable {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// Creates a size from its extents.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle: origin at its top-left corner, +y down.
public struct Rect: Equatable, Hashable, Sendable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Horizontal extent (never negative in a rectangle iconbadge makes).
    public var width: Double
    /// Vertical extent (never negative in a rectangle iconbadge makes).
    public var height: Double

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Left edge.
    public var minX: Double { x }
    /// Top edge.
    public var minY: Double { y }
    /// Right edge.
    public var maxX: Double { x + width }
    /// Bottom edge.
    public var maxY: Double { y + height }
    /// The centre point.
    public var center: Point { Point(x: x + width / 2, y: y + height / 2) }

    /// The smallest rectangle holding both.
    public func union(_ other: Rect) -> Rect {
        let left = min(minX, other.minX)
        let top = min(minY, other.minY)
        return Rect(
            x: left, y: top, width: max(maxX, other.maxX) - left,
            height: max(maxY, other.maxY) - top)
    }

    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// Whether `other` lies wholly inside this rectangle (edges may touch).
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.minY >= minY && other.maxX <= maxX && other.maxY <= maxY
    }
}
