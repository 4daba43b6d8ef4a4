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
    /// Writes every part (the isolated vector render builds the same scene).
    func write(to w: inout WireWriter) {
        w.string(icon.path)
        w.optional(icon.size) { $0.size($1) }
        w.double(icon.rasterScale)
        switch icon.mask {
        case .none: w.tag(0)
        case .circle: w.tag(1)
        case .rounded(let radius):
            w.tag(2)
            w.double(radius)
        }
        w.int(icon.filters.count)
        for filter in icon.filters {
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
        w.string(icon.platform.rawValue)
        w.optional(icon.backdrop) { $0.string($1) }
        w.int(badges.count)
        for badge in badges { badge.write(to: &w) }
        w.double(output.scale)
        w.bool(output.greyscaleBadges)
        w.bool(output.knockoutText)
        w.bool(output.dropsUnfittingText)
        w.bool(output.clearsUnderBadges)
        w.tag(output.layers.rawValue)
        w.int(limits.maxSide)
        w.int(limits.maxPixels)
        w.int(limits.maxRasterBytes)
        w.int(limits.maxSVGBytes)
        w.int(limits.maxMetadataChunk)
        w.double(limits.svgTimeLimit)
        w.frame(animation.frame)
        w.double(animation.room)
        w.optional(animation.previousContent) { w, content in content.write(to: &w) }
    }

    /// Reads what `write(to:)` wrote.
    init(from r: inout WireReader) throws(WireReader.Malformed) {
        let path = try r.string()
        let size = try r.optional { (r) throws(WireReader.Malformed) in try r.size() }
        let rasterScale = try r.double()
        let mask: IconMask
        switch try r.tag() {
        case 0: mask = .none
        case 1: mask = .circle
        case 2: mask = .rounded(radius: try r.double())
        default: throw WireReader.Malformed()
        }
        let filterCount = try r.int()
        guard filterCount >= 0, filterCount <= r.remaining else { throw WireReader.Malformed() }
        var filters: [IconFilter] = []
        for _ in 0..<filterCount {
            switch try r.tag() {
            case 0: filters.append(.greyscale)
            case 1: filters.append(.desaturate(try r.amount()))
            case 2: filters.append(.dim(try r.amount()))
            case 3: filters.append(.tint(try r.color(), try r.amount()))
            default: throw WireReader.Malformed()
            }
        }
        guard let platform = IconPlatform(rawValue: try r.string()) else { throw WireReader.Malformed() }
        let backdrop = try r.optional { (r) throws(WireReader.Malformed) in try r.string() }
        let badgeCount = try r.int()
        guard (1...RenderRequest.maxBadges).contains(badgeCount) else { throw WireReader.Malformed() }
        var badges: [Badge] = []
        for _ in 0..<badgeCount { badges.append(try Badge(from: &r)) }
        let (scale, greyscale, knockout, drops) = (try r.double(), try r.bool(), try r.bool(), try r.bool())
        let clears = try r.bool()
        guard let layers = Output.Layers(rawValue: try r.tag()) else { throw WireReader.Malformed() }
        let output = Output(
            scale: scale, greyscaleBadges: greyscale, knockoutText: knockout, dropsUnfittingText: drops,
            clearsUnderBadges: clears, layers: layers)
        var limits = ImageLimits()
        limits.maxSide = try r.int()
        limits.maxPixels = try r.int()
        limits.maxRasterBytes = try r.int()
        limits.maxSVGBytes = try r.int()
        limits.maxMetadataChunk = try r.int()
        limits.svgTimeLimit = try r.double()
        let frame = try r.frame()
        let room = try r.double()
        guard room.isFinite, (1...BadgeAnimation.maxRoom).contains(room) else { throw WireReader.Malformed() }
        let previous = try r.optional { (r) throws(WireReader.Malformed) in try BadgeContent(from: &r) }
        self.init(
            icon: Icon(
                path: path, size: size, rasterScale: rasterScale, mask: mask, filters: filters, platform: platform,
                backdrop: backdrop),
            badge: badges[0], moreBadges: Array(badges.dropFirst()), output: output, limits: limits,
            animation: Animation(frame: frame, room: room, previousContent: previous))
    }
}

extension RenderRequest.Badge {
    /// Writes every field.
    func write(to w: inout WireWriter) {
        content.write(to: &w)
        w.int(labelRules.maxCount)
        w.string(labelRules.maxSuffix)
        w.bool(labelRules.showZero)
        w.optional(labelRules.maxCharacters) { $0.int($1) }
        w.bool(labelRules.verbatim)
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
        w.bool(style.avoidsContent)
        w.string(style.shape.rawValue)
        w.optional(style.ribbonDistance) { $0.length($1) }
        w.string(style.bandEnds.rawValue)
        w.bytesOf(style.labelBackground)
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
        w.string(smallText.rawValue)
        w.double(minimumTextPixels)
        w.double(minimumDotPixels)
        w.string(ring.rawValue)
    }

