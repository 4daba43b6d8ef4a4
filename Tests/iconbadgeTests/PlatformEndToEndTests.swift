import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `--platform`, percentages and small sizes through the command line: what the
/// report says, the notes, and the errors for values that make no sense.
@Suite struct PlatformEndToEndTests {
    static let ios = Paths.fixture("icons/app-ios-180.png")

    func report(_ arguments: [String]) throws -> (RunResult, ReportJSON) {
        let run = try runIconbadge(arguments + ["--report"])
        return (run, try ReportJSON(run.stdoutText))
    }

    @Test func aPercentageHeightIsTheSameLookAtEverySize() throws {
        for side in [40, 180] {
            let (run, json) = try report([
                Self.ios, "--value", "3", "--platform", "ios", "--height", "28%", "--size", "\(side)",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let height = try #require(json.rect("badge", "rect")?.height)
            #expect(abs(height - 0.28 * Double(side)) <= 1)
            #expect(json.string("platform") == "ios")
            #expect(json.rect("referenceBox") == Rect(x: 0, y: 0, width: Double(side), height: Double(side)))
        }
    }

    @Test func clampMovesTheBadgeIntoTheShapeAndTheReportSaysSo() throws {
        let (_, canvas) = try report([Self.ios, "--value", "3", "--height", "28%"])
        let (_, ios) = try report([Self.ios, "--value", "3", "--platform", "ios", "--height", "28%"])
        let onCanvas = try #require(canvas.rect("badge", "rect"))
        let inShape = try #require(ios.rect("badge", "rect"))
        #expect(onCanvas.maxX == 180 && onCanvas.minY == 0, "the canvas corner")
        #expect(inShape.maxX < 180 && inShape.minY > 0, "inward, off the rounded corner")
        #expect(ios.json["placement"]?["moved"] == .bool(true))
    }

    @Test func anOffsetThatChangesNothingGetsOneNote() throws {
        let icon = Paths.fixture("icons/folder-48x48.png")
        let swallowed = try runIconbadge([icon, "--value", "3", "--offset", "9,-9", "--report"])
        #expect(swallowed.status == 0)
        #expect(swallowed.stderrLines.count == 1)
        #expect(swallowed.stderr.contains("--offset changed nothing"))
        let inward = try runIconbadge([icon, "--value", "3", "--offset", "-12,12", "--report"])
        #expect(inward.stderr.isEmpty, "\(inward.stderr)")
    }

    @Test func smallTextBecomesADotOrIsHiddenOrKept() throws {
        let base = [Self.ios, "--value", "BETA", "--platform", "ios", "--height", "28%", "--size", "29"]
        let (dot, dotJSON) = try report(base)
        #expect(dot.status == 0)
        #expect(dotJSON.string("badge", "kind") == "dot")
        #expect(dotJSON.json["smallText"]?["became"] == .string("dot"))
        #expect(dot.stderr.contains("the text \"BETA\" would be 5.4 px, under --min-text-px: drawn as a dot"))
        let (hide, hideJSON) = try report(base + ["--small-text", "hide"])
        #expect(hide.status == 0)
        #expect(hideJSON.hidden)
        #expect(hideJSON.string("hiddenReason") == "too-small")
        let (_, keepJSON) = try report(base + ["--small-text", "keep"])
        #expect(keepJSON.string("badge", "kind") == "text")
        let (_, tiny) = try report([Self.ios, "--dot", "--platform", "ios", "--height", "28%", "--size", "16"])
        #expect(tiny.rect("badge", "rect")?.width == 4, "a dot is never under --min-dot-px")
    }

    @Test func aPercentageWhereNoneMakesSenseIs64NamingTheOption() throws {
        for (option, value) in [("--scale", "50%"), ("--size", "50%"), ("--max-side", "50%"), ("--font-index", "1%")] {
            let run = try runIconbadge([Self.ios, "--value", "3", option, value, "-o", "/tmp/unused.png"])
            #expect(run.status == 64, "\(option) \(run.stderr)")
            #expect(run.stderr.contains(option), "\(run.stderr)")
        }
    }

    @Test func aBadgeThatFitsNowhereIs64WithTheLargestThatFits() throws {
        let run = try runIconbadge([
            Self.ios, "--value", "BETA", "--platform", "watchos", "--height", "60%", "-o", "/tmp/unused.png",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "cannot fit inside the watchos shape of this 180 × 180 px icon; the largest that fits is"))
    }

    @Test func aNonSquareIconOnASquarePlatformRendersWithOneNote() throws {
        let run = try runIconbadge([
            Paths.fixture("icons/folder-48x48.png"), "--value", "3", "--platform", "ios", "--size", "60x40", "--report",
        ])
        #expect(run.status == 0)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("the icon is 60 × 40 px and ios icons are square"))
    }

    @Test func textLargerThanItsBadgeIs65NamingTheSizes() throws {
        let run = try runIconbadge([
            Paths.fixture("icons/folder-48x48.png"), "--value", "Ag", "--font-size", "20", "--height", "14", "-o",
            "/tmp/unused.png",
        ])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("does not fit inside its"), "\(run.stderr)")
        #expect(run.stderr.contains("use a smaller --font-size, or a larger --height or --padding"))
    }

    @Test func contentPlacesTheBadgeOnTheIconsOwnPixels() throws {
        // The macOS fixture has a transparent margin of 100/1024 of its side.
        let icon = Paths.fixture("icons/app-macos-256.png")
        let (_, canvas) = try report([icon, "--value", "3"])
        let (_, content) = try report([icon, "--value", "3", "--platform", "content"])
        let floating = try #require(canvas.rect("badge", "rect"))
        let onIcon = try #require(content.rect("badge", "rect"))
        #expect(floating.maxX == 256)
        let box = try #require(content.rect("referenceBox"))
        #expect(box.minX >= 24 && box.maxX <= 232, "\(box)")
        #expect(onIcon.maxX <= box.maxX && onIcon.minY >= box.minY)
    }
}
