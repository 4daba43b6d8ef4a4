/// Big-endian reads inside one table of a font file, by offset from the table's
/// start (OpenType spec, "Data types": every field is big-endian).
///
/// A read outside the table gives 0 rather than trapping: the parsers check every
/// range with `has` before they read it and report what is missing, so a logic slip
/// can give a wrong answer but never a crash on hostile bytes.
struct FontTableReader {
    let bytes: UnsafeRawBufferPointer
    let range: Range<Int>

    /// The table's length (bytes).
    var count: Int { range.count }

    /// Whether `length` bytes from `offset` lie inside the table.
    func has(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    func u8(_ offset: Int) -> Int {
        has(offset, 1) ? Int(bytes[range.lowerBound + offset]) : 0
    }

    func u16(_ offset: Int) -> Int {
        guard has(offset, 2) else { return 0 }
        let at = range.lowerBound + offset
        return Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    func u32(_ offset: Int) -> Int {
        guard has(offset, 4) else { return 0 }
        let at = range.lowerBound + offset
        return Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}

extension FontTableReader {
    /// Table `tag` of face `faceIndex`, or an empty table when the face has none.
    init(_ tag: String, in font: UnsafeRawBufferPointer, faceIndex: Int) {
        self.init(bytes: font, range: SFNTDirectory.table(tag, in: font, faceIndex: faceIndex) ?? 0..<0)
    }

    /// The glyph count of face `faceIndex` from `maxp` (OpenType spec, maxp:
    /// `numGlyphs` at byte 4 in both versions); 0 without the table.
    static func glyphCount(in font: UnsafeRawBufferPointer, faceIndex: Int) -> Int {
        FontTableReader("maxp", in: font, faceIndex: faceIndex).u16(4)
    }
}
