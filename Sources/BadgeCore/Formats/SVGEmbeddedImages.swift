/// A raster image embedded in an SVG document as a `data:` URL, as its header
/// states it (nothing is decoded past the header).
public struct SVGEmbeddedImage: Equatable, Sendable {
    /// The raster formats whose header the scan reads.
    public enum Format: String, Equatable, Sendable {
        case png = "PNG"
        case jpeg = "JPEG"
        case gif = "GIF"
        case webp = "WebP"
        case bmp = "BMP"
    }

    /// The format, from the payload's own signature (never the declared media type).
    public var format: Format
    /// Width the header claims (pixels).
    public var width: Int
    /// Height the header claims (pixels).
    public var height: Int
    /// How deep in nested SVG documents it sits (0: in the document itself).
    public var depth: Int

    /// Creates a record.
    public init(format: Format, width: Int, height: Int, depth: Int = 0) {
        self.format = format
        self.width = width
        self.height = height
        self.depth = depth
    }

    /// Width × height (pixels).
    public var pixels: Int { width * height }
}

/// Why an SVG document's embedded images are refused. Worded without option names;
/// the caller adds how to change a limit.
public enum SVGEmbeddedImagesProblem: Error, Equatable, Sendable {
    /// One image has a side over the side limit (pixels).
    case sideTooLong(SVGEmbeddedImage, limit: Int)
    /// One image has more pixels than the pixel limit.
    case tooManyPixels(SVGEmbeddedImage, limit: Int)
    /// The images together have more pixels than the pixel limit.
    case totalTooLarge(pixels: Int, count: Int, limit: Int)
    /// A `data:` URL whose content cannot be sized; the text says what it holds.
    case unreadable(String)
    /// SVG documents nested in `data:` URLs deeper than `limit`.
    case nestedTooDeep(limit: Int)
    /// The document, or one nested in it, is in a character encoding the scan does
    /// not read (the name as declared, or as detected).
    case unsupportedEncoding(String)
    /// The document's internal entities expand to more than `limit` characters.
    case entitiesTooLarge(limit: Int)

    /// One clause for a message: "holds an embedded PNG of 20000 × 20000 px, over ...".
    public var reason: String {
        switch self {
        case .sideTooLong(let image, let limit):
            return "holds an embedded \(image.format.rawValue) of \(image.width) × \(image.height) px, "
                + "over the \(limit) px limit for a side"
        case .tooManyPixels(let image, let limit):
            return "holds an embedded \(image.format.rawValue) of \(image.width) × \(image.height) px "
                + "(\(image.pixels) pixels), over the \(limit)-pixel limit"
        case .totalTooLarge(let pixels, let count, let limit):
            return "holds \(count) embedded images of \(pixels) pixels in all, over the \(limit)-pixel limit"
        case .unreadable(let what):
            return "holds an embedded image whose size cannot be read (\(what)); it is refused, not left out"
        case .nestedTooDeep(let limit):
            return "nests SVG documents in data: URLs more than \(limit) deep"
        case .unsupportedEncoding(let name):
            return
                "is in the character encoding \(Quoted(name)), which iconbadge does not read inside SVG; save it as UTF-8"
        case .entitiesTooLarge(let limit):
            return "has XML entities that expand to more than \(limit) characters"
        }
    }
}

/// Finds the raster images an SVG document embeds as `data:` URLs and reads each
/// one's size from its header, so that they count against `ImageLimits` before
/// librsvg decodes them: librsvg (through gdk-pixbuf) decodes every embedded image
/// at its full size however small it is drawn, so a 519 KB document can hold a
/// 20000 × 20000 PNG (1.6 GB of pixels).
///
/// What is looked at, as libxml2 and librsvg 2.54 read a document:
/// - `href` attributes of any prefix (`xlink:href`) whose value, after character
///   and entity references, is a `data:` URL (leading and trailing spaces and any
///   tab or line break dropped, as the WHATWG URL parser does); `<!ATTLIST>`
///   defaults; the `href` of an `<?xml-stylesheet?>`;
/// - in every other attribute value (`style`, `fill`, `filter`, ...), in text and
///   CDATA (`<style>`), and in `text/css` payloads: CSS `url(...)` and strings that
///   hold a `data:` URL, CSS escapes resolved;
/// - internal entities (general and parameter) expanded, at most
///   `maxEntityExpansion` characters in all; markup inside an entity is scanned.
///
/// Each `data:` URL (WHATWG "data: URL processor": media type, `;base64`, the
/// body percent-decoded, base64 forgiving of white space, the fragment dropped) is
/// sorted by its payload's own bytes:
/// - PNG (IHDR), JPEG (the first SOFn marker), GIF (logical screen), WebP (VP8,
///   VP8L or VP8X), BMP: the size is read from the header, decoding base64 only
///   as far as the header (a JPEG's segments are skipped, not kept);
/// - an SVG document declared `image/svg+xml`: scanned the same way, to
///   `maxNestingDepth` levels; its images count in the same total;
/// - CSS declared `text/css`: scanned for `url(...)`; other text with no image
///   signature (not XPM, XBM or PNM) is ignored: it draws nothing;
/// - anything else (an image whose header is cut short or cannot be read, an SVG
///   not declared `image/svg+xml`, which gdk-pixbuf would rasterise at its own
///   size, gzip, TIFF, ICO, XPM, unknown binary data) is **refused**
///   (`unreadable`) rather than left for librsvg to drop silently. A `data:` URL
///   with no comma is ignored (librsvg loads nothing from it).
///
/// Limits: each image's sides ≤ `maxSide` and pixels ≤ `maxPixels`, and the sum
/// of all their pixels ≤ `maxPixels` (librsvg keeps every decoded image in memory
/// for the whole render).
///
/// Documents in UTF-8, ASCII, ISO 8859-x, Windows-125x and UTF-16 are read; any
/// other declared or detected encoding (UTF-7, UCS-4, EBCDIC, ...) is refused, since
/// libxml2 would decode characters this scan cannot see.
public enum SVGEmbeddedImages {
    /// How many SVG documents may nest in `data:` URLs below the document itself.
    public static let maxNestingDepth = 4
    /// The most characters internal entities may expand to, in all: libxml2's own
    /// bound on entity expansion is 10,000,000 (`XML_MAX_TEXT_LENGTH` ...
    /// `xmlParserEntityCheck`), so a document libxml2 reads fits.
    public static let maxEntityExpansion = 10_000_000

