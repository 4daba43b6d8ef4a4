import BadgeCore

/// A glyph placed relative to the pen origin (left end of the baseline), in
/// whole pixels, +y down.
struct PositionedGlyph {
    var index: UInt32
    var x: Double
    var y: Double
}

/// Consecutive glyphs drawn with one face.
struct GlyphRun {
    let face: FontFace
    var glyphs: [PositionedGlyph]
}

/// Text shaped and measured at one pixel size, ready to be laid out and drawn.
struct ShapedText {
    var runs: [GlyphRun]
    var pixelSize: Double
    var metrics: TextMetrics
    /// Code points no face could draw (drawn as the primary face's .notdef box).
    var missing: [Unicode.Scalar]
    /// Every face consulted, for the missing-glyph message.
    var fontsTried: [String]
}
