/// One of the nine reference points of a rectangle, used for both ends of the
/// placement rule: the point on the icon (`--anchor`) and the point of the badge
/// put on it (`--badge-anchor`). Naming follows JSBadgeView's nine alignments
/// (seed 001) and CSS's `top-left` spelling.
public enum Anchor: String, CaseIterable, Sendable {
    case topLeft = "top-left"
    case top = "top"
    case topRight = "top-right"
    case left = "left"
    case center = "center"
    case right = "right"
    case bottomLeft = "bottom-left"
    case bottom = "bottom"
    case bottomRight = "bottom-right"

    /// The anchor's position as fractions of a width and a height (0, 0.5 or 1).
    public var unit: (x: Double, y: Double) {
        switch self {
        case .topLeft: return (0, 0)
        case .top: return (0.5, 0)
        case .topRight: return (1, 0)
        case .left: return (0, 0.5)
        case .center: return (0.5, 0.5)
        case .right: return (1, 0.5)
        case .bottomLeft: return (0, 1)
        case .bottom: return (0.5, 1)
        case .bottomRight: return (1, 1)
        }
    }

    /// The anchor's point on `rect`.
    public func point(in rect: Rect) -> Point {
        Point(x: rect.x + unit.x * rect.width, y: rect.y + unit.y * rect.height)
    }
}
