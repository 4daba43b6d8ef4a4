import BadgeCore
import BadgeJobs
import BadgeRender
import Foundation
import TestSupport
import Testing

/// A check split across CI jobs: `--shard K/N`, `--results`, and `merge-reports`, which
/// must give the unsplit run's statuses, JUnit cases, regions, page and exit code, on
/// real icons and on odiff's screenshots (Fixtures/screenshots).
@Suite struct ShardMergeTests {
    let fm = FileManager.default

    /// `a/` and `e/` of real icon renders: 14 images in two folders, two changed, one new,
    /// one deleted (so that each of three shards gets some).
    func iconFolders() throws -> String {
        let folder = Paths.scratch("shards-icons")
        let icons = ["folder-48x48.png", "user-trash-32x32.png", "app-ios-180.png", "folder-44x44.png"]
        var made: [(String, String, String)] = []
        for (number, icon) in icons.enumerated() {
            for value in ["1", "7", "42"] {
                let name = "\(number < 2 ? "toolbar" : "app")/\(icon.prefix(6))-\(value).png"
                // Two changed: the actual's badge says another number.
                let changed = (number == 1 && value == "7") || (number == 2 && value == "42")
                made.append((icon, changed ? "8" : value, "a/" + name))
                made.append((icon, value, "e/" + name))
            }
        }
        made.append(("folder-48x48.png", "NEW", "a/toolbar/added.png"))
        made.append(("app-watch-196.png", "3", "e/app/removed.png"))
        for (icon, value, path) in made {
            try fm.createDirectory(
                atPath: folder + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let run = try runIconbadge([Paths.fixture("icons/" + icon), "--value", value, "-o", folder + "/" + path])
            #expect(run.status == 0, "\(run.stderr)")
        }
        return folder
    }

    /// odiff's screenshot crops, copied so that the runs write beside them.
    func screenshotFolders() throws -> String {
        let folder = Paths.scratch("shards-screens")
        for side in ["actual", "expected"] {
            try fm.copyItem(atPath: Paths.fixture("screenshots/" + side), toPath: folder + "/" + side)
        }
        return folder
    }

    /// The `<testcase …>` lines of a JUnit file with their failure or error line, without
    /// the `<system-out>` that names a run's own artifacts folder.
    func junitCases(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init).filter {
            !$0.contains("<system-out>")
        }
    }

    /// `{path: (status, regions)}` of a results file or a `compare --json` report's images.
    func statuses(_ json: JSONValue, items: String) -> [String: String] {
        guard case .array(let list) = json[items] else { return [:] }
        var found: [String: String] = [:]
        for item in list {
            guard case .string(let path) = item["path"], case .string(let status) = item["status"] else { continue }
            let regions = item["comparison"]?["regions"].map { $0.serialized() } ?? "none"
            found[path] = status + " " + regions
        }
        return found
    }

