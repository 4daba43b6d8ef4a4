import BadgeCore

/// Everything one render needs, in five named parts: the icon, the badges drawn on
/// it, the output's scale and appearance, the limits, and the animation frame.
/// Lengths in the badges' styles are points; `output.scale` turns them into pixels.
///
/// Built once, whole, by whoever plans the render (`JobPlanner` for a command line,
/// a manifest entry or a catalog slot; a test), and never changed: every part is a
/// `let`. `Renderer.compose` turns it into a `Scene`, once.
public struct RenderRequest: Equatable, Sendable {
    /// The icon drawn under the badges.
    public let icon: Icon
    /// The badges, in drawing order (a BETA ribbon, then a count); at least one. The
    /// first is the one an animation moves and the one `--report` calls `badge`.
    public let badges: [Badge]
    /// The output's scale and how its badges are painted.
    public let output: Output
    /// Bounds on the input images.
    public let limits: ImageLimits
    /// The frame of an animation this render draws (`.still` for a still image).
    public let animation: Animation

    /// The most badges one render draws: 16, more than any real icon holds, so a
    /// manifest cannot make one render do unbounded work.
    public static let maxBadges = 16

    /// A request from its parts: `badge` first, then `moreBadges` in order.
    public init(
        icon: Icon, badge: Badge, moreBadges: [Badge] = [], output: Output = Output(),
        limits: ImageLimits, animation: Animation = .still
    ) {
        self.icon = icon
        badges = [badge] + moreBadges
        self.output = output
        self.limits = limits
        self.animation = animation
    }

    /// A request for one badge with iOS's defaults for everything not given.
    public init(
        iconPath: String, content: BadgeContent, labelRules: LabelRules = LabelRules(),
        style: BadgeStyle = BadgeStyle(), scale: Double = 1, font: FontChoice = .bundled(.bold),
        fontFeatures: [String] = TextShaper.defaultFeatures, iconMask: IconMask = .none,
        limits: ImageLimits
    ) {
        self.init(
            icon: Icon(path: iconPath, mask: iconMask),
            badge: Badge(
                content: content, labelRules: labelRules, style: style, font: font, fontFeatures: fontFeatures),
            output: Output(scale: scale), limits: limits)
    }

    /// The first badge: the one an animation moves.
    public var badge: Badge { badges[0] }

    /// A shield's text split at its first `|`: `1.4.2|beta` (or `1.4.2 | beta`) is the
    /// label `1.4.2` and the message `beta`; nil without a `|`.
    public static func shieldParts(_ text: String) -> (label: String, message: String)? {
        guard let bar = text.firstIndex(of: "|") else { return nil }
        // Spaces around the bar are the writer's, not the shield's: `1.4.2 | beta`.
        return (
            String(text[..<bar].trimmingASCIIWhitespace()),
            String(text[text.index(after: bar)...].trimmingASCIIWhitespace())
        )
    }
}

extension RenderRequest {
    /// The icon part: which file, at what size, in which shape, with which filters.
    /// Built with its request, never changed.
    public struct Icon: Equatable, Sendable {
        /// The icon's path, or `-` for standard input.
        public let path: String
        /// Resize the icon to exactly this many pixels (raster images are resampled in
        /// premultiplied space, SVG is rendered at that size); nil keeps a raster icon's
        /// pixels and renders an SVG at its intrinsic size × the output's scale.
        public let size: Size?
        /// Resamples a raster icon by this factor (when `size` is nil): how `--scales`
        /// makes @2x and @3x from one @1x raster source. SVG icons ignore it (they are
        /// rendered at their intrinsic size × the output's scale).
        public let rasterScale: Double
        /// A clip applied to the icon.
        public let mask: IconMask
        /// Colour filters applied to the icon's pixels, in order, before the badges are
        /// drawn (formulas in `IconFilter`); never to a badge. An SVG icon is then
        /// drawn as its filtered pixels (at its pixel size) into SVG and PDF outputs
        /// too, not as vectors.
        public let filters: [IconFilter]
        /// The shape the icon is shown in: anchors and percentages refer to its
        /// reference box, and clamp keeps the badges inside its mask.
        public let platform: IconPlatform
        /// What is seen under the badges when the icon is a layer drawn over others:
        /// an image of the same size whose pixels the badges' contrast is measured
        /// against instead of the icon's (an adaptive icon's background and
        /// foreground, composed, under its badge layer). Never drawn. Nil: the icon.
        public let backdrop: String?
        /// Images drawn in memory by the planner, read instead of the files their
        /// paths (`path`, `backdrop`) name: an Android layer and its backdrop, never
        /// written to disk. Empty: every image is a file. Not sent to the isolated
        /// vector render: only raster outputs hold such an icon (`android`).
        public let drawn: [String: DrawnImage]

