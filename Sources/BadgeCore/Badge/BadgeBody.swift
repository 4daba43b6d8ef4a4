/// What the badge holds, measured, as the layout needs it.
public enum BadgeBody: Equatable, Sendable {
    /// Shaped text and its metrics (pixels).
    case text(TextMetrics)
    /// A plain dot of `BadgeStyle.dotSize`.
    case dot
    /// An image whose natural size is given (pixels of the decoded image).
    case image(width: Int, height: Int)
    /// A shield's two texts, shaped at the same size (pixels).
    case shield(label: TextMetrics, message: TextMetrics)
}
