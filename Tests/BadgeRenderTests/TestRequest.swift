import BadgeCore
import BadgeJobs

@testable import BadgeRender

/// A render described field by field, for tests that vary one field between renders:
/// the fields are the planner's own (`RenderSettings`, reached by name: `request.style`,
/// `request.platform`), so a new option is here once it is there; `built` makes the
/// `RenderRequest` through the same assembly (`RenderSettings.assembled`), without the
/// planner's checks and shape defaults. Only what a test gives as resolved is listed:
/// the icon's path, the content, the font, the raster scale and the frame.
@dynamicMemberLookup
struct TestRequest {
    /// Every other field, as the planner holds it.
    var settings = RenderSettings()
    var iconPath: String
    var content: BadgeContent
    var font: FontChoice
    var iconRasterScale = 1.0
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
        self.font = font
        settings.labelRules = labelRules
        settings.style = style
        settings.scale = scale
        settings.fontFeatures = fontFeatures
        settings.iconMask = iconMask
        settings.limits = limits
    }

    /// A field of the settings, by name.
    subscript<Value>(dynamicMember field: WritableKeyPath<RenderSettings, Value>) -> Value {
        get { settings[keyPath: field] }
        set { settings[keyPath: field] = newValue }
    }

    /// This badge's part.
    var badge: RenderRequest.Badge {
        settings.assembledBadge(content: content, labelRules: settings.labelRules, style: settings.style, font: font)
    }

    /// The request.
    var built: RenderRequest {
        settings.assembled(
            icon: iconPath, iconSize: nil, rasterScale: iconRasterScale, badge: badge,
            moreBadges: moreBadges.map(\.badge),
            animation: RenderRequest.Animation(frame: frame, room: animationRoom, previousContent: previousContent))
    }
}

extension Renderer {
    /// The scene of `request.built`.
    func compose(_ request: TestRequest, cache: IconCache? = nil) throws(BadgeError) -> Scene {
        try compose(request.built, cache: cache)
    }
}
