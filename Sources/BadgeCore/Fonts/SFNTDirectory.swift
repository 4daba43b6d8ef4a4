/// Checks the table directory of an OpenType/TrueType font (or one face of a
/// collection) against the file's length, so a truncated font is refused before
/// FreeType opens it: FreeType reads tables lazily and would otherwise draw empty
/// glyphs for a file cut short (OpenType spec, "Organization of an OpenType Font":
/// the table directory, and "TTC Header" for collections).
public enum SFNTDirectory {
    /// Why a font's bytes are not usable.
    public enum Problem: Error, Equatable, Sendable {
        /// Not an sfnt font at all (no known signature).
        case notAFont
        /// The face index is beyond the collection's faces.
        case noSuchFace(count: Int)
        /// A table (its tag) lies beyond the end of the file.
        case truncated(table: String)
    }

    /// Verifies face `index` of `bytes`.
    ///
    /// - Throws: `Problem` saying what is wrong.
    public static func check(_ bytes: UnsafeRawBufferPointer, faceIndex index: Int) throws(Problem) {
        func u32(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
        }
        guard let tag = u32(0) else { throw .notAFont }
        var faceOffset = 0
        if tag == 0x7474_6366 {  // "ttcf"
            guard let faces = u32(8) else { throw .truncated(table: "ttcf") }
            guard index < faces else { throw .noSuchFace(count: faces) }
            guard let offset = u32(12 + 4 * index) else { throw .truncated(table: "ttcf") }
            faceOffset = offset
        } else {
            guard index == 0 else { throw .noSuchFace(count: 1) }
        }
        guard let version = u32(faceOffset),
            [0x0001_0000, 0x4F54_544F, 0x7472_7565].contains(version)  // 1.0, "OTTO", "true"
        else {
            throw tag == 0x7474_6366 ? .truncated(table: "ttcf") : .notAFont
        }
        guard let tables = u16(faceOffset + 4) else { throw .truncated(table: "directory") }
        for table in 0..<tables {
            let record = faceOffset + 12 + 16 * table
            guard let offset = u32(record + 8), let length = u32(record + 12) else {
                throw .truncated(table: "directory")
            }
            if offset + length > bytes.count {
                let name = String(decoding: (0..<4).map { bytes[record + $0] }, as: UTF8.self)
                throw .truncated(table: name)
            }
        }
    }

    /// The bytes of table `tag` (four ASCII characters, such as `"sbix"`) in face
    /// `index` of `bytes`, as a range of `bytes`; nil when the face has no such table
    /// or the directory is not readable (`check` says why). The first record with the
    /// tag wins, as in FreeType's `tt_face_lookup_table`.
    public static func table(_ tag: String, in bytes: UnsafeRawBufferPointer, faceIndex index: Int) -> Range<Int>? {
        guard tag.utf8.count == 4 else { return nil }
        let wanted = tag.utf8.reduce(0) { $0 << 8 | Int($1) }
        return firstTable(in: bytes, faceIndex: index) { $0 == wanted }?.range
    }

    /// The first table of face `index` whose tag (big-endian, "sbix" is 0x7362_6978)
    /// satisfies `isWanted`, with its range in `bytes`; nil when none does or the
    /// directory is not readable. One pass over the directory, no allocation.
    public static func firstTable(
        in bytes: UnsafeRawBufferPointer, faceIndex index: Int, where isWanted: (Int) -> Bool
    ) -> (tag: Int, range: Range<Int>)? {
        func u32(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
        }
        guard let signature = u32(0) else { return nil }
        var faceOffset = 0
        if signature == 0x7474_6366 {  // "ttcf"
            guard let faces = u32(8), index < faces, let offset = u32(12 + 4 * index) else { return nil }
            faceOffset = offset
        } else if index != 0 {
            return nil
        }
        guard let tables = u32(faceOffset + 4).map({ $0 >> 16 }) else { return nil }
        for table in 0..<tables {
            let record = faceOffset + 12 + 16 * table
            guard let found = u32(record), let offset = u32(record + 8), let length = u32(record + 12),
                offset + length <= bytes.count
            else { return nil }
            if isWanted(found) { return (found, offset..<offset + length) }
        }
        return nil
    }
}
