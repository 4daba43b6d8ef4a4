import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `iconbadge compare ACTUAL_DIR EXPECTED_DIR`: the directory check, its lines, JSON,
/// JUnit and HTML report.
extension CompareCommand {
    /// Whether `path` is a folder (links followed: the caller wrote the path).
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Runs the directory check; exit 0 when every image passes, 1 when one fails,
    /// the first error's code (64-74) otherwise.
    ///
    /// - Throws: 64 for options that do not go with folders, or a file paired with a
    ///   folder; 66 for a missing folder, or two folders without an image; 73 when a
    ///   report cannot be written.
    static func runFolders(_ actual: String, _ expected: String, settings: Settings, io: CommandIO)
        throws(BadgeError) -> ExitCode
    {
        // A first run may name a goldens folder that does not exist yet: an update that
        // creates goldens makes it.
        let (update, note) = try UpdateMode.resolve(given: settings.update, environment: io.environment)
        let expectedMissing = !InputFile.exists(expected) && update.createsMissing && isFolder(actual)
        for folder in [actual, expected] where !InputFile.exists(folder) && !(folder == expected && expectedMissing) {
            throw .missingInput(
                path: folder,
                reason: folder == expected
                    ? "no such folder (the goldens' folder; --update missing makes it with the goldens)"
                    : "no such folder (the folder of fresh images)")
        }
        guard isFolder(actual), isFolder(expected) || expectedMissing else {
            let file = isFolder(actual) ? expected : actual
            throw .usage(
                "compare takes two images or two folders; \(Quoted(file)) is \(InputFile.exists(file) ? "a file" : "missing") beside a folder"
            )
        }
        if settings.diff != nil {
            throw .usage("--diff writes one diff image; with two folders use --artifacts DIR or --html PATH")
        }
        try settings.compare.checkCombinations()
        if let note { io.note(note) }
        var check = DirectoryCheck.Settings(limits: settings.limits)
        check.compare = settings.compare
        check.failOn = settings.failOn ?? [.new, .deleted]
        check.update = update
        check.workers = settings.jobs
        check.errorMessage = ErrorWording.reportMessage
        check.artifacts = settings.artifacts
        check.shard = settings.shard
        var excluded: [String] = settings.artifacts.map { [$0] } ?? []
        for (option, path) in [("--junit", settings.junit), ("--results", settings.results)] where path == "-" {
            throw .usage("\(option) needs a file path (standard output carries the report)")
        }
        try refuseOutputsInside(actual, expected, settings: settings)
        for path in [settings.junit, settings.results].compactMap(\.self) {
            try OutputFile.checkWritable(OutputLocation(commandLine: path), creatingFolders: true)
        }
        // A bad SOURCE_DATE_EPOCH is refused now, not after every pair was compared
        // (the report reads it when it is published).
        _ = try PDFDate.sourceDateEpoch(io.environment["SOURCE_DATE_EPOCH"])
        let html = try settings.html.map { (path) throws(BadgeError) in try HTMLReportFile(path) }
        if let html {
            excluded.append(html.assetsPath)
            check.assets = html.assets
        }
        let outcome: DirectoryCheck.Outcome
        do throws(BadgeError) {
            outcome = try DirectoryCheck.run(actual: actual, expected: expected, settings: check, excluding: excluded)
        } catch {
            html?.discard()
            throw error
        }
        let entries = outcome.entries
        let links = outcome.links
        let report = DirectoryCheckReport(
            entries: entries, actual: actual, expected: expected, failOn: check.failOn, update: update, links: links)
        var code = report.exitCode
        if let shard = settings.shard, entries.isEmpty {
            // Nothing of this run falls in this part: it passes, and says so.
            io.note(
                "shard \(shard): none of the \(outcome.total) image\(outcome.total == 1 ? "" : "s") falls in this shard, so it compares nothing and passes"
            )
            code = .success
        } else if outcome.paired == 0,
            !entries.contains(where: { $0.status == .passed || $0.status == .changed || $0.goldenWritten != nil }),
            !entries.contains(where: { $0.status == .error })
        {
            // No image in both folders and no golden written: whatever --fail-on says,
            // the check checked nothing (every image renamed, an empty render folder).
            io.error(
                "compare \(Quoted(actual)) \(Quoted(expected)): no image is in both folders, so nothing was compared (\(report.count(.new)) new, \(report.count(.deleted)) deleted); check the folders' paths"
            )
            code = .noInput
        }
        let title = "iconbadge compare \(actual) \(expected)"
        let results = settings.results.map { path in
            ReportPublishing.Results(path: path, artifacts: settings.artifacts) { code in
                let run = RunResults.identity(
                    [
                        ("actual", .string(actual)), ("expected", .string(expected)),
                        ("failOn", .array(check.failOn.map { .string($0.rawValue) })),
                        ("update", .string(update.rawValue)),
                    ], compare: settings.compare)
                return RunResults(
                    command: .compare, title: title, run: run, shard: settings.shard, total: outcome.total,
                    failOn: check.failOn, exitCode: code, entries: entries)
            }
        }
        let published: [ReportPublishing.Published]
        (published, code) = ReportPublishing.publish(
            entries, title: title, html: html,
            junit: settings.junit.map {
                .init(path: $0, failOn: check.failOn, suite: RunResults.Command.compare.suite)
            },
            results: results, exitCode: code, environment: io.environment)
        ReportWording.say(published, io: io)
        if !links.isEmpty {
            let shown = links.prefix(3).map { Quoted($0).description }.joined(separator: ", ")
            io.note(
                "skipped \(links.count) link\(links.count == 1 ? "" : "s") (a link in a compared folder is never followed): \(shown)\(links.count > 3 ? ", …" : "")"
            )
        }
        GitHubAnnotations.print(
            entries, command: "compare",
            file: {
                OutputLocation(root: expected, components: $0.path.split(separator: "/").map(String.init)).description
            },
            toStandardError: settings.json, io: io)
        if settings.json {
            io.writeOut(report.json.serialized() + "\n")
        } else {
            for entry in entries where entry.status != .passed || entry.goldenWritten != nil {
                io.writeOut(entry.line + "\n")
            }
            io.writeOut(
                report.summary + (settings.shard.map { " (shard \($0), of \(outcome.total) in all)" } ?? "") + "\n")
        }
        return code
    }

    /// Refuses reports and artifacts inside a compared folder (the next run would
    /// compare them, or `--update` copy them into the goldens) and a compared folder
    /// inside the artifacts or assets folder (it would be left out of the walk).
    ///
    /// - Throws: 64 naming the option and the folder.
    static func refuseOutputsInside(_ actual: String, _ expected: String, settings: Settings) throws(BadgeError) {
        var outputs: [(option: String, path: String, isFolder: Bool)] = []
        if let artifacts = settings.artifacts { outputs.append(("--artifacts", artifacts, true)) }
        if let junit = settings.junit { outputs.append(("--junit", junit, false)) }
        if let results = settings.results { outputs.append(("--results", results, false)) }
        if let html = settings.html {
            outputs.append(("--html", html, false))
            if let dot = html.lastIndex(of: ".") { outputs.append(("--html", String(html[..<dot]) + "-assets", true)) }
        }
        for (option, path, isFolder) in outputs {
            for folder in [actual, expected] {
                if PathContainment.isInside(path, folder) || (isFolder && PathContainment.isInside(folder, path)) {
                    throw .usage(
                        "\(option) \(Quoted(path)) is inside \(Quoted(folder))\(isFolder ? " or holds it" : ""), a compared folder; write reports and artifacts elsewhere (e.g. iconbadge-artifacts/)"
                    )
                }
            }
        }
    }
}