    /// What a document embeds.
    public struct Summary: Equatable, Sendable {
        /// Every raster image found, in document order (nested documents' included).
        public var images: [SVGEmbeddedImage] = []
        /// The sum of their pixels.
        public var totalPixels: Int = 0
    }

    /// Scans `document` (an SVG's bytes, already gunzipped) and checks its embedded
    /// images against `limits`.
    ///
    /// - Throws: `SVGEmbeddedImagesProblem` for the first image over a limit, an
    ///   unreadable one, nesting too deep, an unread encoding, or entities too large.
    public static func scan(_ document: [UInt8], limits: ImageLimits) throws(SVGEmbeddedImagesProblem) -> Summary {
        let scanner = EmbeddedImageScanner(limits: limits)
        try scanner.scanDocument(document, depth: 0)
        return scanner.summary
    }
}

// MARK: - The scanner

/// The scan's state: entities, the expansion budget and what was found so far.
private final class EmbeddedImageScanner {
    let limits: ImageLimits
    var summary = SVGEmbeddedImages.Summary()
    var expansionLeft = SVGEmbeddedImages.maxEntityExpansion

    init(limits: ImageLimits) { self.limits = limits }

    /// One document's entities (general and parameter), raw replacement text with
    /// character references already resolved, as XML does at declaration.
    struct Entities {
        var general: [[UInt8]: [UInt8]] = [:]
        var parameter: [[UInt8]: [UInt8]] = [:]
    }

    // MARK: Documents

    func scanDocument(_ bytes: [UInt8], depth: Int) throws(SVGEmbeddedImagesProblem) {
        guard depth <= SVGEmbeddedImages.maxNestingDepth else {
            throw .nestedTooDeep(limit: SVGEmbeddedImages.maxNestingDepth)
        }
        let units = try Self.asciiView(bytes)
        var entities = Entities()
        try scanMarkup(units[...], entities: &entities, depth: depth, entityDepth: 0)
    }

