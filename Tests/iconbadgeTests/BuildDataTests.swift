import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Build data in labels: `--text` (a number as text), `batch --set KEY=VALUE` and
/// `${NAME}` from the variables `--env` names.
@Suite struct BuildDataTests {
    static let icon = Paths.fixture("icons/folder-132x132.png")

    /// The badge's label in `--report`.
    func label(_ arguments: [String]) throws -> String? {
        let run = try runIconbadge([Self.icon] + arguments + ["--report"])
        #expect(run.status == 0, "\(run.stderr)")
        return try ReportJSON(run.stdoutText).string("badge", "label")
    }

    @Test func textIsDrawnAsWrittenNeverAsACount() throws {
        #expect(try label(["--value", "1234"]) == "99+")
        #expect(try label(["--text", "1234"]) == "1234")
        #expect(try label(["--value", "0042"]) == "42")
        #expect(try label(["--text", "0042"]) == "0042")
        #expect(try label(["--text", "0"]) == "0", "a text 0 is drawn; only a count of 0 hides the badge")
        let empty = try runIconbadge([Self.icon, "--text", "", "--report"])
        #expect(empty.status == 0 && empty.stdoutText.contains("\"hidden\""), "\(empty.stdoutText)")
        let both = try runIconbadge([Self.icon, "--value", "3", "--text", "3", "-o", Paths.scratch("both") + "/x.png"])
        #expect(both.status == 64 && both.stderr.contains("--value, --text, --dot and --image are exclusive"))
    }

    @Test func setAndVariablesReachEveryJob() throws {
        let folder = Paths.scratch("build-data")
        let manifest = """
            {"defaults": {"icon": "\(Self.icon)"},
             "jobs": [{"value": "3", "output": "a.png"}, {"text": "b${BUILD}", "output": "b-{value}.png"}]}
            """
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        // ${BUILD} is read only when the command names it.
        let unnamed = try runIconbadge(["batch", "m.json"], environment: ["BUILD": "0042"], in: folder)
        #expect(unnamed.status == 65)
        #expect(unnamed.stderr.contains("jobs[1].text: ${BUILD} is not a variable the command lets the manifest read"))
        let unset = try runIconbadge(["batch", "m.json", "--env", "BUILD"], in: folder)
        #expect(unset.status == 65 && unset.stderr.contains("${BUILD} is not set"), "\(unset.stderr)")
        let named = try runIconbadge(["batch", "m.json", "--env", "BUILD"], environment: ["BUILD": "0042"], in: folder)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/b-b0042.png"))
        // --set replaces a key in every job; a content key replaces the job's content.
        let set = try runIconbadge(
            ["batch", "m.json", "--env", "BUILD", "--set", "text=7", "--set", "output={value}-{name}.png"],
            environment: ["BUILD": "1"], in: folder)
        #expect(set.status == 65, "two jobs now write one file: \(set.stderr)")
        let one = try runIconbadge(
            ["batch", "m.json", "--env", "BUILD", "--set", "text=7"], environment: ["BUILD": "1"], in: folder)
        #expect(one.status == 0, "\(one.stderr)")
        let a = try ImageFile.pixels(at: folder + "/a.png")
        let seven = try Renderer().compose(RenderRequest(iconPath: Self.icon, content: .value("7"))).pixels()
        #expect(a == seven, "job 0's value 3 was replaced by the text 7")
        // A literal ${ is written $${; bad forms are refused.
        #expect(try runIconbadge(["batch", "m.json", "--set", "nonsense"], in: folder).status == 64)
        #expect(try runIconbadge(["batch", "m.json", "--env", "1BAD"], in: folder).status == 64)
        let literal = #"{"jobs":[{"icon":"\#(Self.icon)","text":"$${X}","output":"lit.png"}]}"#
        try literal.write(toFile: folder + "/l.json", atomically: true, encoding: .utf8)
        let lit = try runIconbadge(["batch", "l.json", "--set", "report=true"], in: folder)
        #expect(lit.status == 65, "report is a per-run flag, not a manifest key")
        #expect(try runIconbadge(["batch", "l.json"], in: folder).status == 0)
        let open = #"{"jobs":[{"icon":"\#(Self.icon)","text":"${X","output":"o.png"}]}"#
        try open.write(toFile: folder + "/o.json", atomically: true, encoding: .utf8)
        let unclosed = try runIconbadge(["batch", "o.json", "--env", "X"], environment: ["X": "1"], in: folder)
        #expect(unclosed.status == 65 && unclosed.stderr.contains("is not closed"))
    }
}
