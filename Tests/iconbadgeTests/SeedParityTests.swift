import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Each seed article's badge (../shared/seeds/README.md), reproduced from the command
/// line on a 44 pt toolbar icon at 1x (44 px) and 3x (132 px), and checked against
/// the article's own numbers. The commands are docs/manual/uikit.md's "UIKit badges reproduced"
/// table (pictures uikit-* and swiftui-* of docs/gallery.txt).
@Suite struct SeedParityTests {
    static let scales: [Double] = [1, 3]

    static func icon(_ scale: Double) -> String {
        Paths.fixture(scale == 1 ? "icons/folder-44x44.png" : "icons/folder-132x132.png")
    }

    /// DejaVu Sans's line height (hhea ascender 1901 + descender 483, 2048 units per
    /// em), the "text height" a UILabel's sizeToFit gives in seeds 001 and 004.
    static func lineHeight(points: Double) -> Double { (1901.0 + 483.0) / 2048.0 * points }

    func render(_ arguments: [String], scale: Double) throws -> (ReportJSON, PixelBuffer) {
        let output = Paths.scratch("seed") + "/out.png"
        let run = try runIconbadge(
            [Self.icon(scale)] + arguments + ["--scale", String(scale), "-o", output, "--report"])
        #expect(run.status == 0, "\(run.stderr)")
        return (try ReportJSON(run.stdoutText), try ImageFile.pixels(at: output))
    }

    static let seed000 = ["--value", "3", "--anchor", "center", "--offset", "12,-12", "--font-weight", "regular"]

    @Test(arguments: scales)
    func seed000FixedCircleOffsetFromTheCentre(scale: Double) throws {
        let (report, pixels) = try render(Self.seed000, scale: scale)
        let badge = try #require(report.rect("badge", "rect"))
        #expect(badge.width == 18 * scale && badge.height == 18 * scale)
        #expect(report.number("badge", "cornerRadius") == 9 * scale)
        let iconCentre = 22 * scale
        #expect(badge.center == Point(x: iconCentre + 12 * scale, y: iconCentre - 12 * scale))
        #expect(pixels[Int(badge.minX) + 2, Int(badge.center.y)] == Color.systemRed)
        let zero = try runIconbadge([Self.icon(scale), "--value", "0", "--report"] + Self.seed000.dropFirst(2))
        #expect(try zero.status == 0 && ReportJSON(zero.stdoutText).hidden)
    }

    static let seed001 = [
        "--anchor", "top-right", "--badge-anchor", "top", "--offset", "0,-6", "--height", "auto", "--min-height", "6",
        "--padding", "2", "--font-size", "10", "--font-weight", "regular", "--overflow", "expand",
    ]

    @Test(arguments: scales)
    func seed001GrowingPillOnTheRightEdge(scale: Double) throws {
        for value in ["5", "42", "NEW"] {
            let (report, pixels) = try render(["--value", value] + Self.seed001, scale: scale)
            let badge = try #require(report.rect("badge", "rect"))
            let icon = try #require(report.rect("iconRect"))
            // height = max(text height, min size 6) + padding 4 (2 per side), rounded.
            let height = (max(Self.lineHeight(points: 10), 6) + 4) * scale
            #expect(badge.height == (height + 0.5).rounded(.down))
            #expect(report.number("badge", "cornerRadius") == badge.height / 2)
            // Top edge 6 pt above the icon; centre on the icon's right edge.
            #expect(badge.minY - icon.minY == -6 * scale)
            #expect(abs(badge.center.x - icon.maxX) <= 0.5)
            #expect(badge.width >= badge.height)
            #expect(pixels[Int(badge.center.x), Int(badge.minY) + 1] == Color(rgb: 0xFF3B30))
        }
        for hiding in ["", "0"] {
            let run = try runIconbadge([Self.icon(scale), "--value", hiding, "--report"] + Self.seed001)
            #expect(try run.status == 0 && ReportJSON(run.stdoutText).hidden)
        }
    }

    static let seed002 = [
        "--image", Paths.fixture("icons/star-badge.png"), "--image-size", "8x8", "--anchor", "top-right",
        "--badge-anchor", "top-left", "--offset", "-4,0", "--overflow", "expand",
    ]

