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