    /// The document as one byte per character: ASCII as itself, anything else as
    /// 0x80 or above (the scan only matches ASCII).
    static func asciiView(_ bytes: [UInt8]) throws(SVGEmbeddedImagesProblem) -> [UInt8] {
        func starts(_ prefix: [UInt8]) -> Bool { bytes.count >= prefix.count && bytes.starts(with: prefix) }
        if starts([0x00, 0x00, 0xFE, 0xFF]) || starts([0xFF, 0xFE, 0x00, 0x00]) || starts([0x00, 0x00, 0x00, 0x3C])
            || starts([0x3C, 0x00, 0x00, 0x00]) || starts([0x00, 0x00, 0x3C, 0x00]) || starts([0x00, 0x3C, 0x00, 0x00])
        {
            throw .unsupportedEncoding("UCS-4")
        }
        if starts([0x4C, 0x6F, 0xA7, 0x94]) { throw .unsupportedEncoding("EBCDIC") }
        var littleEndian: Bool?
        var start = 0
        if starts([0xFF, 0xFE]) {
            littleEndian = true
            start = 2
        } else if starts([0xFE, 0xFF]) {
            littleEndian = false
            start = 2
        } else if starts([0x3C, 0x00]) {
            littleEndian = true
        } else if starts([0x00, 0x3C]) {
            littleEndian = false
        }
        if let littleEndian {
            var units: [UInt8] = []
            units.reserveCapacity((bytes.count - start) / 2)
            var index = start
            while index + 1 < bytes.count {
                let unit =
                    littleEndian
                    ? Int(bytes[index]) | Int(bytes[index + 1]) << 8
                    : Int(bytes[index]) << 8 | Int(bytes[index + 1])
                units.append(unit < 0x80 ? UInt8(unit) : 0x80)
                index += 2
            }
            return units
        }
        let body = starts([0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let name = declaredEncoding(body), !isReadable(encoding: name) {
            throw .unsupportedEncoding(name)
        }
        return body
    }

    /// The `encoding` of an XML declaration at the very start, if any.
    static func declaredEncoding(_ units: [UInt8]) -> String? {
        guard units.starts(with: Array("<?xml".utf8)), let end = find(Array("?>".utf8), in: units[...]) else {
            return nil
        }
        let declaration = units[5..<end]
        guard let at = find(Array("encoding".utf8), in: declaration) else { return nil }
        var index = at + 8
        while index < end, isSpace(units[index]) { index += 1 }
        guard index < end, units[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        while index < end, isSpace(units[index]) { index += 1 }
        guard index < end, units[index] == UInt8(ascii: "\"") || units[index] == UInt8(ascii: "'") else { return nil }
        let quote = units[index]
        let valueStart = index + 1
        var valueEnd = valueStart
        while valueEnd < end, units[valueEnd] != quote { valueEnd += 1 }
        return String(decoding: units[valueStart..<valueEnd], as: UTF8.self)
    }

    /// Encodings in which every ASCII character is its own byte, so the byte scan
    /// sees what libxml2 decodes (UTF-16 declared in an 8-bit document is read as
    /// 8-bit by libxml2 too).
    static func isReadable(encoding name: String) -> Bool {
        let lower = name.lowercased().filter { $0 != "-" && $0 != "_" }
        if ["utf8", "usascii", "ascii", "latin1", "utf16", "iso646us"].contains(lower) { return true }
        if lower.hasPrefix("iso8859"), let part = Int(lower.dropFirst(7)), (1...16).contains(part) { return true }
        if lower.hasPrefix("windows"), let part = Int(lower.dropFirst(7)), (1250...1258).contains(part) { return true }
        if lower.hasPrefix("cp"), let part = Int(lower.dropFirst(2)), (1250...1258).contains(part) { return true }
        return false
    }

    // MARK: Markup

    /// Walks tags, text, CDATA, comments, PIs and the DOCTYPE of `units`.
    func scanMarkup(
        _ units: ArraySlice<UInt8>, entities: inout Entities, depth: Int, entityDepth: Int
    ) throws(SVGEmbeddedImagesProblem) {
        var index = units.startIndex
        let end = units.endIndex
        while index < end {
            guard units[index] == UInt8(ascii: "<") else {
                var textEnd = index
                while textEnd < end, units[textEnd] != UInt8(ascii: "<") { textEnd += 1 }
                try scanText(units[index..<textEnd], entities: &entities, depth: depth, entityDepth: entityDepth)
                index = textEnd
                continue
            }
            let rest = units[index...]
            if rest.starts(with: Self.commentOpen) {
                index = Self.find(Self.commentClose, in: units[(index + 4)...]).map { $0 + 3 } ?? end
            } else if rest.starts(with: Self.cdataOpen) {
                let contentStart = index + Self.cdataOpen.count
                let close = Self.find(Self.cdataClose, in: units[contentStart...]) ?? end
                try scanCSS(units[contentStart..<close], depth: depth)
                index = min(end, close + 3)
            } else if rest.starts(with: Self.doctypeOpen) {
                index = try scanDoctype(units, from: index + Self.doctypeOpen.count, entities: &entities, depth: depth)
            } else if rest.starts(with: Self.piOpen) {
                let close = Self.find(Self.piClose, in: units[(index + 2)...]) ?? end
                try scanProcessingInstruction(units[(index + 2)..<close], entities: &entities, depth: depth)
                index = min(end, close + 2)
            } else if rest.starts(with: Array("</".utf8)) || rest.starts(with: Array("<!".utf8)) {
                while index < end, units[index] != UInt8(ascii: ">") { index += 1 }
                index = min(end, index + 1)
            } else {
                index = try scanTag(units, from: index + 1, entities: &entities, depth: depth)
            }
        }
    }

    /// Reads one start tag's attributes; returns the index past its `>`.
    func scanTag(_ units: ArraySlice<UInt8>, from start: Int, entities: inout Entities, depth: Int)
        throws(SVGEmbeddedImagesProblem) -> Int
    {
        let end = units.endIndex
        var index = start
        while index < end, !Self.isSpace(units[index]), units[index] != UInt8(ascii: ">"),
            units[index] != UInt8(ascii: "/")
        {
            index += 1
        }
        while index < end {
            while index < end, Self.isSpace(units[index]) || units[index] == UInt8(ascii: "/") { index += 1 }
            guard index < end, units[index] != UInt8(ascii: ">") else { return min(end, index + 1) }
            let nameStart = index
            while index < end, !Self.isSpace(units[index]), units[index] != UInt8(ascii: "="),
                units[index] != UInt8(ascii: ">"), units[index] != UInt8(ascii: "/")
            {
                index += 1
            }
            let name = units[nameStart..<index]
            while index < end, Self.isSpace(units[index]) { index += 1 }
            guard index < end, units[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < end, Self.isSpace(units[index]) { index += 1 }
            guard index < end, units[index] == UInt8(ascii: "\"") || units[index] == UInt8(ascii: "'") else {
                continue
            }
            let quote = units[index]
            let valueStart = index + 1
            var valueEnd = valueStart
            while valueEnd < end, units[valueEnd] != quote { valueEnd += 1 }
            let value = try expandAttribute(units[valueStart..<valueEnd], entities: entities, entityDepth: 0)
            try scanAttribute(name: name, value: value, depth: depth)
            index = min(end, valueEnd + 1)
        }
        return end
    }

    /// An `href` (any prefix) is a URL; any other attribute may hold CSS `url(...)`.
    func scanAttribute(name: ArraySlice<UInt8>, value: [UInt8], depth: Int) throws(SVGEmbeddedImagesProblem) {
        let localName = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
        if localName.elementsEqual("href".utf8) {
            try checkURL(value[...], depth: depth)
        } else {
            try scanCSS(value[...], depth: depth)
        }
    }

    /// Text content: entity references may bring markup, which is scanned as such;
    /// otherwise character references are resolved and the text scanned as CSS.
    func scanText(_ text: ArraySlice<UInt8>, entities: inout Entities, depth: Int, entityDepth: Int)
        throws(SVGEmbeddedImagesProblem)
    {
        guard text.contains(UInt8(ascii: "&")) else { return try scanCSS(text, depth: depth) }
        // Entity references bring their replacement text, markup included; character
        // and predefined references are left for the text scan (they never make markup).
        var hasEntity = false
        var expanded: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == UInt8(ascii: "&"), let semicolon = text[index...].firstIndex(of: UInt8(ascii: ";")),
                semicolon - index <= 64
            {
                let name = Array(text[(index + 1)..<semicolon])
                if name.first != UInt8(ascii: "#"), !Self.predefined.keys.contains(name),
                    let value = entities.general[name]
                {
                    try spend(value.count)
                    expanded += value
                    hasEntity = true
                    index = semicolon + 1
                    continue
                }
            }
            expanded.append(text[index])
            index += 1
        }
        if hasEntity, entityDepth < 16 {
            return try scanMarkup(expanded[...], entities: &entities, depth: depth, entityDepth: entityDepth + 1)
        }
        try scanCSS(Self.resolveCharacterReferences(expanded[...], predefined: true)[...], depth: depth)
    }

    /// An attribute value with character and entity references resolved.
    func expandAttribute(_ raw: ArraySlice<UInt8>, entities: Entities, entityDepth: Int)
        throws(SVGEmbeddedImagesProblem) -> [UInt8]
    {
        guard raw.contains(UInt8(ascii: "&")) else { return Array(raw) }
        var out: [UInt8] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            if raw[index] == UInt8(ascii: "&"), let semicolon = raw[index...].firstIndex(of: UInt8(ascii: ";")),
                semicolon - index <= 64
            {
                let name = Array(raw[(index + 1)..<semicolon])
                if name.first == UInt8(ascii: "#") {
                    out.append(Self.characterReference(name[1...]))
                    index = semicolon + 1
                    continue
                }
                if let known = Self.predefined[name] {
                    out.append(known)
                    index = semicolon + 1
                    continue
                }
                if let value = entities.general[name], entityDepth < 16 {
                    try spend(value.count)
                    out += try expandAttribute(value[...], entities: entities, entityDepth: entityDepth + 1)
                    index = semicolon + 1
                    continue
                }
            }
            out.append(raw[index])
            index += 1
        }
        return out
    }

    /// `<?xml-stylesheet href="..."?>` loads a stylesheet, which may be a data: URL.
    func scanProcessingInstruction(_ body: ArraySlice<UInt8>, entities: inout Entities, depth: Int)
        throws(SVGEmbeddedImagesProblem)
    {
        guard body.starts(with: Array("xml-stylesheet".utf8)) else { return }
        let pseudo = Array(body.dropFirst(14))
        var attributes = Entities()
        _ = try scanTag(
            ([UInt8(ascii: "x")] + pseudo + [UInt8(ascii: ">")])[...], from: 0, entities: &attributes, depth: depth)
    }

    // MARK: DOCTYPE

    /// Reads `<!DOCTYPE ... [ internal subset ]>`; returns the index past it.
    func scanDoctype(_ units: ArraySlice<UInt8>, from start: Int, entities: inout Entities, depth: Int)
        throws(SVGEmbeddedImagesProblem) -> Int
    {
        let end = units.endIndex
        var index = start
        // Up to the subset or the end, past quoted public and system ids.
        while index < end, units[index] != UInt8(ascii: "["), units[index] != UInt8(ascii: ">") {
            if units[index] == UInt8(ascii: "\"") || units[index] == UInt8(ascii: "'") {
                let quote = units[index]
                index += 1
                while index < end, units[index] != quote { index += 1 }
            }
            index += 1
        }
        guard index < end, units[index] == UInt8(ascii: "[") else { return min(end, index + 1) }
        index = try scanSubset(units, from: index + 1, entities: &entities, depth: depth, entityDepth: 0)
        while index < end, units[index] != UInt8(ascii: ">") { index += 1 }
        return min(end, index + 1)
    }

    /// The declarations of an internal subset (or of a parameter entity's text):
    /// entity declarations are kept, `<!ATTLIST>` defaults checked, `%name;`
    /// references expanded. Returns the index of the closing `]` (or the end).
    func scanSubset(
        _ units: ArraySlice<UInt8>, from start: Int, entities: inout Entities, depth: Int, entityDepth: Int
    ) throws(SVGEmbeddedImagesProblem) -> Int {
        let end = units.endIndex
        var index = start
        while index < end {
            let byte = units[index]
            if byte == UInt8(ascii: "]") { return index }
            let rest = units[index...]
            if rest.starts(with: Self.commentOpen) {
                index = Self.find(Self.commentClose, in: units[(index + 4)...]).map { $0 + 3 } ?? end
            } else if rest.starts(with: Self.piOpen) {
                index = Self.find(Self.piClose, in: units[(index + 2)...]).map { $0 + 2 } ?? end
            } else if rest.starts(with: Self.entityOpen) {
                index = try scanEntityDeclaration(units, from: index + Self.entityOpen.count, entities: &entities)
            } else if rest.starts(with: Self.attlistOpen) {
                index = try scanAttlist(units, from: index + Self.attlistOpen.count, entities: entities, depth: depth)
            } else if byte == UInt8(ascii: "<") {
                index = Self.skipDeclaration(units, from: index + 1)
            } else if byte == UInt8(ascii: "%"), let semicolon = units[index...].firstIndex(of: UInt8(ascii: ";")),
                semicolon - index <= 64
            {
                let name = Array(units[(index + 1)..<semicolon])
                if let value = entities.parameter[name], entityDepth < 16 {
                    try spend(value.count)
                    _ = try scanSubset(
                        value[...], from: 0, entities: &entities, depth: depth, entityDepth: entityDepth + 1)
                }
                index = semicolon + 1
            } else {
                index += 1
            }
        }
        return end
    }

    /// `<!ENTITY [%] name "value">`; external entities (SYSTEM, PUBLIC) are never
    /// loaded by librsvg and are skipped.
    func scanEntityDeclaration(_ units: ArraySlice<UInt8>, from start: Int, entities: inout Entities)
        throws(SVGEmbeddedImagesProblem) -> Int
    {
        let end = units.endIndex
        var index = start
        while index < end, Self.isSpace(units[index]) { index += 1 }
        var isParameter = false
        if index < end, units[index] == UInt8(ascii: "%") {
            isParameter = true
            index += 1
            while index < end, Self.isSpace(units[index]) { index += 1 }
        }
        let nameStart = index
        while index < end, !Self.isSpace(units[index]), units[index] != UInt8(ascii: ">") { index += 1 }
        let name = Array(units[nameStart..<index])
        while index < end, Self.isSpace(units[index]) { index += 1 }
        if index < end, units[index] == UInt8(ascii: "\"") || units[index] == UInt8(ascii: "'") {
            let quote = units[index]
            let valueStart = index + 1
            var valueEnd = valueStart
            while valueEnd < end, units[valueEnd] != quote { valueEnd += 1 }
            let value = Self.resolveCharacterReferences(units[valueStart..<valueEnd])
            // The first declaration of a name wins (XML 1.0, 4.2).
            if isParameter {
                if entities.parameter[name] == nil { entities.parameter[name] = value }
            } else if entities.general[name] == nil {
                entities.general[name] = value
            }
            index = valueEnd + 1
        }
        return Self.skipDeclaration(units, from: index)
    }

    /// `<!ATTLIST element name type default>`: a quoted default that is a data: URL
    /// is on every such element, so it is checked (once: librsvg caches by URL).
    func scanAttlist(_ units: ArraySlice<UInt8>, from start: Int, entities: Entities, depth: Int)
        throws(SVGEmbeddedImagesProblem) -> Int
    {
        let end = units.endIndex
        var index = start
        while index < end, units[index] != UInt8(ascii: ">") {
            if units[index] == UInt8(ascii: "\"") || units[index] == UInt8(ascii: "'") {
                let quote = units[index]
                let valueStart = index + 1
                var valueEnd = valueStart
                while valueEnd < end, units[valueEnd] != quote { valueEnd += 1 }
                let value = try expandAttribute(units[valueStart..<valueEnd], entities: entities, entityDepth: 0)
                try checkURL(value[...], depth: depth)
                try scanCSS(value[...], depth: depth)
                index = valueEnd
            }
            index += 1
        }
        return min(end, index + 1)
    }

    /// Past the `>` that ends a declaration, skipping quoted literals.
    static func skipDeclaration(_ units: ArraySlice<UInt8>, from start: Int) -> Int {
        let end = units.endIndex
        var index = start
        while index < end, units[index] != UInt8(ascii: ">") {
            if units[index] == UInt8(ascii: "\"") || units[index] == UInt8(ascii: "'") {
                let quote = units[index]
                index += 1
                while index < end, units[index] != quote { index += 1 }
            }
            index += 1
        }
        return min(end, index + 1)
    }

    // MARK: CSS

    /// Finds `url(...)` and strings holding a data: URL in CSS (comments skipped,
    /// escapes resolved: `\75rl(`, `\64 ata:`).
    func scanCSS(_ css: ArraySlice<UInt8>, depth: Int) throws(SVGEmbeddedImagesProblem) {
        // Fast path: nothing that could become "data:" or "url(" (an escape could).
        guard css.contains(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "\\") })
        else { return }
        let end = css.endIndex
        var index = css.startIndex
        while index < end {
            let byte = css[index]
            if byte == UInt8(ascii: "/"), index + 1 < end, css[index + 1] == UInt8(ascii: "*") {
                index = Self.find(Array("*/".utf8), in: css[(index + 2)...]).map { $0 + 2 } ?? end
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                var value: [UInt8] = []
                index += 1
                while index < end, css[index] != byte, css[index] != 0x0A {
                    if css[index] == UInt8(ascii: "\\") {
                        index = Self.cssEscape(css, at: index, into: &value)
                    } else {
                        value.append(css[index])
                        index += 1
                    }
                }
                index += 1
                try checkURL(value[...], depth: depth)
            } else if Self.isIdentifierStart(byte) {
                var name: [UInt8] = []
                while index < end, Self.isIdentifierStart(css[index]) || Self.isDigit(css[index]) {
                    if css[index] == UInt8(ascii: "\\") {
                        index = Self.cssEscape(css, at: index, into: &name)
                    } else {
                        name.append(css[index])
                        index += 1
                    }
                }
                guard index < end, css[index] == UInt8(ascii: "("), Self.lowercased(name) == Array("url".utf8) else {
                    continue
                }
                index += 1
                while index < end, Self.isSpace(css[index]) { index += 1 }
                guard index < end, css[index] != UInt8(ascii: "\""), css[index] != UInt8(ascii: "'") else { continue }
                var value: [UInt8] = []
                while index < end, css[index] != UInt8(ascii: ")") {
                    if css[index] == UInt8(ascii: "\\") {
                        index = Self.cssEscape(css, at: index, into: &value)
                    } else {
                        value.append(css[index])
                        index += 1
                    }
                }
                try checkURL(value[...], depth: depth)
            } else {
                index += 1
            }
        }
    }

