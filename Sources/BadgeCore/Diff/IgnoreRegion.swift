/// A rectangle of an image that a comparison does not look at (`--ignore X,Y,W,H`):
/// its left edge X, top edge Y, width W and height H, each in pixels or in percent of
/// the image's width (X, W) or height (Y, H). Percentages resolve against the
/// **expected** image (the golden), whose size is the one the rectangle was drawn on.
///
/// Which pixels it covers (``pixelRect(width:height:)``): every pixel the rectangle
/// touches, so a fractional edge widens it rather than narrows it. With X and W in
/// pixels (a percentage p of a side s is p × s / 100 pixels), the columns are
/// x0 = ⌊X⌋ up to, not including, x1 = ⌈X + W⌉; the rows likewise from Y and H. Edges
/// within 10⁻⁶ px of a whole pixel count as on it (so 33.3 % of 1000 px, 333.0000…01 px
/// in binary arithmetic, ends at column 333, not 334). The result is clipped to the
/// image; a rectangle wholly outside covers nothing.
public struct IgnoreRegion: Equatable, Sendable {
    /// One of the four numbers: pixels, or percent of the image's width (X, W) or
    /// height (Y, H).
    public enum Coordinate: Equatable, Sendable {
        /// Pixels of the image (`10`, `2.5`).
        case pixels(Double)
        /// Percent of the image's width or height (`12.5` is 12.5 %).
        case percent(Double)

        /// The coordinate in pixels along a side of `side` pixels.
        public func pixels(side: Int) -> Double {
            switch self {
            case .pixels(let value): return value
            // value × side first: 10 % of 30 is exactly 3, where 0.1 × 30 is not.
            case .percent(let value): return value * Double(side) / 100
            }
        }
    }

    /// Left edge (pixels from the image's left, or percent of its width).
    public var x: Coordinate
    /// Top edge (pixels from the image's top, or percent of its height).
    public var y: Coordinate
    /// Width (pixels, or percent of the image's width); more than 0.
    public var width: Coordinate
    /// Height (pixels, or percent of the image's height); more than 0.
    public var height: Coordinate

    /// A region from its four coordinates (not checked: `ValueParsers` in BadgeJobs refuses
    /// negative positions and empty sizes before one is made from user input).
    public init(x: Coordinate, y: Coordinate, width: Coordinate, height: Coordinate) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// A region in whole pixels.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(
            x: .pixels(Double(x)), y: .pixels(Double(y)), width: .pixels(Double(width)),
            height: .pixels(Double(height)))
    }

    /// How close (pixels) an edge must be to a whole pixel to count as on it.
    static let edgeTolerance = 1e-6

    /// The pixels the region covers in an image of `width` × `height` pixels (the
    /// expected image's size): x0 = ⌊X⌋ to x1 = ⌈X + W⌉ (exclusive), y0 = ⌊Y⌋ to
    /// y1 = ⌈Y + H⌉, edges within 10⁻⁶ px of a whole pixel taken as on it, clipped to
    /// the image; nil when nothing of it lies inside.
    public func pixelRect(width imageWidth: Int, height imageHeight: Int) -> PixelRect? {
        func span(_ start: Coordinate, _ length: Coordinate, side: Int) -> Range<Int>? {
            let origin = start.pixels(side: side)
            let end = origin + length.pixels(side: side)
            let low = max((origin + Self.edgeTolerance).rounded(.down), 0)
            let high = min((end - Self.edgeTolerance).rounded(.up), Double(side))
            guard low.isFinite, high.isFinite, low < high else { return nil }
            return Int(low)..<Int(high)
        }
        guard let columns = span(x, width, side: imageWidth), let rows = span(y, height, side: imageHeight) else {
            return nil
        }
        return PixelRect(
            x: columns.lowerBound, y: rows.lowerBound, width: columns.count, height: rows.count)
    }
}

/// A rectangle of whole pixels: columns `x ..< x + width`, rows `y ..< y + height`.
public struct PixelRect: Equatable, Hashable, Sendable {
    /// Left column (pixels).
    public var x: Int
    /// Top row (pixels).
    public var y: Int
    /// Width (pixels).
    public var width: Int
    /// Height (pixels).
    public var height: Int

    /// A rectangle from its origin and size (pixels).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

extension IgnoreRegion: CustomStringConvertible {
    /// `X,Y,W,H` as `--ignore` takes it (`10,0,25%,25%`); whole numbers without `.0`.
    public var description: String {
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        func text(_ coordinate: Coordinate) -> String {
            switch coordinate {
            case .pixels(let value): return number(value)
            case .percent(let value): return number(value) + "%"
            }
        }
        return [x, y, width, height].map(text).joined(separator: ",")
    }
}
