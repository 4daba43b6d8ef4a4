/// Where everything goes, in whole **pixels** of the output canvas (+y down).
///
/// Produced by `BadgeLayout.compute` from the icon's size, a `BadgeStyle` in
/// points, the scale and the measured body; consumed by the painter and printed
/// by `--report`.
public struct BadgeLayout: Equatable, Sendable {
    /// Output canvas width (pixels).
    public var canvasWidth: Int
    /// Output canvas height (pixels).
    public var canvasHeight: Int
    /// Where the icon is drawn: its own size, moved only by `--overflow expand`.
    public var iconRect: Rect
    /// The badge's outer bounds, whole pixels; may overhang the canvas with `clip`.
    public var badgeRect: Rect
    /// Corner radius (pixels), at most half the shorter side.
    public var cornerRadius: Double
    /// Border width (pixels), drawn inside `badgeRect`.
    public var borderWidth: Double
    /// The pen origin of the text: left end of the baseline (whole pixels); nil for
    /// a dot or an image.
    public var textOrigin: Point?
    /// The text's ink box on the canvas (pixels); nil when there is no text ink.
    public var inkBounds: Rect?
    /// Pixels per point.
    public var scale: Double
    /// Where placement asked the badge to be (anchor and offset, whole pixels), before
    /// clamp moved it into the reference shape; equal to `badgeRect` when it did not.
    public var requestedRect: Rect? = nil
    /// The reference box anchors and percentages referred to (pixels, canvas space).
    public var referenceBox: Rect? = nil
    /// Whether an explicit offset changed nothing (clamp took the badge to the same
    /// place it takes it without the offset).
    public var offsetIgnored = false
    /// With `--avoid-content`: the icon's opaque pixels the badge covers where clamp
    /// put it and where it is; nil without.
    public var contentCovered: BadgePlacement.ContentCoverage? = nil

    /// A ribbon's or banner's band; nil for the other shapes (`badgeRect` is then the
    /// band's bounds on the canvas).
    public var band: BandLayout? = nil
    /// A shield's two parts; nil for the other shapes.
    public var shield: ShieldParts? = nil

    /// Whether clamp (or `--avoid-content`) moved the badge from where it was asked
    /// to be.
    public var moved: Bool { requestedRect.map { $0 != badgeRect } ?? false }

    /// Creates a layout from its parts (pixels); `compute` is the usual way.
    public init(
        canvasWidth: Int, canvasHeight: Int, iconRect: Rect, badgeRect: Rect, cornerRadius: Double,
        borderWidth: Double, textOrigin: Point?, inkBounds: Rect?, scale: Double
    ) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.iconRect = iconRect
        self.badgeRect = badgeRect
        self.cornerRadius = cornerRadius
        self.borderWidth = borderWidth
        self.textOrigin = textOrigin
        self.inkBounds = inkBounds
        self.scale = scale
    }

    /// The canvas as a rectangle at the origin (pixels).
    public var canvasRect: Rect {
        Rect(x: 0, y: 0, width: Double(canvasWidth), height: Double(canvasHeight))
    }
}

/// A shield's two parts side by side inside `BadgeLayout.badgeRect` (pixels).
public struct ShieldParts: Equatable, Sendable {
    /// The left part, holding the label.
    public var labelRect: Rect
    /// The right part, holding the message.
    public var messageRect: Rect
    /// The label's pen origin (left end of the baseline, whole pixels).
    public var labelOrigin: Point
    /// The message's pen origin (whole pixels; on the label's baseline).
    public var messageOrigin: Point

    /// A shield's parts from their rectangles and pen origins (pixels).
    public init(labelRect: Rect, messageRect: Rect, labelOrigin: Point, messageOrigin: Point) {
        self.labelRect = labelRect
        self.messageRect = messageRect
        self.labelOrigin = labelOrigin
        self.messageOrigin = messageOrigin
    }
}