    func read(_ path: String) throws -> JSONValue {
        try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    func files(_ folder: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for name in try fm.contentsOfDirectory(atPath: folder) {
            found[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return found
    }

    /// Runs the unsplit check and three shards of `actual` against `expected` in
    /// `folder`, merges them (in two orders), and expects the unsplit run's results.
    func expectMergeEqualsUnsplit(_ folder: String, _ actual: String, _ expected: String, total: Int) throws {
        let whole = try runIconbadge(
            [
                "compare", actual, expected, "--html", "whole/report.html", "--junit", "whole/junit.xml",
                "--results", "whole/results.json", "--artifacts", "whole",
            ], in: folder)
        #expect(whole.status == 1, "\(whole.stderr)")
        let json = try runIconbadge(["compare", actual, expected, "--json"], in: folder)
        var seen = 0
        for k in 1...3 {
            let shard = try runIconbadge(
                [
                    "compare", actual, expected, "--shard", "\(k)/3", "--artifacts", "shard-\(k)", "--html",
                    "shard-\(k)/report.html", "--results", "shard-\(k)/results.json",
                ], in: folder)
            #expect([0, 1].contains(shard.status), "\(shard.stderr)")
            let results = try read(folder + "/shard-\(k)/results.json")
            #expect(results["shard"]?["count"] == .number(3) && results["total"] == .number(Double(total)))
            guard case .array(let items) = results["items"] else { throw TestFailure(description: "no items") }
            seen += items.count
        }
        #expect(seen == total, "the shards are disjoint and cover every image")
        let merged = try runIconbadge(
            [
                "merge-reports", "shard-3/results.json", "shard-1/results.json", "shard-2/results.json", "--html",
                "merged/report.html", "--junit", "merged/junit.xml",
            ], in: folder)
        #expect(merged.status == whole.status, "\(merged.stderr)")
        // The same lines (artifacts aside, which name each run's folder) and counts.
        let lines = { (run: RunResult) in run.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("  wrote ") } }
        #expect(lines(merged).dropLast() == lines(whole).dropLast())
        #expect(merged.stdoutText.hasSuffix(" (3 shards merged)\n"))
        // Statuses and regions: the merged results equal the unsplit run's.
        let wholeResults = try read(folder + "/whole/results.json")
        var shardStatuses: [String: String] = [:]
        for k in 1...3 {
            shardStatuses.merge(statuses(try read(folder + "/shard-\(k)/results.json"), items: "items")) { a, _ in a }
        }
        #expect(shardStatuses.count == total)
        #expect(shardStatuses.values.contains { $0.hasPrefix("changed [{\"x\":") }, "regions are compared")
        #expect(shardStatuses == statuses(wholeResults, items: "items"))
        #expect(shardStatuses == statuses(try JSONParser().parse(json.stdoutText), items: "images"))
        // The same JUnit cases, and the same page and images, byte for byte.
        let cases = try junitCases(folder + "/merged/junit.xml")
        let wholeCases = try junitCases(folder + "/whole/junit.xml")
        #expect(cases.filter { $0.contains("<testcase ") }.count == total)
        #expect(cases == wholeCases)
        let page = fm.contents(atPath: folder + "/merged/report.html")
        #expect(page != nil && page == fm.contents(atPath: folder + "/whole/report.html"))
        let assets = try files(folder + "/merged/report-assets")
        let wholeAssets = try files(folder + "/whole/report-assets")
        #expect(assets.count > total && assets == wholeAssets)
        // Another order gives the same bytes.
        let again = try runIconbadge(
            [
                "merge-reports", "shard-2/results.json", "shard-3/results.json", "shard-1/results.json", "--html",
                "again/report.html", "--junit", "again/junit.xml",
            ], in: folder)
        #expect(again.stdout == merged.stdout && again.status == merged.status)
        #expect(
            fm.contents(atPath: folder + "/again/report.html") == fm.contents(atPath: folder + "/merged/report.html"))
        #expect(fm.contents(atPath: folder + "/again/junit.xml") == fm.contents(atPath: folder + "/merged/junit.xml"))
    }

    @Test func threeShardsOfRealIconsMergeIntoTheUnsplitRun() throws {
        let folder = try iconFolders()
        try expectMergeEqualsUnsplit(folder, "a", "e", total: 14)
    }

    @Test func threeShardsOfOdiffScreenshotsMergeIntoTheUnsplitRun() throws {
        let folder = try screenshotFolders()
        // The fixture's own count first: 10 images (3 passed, 5 changed, 1 new, 1 deleted).
        let listed = try runIconbadge(["compare", "actual", "expected"], in: folder)
        #expect(listed.stdoutText.hasSuffix("compare: 10 images: 3 passed, 5 changed, 1 new, 1 deleted, 0 errors\n"))
        try expectMergeEqualsUnsplit(folder, "actual", "expected", total: 10)
    }

    @Test func theSplitIsAStableHashOfThePath() {
        // FNV-1a 64's published values (draft-eastlake-fnv): "" and "a".
        #expect(Shard.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.hash("foobar") == 0x8594_4171_f739_67e8)
        let paths = (0..<500).map { "icons/\($0 % 7)/icon-\($0).png" }
        for n in [1, 2, 3, 7] {
            let parts = (1...n).map { k in paths.filter { Shard(index: k, count: n).contains($0) } }
            #expect(parts.map(\.count).reduce(0, +) == paths.count, "disjoint and complete for N = \(n)")
            #expect(Set(parts.flatMap { $0 }).count == paths.count)
            if n > 1 { #expect(parts.allSatisfy { !$0.isEmpty }) }
        }
    }

    @Test func badShardsAreUsageErrorsOfOneLine() throws {
        let folder = try iconFolders()
        for value in ["0/3", "4/3", "1/0", "two/3", "1/3/3", "", "-1/3", "1/1001", "１/3"] {
            let run = try runIconbadge(["compare", "a", "e", "--shard", value], in: folder)
            #expect(run.status == 64, "\(value)")
            #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("iconbadge: error: --shard"), "\(run.stderr)")
            let batch = try runIconbadge(["batch", "m.json", "--shard", value], in: folder)
            #expect(batch.status == 64, "\(value)")
        }
        let message = try runIconbadge(["compare", "a", "e", "--shard", "4/3"], in: folder)
        #expect(message.stderr.contains("has no part 4 of 3; give K from 1 to 3"), "\(message.stderr)")
        let zero = try runIconbadge(["compare", "a", "e", "--shard", "1/0"], in: folder)
        #expect(zero.stderr.contains("give N from 1 to 1000"), "\(zero.stderr)")
    }

    @Test func aShardWithNothingToDoPassesAndSaysSo() throws {
        let folder = Paths.scratch("shards-empty")
        for side in ["a", "e"] {
            try fm.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: true)
            #expect(
                try runIconbadge([
                    Paths.fixture("icons/folder-48x48.png"), "--value", "3", "-o", "\(folder)/\(side)/x.png",
                ])
                .status == 0)
        }
        // One image, three parts: two of them are empty.
        var empty = 0
        for k in 1...3 {
            let run = try runIconbadge(
                ["compare", "a", "e", "--shard", "\(k)/3", "--results", "r\(k)/results.json"], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            if run.stderr.contains("note: shard \(k)/3: none of the 1 image falls in this shard") { empty += 1 }
        }
        #expect(empty == 2)
        // Their results still merge into the run.
        let merged = try runIconbadge(
            ["merge-reports", "r1/results.json", "r2/results.json", "r3/results.json"], in: folder)
        #expect(
            merged.status == 0
                && merged.stdoutText.hasSuffix(
                    "1 image: 1 passed, 0 changed, 0 new, 0 deleted, 0 errors (3 shards merged)\n")
        )
    }

