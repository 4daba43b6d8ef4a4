import Testing

@testable import BadgeCore

/// `--icon-filter`: each formula on hand-computed premultiplied pixels (the
/// expected values are the exact real results, rounded half up), the parser and
/// its messages.
@Suite struct IconFilterTests {
    /// A premultiplied ARGB32 word.
    static func argb(_ a: UInt32, _ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 { a << 24 | r << 16 | g << 8 | b }

    static let opaque = argb(255, 200, 100, 50)  // Y = 117.65
    static let half = argb(128, 100, 50, 25)  // the same colour at alpha 128, premultiplied: Y = 58.825
    static let blue = Color(red: 0, green: 122, blue: 255)

    static func amount(_ value: Double) -> IconFilter.Amount { IconFilter.Amount(value) }

    struct Case: CustomTestStringConvertible, Sendable {
        let filter: IconFilter
        let pixel: UInt32
        let expected: UInt32
        var testDescription: String { "\(filter) on \(String(pixel, radix: 16))" }
    }

    static let cases: [Case] = [
        // greyscale: Y = 0.2126 R + 0.7152 G + 0.0722 B.
        Case(filter: .greyscale, pixel: opaque, expected: argb(255, 118, 118, 118)),
        Case(filter: .greyscale, pixel: half, expected: argb(128, 59, 59, 59)),
        // 7152·14 + 722·76 = 155,000: Y = 15.5 exactly, half up to 16 (the
        // floating-point sum 0.7152·14 + 0.0722·76 rounds to 15).
        Case(filter: .greyscale, pixel: argb(255, 0, 14, 76), expected: argb(255, 16, 16, 16)),
        // desaturate:0.5: 0.5·C + 0.5·Y.
        Case(filter: .desaturate(amount(0.5)), pixel: opaque, expected: argb(255, 159, 109, 84)),
        Case(filter: .desaturate(amount(0.5)), pixel: half, expected: argb(128, 79, 54, 42)),
        Case(filter: .desaturate(.full), pixel: opaque, expected: argb(255, 118, 118, 118)),
        // Exact halves: S = 2126·27 + 722·59 = 100,000, Y = 10; (27 + 10) / 2 = 18.5
        // and (59 + 10) / 2 = 34.5 round up.
        Case(filter: .desaturate(amount(0.5)), pixel: argb(255, 27, 0, 59), expected: argb(255, 19, 5, 35)),
        Case(filter: .tint(.white, amount(0.5)), pixel: argb(255, 27, 0, 59), expected: argb(255, 19, 5, 35)),
        Case(filter: .tint(.white, .full), pixel: argb(255, 0, 14, 76), expected: argb(255, 16, 16, 16)),
        // dim:0.5 of 255 is 127.5.
        Case(filter: .dim(amount(0.5)), pixel: argb(255, 255, 1, 3), expected: argb(255, 128, 1, 2)),
        // dim:0.3: 0.7·C; 0.7 × 25 = 17.5 rounds half up to 18.
        Case(filter: .dim(amount(0.3)), pixel: opaque, expected: argb(255, 140, 70, 35)),
        Case(filter: .dim(amount(0.3)), pixel: half, expected: argb(128, 70, 35, 18)),
        Case(filter: .dim(.full), pixel: half, expected: argb(128, 0, 0, 0)),
        // tint:#007AFF: Y·K/255 = (0, 56.29, 117.65).
        Case(filter: .tint(blue, .full), pixel: opaque, expected: argb(255, 0, 56, 118)),
        Case(filter: .tint(blue, .full), pixel: half, expected: argb(128, 0, 28, 59)),
        Case(filter: .tint(blue, amount(0.5)), pixel: opaque, expected: argb(255, 100, 78, 84)),
        Case(filter: .tint(blue, amount(0.5)), pixel: half, expected: argb(128, 50, 39, 42)),
        // The colour's alpha multiplies the amount: 128/255 of the way.
        Case(
            filter: .tint(Color(red: 0, green: 122, blue: 255, alpha: 128), .full), pixel: opaque,
            expected: argb(255, 100, 78, 84)),
        // White tinted at full amount is the colour itself; alpha is kept.
        Case(filter: .tint(blue, .full), pixel: argb(255, 255, 255, 255), expected: argb(255, 0, 122, 255)),
        Case(filter: .tint(blue, .full), pixel: argb(64, 64, 64, 64), expected: argb(64, 0, 31, 64)),
    ]

    @Test(arguments: cases)
    func formula(_ testCase: Case) {
        #expect(testCase.filter.apply(toPremultiplied: testCase.pixel) == testCase.expected)
    }

    static let everyKind: [IconFilter] = [
        .greyscale, .desaturate(amount(0.37)), .dim(amount(0.61)), .tint(blue, amount(0.8)),
        .tint(Color(red: 255, green: 59, blue: 48, alpha: 77), .full),
    ]

    @Test(arguments: everyKind)
    func transparentStaysTransparent(_ filter: IconFilter) {
        #expect(filter.apply(toPremultiplied: 0) == 0)
    }

    @Test func amountZeroIsTheIdentity() {
        let filters: [IconFilter] = [
            .desaturate(Self.amount(0)), .dim(Self.amount(0)), .tint(Self.blue, Self.amount(0)),
            .tint(Color.transparent, .full),
        ]
        for filter in filters {
            for a in stride(from: 0, through: 255, by: 15) {
                for c in stride(from: 0, through: a, by: 7) {
                    let pixel = Self.argb(UInt32(a), UInt32(c), UInt32(a - c), UInt32(c / 2))
                    #expect(filter.apply(toPremultiplied: pixel) == pixel, "\(filter)")
                }
            }
        }
    }

    /// Against an independent computation in Int64 (the exact rational formula, half
    /// up), over a grid of premultiplied pixels: alpha kept, each channel at most alpha.
    @Test(arguments: everyKind)
    func exactAndPremultipliedOnAGrid(_ filter: IconFilter) {
        func expected(_ a: Int, _ x: [Int]) -> [Int] {
            let y = Rec709.scaledLuma(red: x[0], green: x[1], blue: x[2])  // × 10^4
            func half(_ n: Int, _ d: Int) -> Int { (2 * n + d) / (2 * d) }
            switch filter {
            case .greyscale: return x.map { _ in half(y, 10_000) }
            case .desaturate(let amount):
                let k = amount.tenThousandths
                return x.map { half((10_000 - k) * 10_000 * $0 + k * y, 100_000_000) }
            case .dim(let amount): return x.map { half((10_000 - amount.tenThousandths) * $0, 10_000) }
            case .tint(let color, let amount):
                let t = amount.tenThousandths * Int(color.alpha)
                let k = [Int(color.red), Int(color.green), Int(color.blue)]
                return (0..<3).map { half((2_550_000 - t) * 2_550_000 * x[$0] + t * k[$0] * y, 2_550_000 * 2_550_000) }
            }
        }
        for a in [1, 77, 128, 254, 255] {
            for r in stride(from: 0, through: a, by: max(1, a / 9)) {
                for g in stride(from: 0, through: a, by: max(1, a / 8)) {
                    for b in stride(from: 0, through: a, by: max(1, a / 7)) {
                        let pixel = Self.argb(UInt32(a), UInt32(r), UInt32(g), UInt32(b))
                        let out = filter.apply(toPremultiplied: pixel)
                        let channels = [Int(out >> 16 & 0xFF), Int(out >> 8 & 0xFF), Int(out & 0xFF)]
                        #expect(Int(out >> 24) == a)
                        #expect(channels == expected(a, [r, g, b]), "\(filter) on \(a),\(r),\(g),\(b)")
                        #expect(channels.allSatisfy { $0 <= a })
                    }
                }
            }
        }
    }

    @Test func filtersApplyInOrderOverRowsWithPadding() {
        // Two rows of two pixels, 3 words a row (the third is padding, left alone).
        var words: [UInt32] = [Self.opaque, Self.half, 0xDEAD_BEEF, 0, Self.opaque, 0xDEAD_BEEF]
        let filters: [IconFilter] = [.dim(Self.amount(0.3)), .greyscale]
        words.withUnsafeMutableBytes { raw in
            IconFilter.apply(filters, toPremultipliedARGB32: raw.baseAddress!, width: 2, height: 2, bytesPerRow: 12)
        }
        let dimmedThenGrey = IconFilter.greyscale.apply(
            toPremultiplied: IconFilter.dim(Self.amount(0.3)).apply(toPremultiplied: Self.opaque))
        #expect(dimmedThenGrey == Self.argb(255, 82, 82, 82))  // Y(140, 70, 35) = 82.355
        #expect(words[0] == dimmedThenGrey && words[4] == dimmedThenGrey)
        #expect(words[2] == 0xDEAD_BEEF && words[5] == 0xDEAD_BEEF && words[3] == 0)
        // The other order rounds differently: 0.7 × 118 = 82.6 → 83.
        let greyThenDimmed = IconFilter.dim(Self.amount(0.3)).apply(
            toPremultiplied: IconFilter.greyscale.apply(toPremultiplied: Self.opaque))
        #expect(greyThenDimmed == Self.argb(255, 83, 83, 83))
    }

    @Test func colourGreyscaleIsTheSameLuma() {
        #expect(
            Color(red: 200, green: 100, blue: 50, alpha: 9).greyscale
                == Color(red: 118, green: 118, blue: 118, alpha: 9))
        #expect(Color(red: 0, green: 14, blue: 76).greyscale == Color(red: 16, green: 16, blue: 16))
        #expect(Color.systemRed.greyscale == Color(red: 100, green: 100, blue: 100))
    }

