import Foundation
import TestSupport
import Testing

@testable import BadgeCore

/// The bitmap-table check (`FontBitmapTables`) and the COLR layer check
/// (`ColorGlyphLayers`) on the fixtures of Fixtures/fonts/bitmap (made by
/// Fixtures/fonts/make-hostile-fonts.py), real fonts, and tables built here byte by byte.
@Suite struct FontBitmapTablesTests {
    static func font(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("fonts/bitmap/" + name))))
    }

    static func bitmapProblem(_ bytes: [UInt8]) -> FontBitmapTables.Problem? {
        bytes.withUnsafeBytes { (buffer) -> FontBitmapTables.Problem? in
            do throws(FontBitmapTables.Problem) {
                try FontBitmapTables.check(buffer, faceIndex: 0)
                return nil
            } catch {
                return error
            }
        }
    }

    static func layerCheck(_ bytes: [UInt8]) -> Result<ColorGlyphLayers.LayerGlyphs?, ColorGlyphLayers.Problem> {
        bytes.withUnsafeBytes { buffer in
            Result { () throws(ColorGlyphLayers.Problem) in try ColorGlyphLayers.check(buffer, faceIndex: 0) }
        }
    }

    /// The table a `.malformed` problem names, or nil for another problem.
    static func malformedTable(_ problem: FontBitmapTables.Problem?) -> String? {
        if case .malformed(let table, _) = problem { return table }
        return nil
    }

    /// The reason of a `.malformed` problem, or "" for another problem.
    static func malformedReason(_ problem: FontBitmapTables.Problem?) -> String {
        if case .malformed(_, let reason) = problem { return reason }
        return ""
    }

    // MARK: Hostile fixtures

    @Test func sbixPNGClaiming16000SquareIsRefused() throws {
        #expect(
            Self.bitmapProblem(try Self.font("sbix-huge-png.ttf"))
                == .imageTooLarge(table: "sbix", width: 16000, height: 16000))
    }

    @Test(arguments: ["cbdt-huge-png.ttf", "cbdt-huge-png-19.ttf"])
    func cbdtPNGClaiming16000SquareIsRefused(name: String) throws {
        #expect(
            Self.bitmapProblem(try Self.font(name)) == .imageTooLarge(table: "CBDT", width: 16000, height: 16000))
    }

    @Test func imagesFarLargerThanTheirStrikeAreRefused() throws {
        #expect(
            Self.bitmapProblem(try Self.font("sbix-magnified.ttf"))
                == .imageTooLargeForStrike(table: "sbix", width: 255, height: 255, ppem: 1))
        #expect(
            Self.bitmapProblem(try Self.font("cbdt-magnified.ttf"))
                == .imageTooLargeForStrike(table: "CBDT", width: 255, height: 255, ppem: 1))
    }

    @Test(arguments: [
        ("sbix-strike-past-end.ttf", "sbix"), ("sbix-glyph-past-end.ttf", "sbix"), ("sbix-many-strikes.ttf", "sbix"),
        ("cblc-subtable-past-end.ttf", "CBLC"), ("cbdt-glyph-past-end.ttf", "CBLC"),
    ])
    func offsetsPastTheEndAreMalformed(name: String, table: String) throws {
        let problem = Self.bitmapProblem(try Self.font(name))
        #expect(Self.malformedTable(problem) == table, "\(name): \(String(describing: problem))")
    }

    @Test func tooManyColourLayersAreRefused() throws {
        let result = Self.layerCheck(try Self.font("colr-many-layers.ttf"))
        #expect(throws: ColorGlyphLayers.Problem.tooManyLayers(glyph: 13, layers: 2000)) { try result.get() }
    }

    // MARK: Fonts that must be accepted

    @Test(arguments: ["sbix-good.ttf", "cbdt-good.ttf", "colr-good.ttf", "colr-huge-layer.ttf"])
    func wellFormedFixturesPassTheBitmapCheck(name: String) throws {
        #expect(Self.bitmapProblem(try Self.font(name)) == nil)
    }

    @Test func goodColourLayersAreListed() throws {
        let layers = try #require(try Self.layerCheck(try Self.font("colr-good.ttf")).get())
        var glyphs: [Int] = []
        layers.forEach { glyphs.append($0) }
        #expect(glyphs == [12])  // "H", after .notdef, plus and the ten digits
        #expect(try Self.layerCheck(try Self.font("sbix-good.ttf")).get() == nil)
    }

    @Test(arguments: ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf"])
    func bundledFontsPass(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.root + "/Sources/CBundledFont/" + name)))
        #expect(Self.bitmapProblem(bytes) == nil)
        #expect(try Self.layerCheck(bytes).get() == nil)
    }

    @Test func notoColorEmojiPasses() throws {
        let path = SystemFonts.notoColorEmoji
        let data = try #require(
            FileManager.default.contents(atPath: path),
            "this test needs the system font \(path) (Debian: fonts-noto-color-emoji, installed by make deps)")
        #expect(Self.bitmapProblem([UInt8](data)) == nil)
    }

    // MARK: Tables built here

    /// An sfnt with `tables` (tag, bytes) and a maxp of `glyphs` glyphs.
    static func sfnt(_ tables: [(String, [UInt8])], glyphs: Int = 4) -> [UInt8] {
        let all = [("maxp", [0, 0, 0x50, 0] + be16(glyphs))] + tables
        var out: [UInt8] = [0, 1, 0, 0] + be16(all.count) + [0, 0, 0, 0, 0, 0]
        var offset = 12 + 16 * all.count
        for (tag, bytes) in all {
            out += Array(tag.utf8) + [0, 0, 0, 0] + be32(offset) + be32(bytes.count)
            offset += (bytes.count + 3) & ~3
        }
        for (_, bytes) in all { out += bytes + [UInt8](repeating: 0, count: ((bytes.count + 3) & ~3) - bytes.count) }
        return out
    }

    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be32(_ value: Int) -> [UInt8] { be16(value >> 16 & 0xFFFF) + be16(value & 0xFFFF) }

    /// A BitmapSize record: index subtable array at `array` with `count` subtables.
    static func bitmapSize(array: Int, count: Int, ppem: Int, bitDepth: Int = 32) -> [UInt8] {
        be32(array) + be32(8 * count) + be32(count) + be32(0) + [UInt8](repeating: 0, count: 24) + be16(0)
            + be16(3) + [UInt8(ppem), UInt8(ppem), UInt8(bitDepth), 1]
    }

    @Test func sbixShorterThanItsHeaderIsMalformed() {
        let problem = Self.bitmapProblem(Self.sfnt([("sbix", [0, 1, 0, 1])]))
        #expect(problem == .malformed(table: "sbix", reason: "is 4 bytes, shorter than its 8-byte header"))
    }

    @Test func sbixRecordShorterThanItsHeaderIsMalformed() {
        // One strike of 4 glyphs at byte 12, its records from byte 24 of the strike:
        // glyph 0 has a 3-byte record.
        let offsets = [24, 27, 27, 27, 27].flatMap { Self.be32($0) }
        let sbix =
            Self.be16(1) + Self.be16(1) + Self.be32(1) + Self.be32(12) + Self.be16(20) + Self.be16(72) + offsets
            + [0, 0, 0]
        let problem = Self.bitmapProblem(Self.sfnt([("sbix", sbix)]))
        #expect(
            problem
                == .malformed(table: "sbix", reason: "has a 3-byte record for glyph 0, shorter than its 8-byte header"))
    }

    @Test func sbixPNGWithoutIHDRIsMalformed() {
        let record = [0, 0, 0, 0] + Array("png ".utf8) + [UInt8](repeating: 7, count: 30)
        let offsets = [24, 24 + record.count, 24 + record.count, 24 + record.count, 24 + record.count].flatMap {
            Self.be32($0)
        }
        let sbix =
            Self.be16(1) + Self.be16(1) + Self.be32(1) + Self.be32(12) + Self.be16(20) + Self.be16(72) + offsets
            + record
        let problem = Self.bitmapProblem(Self.sfnt([("sbix", sbix)]))
        #expect(problem == .malformed(table: "sbix", reason: "has a PNG for glyph 0 in strike 0 with no IHDR"))
    }

    @Test func ebdtBitmapFarLargerThanItsStrikeIsRefused() {
        // EBLC: one 2 ppem strike, one format 1 subtable for glyph 1; EBDT: a format 1
        // glyph (small metrics) of 255 × 200 pixels.
        let subtable = Self.be16(1) + Self.be16(1) + Self.be32(4) + Self.be32(0) + Self.be32(5 + 10)
        let eblc =
            Self.be16(2) + Self.be16(0) + Self.be32(1) + Self.bitmapSize(array: 56, count: 1, ppem: 2, bitDepth: 1)
            + Self.be16(1) + Self.be16(1) + Self.be32(8) + subtable
        let ebdt = Self.be16(2) + Self.be16(0) + [200, 255, 0, 0, 255] + [UInt8](repeating: 0, count: 10)
        #expect(
            Self.bitmapProblem(Self.sfnt([("EBLC", eblc), ("EBDT", ebdt)]))
                == .imageTooLargeForStrike(table: "EBDT", width: 255, height: 200, ppem: 2))
    }

    @Test func overlappingIndexSubtablesRunOutOfBudget() {
        // 1,000 subtables of one strike, all the same format 2 subtable for glyphs
        // 0-65535 with 1-byte images: 65 million glyph visits from a 8 KB table. The
        // walk stops once it has visited as many glyphs as the tables have bytes.
        let count = 1000
        let arrayStart = 8 + 48
        let shared = 8 * count  // the subtable, after the array (offsets count from the array's start)
        var entries: [UInt8] = []
        for _ in 0..<count { entries += Self.be16(0) + Self.be16(0xFFFF) + Self.be32(shared) }
        let subtable = Self.be16(2) + Self.be16(5) + Self.be32(0) + Self.be32(1) + [1, 1, 0, 1, 1, 0, 0, 1]
        let cblc =
            Self.be16(3) + Self.be16(0) + Self.be32(1) + Self.bitmapSize(array: arrayStart, count: count, ppem: 20)
            + entries + subtable
        let cbdt = Self.be16(3) + Self.be16(0) + [UInt8](repeating: 0, count: 65536)
        let problem = Self.bitmapProblem(Self.sfnt([("CBLC", cblc), ("CBDT", cbdt)]))
        guard case .malformed("CBLC", let reason) = problem else {
            Issue.record("expected a malformed CBLC, got \(String(describing: problem))")
            return
        }
        #expect(reason.contains("overlap"))
    }

    @Test func reversedGlyphRangeAndUnknownFormatsAreMalformed() {
        func cblc(first: Int, last: Int, indexFormat: Int, imageFormat: Int) -> [UInt8] {
            let subtable = Self.be16(indexFormat) + Self.be16(imageFormat) + Self.be32(4) + Self.be32(0) + Self.be32(0)
            return Self.be16(3) + Self.be16(0) + Self.be32(1) + Self.bitmapSize(array: 56, count: 1, ppem: 20)
                + Self.be16(first) + Self.be16(last) + Self.be32(8) + subtable
        }
        let cbdt = Self.be16(3) + Self.be16(0)
        for (table, reason) in [
            (cblc(first: 3, last: 1, indexFormat: 1, imageFormat: 17), "reversed range"),
            (cblc(first: 1, last: 1, indexFormat: 9, imageFormat: 17), "index subtable of format 9"),
            (cblc(first: 1, last: 1, indexFormat: 1, imageFormat: 4), "image format 4"),
        ] {
            let problem = Self.bitmapProblem(Self.sfnt([("CBLC", table), ("CBDT", cbdt)]))
            #expect(Self.malformedTable(problem) == "CBLC")
            #expect(Self.malformedReason(problem).contains(reason), "\(String(describing: problem))")
        }
    }

    /// A compound glyph (format 8) listing glyph 2 four times, and glyph 2 listing
    /// glyph 3 four times, and so on: FreeType draws every path through the tree, so a
    /// few levels of 65,535 components never finish. Compound glyphs are refused.
    @Test(arguments: [8, 9])
    func compoundGlyphsAreRefused(format: Int) {
        let subtable = Self.be16(1) + Self.be16(format) + Self.be32(4) + Self.be32(0) + Self.be32(16)
        let eblc =
            Self.be16(2) + Self.be16(0) + Self.be32(1) + Self.bitmapSize(array: 56, count: 1, ppem: 12, bitDepth: 1)
            + Self.be16(1) + Self.be16(1) + Self.be32(8) + subtable
        let metrics: [UInt8] = format == 8 ? [1, 1, 0, 1, 1, 0] : [1, 1, 0, 1, 1, 0, 0, 1]
        let ebdt = Self.be16(2) + Self.be16(0) + metrics + Self.be16(4) + [0, 2, 0, 0, 0, 2, 0, 0]
        #expect(
            Self.bitmapProblem(Self.sfnt([("EBLC", eblc), ("EBDT", ebdt)]))
                == .compoundGlyphs(table: "EBDT", format: format))
    }

    @Test func colrRecordsPastTheEndAreMalformed() {
        // 2 base glyph records claimed at byte 14, none there.
        let colr = Self.be16(0) + Self.be16(2) + Self.be32(14) + Self.be32(14) + Self.be16(0)
        let result = Self.layerCheck(Self.sfnt([("COLR", colr)]))
        guard case .failure(.malformed) = result else {
            Issue.record("expected a malformed COLR, got \(result)")
            return
        }
        // A base glyph whose layers run past the layer records.
        let layers =
            Self.be16(0) + Self.be16(1) + Self.be32(14) + Self.be32(20) + Self.be16(1) + Self.be16(1)
            + Self.be16(0) + Self.be16(2) + Self.be16(1) + Self.be16(0)
        guard case .failure(.malformed) = Self.layerCheck(Self.sfnt([("COLR", layers)])) else {
            Issue.record("expected a malformed COLR for layers past the records")
            return
        }
    }
}
