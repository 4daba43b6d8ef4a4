import BadgeCore
internal import CFreeType

extension FontFace {
    /// The reason, after the font's path, that `problem` refuses it.
    static func reason(for problem: FontBitmapTables.Problem) -> String {
        switch problem {
        case .imageTooLarge(let table, let width, let height):
            let limit = FontBitmapTables.maxImageSide
            return
                "its \(table) table has a \(width) × \(height) px glyph image, over the \(limit) × \(limit) px limit for a font bitmap"
        case .imageTooLargeForStrike(let table, let width, let height, let ppem):
            let ems = FontBitmapTables.maxImageEms
            return
                "its \(table) table has a \(width) × \(height) px glyph image in a \(ppem) ppem strike, over \(ems) em (\(ems * ppem) px), the limit for a font bitmap"
        case .malformed(let table, let reason):
            return "is a malformed font: its \(table) table \(reason)"
        case .compoundGlyphs(let table, let format):
            return
                "its \(table) table has compound glyph bitmaps (image format \(format)), which iconbadge does not load; use a font without them"
        }
    }

    /// The reason, after the font's path, that `problem` refuses it.
    static func reason(for problem: ColorGlyphLayers.Problem) -> String {
        switch problem {
        case .tooManyLayers(let glyph, let layers):
            return
                "its COLR table draws glyph \(glyph) in \(layers) colour layers, over the \(ColorGlyphLayers.maxLayers)-layer limit"
        case .malformed(let reason):
            return "is a malformed font: its COLR table \(reason)"
        }
    }

    /// Refuses `face` when the outline of a glyph in `layers` reaches further than
    /// `ColorGlyphLayers.maxLayerReachEms` from the origin: FreeType would render
    /// that layer, and blend it with the others, at that size.
    ///
    /// Each glyph is loaded once, unscaled and unhinted (font units, no rendering),
    /// and its control points measured: their box holds everything FreeType's
    /// rasteriser fills. A glyph FreeType cannot load is skipped: it cannot draw it
    /// either.
    ///
    /// - Throws: `BadgeError.badInput` (65) naming `origin`, the glyph and its reach.
    static func checkLayerReach(_ layers: ColorGlyphLayers.LayerGlyphs, face: FT_Face, origin: String)
        throws(BadgeError)
    {
        let unitsPerEm = Int(face.pointee.units_per_EM)
        let limit = unitsPerEm * ColorGlyphLayers.maxLayerReachEms
        let glyphCount = Int(face.pointee.num_glyphs)
        let flags = Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
        try layers.forEach { (glyph) throws(BadgeError) in
            guard glyph < glyphCount, FT_Load_Glyph(face, FT_UInt(glyph), flags) == 0, let slot = face.pointee.glyph,
                let points = slot.pointee.outline.points
            else { return }
            var reach = 0
            for point in UnsafeBufferPointer(start: points, count: Int(max(slot.pointee.outline.n_points, 0))) {
                reach = max(reach, abs(Int(point.x)), abs(Int(point.y)))
            }
            guard reach > limit else { return }
            throw .badInput(
                path: origin,
                reason:
                    "its COLR table draws glyph \(glyph) as a colour layer reaching \(reach / max(unitsPerEm, 1)) em from its origin, over the \(ColorGlyphLayers.maxLayerReachEms) em limit"
            )
        }
    }
}
