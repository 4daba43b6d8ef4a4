import BadgeCore
import BadgeRender
import BadgeSystem
import Foundation
import TestSupport
import Testing

/// `iconbadge batch`: validation first, parallel renders identical to single runs,
/// failures isolated.
@Suite struct BatchEndToEndTests {
    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// ~50 jobs: four icons (PNG and SVG), several values and looks, three scales.
    static func manyJobs(into folder: String) throws -> (manifest: String, singles: [[String]]) {
        let icons = [
            Paths.fixture("icons/folder-48x48.png"), Paths.fixture("icons/user-trash-256x256.png"),
            try Corpus.path("icons/papirus-svg/firefox.svg"), Paths.fixture("icons/folder-132x132.png"),
        ]
        let looks: [[String]] = [
            ["--value", "3", "--overflow", "expand"], ["--value", "150", "--overflow", "clip"],
            ["--value", "NEW", "--background", "#007AFF", "--overflow", "expand"], ["--dot"],
            ["--value", "7", "--anchor", "bottom-left", "--overflow", "expand"],
        ]
        var jobs: [String] = []
        var singles: [[String]] = []
        var n = 0
        for icon in icons {
            for look in looks {
                for scale in ["1", "2"] {
                    let output = "\(folder)/job\(n).png"
                    var keys = ["\"icon\": \"\(icon)\"", "\"output\": \"\(output)\"", "\"scale\": \(scale)"]
                    var i = 0
                    while i < look.count {
                        let key = String(look[i].dropFirst(2))
                        if i + 1 < look.count, !look[i + 1].hasPrefix("--") {
                            keys.append("\"\(key)\": \"\(look[i + 1])\"")
                            i += 2
                        } else {
                            keys.append("\"\(key)\": true")
                            i += 1
                        }
                    }
                    jobs.append("{" + keys.joined(separator: ", ") + "}")
                    singles.append([icon] + look + ["--scale", scale, "-o", output + ".single.png"])
                    n += 1
                }
            }
        }
        return ("{\"jobs\": [\n" + jobs.joined(separator: ",\n") + "\n]}", singles)
    }