    /// Resolves the CSS escape at `index` (a backslash) into `out`; returns the
    /// index past it (CSS Syntax 3, 4.3.7).
    static func cssEscape(_ css: ArraySlice<UInt8>, at index: Int, into out: inout [UInt8]) -> Int {
        var next = index + 1
        guard next < css.endIndex else { return next }
        if isHexDigit(css[next]) {
            var value = 0
            var count = 0
            while next < css.endIndex, count < 6, isHexDigit(css[next]) {
                value = value * 16 + hexValue(css[next])
                next += 1
                count += 1
            }
            if next < css.endIndex, isSpace(css[next]) { next += 1 }
            out.append(value > 0 && value < 0x80 ? UInt8(value) : 0x80)
            return next
        }
        if css[next] == 0x0A { return next + 1 }
        out.append(css[next])
        return next + 1
    }

    // MARK: data: URLs

    /// Checks a URL: a data: URL's payload is sized, scanned or refused; any other
    /// URL is left alone (librsvg loads nothing but data: URLs without a base file).
    func checkURL(_ raw: ArraySlice<UInt8>, depth: Int) throws(SVGEmbeddedImagesProblem) {
        // WHATWG URL parsing: C0 controls and spaces trimmed, tabs and newlines removed.
        var url = raw.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }[...]
        while let first = url.first, first <= 0x20 { url = url.dropFirst() }
        while let last = url.last, last <= 0x20 { url = url.dropLast() }
        guard url.count >= 5, Self.lowercased(Array(url.prefix(5))) == Array("data:".utf8) else { return }
        var body = url.dropFirst(5)
        if let hash = body.firstIndex(of: UInt8(ascii: "#")) { body = body[..<hash] }
        guard let comma = body.firstIndex(of: UInt8(ascii: ",")) else { return }
        var meta = Self.lowercased(Array(body[..<comma]))[...]
        while let first = meta.first, Self.isSpace(first) { meta = meta.dropFirst() }
        while let last = meta.last, Self.isSpace(last) { meta = meta.dropLast() }
        var isBase64 = false
        if meta.count >= 6, meta.suffix(6).elementsEqual("base64".utf8) {
            var before = meta.dropLast(6)
            while before.last == UInt8(ascii: " ") { before = before.dropLast() }
            if before.last == UInt8(ascii: ";") {
                isBase64 = true
                meta = before.dropLast()
            }
        }
        let essenceEnd = meta.firstIndex(of: UInt8(ascii: ";")) ?? meta.endIndex
        var essence = meta[..<essenceEnd]
        while let last = essence.last, Self.isSpace(last) { essence = essence.dropLast() }
        let mediaType = String(decoding: essence, as: UTF8.self)
        var payload = PayloadReader(body: body[(comma + 1)...], base64: isBase64)
        try classify(&payload, mediaType: mediaType, depth: depth)
    }

    /// Sorts a payload by its own first bytes and reads, scans or refuses it.
    func classify(_ payload: inout PayloadReader, mediaType: String, depth: Int) throws(SVGEmbeddedImagesProblem) {
        let head = payload.peek(16)
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        let declared = mediaType.isEmpty ? "with no media type" : "declared \(Quoted(mediaType))"
        if payload.failed, head.isEmpty { throw .unreadable("a data: URL whose base64 is invalid, \(declared)") }
        var image: SVGEmbeddedImage?
        if starts(PNGPreflight.signature) {
            image = RasterHeaders.png(&payload)
        } else if starts([0xFF, 0xD8, 0xFF]) {
            image = RasterHeaders.jpeg(&payload)
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            image = RasterHeaders.gif(&payload)
        } else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            image = RasterHeaders.webp(&payload)
        } else if starts(Array("BM".utf8)) {
            image = RasterHeaders.bmp(&payload)
        } else if starts([0x1F, 0x8B]) {
            throw .unreadable("gzip-compressed data, \(declared)")
        } else {
            let all = payload.readAll()
            if payload.failed { throw .unreadable("a data: URL whose base64 is invalid, \(declared)") }
            if Self.looksLikeMarkup(all) {
                guard mediaType == "image/svg+xml" else {
                    throw .unreadable("an XML document \(declared), not image/svg+xml")
                }
                try scanDocument(all, depth: depth + 1)
                return
            }
            if Self.isText(all) {
                if Self.hasTextImageSignature(all) { throw .unreadable("an XPM, XBM or PNM image, \(declared)") }
                if mediaType.hasPrefix("image/") { throw .unreadable("text, \(declared)") }
                if mediaType == "text/css" {
                    guard depth < SVGEmbeddedImages.maxNestingDepth else {
                        throw .nestedTooDeep(limit: SVGEmbeddedImages.maxNestingDepth)
                    }
                    try scanCSS(all[...], depth: depth + 1)
                }
                return
            }
            throw .unreadable("data of an unknown kind, \(declared)")
        }
        guard var image, image.width > 0, image.height > 0 else {
            throw .unreadable("a cut-short or corrupt image header, \(declared)")
        }
        image.depth = depth
        try record(image)
    }

    func record(_ image: SVGEmbeddedImage) throws(SVGEmbeddedImagesProblem) {
        if image.width > limits.maxSide || image.height > limits.maxSide {
            throw .sideTooLong(image, limit: limits.maxSide)
        }
        if image.pixels > limits.maxPixels { throw .tooManyPixels(image, limit: limits.maxPixels) }
        summary.images.append(image)
        summary.totalPixels += image.pixels
        if summary.totalPixels > limits.maxPixels {
            throw .totalTooLarge(pixels: summary.totalPixels, count: summary.images.count, limit: limits.maxPixels)
        }
    }

    func spend(_ count: Int) throws(SVGEmbeddedImagesProblem) {
        expansionLeft -= count
        if expansionLeft < 0 { throw .entitiesTooLarge(limit: SVGEmbeddedImages.maxEntityExpansion) }
    }

    // MARK: Small helpers

    static let commentOpen = Array("<!--".utf8)
    static let commentClose = Array("-->".utf8)
    static let cdataOpen = Array("<![CDATA[".utf8)
    static let cdataClose = Array("]]>".utf8)
    static let doctypeOpen = Array("<!DOCTYPE".utf8)
    static let entityOpen = Array("<!ENTITY".utf8)
    static let attlistOpen = Array("<!ATTLIST".utf8)
    static let piOpen = Array("<?".utf8)
    static let piClose = Array("?>".utf8)
    static let predefined: [[UInt8]: UInt8] = [
        Array("lt".utf8): UInt8(ascii: "<"), Array("gt".utf8): UInt8(ascii: ">"), Array("amp".utf8): UInt8(ascii: "&"),
        Array("apos".utf8): UInt8(ascii: "'"), Array("quot".utf8): UInt8(ascii: "\""),
    ]

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
    static func hexValue(_ byte: UInt8) -> Int { isDigit(byte) ? Int(byte - 0x30) : Int((byte | 0x20) - 0x61 + 10) }
    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "\\") || byte >= 0x80
    }
    static func lowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    /// The index where `pattern` starts in `units`, if it does.
    static func find(_ pattern: [UInt8], in units: ArraySlice<UInt8>) -> Int? {
        guard let first = pattern.first, units.count >= pattern.count else { return nil }
        var index = units.startIndex
        let last = units.endIndex - pattern.count
        while index <= last {
            guard let hit = units[index...last].firstIndex(of: first) else { return nil }
            if units[hit..<(hit + pattern.count)].elementsEqual(pattern) { return hit }
            index = hit + 1
        }
        return nil
    }

    /// A character reference's value (`65`, `x41`) as one byte: ASCII, or 0x80 for
    /// anything else.
    static func characterReference(_ digits: ArraySlice<UInt8>) -> UInt8 {
        var value = 0
        if let first = digits.first, first | 0x20 == UInt8(ascii: "x") {
            for byte in digits.dropFirst() {
                guard isHexDigit(byte) else { return 0x80 }
                value = min(value * 16 + hexValue(byte), 0x11_0000)
            }
        } else {
            for byte in digits {
                guard isDigit(byte) else { return 0x80 }
                value = min(value * 10 + Int(byte - 0x30), 0x11_0000)
            }
        }
        return value > 0 && value < 0x80 ? UInt8(value) : 0x80
    }

    /// `&#...;` resolved, and with `predefined` the five predefined entities (an
    /// entity's value keeps those until it is used: XML 1.0, 4.5); other references
    /// are kept.
    static func resolveCharacterReferences(_ raw: ArraySlice<UInt8>, predefined: Bool = false) -> [UInt8] {
        guard raw.contains(UInt8(ascii: "&")) else { return Array(raw) }
        var out: [UInt8] = []
        var index = raw.startIndex
        while index < raw.endIndex {
            if raw[index] == UInt8(ascii: "&"), let semicolon = raw[index...].firstIndex(of: UInt8(ascii: ";")),
                semicolon - index <= 64
            {
                let name = Array(raw[(index + 1)..<semicolon])
                if name.first == UInt8(ascii: "#") {
                    out.append(characterReference(name[1...]))
                    index = semicolon + 1
                    continue
                }
                if predefined, let known = Self.predefined[name] {
                    out.append(known)
                    index = semicolon + 1
                    continue
                }
            }
            out.append(raw[index])
            index += 1
        }
        return out
    }

    /// Whether bytes start (after a BOM and white space) like an XML document.
    static func looksLikeMarkup(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return true }
        if bytes.starts(with: [0x3C, 0x00]) || bytes.starts(with: [0x00, 0x3C]) { return true }
        var body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        while let first = body.first, isSpace(first) { body = body.dropFirst() }
        return body.first == UInt8(ascii: "<")
    }

    /// Whether bytes are text: no control characters other than white space.
    static func isText(_ bytes: [UInt8]) -> Bool {
        !bytes.contains { ($0 < 0x20 && !isSpace($0)) || $0 == 0x7F }
    }

    /// XPM, XBM and PNM are text, and gdk-pixbuf sniffs and decodes them at the size
    /// they state.
    static func hasTextImageSignature(_ bytes: [UInt8]) -> Bool {
        var body = bytes[...]
        while let first = body.first, isSpace(first) { body = body.dropFirst() }
        if body.starts(with: Array("/* XPM */".utf8)) || body.starts(with: Array("! XPM2".utf8)) { return true }
        if body.starts(with: Array("#define".utf8)) { return true }
        if body.count >= 3, body.first == UInt8(ascii: "P"), let digit = body.dropFirst().first,
            digit >= UInt8(ascii: "1"), digit <= UInt8(ascii: "7"), isSpace(body[body.startIndex + 2])
        {
            return true
        }
        return false
    }
}

