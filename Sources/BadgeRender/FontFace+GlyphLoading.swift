import BadgeCore
internal import CCairo
internal import CFreeType

extension FontFace {
    /// Whether drawing this face's glyphs needs `loadsCleanly` first: it has bitmap
    /// strikes (sbix, CBLC, EBLC) or colour glyphs.
    var needsGlyphLoadCheck: Bool { hasColor || ftFace.pointee.num_fixed_sizes > 0 }

    /// Whether FreeType loads `glyph`, at `pixelSize` px per em (so from the strike
    /// Cairo picks for that size), without an error, with colour and without.
    ///
    /// Cairo 1.16 never returns from drawing a bitmap glyph that FreeType fails to
    /// load: FreeType leaves the BGRA bitmap it had allocated in the glyph slot, Cairo
    /// ignores the error (only "out of memory" counts), draws that as a colour glyph,
    /// and loads "again, without color" for its monochrome image, which fails the
    /// same way, forever (cairo-ft-font.c, `_cairo_ft_scaled_glyph_init`; FreeType
    /// 2.12 sfnt/ttsbit.c flattens a colour bitmap only after a successful load). One
    /// corrupt byte in a PNG of Noto Color Emoji is enough. Each check decodes the
    /// glyph twice, as Cairo would.
    func loadsCleanly(_ glyph: UInt32, pixelSize: Double) -> Bool {
        let scaled = scaledFont(pixelSize: pixelSize)
        defer { cairo_scaled_font_destroy(scaled) }
        // Cairo's face, set to the size (and strike) Cairo draws with.
        guard let face = cairo_ft_scaled_font_lock_face(scaled) else { return false }
        defer { cairo_ft_scaled_font_unlock_face(scaled) }
        let flags = Int32(FT_LOAD_NO_HINTING)
        return FT_Load_Glyph(face, glyph, flags | Int32(FT_LOAD_COLOR)) == 0 && FT_Load_Glyph(face, glyph, flags) == 0
    }
}
