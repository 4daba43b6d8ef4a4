import BadgeCore
import BadgeRender

// The library takes no default limits: every caller passes the run's `ImageLimits`, so
// one that forgets them does not compile (issue 45). A test reading its own fixtures
// reads them under the defaults, given here explicitly, once. A test of a limit passes
// its own `limits:` and calls the library's functions directly.

extension ImageFile {
    /// `pixels(at:limits:keepTransparentColor:)` under the default limits.
    public static func pixels(at path: String, keepTransparentColor: Bool = false) throws(BadgeError) -> PixelBuffer {
        try pixels(at: path, limits: ImageLimits(), keepTransparentColor: keepTransparentColor)
    }

    /// `pixels(of:path:limits:keepTransparentColor:)` under the default limits.
    public static func pixels(of bytes: [UInt8], path: String, keepTransparentColor: Bool = false) throws(BadgeError)
        -> PixelBuffer
    {
        try pixels(of: bytes, path: path, limits: ImageLimits(), keepTransparentColor: keepTransparentColor)
    }

    /// `pair(_:_:limits:keepTransparentColor:)` under the default limits.
    public static func pair(_ first: String, _ second: String, keepTransparentColor: Bool = false) throws(BadgeError)
        -> (PixelBuffer, PixelBuffer)
    {
        try pair(first, second, limits: ImageLimits(), keepTransparentColor: keepTransparentColor)
    }

    /// `colorChunks(at:limits:)` under the default limits.
    public static func colorChunks(at path: String) throws(BadgeError) -> ColorChunks? {
        try colorChunks(at: path, limits: ImageLimits())
    }
}

extension RenderRequest {
    /// `init(icon:badge:moreBadges:output:limits:animation:)` under the default limits.
    public init(
        icon: Icon, badge: Badge, moreBadges: [Badge] = [], output: Output = Output(), animation: Animation = .still
    ) {
        self.init(
            icon: icon, badge: badge, moreBadges: moreBadges, output: output, limits: ImageLimits(),
            animation: animation)
    }

    /// `init(iconPath:content:…:limits:)` under the default limits.
    public init(
        iconPath: String, content: BadgeContent, labelRules: LabelRules = LabelRules(),
        style: BadgeStyle = BadgeStyle(), scale: Double = 1, font: FontChoice = .bundled(.bold),
        fontFeatures: [String] = TextShaper.defaultFeatures, iconMask: IconMask = .none
    ) {
        self.init(
            iconPath: iconPath, content: content, labelRules: labelRules, style: style, scale: scale, font: font,
            fontFeatures: fontFeatures, iconMask: iconMask, limits: ImageLimits())
    }
}
