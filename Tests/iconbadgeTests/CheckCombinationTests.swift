import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// No silent pass: every combination of `--check` with `--scales`, templates, batch,
/// standard input and `--in-place` compares every render it makes, or is refused (64);
/// update modes write only what they name; artifacts stay out of the goldens.
@Suite struct CheckCombinationTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")

    /// The check lines of a run (stdout), one per compared render: `passed GOLDEN: …`,
    /// `changed …`, `new …` (the checks' one vocabulary).
    func checkLines(_ run: RunResult) -> [String] {
        run.stdoutText.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("passed ") || $0.hasPrefix("changed ") || $0.hasPrefix("new ")
        }
    }

    /// A folder holding goldens made by `--update` for `--value 3` at 1x and 2x.
    func goldens() throws -> String {
        let folder = Paths.scratch("combinations")
        let made = try runIconbadge(
            [Self.icon, "--value", "3", "--scales", "1,2", "--check", folder + "/g/icon{@scale}.png", "--update"],
            in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(checkLines(made).count == 2)
        return folder
    }

    @Test func theIssuesGateIsRefusedAndEveryScaleIsCompared() throws {
        let folder = try goldens()
        // The reported gate: one golden (missing, too) for two scales. Refused, nothing written.
        let gate = try runIconbadge(
            [Self.icon, "--value", "4", "--scales", "1,2", "-o", "g/x{@scale}.png", "--check", "g/f.png"], in: folder)
        #expect(gate.status == 64)
        #expect(gate.stderr.contains("names one golden for 2 scales"), "\(gate.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/g/x.png"))
        // A template golden: both scales are compared, and both differ.
        let both = try runIconbadge(
            [Self.icon, "--value", "4", "--scales", "1,2", "--check", "g/icon{@scale}.png"], in: folder)
        #expect(both.status == 1)
        #expect(checkLines(both).count == 2)
        #expect(checkLines(both).allSatisfy { $0.hasPrefix("changed g/icon") && $0.contains(" pixels differ ") })
        // With -o too: both written and both compared.
        let written = try runIconbadge(
            [Self.icon, "--value", "3", "--scales", "1,2", "-o", "out/x{@scale}.png", "--check", "g/icon{@scale}.png"],
            in: folder)
        #expect(written.status == 0)
        #expect(checkLines(written).count == 2)
        #expect(FileManager.default.fileExists(atPath: folder + "/out/x@2x.png"))
        // A golden missing at one scale is 66, not a pass of the other.
        try FileManager.default.removeItem(atPath: folder + "/g/icon@2x.png")
        let oneMissing = try runIconbadge(
            [Self.icon, "--value", "3", "--scales", "1,2", "--check", "g/icon{@scale}.png"], in: folder)
        #expect(oneMissing.status == 66)
        // One scale with one golden compares it.
        let single = try runIconbadge(
            [Self.icon, "--value", "3", "--scales", "1", "--check", "g/icon.png"], in: folder)
        #expect(single.status == 0 && checkLines(single).count == 1)
    }

    @Test func refusedCombinationsAreUsageErrors() throws {
        let folder = try goldens()
        let refused: [([String], String)] = [
            // --check with --in-place: the icon would be replaced, not compared.
            ([Self.icon, "--value", "3", "--in-place", "--check", "g/icon.png"], "does not go with --in-place"),
            // A template golden without --scales.
            ([Self.icon, "--value", "3", "--check", "g/icon{@scale}.png"], "is a template"),
            // The output is the golden: the render would be compared with itself.
            ([Self.icon, "--value", "3", "-o", "g/icon.png", "--check", "g/icon.png"], "is an input file"),
            (
                [
                    Self.icon, "--value", "3", "--scales", "1,2", "-o", "g/icon{@scale}.png", "--check",
                    "g/icon{@scale}.png",
                ],
                "is an input file"
            ),
            // A PDF golden cannot be read back.
            ([Self.icon, "--value", "3", "--check", "g/icon.pdf"], "PDF cannot be read"),
            // Update and artifacts without a check.
            ([Self.icon, "--value", "3", "-o", "x.png", "--update"], "--update goes with --check"),
            ([Self.icon, "--value", "3", "-o", "x.png", "--artifacts", "a"], "--artifacts goes with --check"),
            // Comparison options without a check would compare nothing.
            ([Self.icon, "--value", "3", "-o", "x.png", "--tolerance", "2"], "go with --check"),
            // Budgets and tolerances that accept every image.
            ([Self.icon, "--value", "3", "--check", "g/icon.png", "--tolerance", "255"], "--tolerance"),
            ([Self.icon, "--value", "3", "--check", "g/icon.png", "--threshold", "1"], "--threshold"),
            ([Self.icon, "--value", "3", "--check", "g/icon.png", "--max-diff-ratio", "1"], "--max-diff-ratio"),
            // batch's check options without --check.
            (["batch", "m.json", "--update"], "go with --check DIR"),
            (["batch", "m.json", "--threshold", "0.1"], "go with --check DIR"),
            (["batch", "m.json", "--ignore", "0,0,1,1"], "go with --check DIR"),
            // The golden is the icon: an icon with no visible badge renders as itself.
            ([Self.icon, "--value", "0", "--check", Self.icon], "is an input of the render"),
            // Standard input is no golden, and has no {name}.
            ([Self.icon, "--value", "3", "--check", "-"], "standard input cannot be one"),
            (["-", "--value", "3", "--scales", "1,2", "--check", "g/{name}{@scale}.png"], "has no name"),
            // Budgets and regions that leave nothing to fail, known once the size is.
            ([Self.icon, "--value", "3", "--check", "g/icon.png", "--max-diff-pixels", "2304"], "could not fail"),
            ([Self.icon, "--value", "3", "--check", "g/icon.png", "--ignore", "0,0,100%,100%"], "leave no pixel"),
            ([Self.icon, "--value", "3", "--check", "g/icon.png", "--ignore", "60,0,5,5"], "lies outside the 48 × 48"),
            // One image compared with itself, however spelled.
            (["compare", "g/icon.png", "./g/../g/icon.png"], "both are one file"),
            (["compare", "g/icon.png", "g/icon@2x.png", "--diff-color-alt", "blue"], "goes with --diff"),
        ]
        for (arguments, message) in refused {
            let run = try runIconbadge(arguments, in: folder)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }

    @Test func standardInputIsCompared() throws {
        let folder = try goldens()
        // runIconbadge(stdinFile:) runs in the package root: the goldens are absolute.
        let absolute = try runIconbadge(["-", "--value", "3", "--check", folder + "/g/icon.png"], stdinFile: Self.icon)
        #expect(absolute.status == 0)
        #expect(checkLines(absolute).count == 1)
        let differ = try runIconbadge(
            ["-", "--value", "5", "--check", folder + "/g/icon.png", "--artifacts", folder + "/art"],
            stdinFile: Self.icon)
        #expect(differ.status == 1)
        let scales = try runIconbadge(
            ["-", "--value", "3", "--scales", "1,2", "--check", folder + "/g/icon{@scale}.png"], stdinFile: Self.icon)
        #expect(scales.status == 0)
        #expect(checkLines(scales).count == 2)
    }

    @Test func batchChecksEveryRenderAndRefusesWhatItCannotCheck() throws {
        let folder = try goldens()
        let manifest = #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"icon{@scale}.png"}]}"#
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(["batch", "m.json", "--scales", "1,2", "--check", "g"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines.last
                == "iconbadge: batch --check: 2 images: 2 passed, 0 changed, 0 new, 0 deleted, 0 errors")
        // From standard input (JSON Lines), the same.
        let lines = #"{"icon":"\#(Self.icon)","value":"3","output":"icon{@scale}.png"}"# + "\n"
        let piped = try runIconbadge(
            ["batch", "-", "--scales", "1,2", "--check", "g"], stdin: Data(lines.utf8), in: folder)
        #expect(
            piped.stderrLines.last
                == "iconbadge: batch --check: 2 images: 2 passed, 0 changed, 0 new, 0 deleted, 0 errors")
        // A missing golden in a batch is that job's error (66), not a pass.
        let more = #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"icon{@scale}.png","scales":[1,2,3]}]}"#
        try more.write(toFile: folder + "/more.json", atomically: true, encoding: .utf8)
        #expect(try runIconbadge(["batch", "more.json", "--check", "g"], in: folder).status == 66)
        // A manifest without jobs, or with "-" or in-place outputs, is refused.
        try #"{"jobs":[]}"#.write(toFile: folder + "/empty.json", atomically: true, encoding: .utf8)
        #expect(try runIconbadge(["batch", "empty.json", "--check", "g"], in: folder).status == 65)
        let dash = #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"-"}]}"#
        try dash.write(toFile: folder + "/dash.json", atomically: true, encoding: .utf8)
        #expect(try runIconbadge(["batch", "dash.json", "--check", "g"], in: folder).status == 65)
        let inPlace = #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","in-place":true}]}"#
        try inPlace.write(toFile: folder + "/inplace.json", atomically: true, encoding: .utf8)
        #expect(try runIconbadge(["batch", "inplace.json", "--check", "g"], in: folder).status == 65)
    }

    @Test func updateModesWriteOnlyWhatTheyName() throws {
        let folder = Paths.scratch("update-modes")
        func check(_ value: String, _ extra: [String], environment: [String: String] = [:]) throws -> RunResult {
            try runIconbadge(
                [Self.icon, "--value", value, "--check", "g/icon.png"] + extra, environment: environment, in: folder)
        }
        // changed does not create a missing golden.
        #expect(try check("3", ["--update", "changed"]).status == 66)
        #expect(!FileManager.default.fileExists(atPath: folder + "/g/icon.png"))
        // missing creates it, and says why.
        let created = try check("3", ["--update", "missing"])
        #expect(created.status == 0)
        #expect(created.stdoutText == "new g/icon.png: golden created (it was missing)\n")
        // missing still fails on a changed golden, and leaves it alone.
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/g/icon.png"))
        let stillFails = try check("4", ["--update=missing"])
        #expect(stillFails.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/g/icon.png")) == before)
        // changed rewrites it, naming the difference.
        let updated = try check("4", ["--update", "changed"])
        #expect(updated.status == 0)
        #expect(
            updated.stdoutText.hasPrefix("changed g/icon.png: golden updated: 62 of 2304 pixels differ"),
            "\(updated.stdoutText)")
        // A passing golden is never rewritten (no churn).
        let unchanged = try check("4", ["--update"])
        #expect(unchanged.stdoutText == "passed g/icon.png: unchanged (the golden already matches)\n")
        // ICONBADGE_UPDATE works on a developer's machine...
        let fromVariable = try check("5", [], environment: ["ICONBADGE_UPDATE": "all"])
        #expect(fromVariable.status == 0 && fromVariable.stdoutText.contains(": golden updated: "))
        // ...and is ignored on CI, so the failure shows.
        let onCI = try check("6", ["--artifacts", "art"], environment: ["ICONBADGE_UPDATE": "all", "CI": "true"])
        #expect(onCI.status == 1)
        #expect(onCI.stderr.contains("ICONBADGE_UPDATE=\"all\" is ignored on a CI machine"), "\(onCI.stderr)")
        // --update written in the command works on CI.
        #expect(try check("6", ["--update", "changed"], environment: ["CI": "true"]).status == 0)
        // A bad mode names the modes.
        let bad = try check("6", ["--update=sometimes"])
        #expect(bad.status == 64 && bad.stderr.contains("is not an update mode"))
        let badVariable = try check("6", [], environment: ["ICONBADGE_UPDATE": "sometimes"])
        #expect(badVariable.status == 64 && badVariable.stderr.contains("ICONBADGE_UPDATE"))
    }

    @Test func artifactsGoOutsideTheGoldensAndAreRemovedWhenTheCheckPasses() throws {
        let folder = Paths.scratch("artifacts")
        #expect(
            try runIconbadge([Self.icon, "--value", "3", "--check", "g/icon.png", "--update"], in: folder).status == 0)
        let fails = try runIconbadge([Self.icon, "--value", "4", "--check", "g/icon.png"], in: folder)
        #expect(fails.status == 1)
        #expect(fails.stdoutText.contains("wrote iconbadge-artifacts/icon.png.actual.png"))
        #expect(FileManager.default.fileExists(atPath: folder + "/iconbadge-artifacts/icon.png.diff.png"))
        let goldens = try FileManager.default.contentsOfDirectory(atPath: folder + "/g")
        #expect(goldens == ["icon.png"], "nothing beside the golden")
        // The next passing run removes them: the folder shows the last run.
        let passes = try runIconbadge([Self.icon, "--value", "3", "--check", "g/icon.png"], in: folder)
        #expect(passes.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/iconbadge-artifacts").isEmpty)
        // A link in the artifacts' place is removed itself, never its target.
        try "keep".write(toFile: folder + "/target.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/iconbadge-artifacts/icon.png.actual.png", withDestinationPath: folder + "/target.txt")
        #expect(try runIconbadge([Self.icon, "--value", "3", "--check", "g/icon.png"], in: folder).status == 0)
        #expect(try String(contentsOfFile: folder + "/target.txt", encoding: .utf8) == "keep")
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(
                atPath: folder + "/iconbadge-artifacts/icon.png.actual.png"))
                == nil)
        // A linked artifacts folder is refused (73), not written through.
        try FileManager.default.removeItem(atPath: folder + "/iconbadge-artifacts")
        try FileManager.default.createDirectory(atPath: folder + "/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/iconbadge-artifacts", withDestinationPath: folder + "/elsewhere")
        let linked = try runIconbadge([Self.icon, "--value", "4", "--check", "g/icon.png"], in: folder)
        #expect(linked.status == 73, "\(linked.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/elsewhere").isEmpty)
    }

    /// A golden's pixels reach the artifacts and the HTML report: a golden that is a
    /// link (to any image the CI machine can read) is refused, never read.
    @Test func aGoldenThatIsALinkIsNotRead() throws {
        let folder = Paths.scratch("golden-link")
        #expect(try runIconbadge([Self.icon, "--value", "3", "-o", folder + "/secret.png"]).status == 0)
        try FileManager.default.createDirectory(atPath: folder + "/g", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/g/icon.png", withDestinationPath: "../secret.png")
        let run = try runIconbadge(
            [Self.icon, "--value", "3", "--check", "g/icon.png", "--artifacts", "art"], in: folder)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("is a symbolic link"), "\(run.stderr)")
        let manifest = #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"icon.png"}]}"#
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let batch = try runIconbadge(["batch", "m.json", "--check", "g", "--html", "r/report.html"], in: folder)
        #expect(batch.status == 65, "\(batch.stderr)")
        #expect(
            !((try? FileManager.default.contentsOfDirectory(atPath: folder + "/r/report-assets")) ?? []).contains {
                $0.contains("expected")
            })
        // An update does not write through it either (73), and the target is untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/secret.png"))
        let update = try runIconbadge([Self.icon, "--value", "4", "--check", "g/icon.png", "--update"], in: folder)
        #expect(update.status == 73, "\(update.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/secret.png")) == before)
    }

    @Test func updatesAreIgnoredOnEveryKnownCIAndSayWhy() throws {
        let folder = try goldens()
        for variable in ["CI", "GITHUB_ACTIONS", "JENKINS_URL", "TEAMCITY_VERSION", "CODEBUILD_BUILD_ID", "TF_BUILD"] {
            let run = try runIconbadge(
                [Self.icon, "--value", "4", "--check", "g/icon.png"],
                environment: ["ICONBADGE_UPDATE": "all", variable: "true"], in: folder)
            #expect(run.status == 1, "\(variable): \(run.stdoutText)")
            #expect(run.stderr.contains("(\(variable) is set)"), "\(run.stderr)")
        }
        // CI=false is not CI; an empty SOURCE_DATE_EPOCH is unset, not an error.
        let local = try runIconbadge(
            [Self.icon, "--value", "3", "--check", "g/icon.png"],
            environment: ["ICONBADGE_UPDATE": "all", "CI": "false", "SOURCE_DATE_EPOCH": ""], in: folder)
        #expect(local.status == 0, "\(local.stderr)")
        #expect(local.stdoutText == "passed g/icon.png: unchanged (the golden already matches)\n")
        // An unreadable golden rewritten by an update says so.
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: folder + "/g/icon.png"))
        let rewritten = try runIconbadge(
            [Self.icon, "--value", "3", "--check", "g/icon.png", "--update", "changed"], in: folder)
        #expect(rewritten.status == 0)
        #expect(
            rewritten.stdoutText.contains("golden updated: the old one could not be read: "), "\(rewritten.stdoutText)")
    }
}
