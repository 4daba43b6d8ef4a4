import BadgeCore

/// Everything one render needs. Sizes in `style` are points; `scale` turns them
/// into pixels.
public struct RenderRequest: Equatable, Sendable {
    /// The icon's path, or `-` for standard input.
    public var iconPath: String
    /// What the badge shows.
    public var content: BadgeContent
    /// The rules that turn a value into a label (or hide the badge).
    public var labelRules: LabelRules
    /// Look and placement (points).
    public var style: BadgeStyle
    /// Pixels per point (1 for @1x, 2 for @2x, ...); any positive number.
    public var scale: Double
    /// The font for the text.
    public var font: FontChoice
    /// OpenType features for HarfBuzz, such as `tnum` or `-liga`.
    public var fontFeatures: [String]
    /// Font files tried, in order, for glyphs the chosen font lacks.
    public var fallbackFonts: [String] = []
    /// Whether fontconfig's fallback list supplies glyphs no given font has.
    public var systemFallback = true
    /// Whether a code point no font can draw is an error (69) instead of a warning.
    public var strictGlyphs = false
    /// A clip applied to the icon.
    public var iconMask: IconMask
    /// Colour filters applied to the icon's pixels, in order, before the badge is
    /// drawn (`--icon-filter`; formulas in `IconFilter`); never to the badge. An SVG
    /// icon is then drawn as its filtered pixels (at its pixel size) into SVG and PDF
    /// outputs too, not as vectors.
    public var iconFilters: [IconFilter] = []
    /// Bounds on the input images.
    public var limits: ImageLimits
    /// Resize the icon to exactly this many pixels (raster images are resampled in
    /// premultiplied space, SVG is rendered at that size); nil keeps a raster icon's
    /// pixels and renders an SVG at its intrinsic size × `scale`.
    public var iconSize: Size?
    /// Resamples a raster icon by this factor (when `iconSize` is nil): how
    /// `--scales` makes @2x and @3x from one @1x raster source. SVG icons ignore it
    /// (they are rendered at their intrinsic size × `scale`).
    public var iconRasterScale: Double = 1
    /// The shape the icon is shown in: anchors and percentages refer to its reference
    /// box, and clamp keeps the badge inside its mask.
    public var platform: IconPlatform = .canvas
    /// What text below `minimumTextPixels` becomes.
    public var smallText: SmallTextRule = .dot
    /// The smallest legible text, as an em size in pixels: 7 px, where DejaVu Sans
    /// Bold's capitals and digits are 5 px tall.
    public var minimumTextPixels: Double = 7
    /// The smallest dot drawn (pixels): 4 px, so a dot stays a visible disc on a 16 px
    /// icon.
    public var minimumDotPixels: Double = 4
    /// Whether the whole badge (shape, border, text, colour glyphs, badge image) is
    /// drawn in greys: Rec. 709 luma, as `Color.greyscale`, for an iOS 18 tinted
    /// appearance, which the system colours from the image's luminance.
    public var greyscaleBadge = false
    /// Whether the text is cut out of the badge (drawn with Cairo's DEST_OUT) instead
    /// of painted: for a single-colour layer whose alpha alone is shown, such as an
    /// Android adaptive icon's monochrome layer, where painted text would vanish.
    public var knockoutText = false
    /// The icon's opaque pixels, when already known (the isolated vector render is
    /// given them by its parent, which decoded the pixels); nil: taken from the icon.
    public var contentShape: ContentShape?

    /// Whether text that cannot fit its ribbon, banner or shield even at
    /// `minimumTextPixels` follows `smallText` (a band without its text, a dot, or
    /// nothing, with a note) instead of failing with 65: the catalog commands, whose
    /// sets are all or nothing, set it.
    public var dropsUnfittingText = false
    /// Badges drawn after this one, in order, on the same icon (a BETA ribbon, then a
    /// count). Only their own badge fields are used: content, label rules, style,
    /// fonts and the small-size rules; the icon, scale, size, platform, mask and limits
    /// are this request's (`overlay(_:)`). At most `maxBadges` − 1, none nested.
    public var moreBadges: [RenderRequest] = []
    /// The animation frame the first badge is drawn at: its scale about its centre,
    /// its opacity, and (in a `pop`) whether it shows `previousContent`. `.rest`
    /// draws the static badge; badges of `moreBadges` are always drawn at rest.
    public var frame: BadgeFrameState = .rest
    /// Which parts of the render are drawn: all, or the layers of an animated SVG.
    public var layers: RenderLayers = .all
    /// The largest scale an animation draws the first badge at (1 for a still image):
    /// `--overflow expand` makes room for it, so no frame is clipped; 1...
    /// `BadgeAnimation.maxRoom`.
    public var animationRoom: Double = 1
    /// The value a `pop` animation changes from, drawn in frames whose state
    /// `showsOldValue`; nil for every other render.
    public var previousContent: BadgeContent?

    /// The most badges one render draws: 16, more than any real icon holds, so a
    /// manifest cannot make one render do unbounded work.
    public static let maxBadges = 16

    /// `badge` drawn on this request's icon: its badge fields, with this request's
    /// icon, scale, size, platform, mask, limits and catalog rules.
    public func overlay(_ badge: RenderRequest) -> RenderRequest {
        var drawn = badge
        drawn.iconPath = iconPath
        drawn.scale = scale
        drawn.iconSize = iconSize
        drawn.iconRasterScale = iconRasterScale
        drawn.platform = platform
        drawn.iconMask = iconMask
        drawn.limits = limits
        drawn.contentShape = contentShape
        drawn.greyscaleBadge = greyscaleBadge
        drawn.knockoutText = knockoutText
        drawn.dropsUnfittingText = dropsUnfittingText
        drawn.moreBadges = []
        drawn.frame = .rest
        drawn.animationRoom = 1
        drawn.layers = .all
        drawn.previousContent = nil
        return drawn
    }

    /// A request with iOS's defaults for everything but the icon and content.
    public init(
        iconPath: String, content: BadgeContent, labelRules: LabelRules = LabelRules(),
        style: BadgeStyle = BadgeStyle(),
        scale: Double = 1, font: FontChoice = .bundled(.bold), fontFeatures: [String] = TextShaper.defaultFeatures,
        iconMask: IconMask = .none, limits: ImageLimits = ImageLimits()
    ) {
        self.iconPath = iconPath
        self.content = content
        self.labelRules = labelRules
        self.style = style
        self.scale = scale
        self.font = font
        self.fontFeatures = fontFeatures
        self.iconMask = iconMask
        self.limits = limits
    }
}

/// The parts of a render drawn: everything, or one layer of an animated SVG, whose
/// moving badge is animated over the still rest.
public enum RenderLayers: UInt8, Equatable, Sendable {
    /// The icon and every badge.
    case all
    /// The icon and every badge but the first (the one that moves).
    case still
    /// The first badge alone, on a transparent canvas.
    case moving
}
