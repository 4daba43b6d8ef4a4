/// The image formats iconbadge reads, sniffed from the first bytes; the file
/// name is never trusted. Formats other than PNG and SVG go to gdk-pixbuf, and
/// only to the loader named here (the allowlist).
enum ImageFormat: String {
    case png, svg, svgz, jpeg, webp, gif, bmp, tiff, ico

    /// The gdk-pixbuf loader for the format, nil for PNG and SVG (read otherwise).
    var pixbufLoader: String? {
        switch self {
        case .png, .svg, .svgz: return nil
        case .jpeg: return "jpeg"
        case .webp: return "webp"
        case .gif: return "gif"
        case .bmp: return "bmp"
        case .tiff: return "tiff"
        case .ico: return "ico"
        }
    }

    static let supported = "PNG, SVG, SVGZ, JPEG, WebP, GIF, BMP, TIFF or ICO"

    /// Sniffs `bytes` by their signatures (and, for SVG, an XML start with `<svg`).
    static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0x1F, 0x8B]) { return .svgz }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("BM".utf8)) { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts([0x00, 0x00, 0x01, 0x00]) || starts([0x00, 0x00, 0x02, 0x00]) { return .ico }
        if looksLikeSVG(bytes) { return .svg }
        return nil
    }

    /// An XML document whose first element is `<svg`: after a BOM, whitespace, an
    /// XML declaration, comments, processing instructions and a DOCTYPE (with an
    /// internal subset in brackets, as Illustrator writes), within the first 1 MiB.
    /// UTF-16 documents (a BOM, or `<` followed by NUL) are looked at as UTF-16.
    static func looksLikeSVG(_ bytes: [UInt8]) -> Bool {
        var units: [UInt16]
        let head = bytes.prefix(1 << 20)
        if head.starts(with: [0xFF, 0xFE]) || (head.count > 2 && head[head.startIndex + 1] == 0 && head.first == 0x3C) {
            let body = head.starts(with: [0xFF, 0xFE]) ? head.dropFirst(2) : head[...]
            units = stride(from: body.startIndex, to: body.endIndex - 1, by: 2).map {
                UInt16(body[$0]) | UInt16(body[$0 + 1]) << 8
            }
        } else if head.starts(with: [0xFE, 0xFF]) {
            let body = head.dropFirst(2)
            units = stride(from: body.startIndex, to: body.endIndex - 1, by: 2).map {
                UInt16(body[$0]) << 8 | UInt16(body[$0 + 1])
            }
        } else {
            units = (head.starts(with: [0xEF, 0xBB, 0xBF]) ? head.dropFirst(3) : head[...]).map { UInt16($0) }
        }
        var index = 0
        func starts(_ text: String) -> Bool {
            let pattern = Array(text.utf16)
            return units.count - index >= pattern.count && units[index..<index + pattern.count].elementsEqual(pattern)
        }
        func skip(past text: String) -> Bool {
            let pattern = Array(text.utf16)
            while index + pattern.count <= units.count {
                if units[index..<index + pattern.count].elementsEqual(pattern) {
                    index += pattern.count
                    return true
                }
                index += 1
            }
            return false
        }
        while index < units.count {
            let unit = units[index]
            if unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x0D {
                index += 1
            } else if starts("<!--") {
                guard skip(past: "-->") else { return false }
            } else if starts("<?") {
                guard skip(past: "?>") else { return false }
            } else if starts("<!DOCTYPE") || starts("<!doctype") {
                // Up to the closing ">", past an internal subset "[ ... ]".
                while index < units.count, units[index] != 0x3E, units[index] != 0x5B { index += 1 }
                if index < units.count, units[index] == 0x5B { guard skip(past: "]") else { return false } }
                guard skip(past: ">") else { return false }
            } else {
                return starts("<svg") || starts("<svg:svg")
            }
        }
        return false
    }
}
