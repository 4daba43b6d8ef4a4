/// Measurements of shaped text, in **pixels**, relative to the pen origin at the
/// left end of the baseline (+x right, +y down, so ascent is above: negative y).
///
/// The renderer measures; the layout only consumes these numbers, which keeps the
/// layout free of any font library and testable with made-up metrics.
public struct TextMetrics: Equatable, Sendable {
    /// Sum of the glyph advances (pixels).
    public var advance: Double
    /// The ink box of all glyphs as drawn (pixels, relative to the pen origin);
    /// nil when nothing has ink (spaces only).
    public var inkBounds: Rect?
    /// The primary font's ascent above the baseline (pixels, positive).
    public var ascent: Double
    /// The primary font's descent below the baseline (pixels, positive).
    public var descent: Double
    /// The primary font's cap height (pixels, positive): the top of flat capitals.
    public var capHeight: Double

    /// Creates metrics from measured values (pixels).
    public init(advance: Double, inkBounds: Rect?, ascent: Double, descent: Double, capHeight: Double) {
        self.advance = advance
        self.inkBounds = inkBounds
        self.ascent = ascent
        self.descent = descent
        self.capHeight = capHeight
    }

    /// The line height, ascent + descent (pixels): the "text height" of seed 001.
    public var lineHeight: Double { ascent + descent }

    /// The box whose centre is put on the badge's centre (pixels, relative to the pen
    /// origin). Horizontally the ink box. Vertically the union of the ink box and
    /// the cap-height box [baseline - capHeight, baseline]: digits and capitals are
    /// centred on their own ink; text with descenders (`gy`) or only lowercase
    /// letters keeps its baseline where capitals would put it, so the x-height body
    /// does not float; CJK and emoji, whose ink covers the cap box, are centred on
    /// their ink.
    public var centringBox: Rect {
        let capBox = Rect(x: 0, y: -capHeight, width: advance, height: capHeight)
        guard let ink = inkBounds else { return capBox }
        let top = min(ink.minY, capBox.minY)
        let bottom = max(ink.maxY, capBox.maxY)
        return Rect(x: ink.minX, y: top, width: ink.width, height: bottom - top)
    }
}
