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

    /// An XML document whose first element is `<svg` (after a BOM, whitespace,
    /// an XML declaration, comments or a DOCTYPE), within its first 4 KiB.
    static func looksLikeSVG(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        var text = Substring(head)
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        while true {
            text = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
            if text.hasPrefix("<?") || text.hasPrefix("<!") {
                let terminator = Array((text.hasPrefix("<!--") ? "-->" : ">").utf8)
                let utf8 = Array(text.utf8)
                guard
                    let end = (0...max(0, utf8.count - terminator.count)).first(where: {
                        utf8.count >= $0 + terminator.count && Array(utf8[$0..<$0 + terminator.count]) == terminator
                    })
                else { return false }
                text = Substring(String(decoding: utf8[(end + terminator.count)...], as: UTF8.self))
                continue
            }
            return text.hasPrefix("<svg") || text.hasPrefix("<svg:svg")
        }
    }
}