    @Test func outputsEqualSingleRunsByteForByte() throws {
        let folder = Paths.scratch("batch-many")
        let (manifest, singles) = try Self.manyJobs(into: folder)
        #expect(singles.count >= 36)
        try write(manifest, to: folder + "/manifest.json")
        let run = try runIconbadge(["batch", folder + "/manifest.json", "--jobs", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        // The summary, after the one contrast note of the run (blue badges on blue icons).
        #expect(run.stderrLines.count == 2, "\(run.stderr)")
        #expect(run.stderrLines.first?.contains("is close in colour to the icon around it") == true)
        #expect(
            run.stderrLines.last?.hasPrefix(
                "iconbadge: batch: \(singles.count) renders, \(singles.count) written, 0 failed")
                == true)
        for (n, single) in singles.enumerated() {
            #expect(try runIconbadge(single).status == 0)
            let batch = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/job\(n).png"))
            let alone = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/job\(n).png.single.png"))
            #expect(batch == alone, "job \(n): \(single)")
        }
    }

    @Test func everyJobIsValidatedBeforeAnyIsWritten() throws {
        let folder = Paths.scratch("batch-validate")
        let icon = Paths.fixture("icons/folder-48x48.png")
        let cases: [(String, String)] = [
            (
                "{\"jobs\": [{\"icon\": \"\(icon)\", \"value\": \"1\", \"output\": \"\(folder)/a.png\"}, {\"icon\": \"\(icon)\", \"value\": \"2\", \"output\": \"\(folder)/b.png\", \"backgrund\": \"red\"}]}",
                "jobs[1]: unknown key \"backgrund\" (did you mean background?)"
            ),
            (
                "{\"jobs\": [{\"icon\": \"\(icon)\", \"value\": \"1\", \"output\": \"\(folder)/a.png\", \"font-size\": -3}]}",
                "jobs[0].font-size: \"-3\" must be greater than 0"
            ),
            (
                "{\"jobs\": [{\"icon\": \"\(icon)\", \"value\": \"1\", \"output\": \"\(folder)/a.png\", \"height\": 1e400}]}",
                "not valid JSON: line 1, column"
            ),
            (
                "{\"jobs\": [{\"icon\": \"\(icon)\", \"value\": \"1\", \"output\": \"\(folder)/a.png\", \"scale\": NaN}]}",
                "not valid JSON: line 1, column"
            ),
            (
                "{\"jobs\": [{\"icon\": \"\(icon)\", \"value\": \"1\", \"output\": \"\(folder)/a.png\"}, {\"icon\": \"\(icon)\", \"value\": \"2\", \"output\": \"\(folder)/a.png\"}]}",
                "jobs[0] and jobs[1] both write"
            ),
            ("{\"jobs\": [{\"icon\": \"\(icon)\", \"value\": \"1\"}]}", "jobs[0]: has no \"output\""),
            (
                "{\"jobs\": [{\"icon\": \"\(icon)\", \"value\": \"1\", \"output\": \"\(icon)\"}]}",
                "would overwrite an input"
            ),
            ("{\"jobs\": 3}", "\"jobs\" must be an array of objects"),
            (String(repeating: "[", count: 100_000), "nesting deeper than 32 levels"),
        ]
        for (manifest, message) in cases {
            try write(manifest, to: folder + "/m.json")
            let run = try runIconbadge(["batch", folder + "/m.json"])
            #expect(run.status == 65, "\(message): \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
            #expect(try files(in: folder) == ["m.json"], "something was written for \(message)")
        }
    }

    @Test func byteOrderMarkIsAccepted() throws {
        let folder = Paths.scratch("batch-bom")
        let manifest =
            "\u{FEFF}{\"jobs\": [{\"icon\": \"\(Paths.fixture("icons/folder-48x48.png"))\", \"value\": \"1\", \"output\": \"\(folder)/a.png\"}]}"
        try write(manifest, to: folder + "/m.json")
        #expect(try runIconbadge(["batch", folder + "/m.json"]).status == 0)
    }

    @Test func aFailingJobDoesNotStopTheOthers() throws {
        let folder = Paths.scratch("batch-failure")
        let icon = Paths.fixture("icons/folder-48x48.png")
        let corrupt = try Corpus.path("pngsuite/xcsn0g01.png")
        let manifest = """
            {"defaults": {"value": "5"},
             "jobs": [
               {"icon": "\(icon)", "output": "\(folder)/0.png"},
               {"icon": "\(folder)/missing.png", "output": "\(folder)/1.png"},
               {"icon": "\(corrupt)", "output": "\(folder)/2.png"},
               {"icon": "\(icon)", "output": "\(folder)/3.png"}
             ]}
            """
        try write(manifest, to: folder + "/m.json")
        let run = try runIconbadge(["batch", folder + "/m.json"])
        #expect(run.status == 66, "the first failure's code: \(run.stderr)")
        #expect(run.stderrLines.count == 3)
        #expect(run.stderrLines[0].hasPrefix("iconbadge: error: jobs[1] (\(folder)/1.png): "))
        #expect(run.stderrLines[1].contains("jobs[2]") && run.stderrLines[1].contains("CRC error"))
        #expect(run.stderrLines[2].hasPrefix("iconbadge: batch: 4 renders, 2 written, 2 failed"))
        #expect(try files(in: folder) == ["0.png", "3.png", "m.json"])
        let quiet = try runIconbadge(["batch", folder + "/m.json", "--quiet"])
        #expect(quiet.stderrLines.count == 2)
    }

    @Test func scalesAndTemplatesFromStandardInput() throws {
        let folder = Paths.scratch("batch-scales")
        let firefox = try Corpus.path("icons/papirus-svg/firefox.svg")
        let lines = """
            {"icon": "\(Paths.fixture("icons/folder-48x48.png"))", "value": "3", "output": "\(folder)/{name}{@scale}.{ext}"}
            {"icon": "\(firefox)", "value": "9", "output": "\(folder)/{name}-{scale}x.png", "scales": [1, 2]}
            """
        let run = try runIconbadge(["batch", "-", "--scales", "1,2,3"], stdin: Data(lines.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try files(in: folder) == [
                "firefox-1x.png", "firefox-2x.png", "folder-48x48.png", "folder-48x48@2x.png", "folder-48x48@3x.png",
            ])
        #expect(try ImageFile.pixels(at: "\(folder)/folder-48x48@3x.png").width == 144)
        #expect(try ImageFile.pixels(at: "\(folder)/firefox-2x.png").width == 128)
        let single = try runIconbadge([
            Paths.fixture("icons/folder-48x48.png"), "--value", "3", "--scales", "1,2", "-o", "\(folder)/one.png",
        ])
        #expect(single.status == 64)
        #expect(single.stderr.contains("-o: \"\(folder)/one.png\" needs {scale} or {@scale}"), "\(single.stderr)")
        let templated = try runIconbadge([
            Paths.fixture("icons/folder-48x48.png"), "--value", "3", "--scales", "1,2", "-o", "\(folder)/r{@scale}.png",
        ])
        #expect(templated.status == 0, "\(templated.stderr)")
        #expect(try ImageFile.pixels(at: "\(folder)/r@2x.png").width == 96)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: "\(folder)/r@2x.png"))
                == (try Data(contentsOf: URL(fileURLWithPath: "\(folder)/folder-48x48@2x.png"))))
        // A --scale beside --scales would be silently overridden: refused, nothing written.
        let both = try runIconbadge([
            Paths.fixture("icons/folder-48x48.png"), "--value", "3", "--scale", "2", "--scales", "1,2", "-o",
            "\(folder)/both{@scale}.png",
        ])
        #expect(both.status == 64)
        #expect(
            both.stderr
                == "iconbadge: error: --scale and --scales both set the scale; give one (--scales 1,2,3 renders at each)\n"
        )
        let job =
            "{\"icon\": \"\(Paths.fixture("icons/folder-48x48.png"))\", \"value\": \"3\", \"scale\": 2, \"output\": \"\(folder)/job{@scale}.png\"}"
        let withFlag = try runIconbadge(["batch", "-", "--scales", "1,2"], stdin: Data(job.utf8))
        #expect(withFlag.status == 65)
        #expect(withFlag.stderr.contains("jobs[0].scale: conflicts with --scales: give one"), "\(withFlag.stderr)")
        let twoKeys = job.replacingOccurrences(of: "\"scale\": 2", with: "\"scale\": 2, \"scales\": [1, 2]")
        let withKey = try runIconbadge(["batch", "-"], stdin: Data(twoKeys.utf8))
        #expect(withKey.status == 65)
        #expect(withKey.stderr.contains("jobs[0].scale: conflicts with \"scales\": give one"), "\(withKey.stderr)")
        #expect(try files(in: folder).filter { $0.hasPrefix("both") || $0.hasPrefix("job") }.isEmpty)
    }

