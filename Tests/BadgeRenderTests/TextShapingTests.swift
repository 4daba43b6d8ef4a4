import BadgeCore
import Foundation
import TestSupport
import Testing

@testable import BadgeRender

/// Shaping, fallback, direction and colour glyphs, with font files given by path
/// and no fontconfig, so results do not depend on the machine's other fonts.
@Suite struct TextShapingTests {
    static let icon = Paths.fixture("icons/folder-512x512.png")
    static let fallbacks = [SystemFonts.notoCJKBold, SystemFonts.notoColorEmoji]

    func compose(
        _ value: String, font: FontChoice = .bundled(.bold), features: [String] = TextShaper.defaultFeatures,
        scale: Double = 3
    )
        throws -> Scene
    {
        var request = TestRequest(
            iconPath: Self.icon, content: .value(value), scale: scale, font: font, fontFeatures: features)
        request.fallbackFonts = Self.fallbacks
        request.systemFallback = false
        return try Renderer().compose(request)
    }

    func faces(_ composition: Scene) -> [String] {
        composition.badge.fontsUsed.map { String($0.name.split(separator: "(")[0].dropLast()) + ":\($0.glyphs)" }
    }

    @Test func eachClusterGoesToTheFaceThatHasIt() throws {
        #expect(faces(try compose("NEW")) == ["DejaVu Sans Bold:3"])
        #expect(faces(try compose("新着")) == ["Noto Sans CJK JP Bold:2"])
        #expect(faces(try compose("🔥")) == ["Noto Color Emoji Regular:1"])
        #expect(
            faces(try compose("A新🔥")) == [
                "DejaVu Sans Bold:1", "Noto Sans CJK JP Bold:1", "Noto Color Emoji Regular:1",
            ])
    }

    @Test func zwjSequencesAndFlagsAreOneGlyph() throws {
        #expect(faces(try compose("👨‍👩‍👧")) == ["Noto Color Emoji Regular:1"])
        #expect(faces(try compose("🇯🇵")) == ["Noto Color Emoji Regular:1"])
    }

    @Test func variationSelectorSixteenAsksForTheEmoji() throws {
        // DejaVu has a text heart (U+2764); U+FE0F asks for the colour one.
        #expect(faces(try compose("\u{2764}")) == ["DejaVu Sans Bold:1"])
        #expect(faces(try compose("\u{2764}\u{FE0F}")) == ["Noto Color Emoji Regular:1"])
    }

    @Test func combiningMarksStayWithTheirBase() throws {
        // HarfBuzz composes e + U+0301 into é and attaches U+0323 below it.
        let composition = try compose("e\u{0323}\u{0301}")
        #expect(faces(composition) == ["DejaVu Sans Bold:2"])
        // The mark has no advance and its ink sits under the base, not after it.
        let plain = try compose("é")
        #expect(composition.badge.textAdvance == plain.badge.textAdvance)
        let inkWithMark = try #require(composition.badge.text?.metrics.inkBounds)
        let inkPlain = try #require(plain.badge.text?.metrics.inkBounds)
        #expect(inkWithMark.maxX <= inkPlain.maxX + 1)
        #expect(inkWithMark.maxY > inkPlain.maxY + 3)
        #expect(composition.badge.missingGlyphs.isEmpty)
    }

    @Test func rightToLeftRunsAreInVisualOrder() throws {
        // שלום: shin is logically first, so it is drawn rightmost.
        let composition = try compose("שלום")
        let run = try #require(composition.badge.text?.runs.first)
        let shin = try #require(run.face.glyph(for: "ש"))
        let finalMem = try #require(run.face.glyph(for: "ם"))
        #expect(run.glyphs.first?.index == finalMem)
        #expect(run.glyphs.last?.index == shin)
        #expect(run.glyphs.map(\.x) == run.glyphs.map(\.x).sorted())
    }

    @Test func mixedDirectionKeepsLatinLeftToRightInside() throws {
        // "abc שלום": the Latin run stays left of the Hebrew one (base direction LTR).
        let composition = try compose("ab שלום")
        let glyphs = try #require(composition.badge.text?.runs.first?.glyphs)
        let face = try #require(composition.badge.text?.runs.first?.face)
        #expect(glyphs.first?.index == face.glyph(for: "a"))
    }

    @Test func arabicLettersJoin() throws {
        let composition = try compose("مرحبا")
        let run = try #require(composition.badge.text?.runs.first)
        let isolatedMeem = try #require(run.face.glyph(for: "م"))
        // Initial meem (drawn rightmost) is a contextual form, not the isolated glyph.
        #expect(run.glyphs.last?.index != isolatedMeem)
        #expect(run.glyphs.count == 5)
    }

    @Test func tabularFiguresAreOnByDefault() throws {
        let font = FontChoice.file(path: Paths.fixture("fonts/TnumTest.ttf"), index: 0)
        let ones = try compose("11", font: font).badge.textAdvance
        let eights = try compose("88", font: font).badge.textAdvance
        #expect(ones == eights)
        let proportionalOnes = try compose("11", font: font, features: ["-tnum"]).badge.textAdvance
        #expect(proportionalOnes != eights)
        // Each advance is exact to 1/4096 px (TextShaper.subpixels).
        #expect(abs(try #require(proportionalOnes) * 2 - (try #require(eights))) <= 2 / TextShaper.subpixels)
    }

    @Test func emojiKeepsItsColours() throws {
        let composition = try compose("🔥")
        let layout = try #require(composition.badge.layout)
        let pixels = try composition.pixels()
        var yellow = 0
        for y in Int(layout.badgeRect.minY)..<Int(layout.badgeRect.maxY) {
            for x in Int(layout.badgeRect.minX)..<Int(layout.badgeRect.maxX) {
                let p = pixels[x, y]
                if p.red > 220 && p.green > 170 && p.blue < 120 { yellow += 1 }
            }
        }
        #expect(yellow > 20, "the flame has no yellow: drawn as a mask, not in colour")
    }

    @Test func cjkInkLiesInsideTheBadge() throws {
        let composition = try compose("新")
        let layout = try #require(composition.badge.layout)
        let ink = try #require(layout.inkBounds)
        #expect(layout.badgeRect.contains(ink))
        let pixels = try composition.pixels()
        var white = 0
        for y in Int(ink.minY)..<Int(ink.maxY.rounded(.up)) {
            for x in Int(ink.minX)..<Int(ink.maxX.rounded(.up)) where pixels[x, y] == .white { white += 1 }
        }
        #expect(white > 50)
    }

    @Test func uncoveredCodePointIsReportedAndStrictMakesIt69() throws {
        let composition = try compose("A\u{10FFFD}")
        #expect(composition.badge.missingGlyphs == ["\u{10FFFD}"])
        #expect(composition.badge.fontsTried.count == 3)
        var request = TestRequest(iconPath: Self.icon, content: .value("\u{10FFFD}"), scale: 3)
        request.systemFallback = false
        request.strictGlyphs = true
        #expect(
            throws: BadgeError.unavailable(
                resource: "glyphs",
                reason: "no font has U+10FFFD (tried: DejaVu Sans Bold (bundled:DejaVuSans-Bold.ttf#0))")
        ) {
            _ = try Renderer().compose(request)
        }
    }

    @Test func overlongTextIs65BeforeShaping() {
        let request = RenderRequest(iconPath: Self.icon, content: .value(String(repeating: "A", count: 5000)))
        #expect(
            throws: BadgeError.overLimit(path: "", .textLength(codePoints: 5000, limit: 1024))
        ) {
            _ = try Renderer().compose(request)
        }
    }
}
