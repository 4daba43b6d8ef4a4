/// A size or count over one of iconbadge's limits, with the numbers, so that the
/// command line can say which option changes it (`BadgeError.overLimit`); the core
/// itself never names an option.
public enum LimitExceeded: Equatable, Sendable {
    /// An image's side is over `ImageLimits.maxSide` (pixels).
    case imageSide(width: Int, height: Int, limit: Int)
    /// An image's width × height is over `ImageLimits.maxPixels`.
    case imagePixels(width: Int, height: Int, limit: Int)
    /// An SVG would render wider or taller than Cairo's surfaces can be (32767 px);
    /// nil sides are unknown.
    case renderSide(width: Int?, height: Int?)
    /// The isolated decoder ran out of the memory it may use (bytes).
    case decoderMemory(limit: Int)
    /// The badge itself would be over the side limit (pixels, unrounded).
    case badgeSide(width: Double, height: Double, limit: Int)
    /// With clamp placement, the badge is larger than the icon (pixels).
    case badgeLargerThanIcon(badgeWidth: Int, badgeHeight: Int, iconWidth: Int, iconHeight: Int)
    /// The canvas grown by expand placement would be over the side limit (pixels).
    case expandedCanvas(width: Double, height: Double, limit: Int)
    /// The text's em size is outside 0 to `limit` pixels (points × scale).
    case textPixels(points: Double, scale: Double, pixels: Double, limit: Double)
    /// The text has more code points than any badge can hold.
    case textLength(codePoints: Int, limit: Int)
    /// The text's ink box is larger than the badge that holds it (pixels).
    case textInk(inkWidth: Int, inkHeight: Int, badgeWidth: Int, badgeHeight: Int)

    /// What is over which limit, without naming an option (pixels unless said).
    public var description: String {
        switch self {
        case .imageSide(let width, let height, let limit):
            return "the image is \(width) × \(height) px, over the \(limit) px side limit"
        case .imagePixels(let width, let height, let limit):
            let area = width.multipliedReportingOverflow(by: height)
            let shown = area.overflow ? "over 2^63" : String(area.partialValue)
            return "the image is \(width) × \(height) = \(shown) px, over the \(limit) pixel limit"
        case .renderSide(let width, let height):
            let size = width.flatMap { w in height.map { "\(w) × \($0) px" } } ?? "a size"
            return "renders at \(size), over Cairo's limit of \(ImageLimits.cairoMaxSide) px a side"
        case .decoderMemory(let limit):
            return "decoding it needs more than the \(limit / (1 << 20)) MiB the decoder may use"
        case .badgeSide(let width, let height, let limit):
            return
                "the badge would be \(LimitExceeded.pixels(width)) × \(LimitExceeded.pixels(height)) px, over the \(limit) px limit"
        case .badgeLargerThanIcon(let badgeWidth, let badgeHeight, let iconWidth, let iconHeight):
            return
                "the badge (\(badgeWidth) × \(badgeHeight) px) is larger than the \(iconWidth) × \(iconHeight) px icon"
        case .expandedCanvas(let width, let height, let limit):
            return
                "the expanded canvas would be \(LimitExceeded.pixels(width)) × \(LimitExceeded.pixels(height)) px, over the \(limit) px limit"
        case .textPixels(let points, let scale, let pixels, let limit):
            return "text of \(points) pt at scale \(scale) is \(pixels) px, outside 0-\(Int(limit)) px"
        case .textLength(let codePoints, let limit):
            return "text of \(codePoints) code points cannot fit a badge (the limit is \(limit))"
        case .textInk(let inkWidth, let inkHeight, let badgeWidth, let badgeHeight):
            return
                "the text's ink (\(inkWidth) × \(inkHeight) px) does not fit inside its \(badgeWidth) × \(badgeHeight) px badge"
        }
    }

    private static func pixels(_ value: Double) -> String {
        value.isFinite && abs(value) < 1e15 ? String(Int(value.rounded())) : "over 10^15"
    }
}
