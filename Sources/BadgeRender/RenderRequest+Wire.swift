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

    /// How many bytes are left to read.
    var remaining: Int { bytes.count - index }

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
        content.write(to: &w)
        w.int(labelRules.maxCount)
        w.string(labelRules.maxSuffix)
        w.bool(labelRules.showZero)
        w.optional(labelRules.maxCharacters) { $0.int($1) }
        switch style.height {
        case .fixed(let length):
            w.tag(0)
            w.length(length)
        case .auto: w.tag(1)
        }
        w.length(style.minHeight)
        w.length(style.minWidth)
        w.length(style.padding.horizontal)
        w.length(style.padding.vertical)
        w.optional(style.radius) { $0.length($1) }
        w.length(style.fontSize)
        w.length(style.dotSize)
        w.optional(style.imageSize) {
            $0.length($1.width)
            $0.length($1.height)
        }
        for color in [style.background, style.textColor, style.borderColor] {
            w.bytesOf(color)
        }
        w.length(style.borderWidth)
        w.double(style.nominalHeight)
        w.double(style.nominalFontSize)
        w.string(style.anchor.rawValue)
        w.string(style.badgeAnchor.rawValue)
        w.length(style.offset.dx)
        w.length(style.offset.dy)
        w.string(style.overflow.rawValue)
        w.string(style.shape.rawValue)
        w.optional(style.ribbonDistance) { $0.length($1) }
        w.string(style.bandEnds.rawValue)
        w.bytesOf(style.labelBackground)
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
        w.bool(greyscaleBadge)
        w.bool(knockoutText)
        w.bool(dropsUnfittingText)
        switch iconMask {
        case .none: w.tag(0)
        case .circle: w.tag(1)
        case .rounded(let radius):
            w.tag(2)
            w.double(radius)
        }
        w.int(iconFilters.count)
        for filter in iconFilters {
            switch filter {
            case .greyscale: w.tag(0)
            case .desaturate(let amount):
                w.tag(1)
                w.int(amount.tenThousandths)
            case .dim(let amount):
                w.tag(2)
                w.int(amount.tenThousandths)
            case .tint(let color, let amount):
                w.tag(3)
                w.bytesOf(color)
                w.int(amount.tenThousandths)
            }
        }
        w.int(limits.maxSide)
        w.int(limits.maxPixels)
        w.int(limits.maxRasterBytes)
        w.int(limits.maxSVGBytes)
        w.int(limits.maxMetadataChunk)
        w.double(limits.svgTimeLimit)
        w.optional(iconSize) { $0.size($1) }
        w.double(iconRasterScale)
        w.string(platform.rawValue)
        w.string(smallText.rawValue)
        w.double(minimumTextPixels)
        w.double(minimumDotPixels)
        w.optional(contentShape) { w, shape in
            w.int(shape.rows.count)
            for row in shape.rows {
                w.int(row.count)
                for span in row {
                    w.int(span.lowerBound)
                    w.int(span.upperBound)
                }
            }
        }
        w.double(frame.scale)
        w.double(frame.opacity)
        w.bool(frame.showsOldValue)
        w.tag(layers.rawValue)
        w.double(animationRoom)
        w.optional(previousContent) { w, content in content.write(to: &w) }
        w.int(moreBadges.count)
        for badge in moreBadges { badge.write(to: &w) }
    }

    /// Reads what `write(to:)` wrote.
    init(from r: inout WireReader, depth: Int = 0) throws(WireReader.Malformed) {
        let iconPath = try r.string()
        self.init(iconPath: iconPath, content: try BadgeContent(from: &r))
        labelRules.maxCount = try r.int()
        labelRules.maxSuffix = try r.string()
        labelRules.showZero = try r.bool()
        labelRules.maxCharacters = try r.optional { (r) throws(WireReader.Malformed) in try r.int() }
        switch try r.tag() {
        case 0: style.height = .fixed(try r.length())
        case 1: style.height = .auto
        default: throw WireReader.Malformed()
        }
        style.minHeight = try r.length()
        style.minWidth = try r.length()
        style.padding = Padding(horizontal: try r.length(), vertical: try r.length())
        style.radius = try r.optional { (r) throws(WireReader.Malformed) in try r.length() }
        style.fontSize = try r.length()
        style.dotSize = try r.length()
        style.imageSize = try r.optional { (r) throws(WireReader.Malformed) in
            LengthSize(width: try r.length(), height: try r.length())
        }
        style.background = try r.color()
        style.textColor = try r.color()
        style.borderColor = try r.color()
        style.borderWidth = try r.length()
        style.nominalHeight = try r.double()
        style.nominalFontSize = try r.double()
        guard let anchor = Anchor(rawValue: try r.string()), let badgeAnchor = Anchor(rawValue: try r.string())
        else { throw WireReader.Malformed() }
        style.anchor = anchor
        style.badgeAnchor = badgeAnchor
        style.offset = Offset(dx: try r.length(), dy: try r.length())
        guard let overflow = Overflow(rawValue: try r.string()) else { throw WireReader.Malformed() }
        style.overflow = overflow
        guard let shape = BadgeShape(rawValue: try r.string()) else { throw WireReader.Malformed() }
        style.shape = shape
        style.ribbonDistance = try r.optional { (r) throws(WireReader.Malformed) in try r.length() }
        guard let ends = BandEnds(rawValue: try r.string()) else { throw WireReader.Malformed() }
        style.bandEnds = ends
        style.labelBackground = try r.color()
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
        greyscaleBadge = try r.bool()
        knockoutText = try r.bool()
        dropsUnfittingText = try r.bool()
        switch try r.tag() {
        case 0: iconMask = .none
        case 1: iconMask = .circle
        case 2: iconMask = .rounded(radius: try r.double())
        default: throw WireReader.Malformed()
        }
        let filterCount = try r.int()
        guard filterCount >= 0, filterCount <= r.remaining else { throw WireReader.Malformed() }
        iconFilters = []
        for _ in 0..<filterCount {
            switch try r.tag() {
            case 0: iconFilters.append(.greyscale)
            case 1: iconFilters.append(.desaturate(try r.amount()))
            case 2: iconFilters.append(.dim(try r.amount()))
            case 3: iconFilters.append(.tint(try r.color(), try r.amount()))
            default: throw WireReader.Malformed()
            }
        }
        limits.maxSide = try r.int()
        limits.maxPixels = try r.int()
        limits.maxRasterBytes = try r.int()
        limits.maxSVGBytes = try r.int()
        limits.maxMetadataChunk = try r.int()
        limits.svgTimeLimit = try r.double()
        iconSize = try r.optional { (r) throws(WireReader.Malformed) in try r.size() }
        iconRasterScale = try r.double()
        guard let platform = IconPlatform(rawValue: try r.string()),
            let smallText = SmallTextRule(rawValue: try r.string())
        else { throw WireReader.Malformed() }
        self.platform = platform
        self.smallText = smallText
        minimumTextPixels = try r.double()
        minimumDotPixels = try r.double()
        contentShape = try r.optional { (r) throws(WireReader.Malformed) -> ContentShape in
            let count = try r.int()
            guard count >= 0, count <= ImageLimits.cairoMaxSide else { throw WireReader.Malformed() }
            var rows: [[Range<Int>]] = []
            for _ in 0..<count {
                let spans = try r.int()
                guard spans >= 0, spans <= ImageLimits.cairoMaxSide else { throw WireReader.Malformed() }
                var row: [Range<Int>] = []
                for _ in 0..<spans {
                    let low = try r.int()
                    let high = try r.int()
                    guard low <= high else { throw WireReader.Malformed() }
                    row.append(low..<high)
                }
                rows.append(row)
            }
            return ContentShape(rows: rows)
        }
        let scale = try r.double()
        let opacity = try r.double()
        guard scale.isFinite, scale >= 0, opacity.isFinite, (0...1).contains(opacity) else {
            throw WireReader.Malformed()
        }
        frame = BadgeFrameState(scale: scale, opacity: opacity, showsOldValue: try r.bool())
        guard let layers = RenderLayers(rawValue: try r.tag()) else { throw WireReader.Malformed() }
        self.layers = layers
        animationRoom = try r.double()
        guard animationRoom.isFinite, (1...BadgeAnimation.maxRoom).contains(animationRoom) else {
            throw WireReader.Malformed()
        }
        previousContent = try r.optional { (r) throws(WireReader.Malformed) in try BadgeContent(from: &r) }
        let more = try r.int()
        guard more >= 0, more <= RenderRequest.maxBadges - 1, depth == 0 || more == 0 else {
            throw WireReader.Malformed()
        }
        for _ in 0..<more { moreBadges.append(try RenderRequest(from: &r, depth: depth + 1)) }
    }
}