    /// Reads what `write(to:)` wrote.
    init(from r: inout WireReader) throws(WireReader.Malformed) {
        let content = try BadgeContent(from: &r)
        var labelRules = LabelRules()
        labelRules.maxCount = try r.int()
        labelRules.maxSuffix = try r.string()
        labelRules.showZero = try r.bool()
        labelRules.maxCharacters = try r.optional { (r) throws(WireReader.Malformed) in try r.int() }
        labelRules.verbatim = try r.bool()
        var style = BadgeStyle()
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
        style.avoidsContent = try r.bool()
        guard let shape = BadgeShape(rawValue: try r.string()) else { throw WireReader.Malformed() }
        style.shape = shape
        style.ribbonDistance = try r.optional { (r) throws(WireReader.Malformed) in try r.length() }
        guard let ends = BandEnds(rawValue: try r.string()) else { throw WireReader.Malformed() }
        style.bandEnds = ends
        style.labelBackground = try r.color()
        let font: FontChoice
        switch try r.tag() {
        case 0:
            guard let weight = FontWeight(rawValue: try r.string()) else { throw WireReader.Malformed() }
            font = .bundled(weight)
        case 1: font = .file(path: try r.string(), index: try r.int())
        case 2: font = .family(try r.string())
        default: throw WireReader.Malformed()
        }
        let fontFeatures = try r.strings()
        let fallbackFonts = try r.strings()
        let systemFallback = try r.bool()
        let strictGlyphs = try r.bool()
        guard let smallText = SmallTextRule(rawValue: try r.string()) else { throw WireReader.Malformed() }
        self.init(
            content: content, labelRules: labelRules, style: style, font: font, fontFeatures: fontFeatures,
            fallbackFonts: fallbackFonts, systemFallback: systemFallback, strictGlyphs: strictGlyphs,
            smallText: smallText, minimumTextPixels: try r.double(), minimumDotPixels: try r.double(),
            ring: try r.ringRule())
    }
}

