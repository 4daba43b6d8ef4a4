import BadgeCore

@testable import BadgeRender

/// A render described field by field, for tests that vary one field between renders
/// (as the planner's `RenderSettings` do): `built` makes the `RenderRequest`, whose
/// parts are fixed once made.
struct TestRequest {
    var iconPath: String
    var content: BadgeContent
    var labelRules: LabelRules
    var style: BadgeStyle
    var scale: Double
    var font: FontChoice
    var fontFeatures: [String]
    var fallbackFonts: [String] = []
    var systemFallback = true
    var strictGlyphs = false
    var iconMask: IconMask
    var iconFilters: [IconFilter] = []
    var limits: ImageLimits
    var iconSize: Size?
    var iconRasterScale = 1.0
    var platform = IconPlatform.canvas
    var smallText = SmallTextRule.dot
    var minimumTextPixels = 7.0
    var minimumDotPixels = 4.0
    var ring = RingRule.dots
    var backdrop: String?
    var greyscaleBadges = false
    var knockoutText = false
    var dropsUnfittingText = false
    /// The badges after this one; only their badge fields are used.
    var moreBadges: [TestRequest] = []
    var frame = BadgeFrameState.rest
    var animationRoom = 1.0
    var previousContent: BadgeContent?

    /// A one-badge render with iOS's defaults, as `RenderRequest(iconPath:content:...)`.
    init(
        iconPath: String, content: BadgeContent, labelRules: LabelRules = LabelRules(),
        style: BadgeStyle = BadgeStyle(), scale: Double = 1, font: FontChoice = .bundled(.bold),
        fontFeatures: [String] = TextShaper.defaultFeatures, iconMask: IconMask = .none,
        limits: ImageLimits = ImageLimits()
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

    /// This badge's part.
    var badge: RenderRequest.Badge {
        RenderRequest.Badge(
            content: content, labelRules: labelRules, style: style, font: font, fontFeatures: fontFeatures,
            fallbackFonts: fallbackFonts, systemFallback: systemFallback, strictGlyphs: strictGlyphs,
            smallText: smallText, minimumTextPixels: minimumTextPixels, minimumDotPixels: minimumDotPixels,
            ring: ring)
    }

    /// The request.
    var built: RenderRequest {
        RenderRequest(
            icon: RenderRequest.Icon(
                path: iconPath, size: iconSize, rasterScale: iconRasterScale, mask: iconMask, filters: iconFilters,
                platform: platform, backdrop: backdrop),
            badge: badge, moreBadges: moreBadges.map(\.badge),
            output: RenderRequest.Output(
                scale: scale, greyscaleBadges: greyscaleBadges, knockoutText: knockoutText,
                dropsUnfittingText: dropsUnfittingText),
            limits: limits,
            animation: RenderRequest.Animation(frame: frame, room: animationRoom, previousContent: previousContent))
    }
}

extension Renderer {
    /// The scene of `request.built`.
    func compose(_ request: TestRequest, cache: IconCache? = nil) throws(BadgeError) -> Scene {
        try compose(request.built, cache: cache)
    }
}