    // MARK: - Parsing

    @Test(arguments: [
        ("greyscale", IconFilter.greyscale),
        ("grayscale", .greyscale),
        (" GreyScale ", .greyscale),
        ("desaturate:0.5", .desaturate(amount(0.5))),
        ("desaturate:50%", .desaturate(amount(0.5))),
        ("dim:0.3", .dim(amount(0.3))),
        ("DIM:30%", .dim(amount(0.3))),
        ("dim:0", .dim(amount(0))),
        ("dim:1", .dim(.full)),
        ("dim:0.33333", .dim(IconFilter.Amount(tenThousandths: 3333))),
        ("dim:0.00005", .dim(IconFilter.Amount(tenThousandths: 1))),
        ("dim:0.00004999", .dim(IconFilter.Amount(tenThousandths: 0))),
        // 0.00015 as a double is 1.4999999999999998e-4: the written digits round up.
        ("dim:0.00015", .dim(IconFilter.Amount(tenThousandths: 2))),
        ("dim:0.99995", .dim(.full)),
        ("dim:.5", .dim(amount(0.5))),
        ("dim:+0.25", .dim(amount(0.25))),
        ("dim:-0", .dim(amount(0))),
        ("dim:000.75000", .dim(amount(0.75))),
        ("dim:12.345%", .dim(IconFilter.Amount(tenThousandths: 1235))),
        ("dim:100%", .dim(.full)),
        ("dim:5e-1", .dim(amount(0.5))),
        ("tint:#007AFF", .tint(blue, .full)),
        ("tint:#007AFF:0.5", .tint(blue, amount(0.5))),
        ("tint:rgb(0,122,255):0.5", .tint(blue, amount(0.5))),
        ("tint:rgb(0 122 255 / 50%)", .tint(Color(red: 0, green: 122, blue: 255, alpha: 128), .full)),
        ("tint:red:25%", .tint(Color(red: 255, green: 0, blue: 0), amount(0.25))),
    ])
    func parses(text: String, expected: IconFilter) throws {
        #expect(try IconFilter.parse(text, option: "--icon-filter") == expected)
    }