// MARK: - Payloads

/// Reads a data: URL's body lazily: percent-decoding, then (for `;base64`)
/// forgiving base64 (ASCII white space skipped, `=` padding only at the end), so a
/// header is read without decoding the image behind it.
private struct PayloadReader {
    private let body: ArraySlice<UInt8>
    private let base64: Bool
    private var index: Int
    /// Decoded bytes not yet taken, oldest in the low byte (at most 3).
    private var pending: UInt32 = 0
    private var pendingCount = 0
    /// Bytes read ahead by `peek`.
    private var buffered: [UInt8] = []
    private var bufferedStart = 0
    /// The base64 has a character outside the alphabet (librsvg then loads nothing).
    private(set) var failed = false

    init(body: ArraySlice<UInt8>, base64: Bool) {
        self.body = body
        self.base64 = base64
        index = body.startIndex
    }

    /// The next percent-decoded byte of the body.
    private mutating func nextRaw() -> UInt8? {
        guard index < body.endIndex else { return nil }
        let byte = body[index]
        if byte == UInt8(ascii: "%"), index + 2 < body.endIndex {
            let high = body[index + 1]
            let low = body[index + 2]
            if EmbeddedImageScanner.isHexDigit(high), EmbeddedImageScanner.isHexDigit(low) {
                index += 3
                return UInt8(EmbeddedImageScanner.hexValue(high) * 16 + EmbeddedImageScanner.hexValue(low))
            }
        }
        index += 1
        return byte
    }

