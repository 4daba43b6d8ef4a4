/// What a text badge becomes when its text would be too small to read (below the
/// minimum text size in pixels): `--small-text`.
public enum SmallTextRule: String, CaseIterable, Sendable {
    /// A dot instead (the default): the badge still says "something is new".
    case dot
    /// No badge, with a note.
    case hide
    /// The text anyway.
    case keep
}

/// Something about a render that is not an error, for the reporter and `--report`.
public enum RenderNote: Equatable, Sendable {
    /// The platform's template is square and the icon is not: the shape is fitted to
    /// the shorter side, centred.
    case notSquare(platform: IconPlatform, width: Int, height: Int)
    /// Text of this em size (pixels) was below the minimum and became `became`.
    case smallText(label: String, pixels: Double, became: SmallTextOutcome)
    /// The icon's colour chunks are kept, but the badge's colours could not be
    /// converted into its colour space, for `reason`.
    case colorNotConverted(reason: String)
    /// The icon has 16 bits per channel and the output 8: Cairo 1.16 composites 8
    /// bits per channel (it has no 16-bit image format).
    case sixteenBit
    /// The badge's fill (`fill`) is close in colour to the icon around it
    /// (`BadgeVisibility.closeDeltaE`), as measured; `ring` is the ring drawn for it
    /// (nil: none, `--ring` did not ask for one here).
    case lowContrast(fill: Color, measured: BadgeContrast, ring: Color?)
}

/// What small text became.
public enum SmallTextOutcome: String, Equatable, Sendable {
    /// A dot.
    case dot
    /// Nothing (the badge is hidden).
    case hidden
    /// A ribbon or banner drawn without its text.
    case bandWithoutText = "band-without-text"
}