    /// Results of shards 1/3 and 2/3, made once for the refusal tests.
    func shardResults() throws -> String {
        let folder = try iconFolders()
        for (k, n) in [(1, 3), (2, 3), (3, 3), (1, 2)] {
            _ = try runIconbadge(
                [
                    "compare", "a", "e", "--shard", "\(k)/\(n)", "--artifacts", "s\(k)of\(n)", "--html",
                    "s\(k)of\(n)/report.html", "--results", "s\(k)of\(n)/results.json",
                ], in: folder)
        }
        return folder
    }

    @Test func mergeRefusesShardsThatAreNotOneRun() throws {
        let folder = try shardResults()
        func merge(_ files: [String]) throws -> RunResult { try runIconbadge(["merge-reports"] + files, in: folder) }
        // Shards of another N: 65, naming both.
        let otherN = try merge(["s1of3/results.json", "s1of2/results.json", "s2of3/results.json", "s3of3/results.json"])
        #expect(otherN.status == 65, "\(otherN.stderr)")
        #expect(otherN.stderrLines.count == 1)
        #expect(otherN.stderr.contains("\"s1of2/results.json\"") && otherN.stderr.contains("\"s1of3/results.json\""))
        // The same shard twice (one file, or a copy): 65, naming both.
        try fm.copyItem(atPath: folder + "/s2of3", toPath: folder + "/copy")
        let twice = try merge(["s1of3/results.json", "s2of3/results.json", "copy/results.json", "s3of3/results.json"])
        #expect(twice.status == 65, "\(twice.stderr)")
        #expect(twice.stderr.contains("holds shard 2/3's results, as does"), "\(twice.stderr)")
        #expect(twice.stderr.contains("\"copy/results.json\"") && twice.stderr.contains("\"s2of3/results.json\""))
        // A shard missing: 66, naming it.
        let missing = try merge(["s1of3/results.json", "s3of3/results.json"])
        #expect(missing.status == 66 && missing.stderr.contains("shard 2/3 are missing"), "\(missing.stderr)")
        // Another run (other comparison settings): 65.
        _ = try runIconbadge(
            ["compare", "a", "e", "--shard", "2/3", "--tolerance", "3", "--results", "tolerant/results.json"],
            in: folder)
        let otherRun = try merge(["s1of3/results.json", "tolerant/results.json", "s3of3/results.json"])
        #expect(otherRun.status == 65 && otherRun.stderr.contains("comes from another run than"), "\(otherRun.stderr)")
    }