extension BadgeContent {
    /// Writes the content as a tag and its text.
    func write(to w: inout WireWriter) {
        switch self {
        case .value(let value):
            w.tag(0)
            w.string(value)
        case .dot: w.tag(1)
        case .image(let path):
            w.tag(2)
            w.string(path)
        }
    }

    /// Reads what `write(to:)` wrote.
    init(from r: inout WireReader) throws(WireReader.Malformed) {
        switch try r.tag() {
        case 0: self = .value(try r.string())
        case 1: self = .dot
        case 2: self = .image(path: try r.string())
        default: throw WireReader.Malformed()
        }
    }
}

extension BadgeError {
    /// Writes the error, so the isolated child's failure is the parent's, word for word.
    func write(to w: inout WireWriter) {
        switch self {
        case .invalidValue(let option, let value, let problem):
            w.tag(0)
            w.strings([option, value, problem])
        case .overLimit(let path, let limit):
            w.tag(1)
            w.string(path)
            w.limit(limit)
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
            self = .overLimit(path: try r.string(), try r.limit())
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

extension WireWriter {
    /// A limit as a case tag and its numbers (`Int` as Int, `Double` as its bits).
    fileprivate mutating func limit(_ limit: LimitExceeded) {
        func ints(_ values: Int...) { for value in values { int(value) } }
        func doubles(_ values: Double...) { for value in values { double(value) } }
        switch limit {
        case .imageSide(let width, let height, let limit):
            tag(0)
            ints(width, height, limit)
        case .imagePixels(let width, let height, let limit):
            tag(1)
            ints(width, height, limit)
        case .renderSide(let width, let height):
            tag(2)
            optional(width) { $0.int($1) }
            optional(height) { $0.int($1) }
        case .decoderMemory(let limit):
            tag(3)
            ints(limit)
        case .badgeSide(let width, let height, let limit):
            tag(4)
            doubles(width, height)
            ints(limit)
        case .badgeLargerThanIcon(let badgeWidth, let badgeHeight, let iconWidth, let iconHeight):
            tag(5)
            ints(badgeWidth, badgeHeight, iconWidth, iconHeight)
        case .expandedCanvas(let width, let height, let limit):
            tag(6)
            doubles(width, height)
            ints(limit)
        case .textPixels(let points, let scale, let pixels, let limit):
            tag(7)
            doubles(points, scale, pixels, limit)
        case .textLength(let codePoints, let limit):
            tag(8)
            ints(codePoints, limit)
        case .textInk(let inkWidth, let inkHeight, let badgeWidth, let badgeHeight):
            tag(9)
            ints(inkWidth, inkHeight, badgeWidth, badgeHeight)
        }
    }
}

extension WireReader {
    fileprivate mutating func limit() throws(Malformed) -> LimitExceeded {
        switch try tag() {
        case 0: return .imageSide(width: try int(), height: try int(), limit: try int())
        case 1: return .imagePixels(width: try int(), height: try int(), limit: try int())
        case 2:
            return .renderSide(
                width: try optional { (r) throws(Malformed) in try r.int() },
                height: try optional { (r) throws(Malformed) in try r.int() })
        case 3: return .decoderMemory(limit: try int())
        case 4: return .badgeSide(width: try double(), height: try double(), limit: try int())
        case 5:
            return .badgeLargerThanIcon(
                badgeWidth: try int(), badgeHeight: try int(), iconWidth: try int(), iconHeight: try int())
        case 6: return .expandedCanvas(width: try double(), height: try double(), limit: try int())
        case 7: return .textPixels(points: try double(), scale: try double(), pixels: try double(), limit: try double())
        case 8: return .textLength(codePoints: try int(), limit: try int())
        case 9:
            return .textInk(inkWidth: try int(), inkHeight: try int(), badgeWidth: try int(), badgeHeight: try int())
        default: throw Malformed()
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
    /// An icon filter's amount, refused outside 0...1 (`IconFilter.Amount` would clamp it).
    fileprivate mutating func amount() throws(Malformed) -> IconFilter.Amount {
        let tenThousandths = try int()
        guard (0...IconFilter.Amount.scale).contains(tenThousandths) else { throw Malformed() }
        return IconFilter.Amount(tenThousandths: tenThousandths)
    }
    fileprivate mutating func length() throws(Malformed) -> Length {
        switch try tag() {
        case 0: return .points(try double())
        case 1: return .percent(try double())
        default: throw Malformed()
        }
    }
}
