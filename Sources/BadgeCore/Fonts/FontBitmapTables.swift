/// Checks the glyph images a font's bitmap tables claim, before FreeType loads any:
/// `sbix` (OpenType spec, https://learn.microsoft.com/typography/opentype/spec/sbix),
/// `CBLC`/`CBDT` (…/spec/cblc, …/spec/cbdt) and the older `EBLC`/`EBDT` (…/spec/eblc,
/// …/spec/ebdt) with Apple's `bloc`/`bdat`, which share their layout.
///
/// Why: FreeType 2.12 allocates width × height × 4 bytes for an sbix PNG as soon as
/// it has read the PNG's header (sfnt/pngshim.c, `Load_SBit_Png`), for any size up to
/// 32767 a side, and Cairo 1.16 copies and scales the result: a 12 KB font whose PNG
/// claims 16000 × 16000 costs gigabytes and minutes. And Cairo draws a bitmap-only
/// face at any size by scaling its nearest strike by text size / ppem (cairo-ft-font.c,
/// `_compute_transform`), so a 255 px image in a 1 ppem strike is drawn 255 times the
/// text size. The check reads only headers: a constant amount per glyph record, no
/// allocation, and a walk bounded by the tables' length however the counts lie.
///
/// `EBDT` glyphs carry their size in one-byte metrics (at most 255 × 255, which
/// FreeType allocates from) and CBDT PNGs must fit those metrics, so for them the
/// strike rule is what matters; a CBDT PNG claiming more is still refused.
public enum FontBitmapTables {
    /// The longest side a glyph image may claim (pixels): 2048.
    ///
    /// Far above any real colour font (Noto Color Emoji's images are 136 × 128 in a
    /// 109 ppem strike; Apple Color Emoji's largest strike is 160 ppem), and small
    /// enough that one image costs FreeType at most 16 MiB (2048² × 4 bytes).
    public static let maxImageSide = 2048

    /// How large a glyph image may be against its strike: at most this many times the
    /// strike's ppem (pixels per em) a side, so at most 4 em, as an outline glyph 4 em
    /// wide would be. Cairo scales an image by text size / ppem, so the image is drawn
    /// at most 4 × the text size. Real fonts stay near 1 em (Noto Color Emoji: 1.25).
    public static let maxImageEms = 4

    /// Why a font's bitmap tables are refused.
    public enum Problem: Error, Equatable, Sendable {
        /// A glyph image in `table` claims `width` × `height` pixels, a side over
        /// `maxImageSide`.
        case imageTooLarge(table: String, width: Int, height: Int)
        /// A glyph image in `table` is `width` × `height` pixels, a side over
        /// `maxImageEms` times the `ppem` of its strike.
        case imageTooLargeForStrike(table: String, width: Int, height: Int, ppem: Int)
        /// `table` is malformed: an offset or count reaches past the end of the table
        /// (or of its data table), or a structure is not what its format says.
        /// `reason` follows the table's name: "has strike 2 past its end (612 bytes)".
        case malformed(table: String, reason: String)
        /// `table` has compound glyphs (image formats 8 and 9), built of other glyphs.
        /// FreeType draws a compound's components recursively, each as often as it is
        /// listed: four levels of 65,535 components are 2⁶⁴ draws from a few bytes. No
        /// font a badge uses has them (they saved bytes on 1990s CJK screen fonts),
        /// so a font with any is refused.
        case compoundGlyphs(table: String, format: Int)
    }

    /// Checks face `faceIndex` of `font` (a whole font file or collection), whose
    /// table directory `SFNTDirectory.check` has accepted.
    ///
    /// - Throws: `Problem` for the first glyph image over a limit or the first
    ///   malformed structure, table by table (sbix, CBLC, EBLC, bloc).
    public static func check(_ font: UnsafeRawBufferPointer, faceIndex: Int) throws(Problem) {
        // Most fonts have none of these tables: one pass over the directory says so.
        let hasBitmaps =
            SFNTDirectory.firstTable(in: font, faceIndex: faceIndex) { tag in
                // sbix, CBLC, EBLC, bloc
                tag == 0x7362_6978 || tag == 0x4342_4C43 || tag == 0x4542_4C43 || tag == 0x626C_6F63
            } != nil
        guard hasBitmaps else { return }
        if SFNTDirectory.table("sbix", in: font, faceIndex: faceIndex) != nil {
            try checkSbix(
                FontTableReader("sbix", in: font, faceIndex: faceIndex),
                glyphCount: FontTableReader.glyphCount(in: font, faceIndex: faceIndex))
        }
        for (location, data) in [("CBLC", "CBDT"), ("EBLC", "EBDT"), ("bloc", "bdat")] {
            guard SFNTDirectory.table(location, in: font, faceIndex: faceIndex) != nil else { continue }
            var walk = StrikeWalk(
                location: FontTableReader(location, in: font, faceIndex: faceIndex), locationTag: location,
                data: FontTableReader(data, in: font, faceIndex: faceIndex), dataTag: data)
            try walk.run()
        }
    }

    /// Refuses an image of `width` × `height` pixels in a strike of `ppem`.
    static func checkImage(table: String, width: Int, height: Int, ppem: Int) throws(Problem) {
        guard width <= maxImageSide, height <= maxImageSide else {
            throw .imageTooLarge(table: table, width: width, height: height)
        }
        guard width <= maxImageEms * ppem, height <= maxImageEms * ppem else {
            throw .imageTooLargeForStrike(table: table, width: width, height: height, ppem: ppem)
        }
    }

    /// Width and height from the IHDR of the PNG at `offset` (`length` bytes), or nil
    /// when it does not start with the signature and IHDR (PNG spec, ISO/IEC 15948,
    /// 5.2 and 11.2.2: IHDR comes first, width and height its first eight bytes).
    static func pngSize(_ table: FontTableReader, at offset: Int, length: Int) -> (width: Int, height: Int)? {
        guard length >= 24, table.has(offset, 24) else { return nil }
        for (index, byte) in PNGPreflight.signature.enumerated() where table.u8(offset + index) != Int(byte) {
            return nil
        }
        guard table.u32(offset + 12) == 0x4948_4452 else { return nil }  // "IHDR"
        return (table.u32(offset + 16), table.u32(offset + 20))
    }
}
