/// Renumbers the ids of an SVG document in order of appearance.
///
/// Cairo's SVG surface names ids after process-wide counters (`surface5`,
/// `glyph0-1`, `clip3`), so a second render in the same process, or a different
/// history, gives other names for the same picture (docs/DESIGN.md). Every `id="X"` is
/// renamed to `idN` (N counting from 1 in document order) and every reference to
/// it (`#X` in `href`/`xlink:href` values and `url(#X)`) follows, so equal
/// drawings give equal bytes.
public enum SVGIdentifiers {
    /// The document with canonical ids: `prefix` then N (`id1`, `id2`, ...); another
    /// prefix keeps the ids of documents merged into one apart (animated SVG layers).
    public static func renumber(_ svg: String, prefix: String = "id") -> String {
        let bytes = Array(svg.utf8)
        let marker = Array(" id=\"".utf8)
        var names: [String: String] = [:]
        var index = 0
        while let start = find(marker, in: bytes, from: index) {
            let valueStart = start + marker.count
            guard let end = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            let old = String(decoding: bytes[valueStart..<end], as: UTF8.self)
            if names[old] == nil { names[old] = "\(prefix)\(names.count + 1)" }
            index = end
        }
        guard !names.isEmpty else { return svg }
        // Second pass: rewrite id="X", "#X" and "#X)" wherever X is a known id.
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            let isId =
                byte == UInt8(ascii: "\"") && i >= 3 && bytes[i - 3] == UInt8(ascii: "i")
                && bytes[i - 2] == UInt8(ascii: "d") && bytes[i - 1] == UInt8(ascii: "=")
            if isId || byte == UInt8(ascii: "#") {
                let valueStart = i + 1
                var end = valueStart
                while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: ")"),
                    bytes[end] != UInt8(ascii: " ")
                {
                    end += 1
                }
                let name = String(decoding: bytes[valueStart..<end], as: UTF8.self)
                if let renamed = names[name], end < bytes.count {
                    out.append(byte)
                    out.append(contentsOf: Array(renamed.utf8))
                    i = end
                    continue
                }
            }
            out.append(byte)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
