/// Checks the colour layers of a font's `COLR` table (OpenType spec,
/// https://learn.microsoft.com/typography/opentype/spec/colr, the version 0 base
/// glyph and layer records) before FreeType draws any.
///
/// Why: with colour requested (`FT_LOAD_COLOR`, which iconbadge asks for so emoji keep
/// their colours), FreeType 2.12 draws a COLR glyph by rendering each of its layers at
/// the text size and blending them into one BGRA bitmap that holds them all
/// (base/ftobjs.c `FT_Render_Glyph_Internal`, sfnt/ttcolr.c `tt_face_colr_blend_layer`);
/// Cairo 1.16 only sees the result. The cost is the number of layers times their
/// size: two layers of an outline 2000 em wide took 2.8 GB, 2000 layers of one
/// 160 em wide 47 s. Here: the table's structure and the layer count; the reach of
/// each layer's outline needs FreeType, which `FontFace` asks once per layer glyph.
///
/// Version 1 paint graphs are drawn by none of FreeType 2.12's renderer, Cairo 1.16
/// or HarfBuzz 6 as iconbadge uses them, so only the version 0 records are read (a
/// version 1 table starts with them too).
public enum ColorGlyphLayers {
    /// The most layers one colour glyph may have: 1024.
    ///
    /// FreeType renders each layer separately, so one glyph of 1024 layers as large as
    /// `maxLayerReachEms` allows is 85 million pixels at 36 px (12 pt at 3×), about
    /// half a second; colour emoji fonts draw a glyph in some tens of layers.
    public static let maxLayers = 1024

    /// How far from the glyph's origin a layer's outline may reach, in ems (units per
    /// em of `head`), in any direction: 4. The blended bitmap is then at most 8 em a
    /// side, as the bitmap tables' `FontBitmapTables.maxImageEms` bounds an image.
    public static let maxLayerReachEms = 4

    /// Why a font's COLR table is refused.
    public enum Problem: Error, Equatable, Sendable {
        /// Base glyph `glyph` has `layers` layers, over `maxLayers`.
        case tooManyLayers(glyph: Int, layers: Int)
        /// The table is malformed: `reason` follows the table's name ("has ... past
        /// its end").
        case malformed(reason: String)
    }

    /// The glyphs that layer records draw: a set of glyph IDs (16-bit, so 65,536
    /// bits, 8 KiB, whatever the table claims).
    public struct LayerGlyphs: Sendable {
        private var words = [UInt64](repeating: 0, count: 1024)

        mutating func insert(_ glyph: Int) { words[glyph >> 6] |= 1 << UInt64(glyph & 63) }

        /// Whether a layer record draws `glyph`.
        public func contains(_ glyph: Int) -> Bool {
            glyph >= 0 && glyph < 65536 && words[glyph >> 6] & 1 << UInt64(glyph & 63) != 0
        }

        /// Calls `body` with each glyph ID in the set, in increasing order.
        public func forEach<E: Error>(_ body: (Int) throws(E) -> Void) throws(E) {
            for (index, word) in words.enumerated() where word != 0 {
                for bit in 0..<64 where word & 1 << UInt64(bit) != 0 { try body(index << 6 | bit) }
            }
        }
    }

    /// Checks face `faceIndex` of `font`, whose table directory
    /// `SFNTDirectory.check` has accepted.
    ///
    /// - Returns: the glyphs drawn as layers, or nil when the face has no COLR table.
    /// - Throws: `Problem` when a record lies past the table's end or a base glyph
    ///   has more than `maxLayers` layers.
    public static func check(_ font: UnsafeRawBufferPointer, faceIndex: Int) throws(Problem) -> LayerGlyphs? {
        let colrTag = 0x434F_4C52  // "COLR"
        guard let found = SFNTDirectory.firstTable(in: font, faceIndex: faceIndex, where: { $0 == colrTag }) else {
            return nil
        }
        let colr = FontTableReader(bytes: font, range: found.range)
        // Header: version, numBaseGlyphRecords, baseGlyphRecordsOffset,
        // layerRecordsOffset, numLayerRecords (14 bytes). Counts are 16-bit.
        guard colr.has(0, 14) else {
            throw .malformed(reason: "is \(colr.count) bytes, shorter than its 14-byte header")
        }
        let baseCount = colr.u16(2)
        let baseRecords = colr.u32(4)
        let layerRecords = colr.u32(8)
        let layerCount = colr.u16(12)
        guard colr.has(baseRecords, 6 * baseCount) else {
            throw .malformed(reason: "has its \(baseCount) base glyph records past its end (\(colr.count) bytes)")
        }
        guard colr.has(layerRecords, 4 * layerCount) else {
            throw .malformed(reason: "has its \(layerCount) layer records past its end (\(colr.count) bytes)")
        }
        for base in 0..<baseCount {  // glyph ID, first layer index, number of layers
            let record = baseRecords + 6 * base
            let first = colr.u16(record + 2)
            let layers = colr.u16(record + 4)
            guard first + layers <= layerCount else {
                throw .malformed(
                    reason:
                        "gives glyph \(colr.u16(record)) layers \(first) to \(first + layers - 1), past its \(layerCount) layer records"
                )
            }
            guard layers <= maxLayers else { throw .tooManyLayers(glyph: colr.u16(record), layers: layers) }
        }
        var glyphs = LayerGlyphs()
        for layer in 0..<layerCount { glyphs.insert(colr.u16(layerRecords + 4 * layer)) }  // glyph ID, palette index
        return glyphs
    }
}
