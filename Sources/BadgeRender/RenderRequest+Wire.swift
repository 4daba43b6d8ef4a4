import BadgeCore

/// A byte writer for messages between iconbadge and its isolated child (the same
/// binary): little-endian integers, doubles as their bit patterns (exact), strings
/// as a length and UTF-8. Not a file format; both ends are one build.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func int(_ value: Int) {
        let bits = UInt64(bitPattern: Int64(value))
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }
    mutating func double(_ value: Double) { int(Int(Int64(bitPattern: value.bitPattern))) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func tag(_ value: UInt8) { bytes.append(value) }
    mutating func data(_ value: [UInt8]) {
        int(value.count)
        bytes += value
    }
    mutating func string(_ value: String) { data(Array(value.utf8)) }
    mutating func optional<T>(_ value: T?, _ write: (inout WireWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }
    mutating func strings(_ values: [String]) {
        int(values.count)
        for value in values { string(value) }
    }
}

/// Reads what `WireWriter` wrote; any malformed input is an error, never a trap.
struct WireReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    struct Malformed: Error {}

    mutating func int() throws(Malformed) -> Int {
        guard bytes.count - index >= 8 else { throw Malformed() }
        var bits: UInt64 = 0
        for offset in 0..<8 { bits |= UInt64(bytes[index + offset]) << UInt64(8 * offset) }
        index += 8
        return Int(Int64(bitPattern: bits))
    }
    mutating func double() throws(Malformed) -> Double {
        Double(bitPattern: UInt64(bitPattern: Int64(try int())))
    }
    mutating func tag() throws(Malformed) -> UInt8 {
        guard index < bytes.count else { throw Malformed() }
        index += 1
        return bytes[index - 1]
    }
    mutating func bool() throws(Malformed) -> Bool {
        switch try tag() {
        case 0: return false
        case 1: return true
        default: throw Malformed()
        }
    }
    mutating func data() throws(Malformed) -> [UInt8] {
        let count = try int()
        guard count >= 0, bytes.count - index >= count else { throw Malformed() }
        index += count
        return Array(bytes[(index - count)..<index])
    }
    mutating func string() throws(Malformed) -> String { String(decoding: try data(), as: UTF8.self) }
    mutating func optional<T>(_ read: (inout WireReader) throws(Malformed) -> T) throws(Malformed) -> T? {
        try bool() ? try read(&self) : nil
    }
    mutating func strings() throws(Malformed) -> [String] {
        let count = try int()
        guard count >= 0, count <= bytes.count - index else { throw Malformed() }
        var values: [String] = []
        for _ in 0..<count { values.append(try string()) }
        return values
    }
}

extension RenderRequest {
    /// Writes every field (the isolated vector render composes the same request).
    func write(to w: inout WireWriter) {
        w.string(iconPath)
        switch content {
        case .value(let value):
            w.tag(0)
            w.string(value)
        case .dot: w.tag(1)
        case .image(let path):
            w.tag(2)
            w.string(path)
        }
        w.int(labelRules.maxCount)
        w.string(labelRules.maxSuffix)
        w.bool(labelRules.showZero)
        w.optional(labelRules.maxCharacters) { $0.int($1) }
        switch style.height {
        case .fixed(let points):
            w.tag(0)
            w.double(points)
        case .auto: w.tag(1)
        }
        w.double(style.minHeight)
        w.double(style.minWidth)
        w.double(style.padding.horizontal)
        w.double(style.padding.vertical)
        w.optional(style.radius) { $0.double($1) }
        w.double(style.fontSize)
        w.double(style.dotSize)
        w.optional(style.imageSize) { $0.size($1) }
        for color in [style.background, style.textColor, style.borderColor] {
            w.bytesOf(color)
        }
        w.double(style.borderWidth)
        w.string(style.anchor.rawValue)
        w.string(style.badgeAnchor.rawValue)
        w.length(style.offset.dx)
        w.length(style.offset.dy)
        w.string(style.overflow.rawValue)
        w.double(scale)
        switch font {
        case .bundled(let weight):
            w.tag(0)
            w.string(weight.rawValue)
        case .file(let path, let index):
            w.tag(1)
            w.string(path)
            w.int(index)
        case .family(let family):
            w.tag(2)
            w.string(family)
        }
        w.strings(fontFeatures)
        w.strings(fallbackFonts)
        w.bool(systemFallback)
        w.bool(strictGlyphs)
        switch iconMask {
        case .none: w.tag(0)
        case .circle: w.tag(1)
        case .rounded(let radius):
            w.tag(2)
            w.double(radius)
        }
        w.int(limits.maxSide)
        w.int(limits.maxPixels)
        w.int(limits.maxRasterBytes)
        w.int(limits.maxSVGBytes)
        w.int(limits.maxMetadataChunk)
        w.double(limits.svgTimeLimit)
        w.optional(iconSize) { $0.size($1) }
        w.double(iconRasterScale)
    }

