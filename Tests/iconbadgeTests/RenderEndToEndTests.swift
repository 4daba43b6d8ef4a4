import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Runs the built binary on real Adwaita icons and checks the pixels it wrote.
@Suite struct RenderEndToEndTests {
    struct Layout {
        var badge: Rect
        var ink: Rect?
        var canvas: (Int, Int)
    }

    static func layout(fromReport json: String) throws -> Layout {
        let report = try JSONParser().parse(json)
        func number(_ value: JSONValue?) throws -> Double {
            guard case .number(let n) = try #require(value) else { throw CancellationError() }
            return n
        }
        func rect(_ value: JSONValue?) throws -> Rect {
            let v = try #require(value)
            return Rect(
                x: try number(v["x"]), y: try number(v["y"]), width: try number(v["width"]),
                height: try number(v["height"]))
        }
        let badge = try #require(report["badge"])
        let ink = badge["inkBox"] == nil ? nil : try rect(badge["inkBox"])
        return Layout(
            badge: try rect(badge["rect"]), ink: ink,
            canvas: (Int(try number(report["canvas"]?["width"])), Int(try number(report["canvas"]?["height"]))))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let icon: String
        let value: String
        let scale: Double
        var testDescription: String { "\(icon) \(value) @\(scale)x" }
    }

    static let cases: [Case] = [
        Case(icon: "folder-16x16.png", value: "3", scale: 0.5),
        Case(icon: "user-trash-32x32.png", value: "3", scale: 1),
        Case(icon: "user-trash-32x32.png", value: "150", scale: 0.75),
        Case(icon: "folder-48x48.png", value: "3", scale: 1),
        Case(icon: "folder-48x48.png", value: "150", scale: 1),
        Case(icon: "user-trash-256x256.png", value: "42", scale: 3),
        Case(icon: "computer-512x512.png", value: "150", scale: 3),
        Case(icon: "audio-headphones-512x512.png", value: "7", scale: 2),
    ]

    @Test(arguments: cases)
    func badgeIsWhereTheLayoutSaysAndTheRestIsTheIcon(_ testCase: Case) throws {
        let folder = Paths.scratch("e2e")
        let input = try Corpus.path("icons/adwaita-png/\(testCase.icon)")
        let output = folder + "/out.png"
        let value = testCase.value
        let scale = testCase.scale
        // Text at 0.5x is 6 px: kept as text here, to check its geometry.
        let run = try runIconbadge(
            [input, "--value", value, "--scale", String(scale), "--small-text", "keep", "-o", output, "--report"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
        let layout = try Self.layout(fromReport: run.stdoutText)
        let original = try ImageFile.pixels(at: input)
        let result = try ImageFile.pixels(at: output)
        #expect(result.width == original.width && result.height == original.height)
        #expect(layout.canvas.0 == original.width)

        let badge = layout.badge
        #expect(
            badge.minX >= 0 && badge.minY >= 0 && badge.maxX <= Double(result.width)
                && badge.maxY <= Double(result.height))
        // Outside the badge: the icon's own pixels, every one.
        var outsideDiffer = 0
        for y in 0..<result.height {
            for x in 0..<result.width {
                let inside =
                    Double(x) >= badge.minX && Double(x) < badge.maxX && Double(y) >= badge.minY
                    && Double(y) < badge.maxY
                if !inside && result[x, y] != original[x, y] { outsideDiffer += 1 }
            }
        }
        #expect(outsideDiffer == 0)
        // The badge's centre row, left of the text, is the fill colour #FF3B30.
        let ink = try #require(layout.ink)
        let fillX = Int(badge.minX + min(badge.height / 4, ink.minX - badge.minX - 1))
        #expect(result[fillX, Int(badge.center.y)] == Color.systemRed, "at \(fillX)")
        // The text's ink lies inside the badge, and is white where it is solid
        // (near-white at a size too small for any solid pixel).
        #expect(badge.contains(ink))
        var white = 0
        var nearWhite = 0
        for y in Int(badge.minY)..<Int(badge.maxY) {
            for x in Int(badge.minX)..<Int(badge.maxX) {
                if result[x, y] == Color.white { white += 1 }
                if result[x, y].green > 0xC0 { nearWhite += 1 }
            }
        }
        #expect(white > 0 || (badge.height < 12 && nearWhite > 0), "no white text pixels")
    }

    @Test func sameCommandTwiceGivesIdenticalBytes() throws {
        let folder = Paths.scratch("determinism")
        let input = Paths.fixture("icons/folder-512x512.png")
        for name in ["a.png", "b.png"] {
            let run = try runIconbadge([input, "--value", "99+", "--scale", "3", "-o", "\(folder)/\(name)"])
            #expect(run.status == 0)
        }
        let a = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/a.png"))
        let b = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/b.png"))
        #expect(a == b)
        #expect(a.count > 1000)
    }

    @Test func zeroWritesTheIconAndSaysSo() throws {
        let folder = Paths.scratch("zero")
        let input = Paths.fixture("icons/folder-48x48.png")
        let run = try runIconbadge([input, "--value", "0", "-o", "\(folder)/out.png"])
        #expect(run.status == 0)
        #expect(
            run.stderrLines == [
                "iconbadge: note: badge hidden: the value is 0 (use --show-zero to draw it); the output is the icon unchanged"
            ])
        #expect(try ImageFile.pixels(at: "\(folder)/out.png") == (try ImageFile.pixels(at: input)))
        let shown = try runIconbadge([input, "--value", "0", "--show-zero", "-o", "\(folder)/shown.png"])
        #expect(shown.status == 0 && shown.stderr.isEmpty)
        #expect(try ImageFile.pixels(at: "\(folder)/shown.png") != (try ImageFile.pixels(at: input)))
    }

    @Test func renderSubcommandIsTheSameCommand() throws {
        let folder = Paths.scratch("subcommand")
        let input = Paths.fixture("icons/folder-48x48.png")
        #expect(try runIconbadge(["render", input, "--value", "3", "-o", "\(folder)/a.png"]).status == 0)
        #expect(try runIconbadge([input, "--value", "3", "-o", "\(folder)/b.png"]).status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: "\(folder)/a.png"))
                == (try Data(contentsOf: URL(fileURLWithPath: "\(folder)/b.png"))))
    }

    @Test func writesToStandardOutput() throws {
        let input = Paths.fixture("icons/folder-48x48.png")
        let run = try runIconbadge([input, "--value", "3", "-o", "-"])
        #expect(run.status == 0)
        #expect(try ImageFile.pixels(of: Array(run.stdout), path: "stdout").width == 48)
    }
}
