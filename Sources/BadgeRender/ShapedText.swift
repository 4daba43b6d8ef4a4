import BadgeCore

/// A glyph placed relative to the pen origin (left end of the baseline), in
/// pixels, +y down: whole pixels, or HarfBuzz's 1/4096 px for text drawn along a
/// rotated baseline (`ShapedText.exactPositions`).
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
    /// Whether the glyphs keep their exact positions (a ribbon's text, drawn along a
    /// rotated baseline as outlines) instead of whole pixels.
    var exactPositions = false
}