    @Test func mergeRefusesFilesThatAreNotResults() throws {
        let folder = try shardResults()
        let report = try runIconbadge(["compare", "a", "e", "--json"], in: folder)
        try report.stdout.write(to: URL(fileURLWithPath: folder + "/report.json"))
        let geometry = try runIconbadge(
            [Paths.fixture("icons/folder-48x48.png"), "--value", "3", "--report", "-o", "x.png"], in: folder)
        try geometry.stdout.write(to: URL(fileURLWithPath: folder + "/geometry.json"))
        try #"{"name":"some other tool","version":2}"#.write(
            toFile: folder + "/other.json", atomically: true, encoding: .utf8)
        try "not json at all".write(toFile: folder + "/text.json", atomically: true, encoding: .utf8)
        let newer = try String(contentsOfFile: folder + "/s1of3/results.json", encoding: .utf8)
            .replacingOccurrences(of: #"{"schema":1,"kind":"results""#, with: #"{"schema":2,"kind":"results""#)
        try newer.write(toFile: folder + "/newer.json", atomically: true, encoding: .utf8)
        let older = newer.replacingOccurrences(of: #"{"schema":2,"#, with: #"{"schema":0,"#)
        try older.write(toFile: folder + "/older.json", atomically: true, encoding: .utf8)
        for (file, message) in [
            ("report.json", "is a compare --json report, not a results file"),
            ("geometry.json", "is a geometry report (--report), not a results file"),
            ("other.json", "is not an iconbadge results file"),
            ("text.json", "is not an iconbadge results file (not JSON"),
            ("newer.json", "was written by a newer iconbadge (results schema 2"),
            ("older.json", "is not an iconbadge results file (its \"schema\""),
        ] {
            let run = try runIconbadge(["merge-reports", "s1of3/results.json", file], in: folder)
            #expect(run.status == 65, "\(file): \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(file): \(run.stderr)")
            #expect(run.stderr.contains("\"\(file)\": \(message)"), "\(file): \(run.stderr)")
        }
        // An image path that leaves its folder is bad data, not a file read.
        let escaping = try String(contentsOfFile: folder + "/s1of3/results.json", encoding: .utf8)
            .replacingOccurrences(of: #""actual":"report-assets/"#, with: #""actual":"../../../etc/"#)
        try fm.createDirectory(atPath: folder + "/escape", withIntermediateDirectories: true)
        try escaping.write(toFile: folder + "/escape/results.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(
            ["merge-reports", "escape/results.json", "s2of3/results.json", "s3of3/results.json", "--html", "m/r.html"],
            in: folder)
        #expect(run.status == 65 && run.stderr.contains("outside its folder"), "\(run.stderr)")
    }

    /// A results file may come from a pull request's job: its messages reach the
    /// terminal and the CI log escaped, one line each, never as escape sequences or a
    /// forged `::error` line.
    @Test func aHostileResultsMessageIsPrintedEscaped() throws {
        let folder = try shardResults()
        var forged = 0
        for k in 1...3 {
            let path = folder + "/s\(k)of3/results.json"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let hostile = text.replacingOccurrences(
                of: #""status":"changed","fails":true,"message":""#,
                with:
                    #""status":"changed","fails":true,"message":"\u001b[2J\u001b]0;pwned\u0007\n::error file=x::forged\r"#
            )
            if hostile != text { forged += 1 }
            try hostile.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(forged > 0, "a shard holds a changed image")
        let run = try runIconbadge(
            ["merge-reports", "s1of3/results.json", "s2of3/results.json", "s3of3/results.json"], in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(
            !run.stdoutText.contains("\u{1b}") && !run.stdoutText.contains("\u{7}") && !run.stdoutText.contains("\r"))
        #expect(!run.stdoutText.split(separator: "\n").contains { $0.hasPrefix("::error") }, "\(run.stdoutText)")
        #expect(run.stdoutText.contains(#"\u{1b}[2J\u{1b}]0;pwned\u{7} ::error file=x::forged"#), "\(run.stdoutText)")
    }

    @Test func missingArtifactsAreShownAndTheExitCodeIsTheRuns() throws {
        let folder = try shardResults()
        let whole = try runIconbadge(["compare", "a", "e"], in: folder)
        // One shard's images were not uploaded.
        for k in 1...3 where fm.fileExists(atPath: folder + "/s\(k)of3/report-assets") {
            try fm.removeItem(atPath: folder + "/s\(k)of3/report-assets")
            break
        }
        let merged = try runIconbadge(
            [
                "merge-reports", "s1of3/results.json", "s2of3/results.json", "s3of3/results.json", "--html",
                "m/report.html",
            ],
            in: folder)
        #expect(merged.status == whole.status, "\(merged.stderr)")
        #expect(merged.stderr.contains("were not found beside their results file (not uploaded?)"), "\(merged.stderr)")
        #expect(merged.stderr.contains("\"artifacts missing\""), "\(merged.stderr)")
        let page = try String(contentsOfFile: folder + "/m/report.html", encoding: .utf8)
        #expect(page.contains("<span class=\"missing\">artifacts missing</span>"))
        #expect(page.components(separatedBy: "<article class=\"entry\"").count == 15, "every image has its row")
    }

    @Test func checkedBatchShardsMergeIntoTheUnsplitRun() throws {
        let folder = Paths.scratch("shards-batch")
        var jobs: [String] = []
        for (number, icon) in ["folder-48x48.png", "user-trash-32x32.png", "app-ios-180.png"].enumerated() {
            for value in ["1", "2", "3"] {
                jobs.append(
                    #"{"icon":"\#(Paths.fixture("icons/" + icon))","value":"\#(value)","output":"g\#(number)/\#(value).png"}"#
                )
            }
        }
        try "{\"jobs\":[\(jobs.joined(separator: ","))]}".write(
            toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        #expect(try runIconbadge(["batch", "m.json", "--check", "goldens", "--update", "-q"], in: folder).status == 0)
        // Two goldens changed since.
        for path in ["g0/2.png", "g2/3.png"] {
            #expect(
                try runIconbadge([
                    Paths.fixture("icons/folder-48x48.png"), "--value", "9", "-o", "\(folder)/goldens/\(path)",
                ])
                .status == 0)
        }
        let whole = try runIconbadge(
            [
                "batch", "m.json", "--check", "goldens", "--junit", "whole/junit.xml", "--html", "whole/report.html",
                "--artifacts", "whole",
            ], in: folder)
        #expect(whole.status == 1)
        for k in 1...3 {
            let shard = try runIconbadge(
                [
                    "batch", "m.json", "--check", "goldens", "--shard", "\(k)/3", "--artifacts", "shard-\(k)",
                    "--html", "shard-\(k)/report.html", "--results", "shard-\(k)/results.json",
                ], in: folder)
            #expect([0, 1].contains(shard.status), "\(shard.stderr)")
        }
        let merged = try runIconbadge(
            [
                "merge-reports", "shard-1/results.json", "shard-2/results.json", "shard-3/results.json", "--html",
                "merged/report.html", "--junit", "merged/junit.xml",
            ], in: folder)
        #expect(merged.status == whole.status, "\(merged.stderr)")
        #expect(
            merged.stderrLines.last
                == "iconbadge: batch --check: 9 images: 7 passed, 2 changed, 0 new, 0 deleted, 0 errors (3 shards merged)"
        )
        #expect(try junitCases(folder + "/merged/junit.xml") == junitCases(folder + "/whole/junit.xml"))
        #expect(
            fm.contents(atPath: folder + "/merged/report.html") == fm.contents(atPath: folder + "/whole/report.html"))
        #expect(try files(folder + "/merged/report-assets") == files(folder + "/whole/report-assets"))
    }

    @Test func githubActionsGetsOneAnnotationPerChangedImage() throws {
        let folder = try iconFolders()
        let run = try runIconbadge(["compare", "a", "e"], environment: ["GITHUB_ACTIONS": "true"], in: folder)
        let annotations = run.stdoutText.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(annotations.count == 2, "\(run.stdoutText)")
        #expect(
            annotations.contains {
                $0.hasPrefix(
                    "::error file=e/toolbar/user-t-7.png,title=iconbadge compare%3A toolbar/user-t-7.png changed::")
                    && $0.contains(" region")
            }, "\(annotations)")
        // With --json on standard output, they go to standard error; off GitHub, none.
        let json = try runIconbadge(
            ["compare", "a", "e", "--json"], environment: ["GITHUB_ACTIONS": "true"], in: folder)
        #expect(json.stderrLines.filter { $0.hasPrefix("::error ") }.count == 2)
        _ = try JSONParser().parse(json.stdoutText)
        #expect(!(try runIconbadge(["compare", "a", "e"], in: folder)).stdoutText.contains("::error"))
    }
}

/// The manual's recipe for a check split across CI jobs (docs/manual/golden-checks.md):
/// the `iconbadge` lines of its shell, GitHub Actions and GitLab CI examples, run with
/// three shards as the CI systems would (their uploads and downloads done by moving
/// folders), give the unsplit run's page. DocCommandTests counts these lines as tested.
@Suite struct ShardRecipeTests {
    let fm = FileManager.default

