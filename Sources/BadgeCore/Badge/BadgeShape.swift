/// The outline a badge is drawn in (`--shape`).
///
/// - `pill`: iOS's badge, a circle for one glyph and a pill for more (the default).
/// - `ribbon`: a band at 45° across one corner of the icon (`--anchor` names the
///   corner), the look of Android's easylauncher and Expo's app-icon-badge ribbons.
/// - `banner`: a band along the whole top or bottom edge (`--anchor top|bottom`).
/// - `shield`: a two-part label, `LABEL|MESSAGE`, each part with its own colour, like
///   a shields.io badge (fastlane's `badge` plugin draws one at the icon's bottom).
public enum BadgeShape: String, CaseIterable, Sendable {
    case pill
    case ribbon
    case banner
    case shield

    /// Whether the shape is a band across the icon (ribbon or banner), laid out by
    /// `BandLayout` rather than anchored like a pill.
    public var isBand: Bool { self == .ribbon || self == .banner }
}

/// How a banner's two ends meet the icon's shape (`--banner-ends`).
public enum BandEnds: String, CaseIterable, Sendable {
    /// The band runs across the whole reference box and is cut by the shape, so its
    /// ends follow the shape's outline (rounded on iOS).
    case shape
    /// The band is the widest rectangle of its thickness wholly inside the shape: its
    /// ends are straight and inset where the shape curves.
    case straight
}
