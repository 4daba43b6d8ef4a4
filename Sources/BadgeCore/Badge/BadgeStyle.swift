/// How tall a badge is.
public enum BadgeHeight: Equatable, Sendable {
    /// A fixed height (default 18 pt, iOS's badge); a percentage makes the whole badge
    /// scale with the icon (see `BadgeStyle.pixels(scale:side:)`).
    case fixed(Length)
    /// The UIKit rule of `UIBarButtonItem+Badge`: max(text height, `minHeight`) +
    /// 2 × vertical padding, where the text height is the font's line height
    /// (ascent + descent), as UIKit's `sizeToFit` measures a label.
    case auto
}

/// Space between the text and the badge's edge, on each side.
public struct Padding: Equatable, Sendable {
    /// Left and right padding, each.
    public var horizontal: Length
    /// Top and bottom padding, each; used by `BadgeHeight.auto`.
    public var vertical: Length

    /// Creates a padding from its two per-side values.
    public init(horizontal: Length, vertical: Length) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
}

/// Everything about a badge's look and place: lengths in **points** at 1x or in
/// percent of the reference box's shorter side (`Length`); `pixels(scale:side:)`
/// turns them into pixels. Defaults are iOS's badge: #FF3B30 fill, white 12 pt bold
/// text, 18 pt tall, a circle for one glyph and a pill for more, centred on the
/// top-right corner of the reference box and moved inward to stay inside.
public struct BadgeStyle: Equatable, Sendable {
    /// The badge's height rule (default fixed 18 pt).
    public var height: BadgeHeight = .fixed(18)
    /// Smallest height of the text box for `BadgeHeight.auto` (the UIKit rule's
    /// "minimum size").
    public var minHeight: Length = 0
    /// Smallest outer width; the width is max(text advance + 2 × horizontal padding,
    /// height, minWidth).
    public var minWidth: Length = 0
    /// Padding on each side; default 4 pt horizontal, 2 pt vertical, so any one digit
    /// of the default font fits an 18 pt circle.
    public var padding = Padding(horizontal: 4, vertical: 2)
    /// Corner radius; nil means height / 2, a circle or a pill. Clamped to half the
    /// shorter side.
    public var radius: Length?
    /// Text size (the em size).
    public var fontSize: Length = 12
    /// Diameter of a `--dot` badge.
    public var dotSize: Length = 8
    /// Size of an image badge; nil means the badge height, with the image's aspect
    /// ratio.
    public var imageSize: LengthSize?
    /// Fill colour (straight alpha).
    public var background: Color = .systemRed
    /// Text colour (straight alpha).
    public var textColor: Color = .white
    /// Border colour (straight alpha); drawn only when `borderWidth` > 0.
    public var borderColor: Color = .white
    /// Border width, drawn inside the badge's bounds.
    public var borderWidth: Length = 0
    /// The point on the reference box the badge is placed on.
    public var anchor: Anchor = .topRight
    /// The point of the badge placed on `anchor`.
    public var badgeAnchor: Anchor = .center
    /// Displacement after anchoring, screen-space (+x right, +y down).
    public var offset: Offset = .zero
    /// What to do with a badge that overhangs the reference shape.
    public var overflow: Overflow = .clamp
    /// Whether a clamped badge moves, within the shape and the anchor's quadrant, to
    /// the nearest position covering the fewest of the icon's opaque pixels
    /// (`--avoid-content`; `BadgePlacement.leastCovering`).
    public var avoidsContent = false
    /// The badge's outline: a pill (iOS's badge), a ribbon, a banner or a shield.
    public var shape: BadgeShape = .pill
    /// A ribbon's distance from its corner, along each edge to the band's centre line;
    /// nil: 40 % of the shape's box, 50 % on a round shape (`BandLayout.defaultDistance`).
    public var ribbonDistance: Length?
    /// How a banner's ends meet the icon's shape.
    public var bandEnds: BandEnds = .shape
    /// A shield's left (label) part fill, straight alpha; the right part uses
    /// `background`. Default #555555, shields.io's label grey.
    public var labelBackground = Color(red: 0x55, green: 0x55, blue: 0x55)
    /// The preset's own height and text size (points): a percentage height or text
    /// size sets the pixels per point of every other length from them, so the whole
    /// badge keeps its proportions (`pixels(scale:side:)`).
    public var nominalHeight: Double = 18
    /// The preset's own text size (points); see `nominalHeight`.
    public var nominalFontSize: Double = 12

