import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Issue 15, item 5: a font from a pull request whose bitmap or colour layer tables
/// drive allocations (Fixtures/fonts/bitmap, made by Fixtures/fonts/make-hostile-fonts.py)
/// is refused with 65 and one line naming the file, the table and the size, through
/// `--font-file`, a manifest's `"font-file"` and `--fallback-font`; real colour fonts
/// still draw.
@Suite struct HostileFontTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")

    static func font(_ name: String) -> String { Paths.fixture("fonts/bitmap/" + name) }

    struct Case: CustomTestStringConvertible, Sendable {
        let font: String
        let reason: String
        var testDescription: String { font }
    }

    static let cases: [Case] = [
        Case(
            font: "sbix-huge-png.ttf",
            reason: "its sbix table has a 16000 × 16000 px glyph image, over the 2048 × 2048 px limit for a font bitmap"
        ),
        Case(
            font: "cbdt-huge-png.ttf",
            reason: "its CBDT table has a 16000 × 16000 px glyph image, over the 2048 × 2048 px limit for a font bitmap"
        ),
        Case(
            font: "sbix-magnified.ttf",
            reason:
                "its sbix table has a 255 × 255 px glyph image in a 1 ppem strike, over 4 em (4 px), the limit for a font bitmap"
        ),
        Case(
            font: "cbdt-magnified.ttf",
            reason:
                "its CBDT table has a 255 × 255 px glyph image in a 1 ppem strike, over 4 em (4 px), the limit for a font bitmap"
        ),
        Case(
            font: "sbix-strike-past-end.ttf",
            reason: "is a malformed font: its sbix table has strike 0 at byte 100000, past its end (246 bytes)"),
        Case(
            font: "cbdt-glyph-past-end.ttf",
            reason:
                "is a malformed font: its CBLC table points at glyph data past the end of its CBDT table (175 bytes)"),
        Case(
            font: "colr-many-layers.ttf",
            reason: "its COLR table draws glyph 13 in 2000 colour layers, over the 1024-layer limit"),
        Case(
            font: "colr-huge-layer.ttf",
            reason:
                "its COLR table draws glyph 12 as a colour layer reaching 1886 em from its origin, over the 4 em limit"),
    ]

    @Test(arguments: cases)
    func fontFileIsRefusedWith65NamingTableAndSize(_ test: Case) throws {
        let folder = Paths.scratch("hostile-font")
        let path = Self.font(test.font)
        let run = try runMeasured([Self.icon, "--value", "😀", "--font-file", path, "-o", folder + "/out.png"])
        #expect(run.status == 65)
        #expect(run.stderr == "iconbadge: error: \(Quoted(path)): \(test.reason)\n")
        #expect(run.peakKiB < 256 * 1024, "\(run.peakKiB) KiB")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
    }

    /// Compound bitmaps: FreeType drew "1" of this 15 KB font 64¹⁰ times and never
    /// finished (a watchdog failure before the fix).
    @Test func compoundBitmapGlyphsAreRefusedWith65() throws {
        let folder = Paths.scratch("hostile-font-compound")
        let path = Self.font("ebdt-compound.ttf")
        let run = try runIconbadge([Self.icon, "--value", "1", "--font-file", path, "-o", folder + "/out.png"])
        #expect(run.status == 65)
        #expect(
            run.stderr
                == "iconbadge: error: \(Quoted(path)): its EBDT table has compound glyph bitmaps (image format 8), which iconbadge does not load; use a font without them\n"
        )
    }

    @Test func manifestFontFileIsRefusedWith65() throws {
        let folder = Paths.scratch("hostile-font-batch")
        let path = Self.font("sbix-huge-png.ttf")
        let manifest = """
            {"jobs": [{"icon": "\(Self.icon)", "value": "😀", "output": "out.png", "font-file": "\(path)"}]}
            """
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(["batch", folder + "/m.json"])
        #expect(run.status == 65)
        #expect(
            run.stderrLines.first
                == "iconbadge: error: jobs[0] (out.png): \(Quoted(path)): \(Self.cases[0].reason)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
    }

    @Test func fallbackFontIsRefusedWith65() throws {
        let folder = Paths.scratch("hostile-font-fallback")
        let path = Self.font("cbdt-huge-png.ttf")
        let run = try runIconbadge([Self.icon, "--value", "3", "--fallback-font", path, "-o", folder + "/out.png"])
        #expect(run.status == 65)
        #expect(run.stderr == "iconbadge: error: \(Quoted(path)): \(Self.cases[1].reason)\n")
    }

    /// Pixels of `file` near the disc colour of the good fixtures (230, 60, 20), drawn
    /// on a white badge, or 0 when the image cannot be read.
    static func discPixels(_ file: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let pixels = try ImageFile.pixels(of: bytes, path: file, limits: ImageLimits())
        var count = 0
        for index in stride(from: 0, to: pixels.bytes.count, by: 4) {
            let (r, g, b) = (pixels.bytes[index], pixels.bytes[index + 1], pixels.bytes[index + 2])
            if r > 200, g < 110, b < 80 { count += 1 }
        }
        return count
    }

    @Test(arguments: ["sbix-good.ttf", "cbdt-good.ttf", "colr-good.ttf"])
    func wellFormedColourFontsStillDraw(name: String) throws {
        let folder = Paths.scratch("good-colour-font")
        let run = try runIconbadge([
            Self.icon, "--value", "😀", "--font-file", Self.font(name), "--background", "white", "--scale", "2", "-o",
            folder + "/out.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.discPixels(folder + "/out.png") > 20)
    }

    @Test func notoColorEmojiStillDraws() throws {
        let folder = Paths.scratch("noto-emoji")
        #expect(
            FileManager.default.fileExists(atPath: SystemFonts.notoColorEmoji),
            "this test needs the system font \(SystemFonts.notoColorEmoji) (fonts-noto-color-emoji, make deps)")
        let run = try runIconbadge([
            Paths.fixture("icons/folder-132x132.png"), "--value", "🔥", "--font-file", SystemFonts.notoColorEmoji,
            "--scale", "3", "-o",
            folder + "/out.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
    }

    /// A colour glyph whose PNG FreeType cannot decode made Cairo 1.16 loop forever
    /// (FuzzFont; see FontFace.loadsCleanly): the render now ends, without the glyph.
    @Test func colourGlyphThatFailsToDecodeDoesNotHang() throws {
        let folder = Paths.scratch("bad-colour-glyph")
        let font = Paths.fixture("fuzz-regressions/FuzzFont/timeout-cbdt-png-bad-idat.ttf")
        let run = try runIconbadge([Self.icon, "--value", "😀", "--font-file", font, "-o", folder + "/out.png"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/out.png"))
    }
}
