/// The rules that keep a badge visible on small icons and on icons of its own colour,
/// with the figures they rest on. The builder applies them; the preview shows them.
///
/// - **A dot sized to be seen.** Text too small to read becomes a dot whose diameter
///   is at least `dotShare` of the icon's reference box (its shorter side), and at
///   least the badge's minimum dot size (4 px): on NetNewsWire's 32 px Mac slot
///   (a 25.75 px body) 6 px, not 4.
/// - **Contrast.** A badge is close in colour to the icon around it when the median
///   ΔE_OK between its fill and the icon's pixels around it is under `closeDeltaE`.
///   Then the run gets a note with the measured figure, and a ring (`RingRule`)
///   is drawn where asked: always on a dot that stands in for text (default), on
///   every badge with `--ring auto`.
public enum BadgeVisibility {
    /// The smallest dot as a share of the reference box's side: 0.228, Android's
    /// notification dot (Launcher3 `DotRenderer.SIZE_PERCENTAGE`: "the dot size is
    /// defined as a percentage of the app icon size"), a dot meant to be seen on a
    /// launcher icon at its real size, 48 dp and down.
    public static let dotShare = 0.228

    /// The ΔE_OK under which a badge's fill and the icon around it are close: 0.15,
    /// seven and a half times the 0.02 that CSS Color 4 takes as just noticeable in
    /// OKLab: a difference seen at a glance on a small shape, not only looked for.
    /// Measured: iOS's red badge (#FF3B30) on NewPipe's red (#CD201F) is 0.112 (close);
    /// on iOS blue (#007AFF) 0.40, on mid grey (#8E8E93) 0.23, on white 0.42 (not
    /// close). Red on orange (#FF9500) is 0.17, just not close.
    public static let closeDeltaE = 0.15

    /// How far around a badge the icon's pixels are compared (pixels): a quarter of
    /// the badge's height, at least 2 px: the ring of icon the eye sees the badge's
    /// edge against.
    public static func surroundWidth(badgeHeight: Double) -> Double { max(2, badgeHeight / 4) }

    /// A ring's width (whole pixels): a tenth of the badge's height, at least 1 px,
    /// so the fill keeps nine tenths of the badge and a 7 px dot gets a 1 px ring.
    public static func ringWidth(badgeHeight: Double) -> Double { max(1, (badgeHeight / 10).rounded()) }

    /// The diameter of a dot that stands in for text too small to read (pixels): the
    /// style's own dot size, raised to `dotShare` of the reference box's shorter side
    /// and to `minimum`.
    public static func dotDiameter(styleDot: Double, boxSide: Double, minimum: Double) -> Double {
        max(styleDot, dotShare * boxSide, minimum)
    }

    /// The ring colour for a badge whose surroundings have `luminance` (WCAG relative
    /// luminance, 0...1): white or black, whichever has the higher WCAG contrast
    /// ratio against them (luminance contrast is what an edge is seen by at small
    /// sizes).
    public static func ringColor(surroundLuminance luminance: Double) -> Color {
        (1.05 / (luminance + 0.05)) >= ((luminance + 0.05) / 0.05) ? .white : .black
    }
}

/// Where a contrasting ring is drawn around a badge close in colour to the icon
/// around it (`--ring`).
public enum RingRule: String, CaseIterable, Sendable {
    /// Never.
    case none
    /// Only on a dot that stands in for text too small to read (the default): small
    /// slots, where the dot must be seen.
    case dots
    /// On every badge close in colour to the icon around it.
    case auto
}

/// What the builder measured of a badge against the icon around it.
public struct BadgeContrast: Equatable, Sendable {
    /// The median ΔE_OK between the badge's fill and the icon's pixels around it.
    public let deltaE: Double
    /// The WCAG 2 contrast ratio between the fill and the surroundings' median
    /// luminance.
    public let ratio: Double
    /// The surroundings' median WCAG relative luminance (0...1).
    public let surroundLuminance: Double
    /// How many icon pixels were compared.
    public let pixels: Int

    /// A measure from its parts.
    public init(deltaE: Double, ratio: Double, surroundLuminance: Double, pixels: Int) {
        self.deltaE = deltaE
        self.ratio = ratio
        self.surroundLuminance = surroundLuminance
        self.pixels = pixels
    }

    /// Whether the fill is close to the icon around it (`BadgeVisibility.closeDeltaE`).
    public var isClose: Bool { deltaE < BadgeVisibility.closeDeltaE }
}