    /// Decodes the next base64 quantum (up to 3 bytes) into `pending`.
    private mutating func refill() -> Bool {
        guard base64 else {
            guard let byte = nextRaw() else { return false }
            pending = UInt32(byte)
            pendingCount = 1
            return true
        }
        var bits: UInt32 = 0
        var count = 0
        while count < 4, let byte = nextRaw() {
            if EmbeddedImageScanner.isSpace(byte) { continue }
            if byte == UInt8(ascii: "=") { break }
            let value = Self.alphabet[Int(byte)]
            guard value >= 0 else {
                failed = true
                return false
            }
            bits = bits << 6 | UInt32(value)
            count += 1
        }
        guard count >= 2 else {
            if count == 1 { failed = true }
            return false
        }
        bits <<= UInt32(6 * (4 - count))
        // Oldest byte in the low byte.
        pending = (bits >> 16 & 0xFF) | (bits >> 8 & 0xFF) << 8 | (bits & 0xFF) << 16
        pendingCount = count - 1
        return true
    }

    private static let alphabet: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = Int8(value)
        }
        return table
    }()

    private mutating func nextUnbuffered() -> UInt8? {
        if pendingCount == 0, !refill() { return nil }
        let byte = UInt8(pending & 0xFF)
        pending >>= 8
        pendingCount -= 1
        return byte
    }

    /// The next decoded byte.
    mutating func next() -> UInt8? {
        if bufferedStart < buffered.count {
            bufferedStart += 1
            return buffered[bufferedStart - 1]
        }
        return nextUnbuffered()
    }

    /// The first `count` bytes still to come (or fewer), without consuming them.
    mutating func peek(_ count: Int) -> [UInt8] {
        while buffered.count - bufferedStart < count, let byte = nextUnbuffered() { buffered.append(byte) }
        return Array(buffered[bufferedStart..<min(buffered.count, bufferedStart + count)])
    }

    /// Reads `count` bytes, or nil when the payload ends first.
    mutating func read(_ count: Int) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            guard let byte = next() else { return nil }
            out.append(byte)
        }
        return out
    }

    /// Skips `count` bytes; false when the payload ends first.
    mutating func skip(_ count: Int) -> Bool {
        for _ in 0..<count where next() == nil { return false }
        return true
    }

    /// Everything that remains, decoded.
    mutating func readAll() -> [UInt8] {
        var out = Array(buffered[bufferedStart...])
        buffered.removeAll()
        bufferedStart = 0
        out.reserveCapacity(out.count + (body.endIndex - index))
        while let byte = nextUnbuffered() { out.append(byte) }
        return out
    }
}