    /// The page that holds the recipe.
    static let page = "docs/manual/golden-checks.md"

    /// The page's section on split checks, up to the next heading of its level.
    static func section() throws -> String {
        let text = try String(contentsOfFile: Paths.root + "/" + page, encoding: .utf8)
        guard let start = text.range(of: "\n## A check split across CI jobs\n") else {
            throw TestFailure(description: "\(page) has no section \"A check split across CI jobs\"")
        }
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The `iconbadge` command lines of the section's code blocks in `language`.
    static func commands(_ language: String) throws -> [String] {
        var found: [String] = []
        for block in try section().components(separatedBy: "```" + language + "\n").dropFirst() {
            // A line continued with a backslash is one command.
            let code = block.components(separatedBy: "```")[0].replacingOccurrences(of: "\\\n", with: " ")
            for line in code.split(separator: "\n") {
                var text = line.trimmingCharacters(in: .whitespaces)
                for prefix in ["- run: ", "- "] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
                if text.hasPrefix("iconbadge ") { found.append(text) }
            }
        }
        return found
    }

    /// Runs `command` with /bin/sh in `folder`, the built iconbadge first on PATH.
    func shell(_ command: String, in folder: String, environment extra: [String: String] = [:]) throws -> (
        Int32, String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = (Paths.binary as NSString).deletingLastPathComponent + ":" + (environment["PATH"] ?? "")
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// `out/renders` and `goldens` of real icon renders (ShardMergeTests' folders).
    func project(_ name: String) throws -> String {
        let icons = try ShardMergeTests().iconFolders()
        let folder = Paths.scratch(name)
        try fm.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        try fm.moveItem(atPath: icons + "/a", toPath: folder + "/out/renders")
        try fm.moveItem(atPath: icons + "/e", toPath: folder + "/goldens")
        let whole = try shell("iconbadge compare out/renders goldens --html whole/report.html", in: folder)
        #expect(whole.0 == 1, "\(whole.1)")
        return folder
    }

    @Test func theGitHubActionsMatrixRunsWithThreeShards() throws {
        let lines = try Self.commands("yaml")
        let check = try #require(lines.first { $0.contains("${{ matrix.shard }}") })
        let merge = try #require(lines.first { $0.hasPrefix("iconbadge merge-reports golden-shard-*/") })
        let folder = try project("recipe-github")
        for k in 1...3 {
            let (status, output) = try shell(
                check.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(k)"), in: folder)
            #expect([0, 1].contains(status), "\(output)")
            // upload-artifact, then download-artifact into a folder named after it.
            try fm.moveItem(atPath: folder + "/shard-\(k)", toPath: folder + "/golden-shard-\(k)")
        }
        let (status, output) = try shell(merge, in: folder)
        #expect(status == 1, "the unsplit run's code: \(output)")
        #expect(
            fm.contents(atPath: folder + "/report/report.html") == fm.contents(atPath: folder + "/whole/report.html"))
        #expect(fm.fileExists(atPath: folder + "/report/junit.xml"))
    }

    /// The checked batch's matrix, on the manual's manifest (Fixtures/examples) with
    /// one golden changed: three shards, the merge's exit code and lines, and the
    /// unsplit run's page.
    @Test func theBatchMatrixRunsWithThreeShards() throws {
        let lines = try Self.commands("yaml")
        let check = try #require(lines.first { $0.hasPrefix("iconbadge batch ") && $0.contains("${{ matrix.shard }}") })
        let merge = try #require(lines.first { $0.hasPrefix("iconbadge merge-reports golden-batch-*/") })
        let folder = Paths.scratch("recipe-batch")
        try fm.createDirectory(atPath: folder + "/Fixtures/icons", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Paths.fixture("examples/goldens"), toPath: folder + "/Fixtures/examples/goldens")
        try fm.copyItem(
            atPath: Paths.fixture("examples/goldens.json"), toPath: folder + "/Fixtures/examples/goldens.json")
        try fm.copyItem(
            atPath: Paths.fixture("icons/folder-132x132.png"), toPath: folder + "/Fixtures/icons/folder-132x132.png")
        try fm.removeItem(atPath: folder + "/Fixtures/examples/goldens/count-3.png")
        let changed = try shell(
            "iconbadge Fixtures/icons/folder-132x132.png --value 4 --scale 3 -o Fixtures/examples/goldens/count-3.png",
            in: folder)
        #expect(changed.0 == 0, "\(changed.1)")
        let whole = try shell(
            "iconbadge batch Fixtures/examples/goldens.json --check Fixtures/examples/goldens --html whole/report.html",
            in: folder)
        #expect(whole.0 == 1, "\(whole.1)")
        for k in 1...3 {
            let (status, output) = try shell(
                check.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(k)"), in: folder)
            #expect([0, 1].contains(status), "\(output)")
            try fm.moveItem(atPath: folder + "/batch-\(k)", toPath: folder + "/golden-batch-\(k)")
        }
        let (status, output) = try shell(merge, in: folder)
        #expect(status == 1, "the unsplit run's code: \(output)")
        #expect(output.contains("changed Fixtures/examples/goldens/count-3.png (jobs[0]): "), "\(output)")
        #expect(
            output.contains(
                "batch --check: 3 images: 2 passed, 1 changed, 0 new, 0 deleted, 0 errors (3 shards merged)"))
        #expect(
            fm.contents(atPath: folder + "/report/report.html") == fm.contents(atPath: folder + "/whole/report.html"))
        #expect(fm.fileExists(atPath: folder + "/report/junit.xml"))
    }

    @Test func theGitLabParallelJobRunsWithThreeShards() throws {
        let lines = try Self.commands("yaml")
        let check = try #require(lines.first { $0.contains("$CI_NODE_INDEX") })
        let merge = try #require(lines.first { $0.hasPrefix("iconbadge merge-reports shard-*/") })
        let folder = try project("recipe-gitlab")
        for k in 1...3 {
            let (status, output) = try shell(
                check, in: folder, environment: ["CI_NODE_INDEX": "\(k)", "CI_NODE_TOTAL": "3"])
            #expect([0, 1].contains(status), "\(output)")
        }
        let (status, output) = try shell(merge, in: folder)
        #expect(status == 1, "the unsplit run's code: \(output)")
        #expect(
            fm.contents(atPath: folder + "/report/report.html") == fm.contents(atPath: folder + "/whole/report.html"))
    }

    @Test func theShellExampleRunsForEachShard() throws {
        let lines = try Self.commands("sh")
        #expect(lines.count == 2, "\(lines)")
        let folder = try project("recipe-sh")
        for k in 1...3 {
            let line = lines[0].replacingOccurrences(of: "2/3", with: "\(k)/3")
                .replacingOccurrences(of: "shard-2", with: "shard-\(k)")
            let (status, output) = try shell(line, in: folder)
            #expect([0, 1].contains(status), "\(output)")
        }
        let (status, output) = try shell(lines[1], in: folder)
        #expect(status == 1, "\(output)")
        #expect(
            output.contains("compare: 14 images: 10 passed, 2 changed, 1 new, 1 deleted, 0 errors (3 shards merged)"))
        #expect(
            fm.contents(atPath: folder + "/report/report.html") == fm.contents(atPath: folder + "/whole/report.html"))
    }
}
