extension FontBitmapTables {
    /// sbix: a header (version, flags, strike count, an offset per strike), then per
    /// strike its ppem, ppi and `glyphCount + 1` offsets, consecutive offsets
    /// bounding each glyph's record (origin x/y, graphic type, data).
    static func checkSbix(_ sbix: FontTableReader, glyphCount: Int) throws(Problem) {
        func malformed(_ reason: String) -> Problem { .malformed(table: "sbix", reason: reason) }
        guard sbix.has(0, 8) else { throw malformed("is \(sbix.count) bytes, shorter than its 8-byte header") }
        let strikes = sbix.u32(4)
        let strikeBytes = 4 + 4 * (glyphCount + 1)
        // Every strike has its own offset and offset array: when they cannot all fit,
        // the table lies. Checking that first bounds the walk by the table's length.
        guard strikes <= (sbix.count - 8) / (4 + strikeBytes) else {
            throw malformed("claims \(strikes) strikes of \(glyphCount) glyphs, more than its \(sbix.count) bytes hold")
        }
        for strike in 0..<strikes {
            let start = sbix.u32(8 + 4 * strike)
            guard sbix.has(start, strikeBytes) else {
                throw malformed("has strike \(strike) at byte \(start), past its end (\(sbix.count) bytes)")
            }
            let ppem = sbix.u16(start)
            var recordStart = sbix.u32(start + 4)
            for glyph in 0..<glyphCount {
                let recordEnd = sbix.u32(start + 8 + 4 * glyph)
                defer { recordStart = recordEnd }
                let length = recordEnd - recordStart
                guard length >= 0, sbix.has(start + recordStart, length) else {
                    throw malformed(
                        "has the record of glyph \(glyph) in strike \(strike) past its end (\(sbix.count) bytes)")
                }
                guard length > 0 else { continue }  // no image for this glyph
                let record = start + recordStart
                guard length >= 8 else {
                    throw malformed("has a \(length)-byte record for glyph \(glyph), shorter than its 8-byte header")
                }
                guard sbix.u32(record + 4) == 0x706E_6720 else { continue }  // "png "; FreeType draws no other type
                guard let size = pngSize(sbix, at: record + 8, length: length - 8) else {
                    throw malformed("has a PNG for glyph \(glyph) in strike \(strike) with no IHDR")
                }
                try checkImage(table: "sbix", width: size.width, height: size.height, ppem: ppem)
            }
        }
    }
}
