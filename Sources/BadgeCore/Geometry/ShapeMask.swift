#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pixels of a canvas that a platform's icon mask shows **whole**: a pixel is in
/// the mask only when its entire square lies inside the shape, so a badge kept on
/// such pixels loses nothing to the mask however the mask is antialiased.
///
/// Rows are described by spans of columns (`spans(row:)`); every shape iconbadge
/// knows is either convex (one span a row) or an icon's own alpha (several).
public struct ShapeMask: Equatable, Sendable {
    /// The shape.
    public enum Kind: Equatable, Sendable {
        /// A rectangle (pixels).
        case rectangle(Rect)
        /// The superellipse |x/a|^n + |y/b|^n ≤ 1 centred on `center` (pixels); n = 2
        /// is an ellipse (a circle when a = b), n = 5 the model of Apple's continuous
        /// corners (see `IconPlatform`).
        case superellipse(center: Point, radiusX: Double, radiusY: Double, exponent: Double)
        /// Spans given per row: an icon's own opaque pixels (alpha at least half).
        case rows([[Range<Int>]])
    }

    /// The shape.
    public let kind: Kind
    /// The canvas width (pixels); no span reaches past it.
    public let width: Int
    /// The canvas height (pixels).
    public let height: Int

    /// A mask of `kind` on a `width` × `height` canvas.
    public init(_ kind: Kind, width: Int, height: Int) {
        self.kind = kind
        self.width = width
        self.height = height
    }

    /// The columns of row `y` whose pixels lie wholly inside the shape, sorted and
    /// disjoint; empty outside the canvas.
    public func spans(row y: Int) -> [Range<Int>] {
        guard y >= 0, y < height else { return [] }
        switch kind {
        case .rectangle(let rect):
            guard Double(y) >= rect.minY, Double(y + 1) <= rect.maxY else { return [] }
            return span(from: rect.minX, to: rect.maxX)
        case .superellipse(let center, let radiusX, let radiusY, let exponent):
            // A convex shape holds a pixel's square when it holds its four corners:
            // the tighter of the extents at the row's top and bottom edges.
            guard let top = extent(at: Double(y), center, radiusX, radiusY, exponent),
                let bottom = extent(at: Double(y + 1), center, radiusX, radiusY, exponent)
            else { return [] }
            return span(from: max(top.left, bottom.left), to: min(top.right, bottom.right))
        case .rows(let rows):
            return y < rows.count ? rows[y] : []
        }
    }

    /// Whether the pixel at column `x`, row `y` is wholly inside the shape.
    public func contains(x: Int, y: Int) -> Bool {
        spans(row: y).contains { $0.contains(x) }
    }

    /// Whole pixels between `left` and `right` (pixel edges), within the canvas.
    private func span(from left: Double, to right: Double) -> [Range<Int>] {
        let first = max(0, Int((left - 1e-9).rounded(.up)))
        let end = min(width, Int((right + 1e-9).rounded(.down)))
        return first < end ? [first..<end] : []
    }

    /// The shape's horizontal extent on the line at height `y`, nil above or below it.
    private func extent(at y: Double, _ center: Point, _ a: Double, _ b: Double, _ n: Double) -> (
        left: Double, right: Double
    )? {
        let t = abs(y - center.y) / b
        guard t <= 1 else { return nil }
        let dx = a * pow(max(0, 1 - pow(t, n)), 1 / n)
        return (center.x - dx, center.x + dx)
    }
}
