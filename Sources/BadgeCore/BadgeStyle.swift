/// How tall a badge is.
public enum BadgeHeight: Equatable, Sendable {
    /// A fixed height in points (default 18, iOS's badge).
    case fixed(Double)
    /// Seed 001's rule: max(text height, `minHeight`) + 2 × vertical padding, where
    /// the text height is the font's line height (ascent + descent), as UIKit's
    /// `sizeToFit` measures a label.
    case auto
}

/// Space between the text and the badge's edge, in points, on each side.
public struct Padding: Equatable, Sendable {
    /// Left and right padding, each (points).
    public var horizontal: Double
    /// Top and bottom padding, each; used by `BadgeHeight.auto` (points).
    public var vertical: Double

    /// Creates a padding from its two per-side values (points).
    public init(horizontal: Double, vertical: Double) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
}

/// Everything about a badge's look and place, in **points** at 1x; the layout
/// multiplies by the scale into pixels. Defaults are iOS's badge: #FF3B30 fill,
/// white 12 pt bold text, 18 pt tall, a circle for one glyph and a pill for more,
/// centred on the icon's top-right corner and moved inward to stay inside.
public struct BadgeStyle: Equatable, Sendable {
    /// The badge's height rule (default fixed 18 pt).
    public var height: BadgeHeight = .fixed(18)
    /// Smallest height of the text box for `BadgeHeight.auto` (points; seed 001's
    /// "minimum size").
    public var minHeight: Double = 0
    /// Smallest outer width (points); the width is
    /// max(text advance + 2 × horizontal padding, height, minWidth).
    public var minWidth: Double = 0
    /// Padding on each side (points); default 4 horizontal, 2 vertical, so any one
    /// digit of the default font fits an 18 pt circle.
    public var padding = Padding(horizontal: 4, vertical: 2)
    /// Corner radius (points); nil means height / 2, a circle or a pill. Clamped to
    /// half the shorter side.
    public var radius: Double?
    /// Text size (points; the em size).
    public var fontSize: Double = 12
    /// Diameter of a `--dot` badge (points).
    public var dotSize: Double = 8
    /// Size of an image badge (points); nil means the badge height, with the
    /// image's aspect ratio.
    public var imageSize: Size?
    /// Fill colour (straight alpha).
    public var background: Color = .systemRed
    /// Text colour (straight alpha).
    public var textColor: Color = .white
    /// Border colour (straight alpha); drawn only when `borderWidth` > 0.
    public var borderColor: Color = .white
    /// Border width (points), drawn inside the badge's bounds.
    public var borderWidth: Double = 0
    /// The point on the icon the badge is placed on.
    public var anchor: Anchor = .topRight
    /// The point of the badge placed on `anchor`.
    public var badgeAnchor: Anchor = .center
    /// Displacement after anchoring, screen-space (+x right, +y down).
    public var offset: Offset = .zero
    /// What to do with a badge that overhangs the canvas.
    public var overflow: Overflow = .clamp

    /// The iOS defaults.
    public init() {}
}