    /// A manifest names its output tree, and CI options their report folders: the
    /// missing folders are made; a file in the way is exit 73 naming it.
    @Test func missingFoldersAreMade() throws {
        let folder = Paths.scratch("batch-folders")
        let icon = Paths.fixture("icons/folder-48x48.png")
        try write(
            "{\"jobs\": [{\"icon\": \"\(icon)\", \"value\": \"3\", \"output\": \"\(folder)/out/a/b/x.png\"}]}",
            to: folder + "/m.json")
        let run = try runIconbadge(["batch", folder + "/m.json", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(InputFile.isRegularFile(folder + "/out/a/b/x.png"))

        // A golden check whose artifacts and report go to folders that do not exist.
        try FileManager.default.createDirectory(atPath: folder + "/goldens/out/a/b", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: icon, toPath: folder + "/goldens/out/a/b/x.png")
        try write(
            "{\"jobs\": [{\"icon\": \"\(icon)\", \"value\": \"3\", \"output\": \"out/a/b/x.png\"}]}",
            to: folder + "/check.json")
        let check = try runIconbadge(
            [
                "batch", "check.json", "--check", "goldens", "--artifacts", "ci/artifacts", "--junit",
                "ci/reports/junit.xml", "--quiet",
            ], in: folder)
        #expect(check.status == 1, "\(check.stderr)")
        #expect(InputFile.isRegularFile(folder + "/ci/reports/junit.xml"))
        #expect(try files(in: folder + "/ci/artifacts/out/a/b") == ["x.png.actual.png", "x.png.diff.png"])

        try write("", to: folder + "/file")
        try write(
            "{\"jobs\": [{\"icon\": \"\(icon)\", \"value\": \"3\", \"output\": \"\(folder)/file/x.png\"}]}",
            to: folder + "/blocked.json")
        let blocked = try runIconbadge(["batch", folder + "/blocked.json", "--quiet"])
        #expect(blocked.status == 73)
        #expect(blocked.stderr.contains("cannot make folder \"\(folder)/file\": it is a file, not a folder"))
    }

    /// Relative paths start from the working folder: run from elsewhere, the missing
    /// icons get one note saying where they were looked for.
    @Test func missingRelativeIconsSayWherePathsStart() throws {
        let folder = Paths.scratch("batch-relative")
        try FileManager.default.createDirectory(atPath: folder + "/app", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.fixture("icons/folder-48x48.png"), toPath: folder + "/app/i.png")
        try #"{"jobs":[{"icon":"i.png","value":"3","output":"o.png"}]}"#
            .write(toFile: folder + "/app/m.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(["batch", "app/m.json", "--quiet"], in: folder)
        #expect(run.status == 66)
        #expect(run.stderrLines.count == 2, "\(run.stderr)")
        #expect(
            run.stderrLines.last?.hasPrefix(
                "iconbadge: note: a manifest's relative paths start from the working folder, \"") == true)
        #expect(try runIconbadge(["batch", "m.json", "--quiet"], in: folder + "/app").status == 0)
    }
}
