import BadgeCore

/// A badge composed onto an icon, laid out and ready to be drawn into any output
/// format. Made by `Renderer.compose`; drawing it twice gives the same bytes.
public final class Composition {
    /// The layout in pixels; nil when the badge is hidden.
    public let layout: BadgeLayout?
    /// Why the badge is hidden, if it is (the output is then the icon alone).
    public let hidden: HiddenReason?
    /// The text drawn, after the label rules; nil for a dot, an image or hidden.
    public let label: String?
    /// Output canvas width (pixels).
    public let canvasWidth: Int
    /// Output canvas height (pixels).
    public let canvasHeight: Int
    /// Code points no font could draw (each appears as a .notdef box).
    public let missingGlyphs: [Unicode.Scalar]
    /// The text's total advance (pixels), nil without text.
    public var textAdvance: Double? { text?.metrics.advance }
    /// A shield's message, as drawn; nil for the other shapes.
    public var messageLabel: String?
    /// The text's em size as drawn (pixels), nil without text: a ribbon's or a
    /// shield's may be smaller than the style's after shrinking to fit.
    public var textPixels: Double? { text?.pixelSize }
    /// Every face consulted for the text, in order (for the missing-glyph warning).
    public var fontsTried: [String] { text?.fontsTried ?? [] }
    /// For `--report`: every face used and how many glyphs it drew.
    public let fontsUsed: [(name: String, glyphs: Int)]
    /// The icon's natural size (pixels) and format.
    public let iconWidth: Int, iconHeight: Int, iconFormat: String

    let icon: LoadedIcon
    let style: BadgeStyle
    let iconMask: IconMask
    let scale: Double
    let text: ShapedText?
    /// A shield's message (its right part); `text` is then its label.
    let message: ShapedText?
    let badgeImage: LoadedIcon?
    let isDot: Bool
    /// Whether the decoded icon belongs to this composition alone (no `IconCache`),
    /// so it may be drawn on in place.
    var ownsIcon = false
    /// The pixels, once drawn (a composition is used by one thread).
    var rasterized: ImageSurface?
    /// Whether the badge was drawn onto the icon itself: vector output is then
    /// refused (it would draw the badge twice).
    var iconSpent = false
    /// The request it was composed from: an SVG or PDF output that draws an SVG
    /// document composes it again in an isolated child (`IsolatedRenderer`).
    public internal(set) var request: RenderRequest?
    /// Where its images were decoded; `.inProcessVector` inside that child, whose
    /// vector outputs are drawn here.
    var site: DecodeSite = .isolated

    /// Whether an SVG document (the icon or the badge image) is drawn as vectors
    /// into SVG and PDF outputs. A filtered SVG icon is drawn as its filtered pixels.
    var drawsSVG: Bool { drawsIconAsSVG || badges.contains { $0.badgeImage?.svg != nil } }

    /// Whether the icon is an SVG drawn as vectors into SVG and PDF outputs: not when
    /// it is filtered (filters work on pixels).
    var drawsIconAsSVG: Bool { icon.svg != nil && iconFilters.isEmpty }

    /// Whether drawing a badge reads the icon's pixels (a band masked by its alpha), so
    /// the badge cannot be painted onto the icon in place.
    var readsIconWhilePainting: Bool { badges.contains { $0.layout?.band != nil && $0.bandFollowsAlpha } }

    /// Whether the badge is a plain dot.
    public var isDotBadge: Bool { isDot }
    /// Notes about the render (a non-square icon on a square platform, small text).
    public internal(set) var notes: [RenderNote] = []
    /// The platform whose shape placed the badge.
    public internal(set) var platform: IconPlatform = .canvas
    /// Whether the badge is drawn in greys (`RenderRequest.greyscaleBadge`).
    var greyscaleBadge = false
    /// The badge's scale about its centre and its opacity in the frame being drawn
    /// (`BadgeAnimation`); `.rest` draws the static badge, exactly.
    public internal(set) var frameState: BadgeFrameState = .rest
    /// Which parts are drawn (`RenderRequest.layers`).
    var layers: RenderLayers = .all
    /// A pop's old value on the same icon (`RenderRequest.previousContent`), drawn in
    /// the frames whose state shows it; nil otherwise.
    var previous: Composition?
    /// Whether the text is cut out of the badge (`RenderRequest.knockoutText`).
    var knockoutText = false
    /// The icon's colour filters (`RenderRequest.iconFilters`), a tint colour
    /// converted into the icon's colour space like the badge's colours.
    var iconFilters: [IconFilter] = []
    /// The icon's filtered pixels, once made (`iconPixelsToDraw`).
    var filteredIcon: ImageSurface?
    /// sRGB into the icon's colour space, when its chunks describe another one: the
    /// style's colours are converted already, a badge image's pixels when drawn.
    var colorConversion: ColorConversion?
    /// The icon's opaque pixels, when the platform placed the badge by them.
    var contentShape: ContentShape?
    /// The badges drawn after this one on the same icon, in order (`RenderRequest.moreBadges`):
    /// each lays out its own badge; only this composition draws the icon.
    public internal(set) var overlays: [Composition] = []
    /// This composition and its overlays: every badge of the render, in drawing order.
    public var badges: [Composition] { [self] + overlays }
    /// The shape a ribbon or banner is cut to (the platform's mask); nil: the canvas.
    var bandClip: ShapeMask?
    /// Whether a ribbon or banner is also cut to the icon's own alpha: on platforms
    /// whose shape is the icon's pixels (`canvas`, `content`, `android-legacy`).
    var bandFollowsAlpha = false

    init(
        icon: LoadedIcon, layout: BadgeLayout?, hidden: HiddenReason?, label: String?, style: BadgeStyle,
        iconMask: IconMask, scale: Double, text: ShapedText?, badgeImage: LoadedIcon?, isDot: Bool,
        message: ShapedText? = nil
    ) {
        self.icon = icon
        self.layout = layout
        self.hidden = hidden
        self.label = label
        self.style = style
        self.iconMask = iconMask
        self.scale = scale
        self.text = text
        self.message = message
        self.badgeImage = badgeImage
        self.isDot = isDot
        canvasWidth = layout?.canvasWidth ?? icon.width
        canvasHeight = layout?.canvasHeight ?? icon.height
        var missing = text?.missing ?? []
        for scalar in message?.missing ?? [] where !missing.contains(scalar) { missing.append(scalar) }
        missingGlyphs = missing
        var used: [(String, Int)] = []
        for run in (text?.runs ?? []) + (message?.runs ?? []) {
            if let index = used.firstIndex(where: { $0.0 == run.face.reportName }) {
                used[index].1 += run.glyphs.count
            } else {
                used.append((run.face.reportName, run.glyphs.count))
            }
        }
        fontsUsed = used
        iconWidth = icon.width
        iconHeight = icon.height
        iconFormat = icon.format
    }
}