    /// The iOS defaults.
    public init() {}

    /// The lengths in pixels, for a reference box whose shorter side is `side`
    /// pixels, at `scale` pixels per point.
    ///
    /// Pixels per point (`PixelStyle.unit`): with a percentage height it is that
    /// height in pixels / `nominalHeight`; else, with a percentage text size, that size
    /// in pixels / `nominalFontSize`; else `scale`. So `--height 28%` alone makes a
    /// badge 28 % of the icon whose text, padding, radius and border keep the preset's
    /// proportions, at 16 px as at 1024 px.
    public func pixels(scale: Double, side: Double) -> PixelStyle {
        var unit = scale
        if case .fixed(let height) = height, height.isPercent {
            unit = height.pixels(unit: 1, side: side) / nominalHeight
        } else if fontSize.isPercent {
            unit = fontSize.pixels(unit: 1, side: side) / nominalFontSize
        }
        func px(_ length: Length) -> Double { length.pixels(unit: unit, side: side) }
        var style = PixelStyle(unit: unit)
        switch height {
        case .fixed(let length): style.height = px(length)
        case .auto: style.height = nil
        }
        style.minHeight = px(minHeight)
        style.minWidth = px(minWidth)
        style.paddingX = px(padding.horizontal)
        style.paddingY = px(padding.vertical)
        style.radius = radius.map(px)
        style.fontSize = px(fontSize)
        style.dotSize = px(dotSize)
        style.imageSize = imageSize.map { Size(width: px($0.width), height: px($0.height)) }
        style.borderWidth = px(borderWidth)
        style.offsetX = px(offset.dx)
        style.offsetY = px(offset.dy)
        style.anchor = anchor
        style.badgeAnchor = badgeAnchor
        style.overflow = overflow
        style.avoidsContent = avoidsContent
        style.shape = shape
        style.ribbonDistance = ribbonDistance.map(px)
        style.bandEnds = bandEnds
        return style
    }
}

/// A `BadgeStyle` with every length in **pixels**, as the layout takes it.
public struct PixelStyle: Equatable, Sendable {
    /// Pixels per point the point lengths were multiplied by.
    public var unit: Double
    /// The largest scale the badge is drawn at about its centre (an animation's
    /// frames; `RenderRequest.Animation.room`): `expand` makes room for the badge at that
    /// scale. 1 for a still image.
    public var roomScale: Double = 1
    /// The fixed height; nil for the auto rule.
    public var height: Double? = 18
    /// See `BadgeStyle`; pixels.
    public var minHeight: Double = 0
    /// See `BadgeStyle`; pixels.
    public var minWidth: Double = 0
    /// Horizontal padding per side (pixels).
    public var paddingX: Double = 4
    /// Vertical padding per side (pixels).
    public var paddingY: Double = 2
    /// Corner radius (pixels); nil for height / 2.
    public var radius: Double?
    /// Text em size (pixels).
    public var fontSize: Double = 12
    /// Dot diameter (pixels).
    public var dotSize: Double = 8
    /// Image badge size (pixels); nil for the height and the image's aspect ratio.
    public var imageSize: Size?
    /// Border width (pixels).
    public var borderWidth: Double = 0
    /// Horizontal offset (pixels, +x right).
    public var offsetX: Double = 0
    /// Vertical offset (pixels, +y down).
    public var offsetY: Double = 0
    /// See `BadgeStyle`.
    public var anchor: Anchor = .topRight
    /// See `BadgeStyle`.
    public var badgeAnchor: Anchor = .center
    /// See `BadgeStyle`.
    public var overflow: Overflow = .clamp
    /// See `BadgeStyle`.
    public var avoidsContent = false
    /// See `BadgeStyle`.
    public var shape: BadgeShape = .pill
    /// A ribbon's distance from its corner (pixels); nil for the shape's default.
    public var ribbonDistance: Double?
    /// See `BadgeStyle`.
    public var bandEnds: BandEnds = .shape

    /// A style of pixel lengths with iOS's defaults at 1x.
    public init(unit: Double = 1) { self.unit = unit }
}