    @Test func noneParsesAsNil() throws {
        #expect(try IconFilter.parse("none", option: "--icon-filter") == nil)
        #expect(try IconFilter.parse("NONE", option: "--icon-filter") == nil)
    }

    @Test(arguments: everyKind + [.dim(IconFilter.Amount(tenThousandths: 125)), .desaturate(amount(0))])
    func canonicalSpellingReadsBack(_ filter: IconFilter) throws {
        #expect(try IconFilter.parse(filter.description, option: "--icon-filter") == filter)
    }

    @Test func canonicalSpellings() {
        #expect(IconFilter.greyscale.description == "greyscale")
        #expect(IconFilter.dim(Self.amount(0.3)).description == "dim:0.3")
        #expect(IconFilter.desaturate(IconFilter.Amount(tenThousandths: 125)).description == "desaturate:0.0125")
        #expect(IconFilter.tint(Self.blue, .full).description == "tint:#007AFFFF:1")
        #expect(IconFilter.dim(Self.amount(0)).description == "dim:0")
    }

    @Test(arguments: [
        ("tint", "\"tint\" needs a colour"),
        ("tint:", "\"tint:\" needs a colour"),
        ("tint::0.5", "needs a colour before the amount"),
        ("tint:red:1.5", "\"tint:red:1.5\" has the amount 1.5, out of range (use 0 to 1, or 0% to 100%)"),
        ("tint:red:", "has an empty amount"),
        ("tint:red:abc", "has the amount \"abc\", which is not a number"),
        ("tint:blu", "has the colour \"blu\", which is not a colour: unknown colour name; did you mean blue?"),
        ("dim:-0.1", "\"dim:-0.1\" has the amount -0.1, out of range"),
        ("dim:101%", "has the amount 101%, out of range"),
        ("dim", "\"dim\" needs an amount from 0 to 1"),
        ("dim:nan", "is not a number"),
        ("desaturate", "needs an amount"),
        ("greyscale:0.5", "greyscale takes none (use desaturate:AMOUNT"),
        (
            "greyscal",
            "\"greyscal\" is not an icon filter (use greyscale, desaturate:AMOUNT, dim:AMOUNT, tint:COLOR[:AMOUNT] or none); did you mean greyscale?"
        ),
        ("grayscal", "did you mean grayscale?"),
        ("dimm:0.3", "did you mean dim:0.3?"),
        ("blur:2", "\"blur:2\" is not an icon filter"),
        ("", "\"\" is empty"),
        ("none:1", "none takes none"),
    ])
    func refuses(text: String, message: String) {
        #expect {
            _ = try IconFilter.parse(text, option: "--icon-filter")
        } throws: { error in
            guard let error = error as? BadgeError, case .invalidValue(let option, let value, _) = error else {
                return false
            }
            return option == "--icon-filter" && value == text && error.exitCode == .usage
                && error.message.contains(message)
        }
    }
}