extension IsolatedRenderer.Order {
    /// Writes the order: the request, the painting, the canvas, then what the child
    /// cannot find out.
    func write(to w: inout WireWriter) {
        request.write(to: &w)
        w.tag(painting.format == .svg ? 0 : 1)
        w.frame(painting.frame)
        w.bool(painting.layers.icon)
        w.tag(painting.layers.badges.rawValue)
        w.optional(painting.creationDate) { $0.string($1) }
        w.int(canvasWidth)
        w.int(canvasHeight)
        w.optional(contentShape) { w, shape in
            w.int(shape.height)
            for y in 0..<shape.height {
                let row = shape.spans(row: y)
                w.int(row.count)
                for span in row {
                    w.int(span.lowerBound)
                    w.int(span.upperBound)
                }
            }
        }
        w.int(files.count)
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            w.string(name)
            w.data(bytes)
        }
        w.optional(iconPixels) { w, pixels in
            w.int(pixels.width)
            w.int(pixels.height)
            w.data(pixels.bytes)
        }
        w.int(contrasts.count)
        for contrast in contrasts {
            w.optional(contrast) { w, measured in
                w.double(measured.deltaE)
                w.double(measured.ratio)
                w.double(measured.surroundLuminance)
                w.int(measured.pixels)
            }
        }
    }

    /// Reads what `write(to:)` wrote.
    init(from r: inout WireReader) throws(WireReader.Malformed) {
        request = try RenderRequest(from: &r)
        let format: OutputFormat = try r.tag() == 0 ? .svg : .pdf
        let frame = try r.frame()
        let icon = try r.bool()
        guard let badges = SceneLayers.Badges(rawValue: try r.tag()) else { throw WireReader.Malformed() }
        painting = VectorPainting(
            format: format, frame: frame, layers: SceneLayers(icon: icon, badges: badges),
            creationDate: try r.optional { (r) throws(WireReader.Malformed) in try r.string() })
        canvasWidth = try r.int()
        canvasHeight = try r.int()
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
        let count = try r.int()
        guard count >= 0, count <= 1 + RenderRequest.maxBadges else { throw WireReader.Malformed() }
        var files: [String: [UInt8]] = [:]
        for _ in 0..<count { files[try r.string()] = try r.data() }
        self.files = files
        iconPixels = try r.optional { (r) throws(WireReader.Malformed) in
            (width: try r.int(), height: try r.int(), bytes: try r.data())
        }
        let measured = try r.int()
        guard measured >= 0, measured <= 1 + RenderRequest.maxBadges else { throw WireReader.Malformed() }
        var contrasts: [BadgeContrast?] = []
        for _ in 0..<measured {
            contrasts.append(
                try r.optional { (r) throws(WireReader.Malformed) in
                    BadgeContrast(
                        deltaE: try r.double(), ratio: try r.double(), surroundLuminance: try r.double(),
                        pixels: try r.int())
                })
        }
        self.contrasts = contrasts
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
        case .render(let problem, let badge):
            w.tag(10)
            w.optional(badge) { $0.int($1) }
            w.problem(problem)
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
        case 10:
            let badge = try r.optional { (r) throws(WireReader.Malformed) in try r.int() }
            self = .render(try r.problem(), badge: badge)
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
    fileprivate mutating func frame(_ state: BadgeFrameState) {
        double(state.scale)
        double(state.opacity)
        bool(state.showsOldValue)
    }
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
    /// A `RingRule` by its name.
    fileprivate mutating func ringRule() throws(Malformed) -> RingRule {
        guard let rule = RingRule(rawValue: try string()) else { throw Malformed() }
        return rule
    }

    fileprivate mutating func frame() throws(Malformed) -> BadgeFrameState {
        let scale = try double()
        let opacity = try double()
        guard scale.isFinite, scale >= 0, opacity.isFinite, (0...1).contains(opacity) else { throw Malformed() }
        return BadgeFrameState(scale: scale, opacity: opacity, showsOldValue: try bool())
    }
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

extension WireWriter {
    /// A render problem as a case tag and its values.
    fileprivate mutating func problem(_ problem: RenderProblem) {
        switch problem {
        case .shapeHoldsText(let shape):
            tag(0)
            string(shape.rawValue)
        case .expandWithSeveralBadges: tag(1)
        case .animationInPDF: tag(2)
        case .badgeOutsideShape(let fit):
            tag(3)
            for value in [fit.badgeWidth, fit.badgeHeight, fit.iconWidth, fit.iconHeight] { int(value) }
            string(fit.platform.rawValue)
            optional(fit.largest) { $0.size($1) }
        case .bandTextDoesNotFit(let fit):
            tag(4)
            string(fit.text)
            string(fit.shape.rawValue)
            for value in [fit.pixels, fit.floor, fit.needed, fit.textHeight, fit.room, fit.across] { double(value) }
            bool(fit.floorIsMinimum)
        case .bandTooThick(let shape, let thickness, let across):
            tag(5)
            string(shape.rawValue)
            double(thickness)
            double(across)
        case .shieldDoesNotFit(let fit):
            tag(6)
            string(fit.text)
            string(fit.platform.rawValue)
            for value in [fit.shapeWidth, fit.pixels, fit.floor, fit.width] { double(value) }
            bool(fit.floorIsMinimum)
        case .embeddedImagesOverLimit(let path, let reason):
            tag(7)
            strings([path, reason])
        case .svgRenderSide(let path, let width, let height):
            tag(8)
            string(path)
            int(width)
            int(height)
        case .overTimeLimit(let path, let reason):
            tag(9)
            strings([path, reason])
        case .outOfMemory(let path, let doing, let budget):
            tag(10)
            strings([path, doing, budget])
        }
    }
}

extension WireReader {
    fileprivate mutating func problem() throws(Malformed) -> RenderProblem {
        func shape() throws(Malformed) -> BadgeShape {
            guard let shape = BadgeShape(rawValue: try string()) else { throw Malformed() }
            return shape
        }
        func platform() throws(Malformed) -> IconPlatform {
            guard let platform = IconPlatform(rawValue: try string()) else { throw Malformed() }
            return platform
        }
        func texts(_ count: Int) throws(Malformed) -> [String] {
            let values = try strings()
            guard values.count == count else { throw Malformed() }
            return values
        }
        switch try tag() {
        case 0: return .shapeHoldsText(try shape())
        case 1: return .expandWithSeveralBadges
        case 2: return .animationInPDF
        case 3:
            let (width, height, iconWidth, iconHeight) = (try int(), try int(), try int(), try int())
            return .badgeOutsideShape(
                RenderProblem.OutsideShape(
                    badgeWidth: width, badgeHeight: height, platform: try platform(), iconWidth: iconWidth,
                    iconHeight: iconHeight, largest: try optional { (r) throws(Malformed) in try r.size() }))
        case 4:
            let (text, shape) = (try string(), try shape())
            let (pixels, floor, needed, height, room, across) = (
                try double(), try double(), try double(), try double(), try double(), try double()
            )
            return .bandTextDoesNotFit(
                RenderProblem.BandText(
                    text: text, shape: shape, pixels: pixels, floor: floor, floorIsMinimum: try bool(),
                    needed: needed, textHeight: height, room: room, across: across))
        case 5: return .bandTooThick(shape: try shape(), thickness: try double(), across: try double())
        case 6:
            let (text, platform) = (try string(), try platform())
            let (shapeWidth, pixels, floor, width) = (try double(), try double(), try double(), try double())
            return .shieldDoesNotFit(
                RenderProblem.Shield(
                    text: text, platform: platform, shapeWidth: shapeWidth, pixels: pixels, floor: floor,
                    floorIsMinimum: try bool(), width: width))
        case 7:
            let values = try texts(2)
            return .embeddedImagesOverLimit(path: values[0], reason: values[1])
        case 8: return .svgRenderSide(path: try string(), width: try int(), height: try int())
        case 9:
            let values = try texts(2)
            return .overTimeLimit(path: values[0], reason: values[1])
        case 10:
            let values = try texts(3)
            return .outOfMemory(path: values[0], doing: values[1], budget: values[2])
        default: throw Malformed()
        }
    }
}