    @Test(arguments: scales)
    func seed002ImageBadgeAtTheTopRight(scale: Double) throws {
        let (report, pixels) = try render(Self.seed002, scale: scale)
        let badge = try #require(report.rect("badge", "rect"))
        let icon = try #require(report.rect("iconRect"))
        #expect(badge.width == 8 * scale && badge.height == 8 * scale)
        #expect(badge.minX - icon.minX == 44 * scale - 4 * scale)
        #expect(badge.minY - icon.minY == 0)
        #expect(report.string("badge", "kind") == "image")
        // The star's gold at the badge's centre.
        let centre = pixels[Int(badge.center.x), Int(badge.center.y)]
        #expect(centre.red > 200 && centre.green > 150 && centre.blue < 80, "\(centre)")
        // An empty value gives the default plain red dot.
        let (dotReport, _) = try render(["--dot"] + Self.seed002.dropFirst(2), scale: scale)
        #expect(dotReport.string("badge", "kind") == "dot")
    }

    static let seed003 = [
        "--height", "20", "--min-width", "20", "--padding", "0", "--font-size", "15", "--font-weight", "regular",
        "--anchor", "top-right", "--offset", "-20%,20%", "--max", "99", "--max-suffix", "", "--overflow", "expand",
    ]

    @Test(arguments: scales)
    func seed003CircleAtAFifthOfTheSize(scale: Double) throws {
        let (report, _) = try render(["--value", "150"] + Self.seed003, scale: scale)
        let badge = try #require(report.rect("badge", "rect"))
        let icon = try #require(report.rect("iconRect"))
        #expect(badge.width == 20 * scale && badge.height == 20 * scale)
        #expect(report.number("badge", "cornerRadius") == 10 * scale)
        let w = 44 * scale
        #expect(abs(badge.center.x - icon.minX - (w - 0.2 * w)) <= 0.5)
        #expect(abs(badge.center.y - icon.minY - 0.2 * w) <= 0.5)
        #expect(report.string("badge", "label") == "99")
        let zero = try runIconbadge([Self.icon(scale), "--value", "0", "--report"] + Self.seed003)
        #expect(try zero.status == 0 && ReportJSON(zero.stdoutText).hidden)
    }

    static let seed004 = [
        "--anchor", "top-right", "--badge-anchor", "top-right", "--offset", "6,-4", "--height", "auto", "--padding",
        "3",
        "--min-width", "20", "--font-size", "12", "--font-weight", "regular", "--background", "#007AFF",
        "--overflow", "expand",
    ]

    @Test(arguments: scales)
    func seed004BluePillOffsetFromTheTopTrailingCorner(scale: Double) throws {
        let (report, pixels) = try render(["--value", "2"] + Self.seed004, scale: scale)
        let badge = try #require(report.rect("badge", "rect"))
        let icon = try #require(report.rect("iconRect"))
        // SwiftUI: .frame(minWidth: 14).padding(3): width >= 14 + 2 × 3, height = text + 6.
        let height = (Self.lineHeight(points: 12) + 6) * scale
        #expect(badge.height == (height + 0.5).rounded(.down))
        #expect(badge.width >= 20 * scale)
        #expect(report.number("badge", "cornerRadius") == badge.height / 2)
        #expect(badge.maxX - icon.maxX == 6 * scale)
        #expect(badge.minY - icon.minY == -4 * scale)
        #expect(pixels[Int(badge.minX) + Int(badge.height / 2), Int(badge.minY) + 2] == Color(rgb: 0x007AFF))
    }

    @Test(arguments: scales)
    func seed004CircularImage(scale: Double) throws {
        let (report, pixels) = try render(["--value", "", "--icon-mask", "circle"], scale: scale)
        #expect(report.hidden)
        let side = Int(44 * scale)
        let original = try ImageFile.pixels(at: Self.icon(scale))
        #expect(pixels[0, 0].alpha == 0)
        #expect(pixels[side - 1, side - 1].alpha == 0)
        #expect(pixels[side / 2, side / 2] == original[side / 2, side / 2])
    }
}
