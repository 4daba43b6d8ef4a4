import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// The papercuts of a new-user trial, each as it was reproduced, now fixed.
@Suite struct PapercutTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")

    func copy(_ source: String, to path: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: path)
    }

    @Test func inPlaceNeverWritesAnotherFormatIntoTheFile() throws {
        let folder = Paths.scratch("in-place-jpeg")
        try copy(Self.icon, to: folder + "/t.jpg")
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/t.jpg"))
        for extra in [[], ["--format", "png"]] {
            let run = try runIconbadge([folder + "/t.jpg", "--value", "3", "--in-place"] + extra)
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderr.contains("--in-place keeps the icon's format"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/t.jpg")) == before)
        try copy(Self.icon, to: folder + "/t.png")
        let svg = try runIconbadge([folder + "/t.png", "--value", "3", "--in-place", "--format", "svg"])
        #expect(svg.status == 64)
    }

    @Test func sizeIsTheOneXSizeAndScalesWithTheRest() throws {
        let single = Paths.scratch("size-scale")
        #expect(
            try runIconbadge([Self.icon, "--value", "3", "--size", "24", "--scale", "3", "-o", single + "/x.png"])
                .status
                == 0)
        #expect(try ImageFile.pixels(at: single + "/x.png").width == 72, "--size is points, like every length")
        let folder = Paths.scratch("size-scales")
        let run = try runIconbadge(
            [Self.icon, "--value", "3", "--size", "48", "--scales", "1,1.5,2,3,4", "-o", folder + "/s{@scale}.png"])
        #expect(run.status == 0, "\(run.stderr)")
        for (name, side) in [("s", 48), ("s@1.5x", 72), ("s@2x", 96), ("s@3x", 144), ("s@4x", 192)] {
            #expect(try ImageFile.pixels(at: "\(folder)/\(name).png").width == side, "\(name)")
        }
        // A manifest job's "size" and "scale" are the same: byte-identical to the lone
        // render (they gave a 24 px canvas with a badge drawn at 3x).
        try #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","size":24,"scale":3,"output":"b.png"}]}"#
            .write(toFile: single + "/m.json", atomically: true, encoding: .utf8)
        #expect(try runIconbadge(["batch", "m.json", "--quiet"], in: single).status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: single + "/b.png"))
                == Data(contentsOf: URL(fileURLWithPath: single + "/x.png")))
    }

    @Test func upscaledRasterIconsAreWarnedOnceAndPerScaleFilesNamed() throws {
        let folder = Paths.scratch("upscale")
        try copy(Self.icon, to: folder + "/t.png")
        let run = try runIconbadge([
            folder + "/t.png", "--value", "3", "--scales", "1,2,3", "-o", folder + "/o{@scale}.png",
        ])
        #expect(run.status == 0)
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("@2x and @3x are resampled up from it"))
        try copy(Self.icon, to: folder + "/t@2x.png")
        let named = try runIconbadge(
            [folder + "/t.png", "--value", "3", "--scales", "1,2", "-o", folder + "/o{@scale}.png"])
        #expect(
            named.stderr.contains("t@2x.png\" exists: name the icon \"\(folder)/t{@scale}.png\""), "\(named.stderr)")
        let svg = try runIconbadge(
            [
                Paths.fixture("icons/mail-unread-symbolic.svg"), "--dot", "--scales", "1,2", "-o",
                folder + "/m{@scale}.png",
            ])
        #expect(svg.status == 0)
        #expect(svg.stderr.isEmpty, "an SVG is rendered at each scale: \(svg.stderr)")
    }

    @Test func aMisspeltVariableGetsAWarningWithTheNearestName() throws {
        let folder = Paths.scratch("env-typo")
        let run = try runIconbadge(
            [Self.icon, "--value", "3", "-o", folder + "/x.png"], environment: ["ICONBADGE_BACKGRUND": "blue"])
        #expect(run.status == 0)
        #expect(
            run.stderrLines == [
                "iconbadge: warning: \"ICONBADGE_BACKGRUND\" is not a variable iconbadge reads, so it is ignored (did you mean ICONBADGE_BACKGROUND?)"
            ])
    }

    @Test func widthsRoundOnceAtTheEnd() throws {
        let run = try runIconbadge([
            Paths.fixture("icons/folder-512x512.png"), "--value", "150", "--scale", "2", "--height", "auto",
            "--padding", "2,3", "--min-width", "10", "--min-height", "6", "--report",
        ])
        let report = try ReportJSON(run.stdoutText)
        // "99+" is 1425 + 1425 + 1716 of 2048 units at 24 px: 53.51 px, + 2 × 4 px padding.
        #expect(report.rect("badge", "rect")?.width == 62)
    }

    @Test func devStdoutIsStandardOutput() throws {
        let run = try runIconbadge([Self.icon, "--value", "3", "-o", "/dev/stdout"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test func imageBytesAreNotWrittenToATerminalWithoutForce() throws {
        // script(1) gives the command a terminal as its standard output.
        let command = "\(Paths.binary) \(Self.icon) --value 3 -o -"
        let refused = try runIconbadgeWith(executable: "/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stdoutText.contains("standard output is a terminal: PNG bytes would garble it"))
        let forced = try runIconbadgeWith(executable: "/usr/bin/script", ["-qec", command + " --force", "/dev/null"])
        #expect(forced.status == 0)
        #expect(forced.stdout.contains(Data("PNG".utf8)))
    }

    @Test func compareAcceptsTheSizeLimits() throws {
        let folder = Paths.scratch("compare-limits")
        let big = folder + "/big.png"
        let made = try runIconbadge([Self.icon, "--value", "3", "--size", "300", "-o", big])
        #expect(made.status == 0)
        // Two files (one file twice would be refused: it always equals itself).
        let copy = folder + "/copy.png"
        try FileManager.default.copyItem(atPath: big, toPath: copy)
        let refused = try runIconbadge(["compare", big, copy, "--max-side", "200"])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("over the 200 px side limit (raise it with --max-side"))
        #expect(try runIconbadge(["compare", big, copy, "--max-side", "400"]).status == 0)
        #expect(try runIconbadge(["compare", big, copy, "--max-pixels", "100"]).status == 65)
    }

    // MARK: - Found by a new-user trial on real asset catalogs

    @Test func thePlatformIsPerRunNotFromTheEnvironment() throws {
        let folder = Paths.scratch("env-platform")
        let run = try runIconbadge(
            [Self.icon, "--value", "3", "-o", folder + "/x.png", "--report"], environment: ["ICONBADGE_PLATFORM": "ios"]
        )
        #expect(try ReportJSON(run.stdoutText).string("platform") == "canvas")
        #expect(run.stderr.contains("\"ICONBADGE_PLATFORM\" is ignored: --platform is given per run"))
    }

    @Test func catalogFlagsOverrideVariables() throws {
        let folder = Paths.scratch("appiconset-env")
        let set = folder + "/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.fixture("icons/app-ios-180.png"), toPath: set + "/a.png")
        try #"{"images":[{"filename":"a.png","idiom":"iphone","scale":"3x","size":"60x60"}]}"#.write(
            toFile: set + "/Contents.json", atomically: false, encoding: .utf8)
        let flagWins = try runIconbadge(
            ["appiconset", set, "--value", "3", "--relative-size", "0.2", "--out", folder + "/a"],
            environment: ["ICONBADGE_HEIGHT": "40%"])
        #expect(flagWins.status == 0, "\(flagWins.stderr)")
        let variable = try runIconbadge(
            ["appiconset", set, "--value", "3", "--out", folder + "/b"], environment: ["ICONBADGE_RELATIVE_SIZE": "0.2"]
        )
        #expect(variable.status == 0)
        #expect(!variable.stderr.contains("warning"), "\(variable.stderr)")
        #expect(
            try ImageFile.pixels(at: folder + "/a/AppIcon.appiconset/a.png")
                == ImageFile.pixels(at: folder + "/b/AppIcon.appiconset/a.png"))
    }

    @Test func aShortenedLabelHasNoSpaceBeforeItsEllipsis() throws {
        let run = try runIconbadge([
            Paths.fixture("icons/folder-132x132.png"), "--value", "BETA 2024", "--max-chars", "6", "--report",
        ])
        #expect(try ReportJSON(run.stdoutText).string("badge", "label") == "BETA…")
    }

    @Test func scalesCanBeCheckedWithoutWritingOutputs() throws {
        let folder = Paths.scratch("scales-check")
        let template = folder + "/g/{name}{@scale}.png"
        let update = try runIconbadge([Self.icon, "--value", "3", "--scales", "1,2", "--check", template, "--update"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdoutText.split(separator: "\n").count == 2)
        let check = try runIconbadge([Self.icon, "--value", "3", "--scales", "1,2", "--check", template])
        #expect(check.status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/g").sorted() == [
                "folder-48x48.png", "folder-48x48@2x.png",
            ])
    }
}
