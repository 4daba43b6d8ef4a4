import BadgeCore
import Foundation
import TestSupport
import Testing

@testable import BadgeRender

/// Fonts from bytes through `FontProbe` (what FuzzFont runs), the fuzz inputs kept in
/// Fixtures/fuzz-regressions/FuzzFont, and colour glyphs FreeType cannot load.
@Suite struct FontProbeTests {
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func probe(_ path: String) throws -> BadgeError? {
        let data = try bytes(path)
        do throws(BadgeError) {
            try FontProbe.check(bytes: data, origin: path)
            return nil
        } catch {
            return error
        }
    }

    static func bitmap(_ name: String) -> String { Paths.fixture("fonts/bitmap/" + name) }

    @Test(arguments: [
        Paths.root + "/Sources/CBundledFont/DejaVuSans-Bold.ttf", Paths.root + "/Sources/CBundledFont/DejaVuSans.ttf",
        bitmap("sbix-good.ttf"), bitmap("cbdt-good.ttf"), bitmap("colr-good.ttf"), Paths.fixture("fonts/TnumTest.ttf"),
    ])
    func wellFormedFontsShapeAndDraw(path: String) throws {
        let error = try Self.probe(path)
        #expect(error == nil, "\(error?.message ?? "")")
    }

    @Test func notoColorEmojiShapesAndDraws() throws {
        let path = SystemFonts.notoColorEmoji
        #expect(
            FileManager.default.fileExists(atPath: path),
            "this test needs the system font \(path) (Debian: fonts-noto-color-emoji, installed by make deps)")
        let error = try Self.probe(path)
        #expect(error == nil, "\(error?.message ?? "")")
    }

    @Test(arguments: [
        ("sbix-huge-png.ttf", "its sbix table has a 16000 × 16000 px glyph image"),
        ("cbdt-huge-png.ttf", "its CBDT table has a 16000 × 16000 px glyph image"),
        ("sbix-magnified.ttf", "in a 1 ppem strike"),
        ("cbdt-glyph-past-end.ttf", "is a malformed font: its CBLC table"),
        ("colr-many-layers.ttf", "its COLR table draws glyph 13 in 2000 colour layers, over the 1024-layer limit"),
        ("colr-huge-layer.ttf", "its COLR table draws glyph 12 as a colour layer reaching 1886 em from its origin"),
    ])
    func hostileFontsAreRefusedWith65(name: String, message: String) throws {
        let error = try Self.probe(Self.bitmap(name))
        #expect(error?.exitCode == .dataError)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "accepted")")
    }

    /// Every input kept from FuzzFont: accepted or refused with 65, as the target checks.
    @Test func keptFuzzInputsAreAcceptedOrRefusedWith65() throws {
        let folder = Paths.fixture("fuzz-regressions/FuzzFont")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["leak-cairo-colr-glyph.ttf", "timeout-cbdt-png-bad-idat.ttf"])
        for name in names {
            let error = try Self.probe(folder + "/" + name)
            #expect(error == nil || error?.exitCode == .dataError, "\(name): \(error?.message ?? "")")
        }
    }

    func compose(_ font: String, value: String = "😀") throws -> Scene {
        var request = TestRequest(
            iconPath: Paths.fixture("icons/folder-132x132.png"), content: .value(value), scale: 3,
            font: .file(path: font, index: 0), fontFeatures: [])
        request.systemFallback = false
        return try Renderer().compose(request)
    }

    /// timeout-cbdt-png-bad-idat.ttf: cbdt-good.ttf with one byte of its PNG's image
    /// data changed (FuzzFont, first run). FreeType fails to decode it, and Cairo 1.16
    /// then loads and draws the glyph over and over without end (FontFace.loadsCleanly):
    /// the CLI hung at 100% CPU. The glyph is now left out, and the badge drawn.
    @Test func colourGlyphFreeTypeCannotLoadIsLeftOut() throws {
        let broken = try compose(Paths.fixture("fuzz-regressions/FuzzFont/timeout-cbdt-png-bad-idat.ttf"))
        #expect(broken.badge.text?.runs.allSatisfy { $0.glyphs.isEmpty } == true)
        #expect(try broken.pngData().count > 0)
        let good = try compose(Self.bitmap("cbdt-good.ttf"))
        #expect(good.badge.text?.runs.map(\.glyphs.count) == [1])
    }
}