        /// An icon part; only the path is needed.
        public init(
            path: String, size: Size? = nil, rasterScale: Double = 1, mask: IconMask = .none,
            filters: [IconFilter] = [], platform: IconPlatform = .canvas, backdrop: String? = nil,
            drawn: [String: DrawnImage] = [:]
        ) {
            self.drawn = drawn
            self.path = path
            self.size = size
            self.rasterScale = rasterScale
            self.mask = mask
            self.filters = filters
            self.platform = platform
            self.backdrop = backdrop
        }
    }

    /// One badge: what it shows, how it looks (points), its fonts and its rules for
    /// small sizes. Everything else of the render is the request's. Built with its
    /// request (one per `--and` badge or manifest `"badges"` entry), never changed.
    public struct Badge: Equatable, Sendable {
        /// What the badge shows.
        public let content: BadgeContent
        /// The rules that turn a value into a label (or hide the badge).
        public let labelRules: LabelRules
        /// Look and placement (points).
        public let style: BadgeStyle
        /// The font for the text.
        public let font: FontChoice
        /// OpenType features for HarfBuzz, such as `tnum` or `-liga`.
        public let fontFeatures: [String]
        /// Font files tried, in order, for glyphs the chosen font lacks.
        public let fallbackFonts: [String]
        /// Whether fontconfig's fallback list supplies glyphs no given font has.
        public let systemFallback: Bool
        /// Whether a code point no font can draw is an error (69) instead of a warning.
        public let strictGlyphs: Bool
        /// What text below `minimumTextPixels` becomes.
        public let smallText: SmallTextRule
        /// The smallest legible text, as an em size in pixels: 7 px, where DejaVu Sans
        /// Bold's capitals and digits are 5 px tall.
        public let minimumTextPixels: Double
        /// The smallest dot drawn (pixels): 4 px, so a dot stays a visible disc on a
        /// 16 px icon.
        public let minimumDotPixels: Double
        /// Where a contrasting ring is drawn when the badge is close in colour to the
        /// icon around it (`BadgeVisibility`).
        public let ring: RingRule

        /// A badge part with iOS's defaults for everything not given.
        public init(
            content: BadgeContent, labelRules: LabelRules = LabelRules(), style: BadgeStyle = BadgeStyle(),
            font: FontChoice = .bundled(.bold), fontFeatures: [String] = TextShaper.defaultFeatures,
            fallbackFonts: [String] = [], systemFallback: Bool = true, strictGlyphs: Bool = false,
            smallText: SmallTextRule = .dot, minimumTextPixels: Double = 7, minimumDotPixels: Double = 4,
            ring: RingRule = .dots
        ) {
            self.content = content
            self.labelRules = labelRules
            self.style = style
            self.font = font
            self.fontFeatures = fontFeatures
            self.fallbackFonts = fallbackFonts
            self.systemFallback = systemFallback
            self.strictGlyphs = strictGlyphs
            self.smallText = smallText
            self.minimumTextPixels = minimumTextPixels
            self.minimumDotPixels = minimumDotPixels
            self.ring = ring
        }

        /// The same badge showing `content` (a pop's old value).
        func showing(_ content: BadgeContent) -> Badge {
            Badge(
                content: content, labelRules: labelRules, style: style, font: font, fontFeatures: fontFeatures,
                fallbackFonts: fallbackFonts, systemFallback: systemFallback, strictGlyphs: strictGlyphs,
                smallText: smallText, minimumTextPixels: minimumTextPixels, minimumDotPixels: minimumDotPixels,
                ring: ring)
        }
    }

