import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Badges that stay visible (`BadgeVisibility`): a dot that stands in for text is at
/// least 22.8 % of the icon's side, and a badge close in colour to the icon around it
/// (ΔE_OK under 0.15) gets one note with the measure and the fix, and a ring where
/// `--ring` asks: NetNewsWire's Mac slots and NewPipe's red icon, as the issue found.
@Suite struct VisibilityTests {
    /// The rows and columns where `badged` differs from `original`: the badge's box.
    static func changedBox(_ badged: PixelBuffer, _ original: PixelBuffer) -> (width: Int, height: Int) {
        var xs: [Int] = []
        var ys: [Int] = []
        for y in 0..<badged.height {
            for x in 0..<badged.width where badged[x, y] != original[x, y] {
                xs.append(x)
                ys.append(y)
            }
        }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return (0, 0) }
        return (maxX - minX + 1, maxY - minY + 1)
    }

    /// NetNewsWire's 16 and 32 px Mac slots: BETA is too small to read there, and the
    /// dot is 22.8 % of the 824/1024 body (6 px at 32, not the 4 px it was), never
    /// under 4 px (16 px: 12.9 × 0.228 = 2.9).
    @Test func aDotStandingInForTextIsSizedToBeSeen() throws {
        let folder = Paths.scratch("small-slots")
        let set = Paths.fixture("xcode/NetNewsWire/AppIcon.appiconset")
        let run = try runIconbadge(["appiconset", set, "--value", "BETA", "--out", folder])
        #expect(run.status == 0, "\(run.stderr)")
        for (file, side, expected) in [
            ("Icon-MacOS-32x32@1x.png", 32, 6), ("Icon-MacOS-16x16@2x.png", 32, 6), ("Icon-MacOS-16x16@1x.png", 16, 4),
        ] {
            let badged = try ImageFile.pixels(at: "\(folder)/AppIcon.appiconset/\(file)")
            let original = try ImageFile.pixels(at: "\(set)/\(file)")
            let box = Self.changedBox(badged, original)
            let rule = BadgeVisibility.dotDiameter(
                styleDot: 0, boxSide: Double(side) * 824 / 1024, minimum: 4)
            #expect(abs(rule - Double(expected)) < 0.5, "\(file): the rule gives \(rule)")
            // The dot's antialiased edge may touch one more pixel each side.
            #expect(box.height >= expected && box.height <= expected + 2, "\(file): \(box)")
            #expect(box.width >= expected && box.width <= expected + 2, "\(file): \(box)")
        }
    }

    /// The measures themselves, against figures computed by hand (CSS Color 4's OKLab
    /// matrices; WCAG 2's relative luminance).
    @Test func theMeasuresAreTheStatedOnes() {
        let red = Color.systemRed
        #expect(abs(red.deltaEOK(Color(rgb: 0xCD201F)) - 0.112) < 0.001)
        #expect(abs(red.deltaEOK(Color(rgb: 0x2A7FFF)) - 0.399) < 0.001)
        #expect(abs(Color.black.deltaEOK(.white) - 1) < 0.0001)
        #expect(abs(Color.black.contrastRatio(.white) - 21) < 1e-9)
        #expect(abs(red.contrastRatio(Color(rgb: 0xCD201F)) - 1.55) < 0.01)
        #expect(BadgeVisibility.ringColor(surroundLuminance: Color(rgb: 0xCD201F).relativeLuminance) == .white)
        #expect(BadgeVisibility.ringColor(surroundLuminance: 0.9) == .black)
        #expect(BadgeVisibility.ringWidth(badgeHeight: 7) == 1)
        #expect(BadgeVisibility.ringWidth(badgeHeight: 307) == 31)
    }

    /// iOS's red badge on NewPipe's red icon: one note naming the fill, ΔE_OK and the
    /// WCAG ratio, and `--ring auto`; with `--ring auto`, a white ring; on
    /// NetNewsWire's blue icon, no note.
    @Test func aRedBadgeOnARedIconGetsTheNoteAndARingOnRequest() throws {
        let folder = Paths.scratch("contrast")
        let icon = Paths.fixture("android/newpipe/res/mipmap-xxxhdpi/ic_launcher.png")
        let plain = try runIconbadge([
            icon, "--platform", "android-legacy", "--value", "3", "-o", folder + "/plain.png",
        ])
        #expect(plain.status == 0)
        #expect(
            plain.stderrLines == [
                "iconbadge: note: the badge's fill #FF3B30 is close in colour to the icon around it (ΔE_OK 0.11, under 0.15; WCAG contrast 1.55:1): --ring auto draws a white ring round it, or choose another --background"
            ])
        let ringed = try runIconbadge([
            icon, "--platform", "android-legacy", "--value", "3", "--ring", "auto", "-o", folder + "/ring.png",
            "--report",
        ])
        #expect(
            ringed.stderrLines == [
                "iconbadge: note: the badge's fill #FF3B30 is close in colour to the icon around it (ΔE_OK 0.11, under 0.15; WCAG contrast 1.55:1): a white ring is drawn round it (--ring none leaves it out)"
            ])
        let report = try ReportJSON(ringed.stdoutText)
        #expect(report.string("contrast", "ring") == "#FFFFFF")
        let rect = try #require(report.rect("badge", "rect"))
        let pixels = try ImageFile.pixels(at: folder + "/ring.png")
        let without = try ImageFile.pixels(at: folder + "/plain.png")
        // Just inside the badge's left edge, on its middle row: the ring's white, where
        // the plain badge is red.
        let x = Int(rect.minX) + 1
        let y = Int(rect.center.y)
        #expect(pixels[x, y] == .white, "\(pixels[x, y])")
        #expect(without[x, y] == .systemRed, "\(without[x, y])")
        // The middle stays the fill; the ring is a tenth of the badge's height (2 px of 18).
        #expect(pixels[Int(rect.minX) + 3, y] == .systemRed)
        let blue = try runIconbadge([
            Paths.fixture("xcode/NetNewsWire/AppIcon.appiconset/Icon-MacOS-128x128@1x.png"), "--platform", "macos",
            "--value", "3", "-o", folder + "/blue.png",
        ])
        #expect(blue.status == 0)
        #expect(blue.stderr.isEmpty, "\(blue.stderr)")
    }

    /// A dot that stands in for text on a red icon gets its ring by default (the
    /// small-slot rule); `--ring none` leaves it out. The `android` run on NewPipe says
    /// so once for all its images.
    @Test func aDotOnAnIconOfItsColourGetsARing() throws {
        let folder = Paths.scratch("dot-ring")
        let icon = Paths.fixture("android/newpipe/res/mipmap-mdpi/ic_launcher.png")
        let run = try runIconbadge([
            icon, "--platform", "android-legacy", "--text", "BETA", "--height", "25%", "-o", folder + "/dot.png",
            "--report",
        ])
        #expect(run.status == 0)
        #expect(run.stderr.contains("a white ring is drawn round it (--ring none leaves it out)"), "\(run.stderr)")
        let report = try ReportJSON(run.stdoutText)
        #expect(report.string("badge", "kind") == "dot")
        let rect = try #require(report.rect("badge", "rect"))
        let pixels = try ImageFile.pixels(at: folder + "/dot.png")
        // The top of the dot, at its middle: the ring's white (the fill's green is 59).
        let top = pixels[Int(rect.center.x), Int(rect.minY)]
        #expect(top.red == 255 && top.green >= 240 && top.blue >= 240, "\(top)")
        let none = try runIconbadge([
            icon, "--platform", "android-legacy", "--text", "BETA", "--height", "25%", "--ring", "none", "-o",
            folder + "/none.png",
        ])
        #expect(none.stderr.contains("--ring auto draws a white ring round it"), "\(none.stderr)")
        let app = Paths.scratch("dot-ring-app") + "/app"
        try FileManager.default.copyItem(atPath: Paths.fixture("android/newpipe"), toPath: app)
        let android = try runIconbadge(["android", app + "/res", "--out", app + "/debug/res", "--value", "3"])
        #expect(android.status == 0, "\(android.stderr)")
        let notes = android.stderrLines.filter { $0.contains("close in colour") }
        #expect(notes.count == 1, "\(android.stderr)")
        // The five legacy images and the badge layer at five densities, measured
        // against the adaptive icon's own layers.
        #expect(notes.first?.hasPrefix("iconbadge: note: in 10 images the badge's fill #FF3B30") == true, "\(notes)")
    }
}
