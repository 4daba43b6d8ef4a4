import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

@Suite struct TextEndToEndTests {
    static let icon = Paths.fixture("icons/folder-512x512.png")

    @Test func tofuIsAWarningNamingTheCodePointAndTheFontsTried() throws {
        let output = Paths.scratch("tofu") + "/out.png"
        let run = try runIconbadge([Self.icon, "--value", "A\u{10FFFD}", "--no-system-fonts", "-o", output])
        #expect(run.status == 0)
        #expect(
            run.stderrLines == [
                "iconbadge: warning: no font has U+10FFFD (tried: DejaVu Sans Bold (bundled:DejaVuSans-Bold.ttf#0)); drawn as a box (--strict-glyphs makes this an error)"
            ])
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test func strictGlyphsMakesTofu69AndWritesNothing() throws {
        let output = Paths.scratch("tofu") + "/out.png"
        let run = try runIconbadge([Self.icon, "--value", "\u{10FFFD}", "--strict-glyphs", "-o", output])
        #expect(run.status == 69)
        #expect(run.stderrLines.count == 1)
        #expect(
            run.stderr.contains(
                "no font has U+10FFFD (tried: DejaVu Sans Bold (bundled:DejaVuSans-Bold.ttf#0), fontconfig's fallback for"
            ))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func systemFallbackFindsCJKAndEmoji() throws {
        let run = try runIconbadge([Self.icon, "--value", "新🔥", "--report", "--scale", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutText.contains("Noto Sans CJK"))
        #expect(run.stdoutText.contains("Noto Color Emoji"))
    }

    @Test func fontsCommandShowsTheFileAndTheChain() throws {
        let run = try runIconbadge(["fonts", "DejaVu Sans:bold"])
        #expect(run.status == 0)
        let lines = run.stdoutText.split(separator: "\n")
        #expect(
            lines.first
                == "DejaVu Sans:bold: DejaVu Sans Bold -> /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf#0")
        #expect(lines.contains { $0.hasPrefix("fallback for \"DejaVu Sans:bold\"") })
        #expect(lines.contains { $0.hasPrefix("emoji: Noto Color Emoji") })
        let missing = try runIconbadge(["fonts", "No Such Family 98765"])
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("family \"No Such Family 98765\" is not installed"))
    }

    @Test func defaultPathShowsTheBundledFont() throws {
        let run = try runIconbadge(["fonts"])
        #expect(run.status == 0)
        #expect(run.stdoutText.hasPrefix("default: DejaVu Sans Bold -> bundled (compiled into iconbadge)\n"))
    }

    @Test func featuresFlagReachesHarfBuzz() throws {
        let font = Paths.fixture("fonts/TnumTest.ttf")
        func advance(_ value: String, _ extra: [String]) throws -> Double? {
            let run = try runIconbadge([Self.icon, "--value", value, "--font-file", font, "--report"] + extra)
            return try ReportJSON(run.stdoutText).number("badge", "advance")
        }
        #expect(try advance("11", []) == advance("88", []))
        #expect(try advance("11", ["--font-features", "-tnum"]) != advance("88", ["--font-features", "-tnum"]))
    }

    @Test func hugeFontSizeIsAClearError() throws {
        let run = try runIconbadge([Self.icon, "--value", "3", "--font-size", "4000", "--scale", "3", "--report"])
        #expect(run.status == 65)
        #expect(run.stderr.contains("outside 0-4096 px"))
    }
}