    /// The output part: its scale, how its badges are painted, and what a catalog
    /// slot does with text that cannot fit. Built with its request, never changed.
    public struct Output: Equatable, Sendable {
        /// Pixels per point (1 for @1x, 2 for @2x, ...); any positive number.
        public let scale: Double
        /// Whether every badge (shape, border, text, colour glyphs, badge image) is
        /// drawn in greys: Rec. 709 luma, as `Color.greyscale`, for an iOS 18 tinted
        /// appearance, which the system colours from the image's luminance.
        public let greyscaleBadges: Bool
        /// Whether the badges' text is cut out of them (drawn with Cairo's DEST_OUT)
        /// instead of painted: for a single-colour layer whose alpha alone is shown,
        /// such as an Android adaptive icon's monochrome layer, where painted text
        /// would vanish.
        public let knockoutText: Bool
        /// Whether text that cannot fit its ribbon, banner or shield even at the
        /// minimum text size follows the badge's small-text rule (a band without its
        /// text, a dot, or nothing, with a note) instead of failing with 65: the
        /// catalog commands, whose sets are all or nothing, set it.
        public let dropsUnfittingText: Bool
        /// Whether the icon's pixels under each badge's footprint, and in a 1 pt gap
        /// around it (`ScenePainter.clearedGap`), are cleared before the badge is
        /// drawn: on a layer whose alpha alone is shown (an Android adaptive icon's
        /// monochrome layer, with `knockoutText`), the badge's cut-out text is then
        /// empty rather than the icon's drawing, and the badge does not merge with it.
        public let clearsUnderBadges: Bool
        /// Which parts of the scene the output holds (`Layers`).
        public let layers: Layers

        /// The parts of a scene an output holds.
        public enum Layers: UInt8, Equatable, Sendable {
            /// The icon and its badges: every render.
            case all
            /// The badges alone on a transparent canvas of the icon's size, placed on
            /// the icon as ever (what `--avoid-content` avoids is the icon's drawing):
            /// an Android adaptive icon's badge layer, over the app's own foreground.
            case badges
            /// The icon alone (its filters applied), the badges laid out but not
            /// drawn: a layer drawn under a badged one, such as an adaptive icon's
            /// filtered background.
            case icon
        }

        /// An output part; a plain 1x render by default.
        public init(
            scale: Double = 1, greyscaleBadges: Bool = false, knockoutText: Bool = false,
            dropsUnfittingText: Bool = false, clearsUnderBadges: Bool = false, layers: Layers = .all
        ) {
            self.scale = scale
            self.greyscaleBadges = greyscaleBadges
            self.knockoutText = knockoutText
            self.dropsUnfittingText = dropsUnfittingText
            self.clearsUnderBadges = clearsUnderBadges
            self.layers = layers
        }
    }

    /// The animation part: which frame of an animation the render shows, and what
    /// the whole animation needs of the scene. Built with its request (by the planner,
    /// which knows the animation and the frame), never changed.
    public struct Animation: Equatable, Sendable {
        /// The first badge's scale about its centre, its opacity and (in a `pop`)
        /// whether it shows `previousContent`. `.rest` draws the static badge; the
        /// other badges are always drawn at rest.
        public let frame: BadgeFrameState
        /// The largest scale the animation draws the first badge at (1 for a still
        /// image): `--overflow expand` makes room for it, so no frame is clipped;
        /// 1...`BadgeAnimation.maxRoom`.
        public let room: Double
        /// The value a `pop` changes from, drawn in frames whose state
        /// `showsOldValue`; nil for every other render.
        public let previousContent: BadgeContent?

        /// A still image: the frame at rest, no room, no old value.
        public static let still = Animation()

        /// An animation part; a still image by default.
        public init(frame: BadgeFrameState = .rest, room: Double = 1, previousContent: BadgeContent? = nil) {
            self.frame = frame
            self.room = room
            self.previousContent = previousContent
        }
    }
}