/// Sizes from raster headers; nil when the header is cut short or malformed.
private enum RasterHeaders {
    static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    static func le24(_ b: [UInt8], _ i: Int) -> Int { le16(b, i) | Int(b[i + 2]) << 16 }
    static func le32(_ b: [UInt8], _ i: Int) -> Int { le16(b, i) | le16(b, i + 2) << 16 }
    static func be32(_ b: [UInt8], _ i: Int) -> Int { be16(b, i) << 16 | be16(b, i + 2) }

    /// PNG: IHDR must be the first chunk (ISO/IEC 15948, 5.6).
    static func png(_ payload: inout PayloadReader) -> SVGEmbeddedImage? {
        guard let b = payload.read(24), Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return SVGEmbeddedImage(format: .png, width: be32(b, 16), height: be32(b, 20))
    }

    /// JPEG: markers walked from SOI to the first SOFn (ITU T.81, B.1.1.3, B.2.2),
    /// each segment skipped by its length.
    static func jpeg(_ payload: inout PayloadReader) -> SVGEmbeddedImage? {
        guard payload.skip(2) else { return nil }
        while true {
            // Fill bytes (0xFF) may precede a marker.
            guard var marker = payload.next(), marker == 0xFF else { return nil }
            while marker == 0xFF {
                guard let next = payload.next() else { return nil }
                marker = next
            }
            if marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01 { continue }
            if marker == 0xD9 || marker == 0xDA { return nil }  // end, or scan data before any frame
            guard let length = payload.read(2) else { return nil }
            let size = be16(length, 0)
            guard size >= 2 else { return nil }
            let isFrame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard size >= 7, let frame = payload.read(5) else { return nil }
                // Height 0 means "defined by a later DNL marker": not sizeable here.
                return SVGEmbeddedImage(format: .jpeg, width: be16(frame, 3), height: be16(frame, 1))
            }
            guard payload.skip(size - 2) else { return nil }
        }
    }

    /// GIF: the logical screen descriptor (GIF89a, section 18).
    static func gif(_ payload: inout PayloadReader) -> SVGEmbeddedImage? {
        guard let b = payload.read(10) else { return nil }
        return SVGEmbeddedImage(format: .gif, width: le16(b, 6), height: le16(b, 8))
    }

    /// WebP: the first chunk, VP8 (RFC 6386 9.1), VP8L (its header) or VP8X (the canvas).
    static func webp(_ payload: inout PayloadReader) -> SVGEmbeddedImage? {
        guard let b = payload.read(30) else { return nil }
        let chunk = Array(b[12..<16])
        if chunk == Array("VP8 ".utf8) {
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return SVGEmbeddedImage(format: .webp, width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF)
        }
        if chunk == Array("VP8L".utf8) {
            guard b[20] == 0x2F else { return nil }
            let bits = le32(b, 21)
            return SVGEmbeddedImage(format: .webp, width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
        }
        if chunk == Array("VP8X".utf8) {
            return SVGEmbeddedImage(format: .webp, width: le24(b, 24) + 1, height: le24(b, 27) + 1)
        }
        return nil
    }

    /// BMP: BITMAPCOREHEADER (16-bit sizes) or a later info header (signed 32-bit,
    /// a negative height meaning top-down).
    static func bmp(_ payload: inout PayloadReader) -> SVGEmbeddedImage? {
        guard let b = payload.read(26) else { return nil }
        if le32(b, 14) == 12 { return SVGEmbeddedImage(format: .bmp, width: le16(b, 18), height: le16(b, 20)) }
        let width = Int(Int32(truncatingIfNeeded: le32(b, 18)))
        let height = Int(Int32(truncatingIfNeeded: le32(b, 22)))
        return SVGEmbeddedImage(format: .bmp, width: abs(width), height: abs(height))
    }
}