    /// Reads what `write(to:)` wrote.
    init(from r: inout WireReader) throws(WireReader.Malformed) {
        let iconPath = try r.string()
        let content: BadgeContent
        switch try r.tag() {
        case 0: content = .value(try r.string())
        case 1: content = .dot
        case 2: content = .image(path: try r.string())
        default: throw WireReader.Malformed()
        }
        self.init(iconPath: iconPath, content: content)
        labelRules.maxCount = try r.int()
        labelRules.maxSuffix = try r.string()
        labelRules.showZero = try r.bool()
        labelRules.maxCharacters = try r.optional { (r) throws(WireReader.Malformed) in try r.int() }
        switch try r.tag() {
        case 0: style.height = .fixed(try r.double())
        case 1: style.height = .auto
        default: throw WireReader.Malformed()
        }
        style.minHeight = try r.double()
        style.minWidth = try r.double()
        style.padding = Padding(horizontal: try r.double(), vertical: try r.double())
        style.radius = try r.optional { (r) throws(WireReader.Malformed) in try r.double() }
        style.fontSize = try r.double()
        style.dotSize = try r.double()
        style.imageSize = try r.optional { (r) throws(WireReader.Malformed) in try r.size() }
        style.background = try r.color()
        style.textColor = try r.color()
        style.borderColor = try r.color()
        style.borderWidth = try r.double()
        guard let anchor = Anchor(rawValue: try r.string()), let badgeAnchor = Anchor(rawValue: try r.string())
        else { throw WireReader.Malformed() }
        style.anchor = anchor
        style.badgeAnchor = badgeAnchor
        style.offset = Offset(dx: try r.length(), dy: try r.length())
        guard let overflow = Overflow(rawValue: try r.string()) else { throw WireReader.Malformed() }
        style.overflow = overflow
        scale = try r.double()
        switch try r.tag() {
        case 0:
            guard let weight = FontWeight(rawValue: try r.string()) else { throw WireReader.Malformed() }
            font = .bundled(weight)
        case 1: font = .file(path: try r.string(), index: try r.int())
        case 2: font = .family(try r.string())
        default: throw WireReader.Malformed()
        }
        fontFeatures = try r.strings()
        fallbackFonts = try r.strings()
        systemFallback = try r.bool()
        strictGlyphs = try r.bool()
        switch try r.tag() {
        case 0: iconMask = .none
        case 1: iconMask = .circle
        case 2: iconMask = .rounded(radius: try r.double())
        default: throw WireReader.Malformed()
        }
        limits.maxSide = try r.int()
        limits.maxPixels = try r.int()
        limits.maxRasterBytes = try r.int()
        limits.maxSVGBytes = try r.int()
        limits.maxMetadataChunk = try r.int()
        limits.svgTimeLimit = try r.double()
        iconSize = try r.optional { (r) throws(WireReader.Malformed) in try r.size() }
        iconRasterScale = try r.double()
    }
}

extension BadgeError {
    /// Writes the error, so the isolated child's failure is the parent's, word for word.
    func write(to w: inout WireWriter) {
        switch self {
        case .invalidValue(let option, let value, let problem):
            w.tag(0)
            w.strings([option, value, problem])
        case .unknownOption(let option, let suggestion):
            w.tag(1)
            w.string(option)
            w.optional(suggestion) { $0.string($1) }
        case .missingValue(let option):
            w.tag(2)
            w.string(option)
        case .usage(let text):
            w.tag(3)
            w.string(text)
        case .badInput(let path, let reason):
            w.tag(4)
            w.strings([path, reason])
        case .missingInput(let path, let reason):
            w.tag(5)
            w.strings([path, reason])
        case .unavailable(let resource, let reason):
            w.tag(6)
            w.strings([resource, reason])
        case .internalError(let text):
            w.tag(7)
            w.string(text)
        case .cannotCreate(let path, let reason):
            w.tag(8)
            w.strings([path, reason])
        case .ioError(let path, let reason):
            w.tag(9)
            w.strings([path, reason])
        }
    }

    /// Reads what `write(to:)` wrote.
    init(from r: inout WireReader) throws(WireReader.Malformed) {
        let tag = try r.tag()
        switch tag {
        case 1:
            self = .unknownOption(
                try r.string(), suggestion: try r.optional { (r) throws(WireReader.Malformed) in try r.string() })
            return
        case 2:
            self = .missingValue(option: try r.string())
            return
        case 3:
            self = .usage(try r.string())
            return
        case 7:
            self = .internalError(try r.string())
            return
        default: break
        }
        let fields = try r.strings()
        guard tag == 0 ? fields.count == 3 : fields.count == 2 else { throw WireReader.Malformed() }
        switch tag {
        case 0: self = .invalidValue(option: fields[0], value: fields[1], problem: fields[2])
        case 4: self = .badInput(path: fields[0], reason: fields[1])
        case 5: self = .missingInput(path: fields[0], reason: fields[1])
        case 6: self = .unavailable(resource: fields[0], reason: fields[1])
        case 8: self = .cannotCreate(path: fields[0], reason: fields[1])
        case 9: self = .ioError(path: fields[0], reason: fields[1])
        default: throw WireReader.Malformed()
        }
    }
}

extension WireWriter {
    fileprivate mutating func size(_ value: Size) {
        double(value.width)
        double(value.height)
    }
    fileprivate mutating func bytesOf(_ color: Color) {
        bytes += [color.red, color.green, color.blue, color.alpha]
    }
    fileprivate mutating func length(_ value: Length) {
        switch value {
        case .points(let points):
            tag(0)
            double(points)
        case .percent(let percent):
            tag(1)
            double(percent)
        }
    }
}

extension WireReader {
    fileprivate mutating func size() throws(Malformed) -> Size {
        Size(width: try double(), height: try double())
    }
    fileprivate mutating func color() throws(Malformed) -> Color {
        Color(red: try tag(), green: try tag(), blue: try tag(), alpha: try tag())
    }
    fileprivate mutating func length() throws(Malformed) -> Length {
        switch try tag() {
        case 0: return .points(try double())
        case 1: return .percent(try double())
        default: throw Malformed()
        }
    }
}
