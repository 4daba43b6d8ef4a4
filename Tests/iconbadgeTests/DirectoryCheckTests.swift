import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `compare ACTUAL_DIR EXPECTED_DIR`: pairing, statuses, exit codes, update modes,
/// reports and hostile folders.
@Suite struct DirectoryCheckTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")
    let fm = FileManager.default

    /// `a/` and `e/`: one.png the same, sub/two.png changed, new.png only in a,
    /// gone.png only in e.
    func folders() throws -> String {
        let folder = Paths.scratch("dircheck")
        for (value, path) in [
            ("3", "a/one.png"), ("3", "e/one.png"), ("4", "a/sub/two.png"), ("5", "e/sub/two.png"),
            ("6", "a/new.png"), ("7", "e/gone.png"),
        ] {
            try fm.createDirectory(
                atPath: folder + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(try runIconbadge([Self.icon, "--value", value, "-o", folder + "/" + path]).status == 0)
        }
        return folder
    }

    func json(_ run: RunResult) throws -> JSONValue { try JSONParser().parse(run.stdoutText) }

    @Test func statusesCountsAndExitCodes() throws {
        let folder = try folders()
        let run = try runIconbadge(["compare", "a", "e"], in: folder)
        #expect(run.status == 1)
        #expect(
            run.stdoutText == """
                deleted gone.png: only in e, not produced in a
                new new.png: only in a, no golden in e
                changed sub/two.png: 62 of 2304 pixels differ (2.691%), largest channel difference 207; 1 region, 8 × 10 at 35,5
                compare: 4 images: 1 passed, 1 changed, 1 new, 1 deleted, 0 errors

                """, "\(run.stdoutText)")
        let report = try json(try runIconbadge(["compare", "a", "e", "--json"], in: folder))
        #expect(report["schema"] == .number(1) && report["kind"] == .string("directory"))
        #expect(report["equal"] == .bool(false))
        #expect(report["counts"]?["passed"] == .number(1) && report["counts"]?["total"] == .number(4))
        guard case .array(let images) = report["images"] else { throw CancellationError() }
        #expect(images.map { $0["path"] } == ["gone.png", "new.png", "one.png", "sub/two.png"].map { .string($0) })
        #expect(images.map { $0["status"] } == ["deleted", "new", "passed", "changed"].map { .string($0) })
        #expect(images[3]["comparison"]?["differentPixels"] == .number(62))
        // new and deleted fail by default; --fail-on none keeps only changed failing.
        try fm.removeItem(atPath: folder + "/e/sub/two.png")
        try fm.copyItem(atPath: folder + "/a/sub/two.png", toPath: folder + "/e/sub/two.png")
        #expect(try runIconbadge(["compare", "a", "e"], in: folder).status == 1)
        #expect(try runIconbadge(["compare", "a", "e", "--fail-on", "none"], in: folder).status == 0)
        #expect(try runIconbadge(["compare", "a", "e", "--fail-on", "new"], in: folder).status == 1)
        #expect(try runIconbadge(["compare", "a", "e", "--fail-on", "deleted"], in: folder).status == 1)
        try fm.removeItem(atPath: folder + "/a/new.png")
        #expect(try runIconbadge(["compare", "a", "e", "--fail-on", "new"], in: folder).status == 0)
        // changed always fails.
        #expect(try runIconbadge([Self.icon, "--value", "8", "-o", folder + "/a/one.png"]).status == 0)
        #expect(try runIconbadge(["compare", "a", "e", "--fail-on", "none"], in: folder).status == 1)
        // The comparison options apply to every pair.
        let budget = try runIconbadge(
            ["compare", "a", "e", "--fail-on", "none", "--max-diff-pixels", "100"], in: folder)
        #expect(budget.status == 0, "\(budget.stdoutText)")
    }

    @Test func updateModesCopyTheActualImagesAndNeverDeleteAGolden() throws {
        let folder = try folders()
        let missing = try runIconbadge(["compare", "a", "e", "--update", "missing", "--json"], in: folder)
        #expect(missing.status == 1, "the changed image still fails")
        let report = try json(missing)
        #expect(report["written"] == .array([.object([("path", .string("new.png")), ("reason", .string("missing"))])]))
        #expect(fm.contentsEqual(atPath: folder + "/a/new.png", andPath: folder + "/e/new.png"))
        #expect(!fm.contentsEqual(atPath: folder + "/a/sub/two.png", andPath: folder + "/e/sub/two.png"))
        let changed = try runIconbadge(["compare", "a", "e", "--update", "changed", "--fail-on", "new"], in: folder)
        #expect(changed.status == 0, "\(changed.stdoutText)")
        #expect(changed.stdoutText.contains("changed sub/two.png: golden updated: 62 of 2304"))
        #expect(fm.contentsEqual(atPath: folder + "/a/sub/two.png", andPath: folder + "/e/sub/two.png"))
        // A deleted image's golden stays: removing goldens is the user's act.
        #expect(try runIconbadge(["compare", "a", "e", "--update"], in: folder).status == 1)
        #expect(fm.fileExists(atPath: folder + "/e/gone.png"))
        // On CI the variable is ignored.
        let ci = try runIconbadge(
            ["compare", "a", "e"], environment: ["ICONBADGE_UPDATE": "all", "CI": "1"], in: folder)
        #expect(ci.stderr.contains("is ignored on a CI machine"))
    }

    @Test func reportsJUnitAndArtifacts() throws {
        let folder = try folders()
        let run = try runIconbadge(
            ["compare", "a", "e", "--junit", "r/junit.xml", "--artifacts", "art", "--jobs", "2"], in: folder)
        #expect(run.status == 1)
        let junit = try String(contentsOfFile: folder + "/r/junit.xml", encoding: .utf8)
        #expect(junit.contains("<testsuite name=\"iconbadge compare\" tests=\"4\" failures=\"3\" errors=\"0\">"))
        #expect(junit.contains("<testcase classname=\"iconbadge.golden\" name=\"one.png\"/>"))
        #expect(fm.fileExists(atPath: folder + "/art/sub/two.png.diff.png"))
        #expect(fm.fileExists(atPath: folder + "/art/sub/two.png.actual.png"))
        #expect(run.stdoutText.contains("  wrote art/sub/two.png.actual.png\n  wrote art/sub/two.png.diff.png\n"))
        let diff = try ImageFile.pixels(at: folder + "/art/sub/two.png.diff.png")
        #expect(diff.width == 48 && diff.height == 48)
        // Once the pair passes, its stale diff is removed.
        try fm.removeItem(atPath: folder + "/e/sub/two.png")
        try fm.copyItem(atPath: folder + "/a/sub/two.png", toPath: folder + "/e/sub/two.png")
        #expect(try runIconbadge(["compare", "a", "e", "--artifacts", "art"], in: folder).status == 1)
        #expect(!fm.fileExists(atPath: folder + "/art/sub/two.png.diff.png"))
        #expect(!fm.fileExists(atPath: folder + "/art/sub/two.png.actual.png"))
        // Parallel runs give the same report as one worker.
        let one = try runIconbadge(["compare", "a", "e", "--json", "--jobs", "1"], in: folder)
        let two = try runIconbadge(["compare", "a", "e", "--json", "--jobs", "2"], in: folder)
        #expect(one.stdout == two.stdout)
    }

    @Test func badFoldersAndOptions() throws {
        let folder = try folders()
        let cases: [([String], Int32, String)] = [
            (["compare", "a", "a"], 64, "both are one folder"),
            (["compare", "a", "./a/"], 64, "both are one folder"),
            (["compare", "a", "e/one.png"], 64, "two images or two folders"),
            (["compare", "a", "missing"], 66, "\"missing\": no such folder"),
            (["compare", "nowhere", "e"], 66, "\"nowhere\": no such folder (the folder of fresh images)"),
            (["compare", "a", "e", "--diff", "d.png"], 64, "--artifacts DIR or --html PATH"),
            (["compare", "a/one.png", "e/one.png", "--junit", "j.xml"], 64, "goes with two folders"),
            (["compare", "a", "e", "--fail-on", "neww"], 64, "did you mean new?"),
            (["compare", "a", "e", "--fail-on", "passed"], 64, "not a status that can fail"),
            (["compare", "a", "e", "--html", "report.txt"], 64, "name it NAME.html"),
        ]
        for (arguments, status, message) in cases {
            let run = try runIconbadge(arguments, in: folder)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        // Two folders without an image compare nothing: that is not a pass.
        try fm.createDirectory(atPath: folder + "/x", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: folder + "/y", withIntermediateDirectories: true)
        try "not an image".write(toFile: folder + "/x/notes.txt", atomically: true, encoding: .utf8)
        let empty = try runIconbadge(["compare", "x", "y"], in: folder)
        #expect(empty.status == 66 && empty.stderr.contains("nothing to compare"))
        // An empty actual folder: every golden is deleted, a failure.
        let nothingMade = try runIconbadge(["compare", "x", "e"], in: folder)
        #expect(nothingMade.status == 66)
        #expect(
            nothingMade.stdoutText.hasSuffix("compare: 3 images: 0 passed, 0 changed, 0 new, 3 deleted, 0 errors\n"))
    }

    @Test func hostileFoldersAreReadNotFollowed() throws {
        let folder = try folders()
        // A link posing as an image is skipped with a note, never read.
        try fm.createSymbolicLink(atPath: folder + "/a/passwd.png", withDestinationPath: "/etc/passwd")
        try fm.createSymbolicLink(atPath: folder + "/a/linked", withDestinationPath: folder + "/e")
        // A corrupt image is that pair's error; the others are still compared.
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: folder + "/a/broken.png"))
        try fm.copyItem(atPath: folder + "/e/one.png", toPath: folder + "/e/broken.png")
        // A name with escape sequences is printed escaped.
        let hostile = "red\u{1b}[31m.png"
        try fm.copyItem(atPath: folder + "/e/one.png", toPath: folder + "/a/" + hostile)
        let run = try runIconbadge(["compare", "a", "e", "--json"], in: folder)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("skipped 2 links"), "\(run.stderr)")
        let report = try json(run)
        #expect(report["counts"]?["error"] == .number(1))
        #expect(report["counts"]?["total"] == .number(6))
        #expect(report["skippedLinks"] == .array([.string("a/linked"), .string("a/passwd.png")]))
        let plain = try runIconbadge(["compare", "a", "e"], in: folder)
        #expect(!plain.stdoutText.contains("\u{1b}"))
        #expect(plain.stdoutText.contains("new red\\u{1b}[31m.png: only in a"), "\(plain.stdoutText)")
        #expect(plain.stdoutText.contains("error broken.png: "))
        // An update never writes through a link in the goldens' folder.
        try fm.createDirectory(atPath: folder + "/outside", withIntermediateDirectories: true)
        try fm.removeItem(atPath: folder + "/e/sub/two.png")
        try fm.removeItem(atPath: folder + "/e/sub")
        try fm.createSymbolicLink(atPath: folder + "/e/sub", withDestinationPath: folder + "/outside")
        let update = try runIconbadge(["compare", "a", "e", "--update", "missing"], in: folder)
        #expect(update.status != 0)
        #expect(try fm.contentsOfDirectory(atPath: folder + "/outside").isEmpty)
    }

    @Test func pixelmatchFixturesAsFolders() throws {
        // Three of pixelmatch's images (1a, 1b and 8a), as a goldens folder and a copy
        // with one image swapped.
        let folder = Paths.scratch("dircheck-pixelmatch")
        for side in ["expected", "actual"] {
            try fm.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: true)
            for name in ["1a.png", "1b.png", "8a.png"] {
                let source = try Corpus.path("pixelmatch/" + (side == "actual" && name == "1a.png" ? "1b.png" : name))
                try fm.copyItem(atPath: source, toPath: folder + "/" + side + "/" + name)
            }
        }
        let run = try runIconbadge(
            ["compare", "actual", "expected", "--threshold", "0.05", "--json"], in: folder)
        #expect(run.status == 1)
        let report = try json(run)
        #expect(report["counts"]?["passed"] == .number(2) && report["counts"]?["changed"] == .number(1))
        guard case .array(let images) = report["images"] else { throw CancellationError() }
        // pixelmatch's own count for 1a/1b at threshold 0.05.
        #expect(images[0]["comparison"]?["differentPixels"] == .number(143))
    }

    @Test func aCheckThatComparesNothingOrWritesIntoTheFoldersIsRefused() throws {
        let folder = try folders()
        // No image in both folders: 66 whatever --fail-on says.
        try FileManager.default.createDirectory(atPath: folder + "/empty", withIntermediateDirectories: true)
        let nothing = try runIconbadge(["compare", "empty", "e", "--fail-on", "none"], in: folder)
        #expect(nothing.status == 66, "\(nothing.stderr)")
        #expect(nothing.stderr.contains("nothing was compared"))
        // ...unless an update created the goldens (a first run).
        let mistyped = try runIconbadge(["compare", "a", "fresh"], in: folder)
        #expect(mistyped.status == 66, "a missing goldens folder")
        #expect(
            mistyped.stderrLines == [
                "iconbadge: error: \"fresh\": no such folder (the goldens' folder; --update missing makes it with the goldens)"
            ])
        let first = try runIconbadge(["compare", "a", "fresh", "--update", "missing"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutText.hasSuffix("3 goldens written\n"), "\(first.stdoutText)")
        // Reports and artifacts inside a compared folder, or holding one, are refused.
        for (option, path) in [
            ("--artifacts", "e/art"), ("--artifacts", "."), ("--junit", "e/junit.xml"), ("--html", "a/report.html"),
            ("--junit", "e/sub/two.png"),
        ] {
            let run = try runIconbadge(["compare", "a", "e", option, path], in: folder)
            #expect(run.status == 64, "\(option) \(path): \(run.stderr)")
            #expect(run.stderr.contains("a compared folder"), "\(run.stderr)")
        }
        #expect(try ImageFile.pixels(at: folder + "/e/sub/two.png").width == 48, "the golden is intact")
        // A folder of the user's named like the report's assets is not replaced.
        try FileManager.default.createDirectory(atPath: folder + "/r/report-assets", withIntermediateDirectories: true)
        try "mine".write(toFile: folder + "/r/report-assets/notes.txt", atomically: true, encoding: .utf8)
        let assets = try runIconbadge(["compare", "a", "e", "--html", "r/report.html"], in: folder)
        #expect(assets.status == 73, "\(assets.stderr)")
        #expect(try String(contentsOfFile: folder + "/r/report-assets/notes.txt", encoding: .utf8) == "mine")
        // An image whose name is not UTF-8 is an error, not skipped.
        let raw = Array((folder + "/a/").utf8) + [0x62, 0xFF, 0x2E, 0x70, 0x6E, 0x67]
        let fd = raw.withUnsafeBufferPointer { buffer -> Int32 in
            var bytes = Array(buffer) + [0]
            return bytes.withUnsafeMutableBufferPointer { creat($0.baseAddress!, 0o644) }
        }
        #expect(fd >= 0)
        close(fd)
        let bad = try runIconbadge(["compare", "a", "e", "--json"], in: folder)
        #expect(bad.status == 65)
        let report = try json(bad)
        #expect(report["counts"]?["error"] == .number(1))
        #expect(bad.stdoutText.contains("is not valid UTF-8"))
    }

    @Test func whatCannotBeReadFailsAndWhatIsNoImageIsNeverAGolden() throws {
        let folder = try folders()
        // A path over the system's length limit cannot be listed: an error, not a skip.
        let script = """
            set -e
            for side in a e; do
              cd "$1/$side"
              for i in $(seq 21); do n=$(printf 'x%.0s' $(seq 200)); mkdir "$n"; cd -P "$n"; done
              cp "$2" deep.png
            done
            """
        // bash: dash's cd builds the whole path and fails past PATH_MAX.
        let made = try runIconbadgeWith(executable: "/bin/bash", ["-c", script, "bash", folder, Self.icon])
        #expect(made.status == 0, "\(made.stderr)")
        let deep = try runIconbadge(["compare", "a", "e", "--json"], in: folder)
        #expect(deep.status == 66, "\(deep.stderr)")
        let report = try json(deep)
        #expect(report["counts"]?["error"] == .number(1), "one entry for the unreadable folder, not one per side")
        #expect(deep.stdoutText.contains("the folder cannot be read"))
        let removed = try runIconbadgeWith(
            executable: "/bin/rm",
            [
                "-rf", folder + "/a/" + String(repeating: "x", count: 200),
                folder + "/e/" + String(repeating: "x", count: 200),
            ])
        #expect(removed.status == 0, "\(removed.stderr)")
        // A new file that is no image is not copied in as a golden.
        try Data("hello".utf8).write(to: URL(fileURLWithPath: folder + "/a/fake.png"))
        let update = try runIconbadge(["compare", "a", "e", "--update", "missing", "--fail-on", "none"], in: folder)
        #expect(update.status == 65, "\(update.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/e/fake.png"))
        // Nested folders, a report on standard output and too many rectangles are refused.
        try FileManager.default.createDirectory(atPath: folder + "/e/inner", withIntermediateDirectories: true)
        let nested = try runIconbadge(["compare", "e/inner", "e"], in: folder)
        #expect(nested.status == 64 && nested.stderr.contains("one folder is inside the other"), "\(nested.stderr)")
        #expect(try runIconbadge(["compare", "a", "e", "--junit", "-"], in: folder).status == 64)
        let many = Array(repeating: ["--ignore", "0,0,1,1"], count: 257).flatMap { $0 }
        let tooMany = try runIconbadge(["compare", "a", "e"] + many, in: folder)
        #expect(tooMany.stdoutText.contains("over the limit of 256"), "\(tooMany.stdoutText)")
    }
}

extension DirectoryCheckTests {
    /// `help compare` shows the checks' words, lines and artifact names exactly as a
    /// run prints them.
    @Test func helpShowsTheLinesAsARunPrintsThem() throws {
        let folder = Paths.scratch("dircheck-help")
        var made: [(String, String)] = [("4", "renders/icons/a.png"), ("5", "goldens/icons/a.png")]
        for name in ["b", "c", "d", "e"] {
            made += [("3", "renders/icons/\(name).png"), ("3", "goldens/icons/\(name).png")]
        }
        for (value, path) in made {
            try fm.createDirectory(
                atPath: folder + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(try runIconbadge([Self.icon, "--value", value, "-o", folder + "/" + path]).status == 0)
        }
        let run = try runIconbadge(["compare", "renders", "goldens", "--artifacts", "out/artifacts"], in: folder)
        #expect(run.status == 1)
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        let help = try runIconbadge(["help", "compare"]).stdoutText
        for line in lines { #expect(help.contains("\n  " + line + "\n"), "help compare lacks \(line)") }
    }
}
