/// What the user asked the badge to show, before the label rules run.
public enum BadgeContent: Equatable, Sendable {
    /// A value: a count (`3`, `150`) or text (`NEW`); see `LabelRules`.
    case value(String)
    /// A dot with no text.
    case dot
    /// An image file used as the badge (seed 002).
    case image(path: String)
}

/// A clip applied to the icon itself before the badge is drawn (seed 004's
/// circular avatar).
public enum IconMask: Equatable, Sendable {
    /// No clip.
    case none
    /// The largest circle centred in the icon.
    case circle
    /// A rounded rectangle with this corner radius (points).
    case rounded(radius: Double)
}
