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
        var check = DirectoryCheck.Settings()
        check.compare = settings.compare
        check.failOn = settings.failOn ?? [.new, .deleted]
        check.update = update
        check.workers = settings.jobs
        check.limits = settings.limits
        check.errorMessage = ErrorWording.reportMessage
        check.artifacts = settings.artifacts
        var excluded: [String] = settings.artifacts.map { [$0] } ?? []
        if settings.junit == "-" {
            throw .usage("--junit needs a file path (standard output carries the report)")
        }
        try refuseOutputsInside(actual, expected, settings: settings)
        if let junit = settings.junit {
            try OutputFile.checkWritable(OutputLocation(commandLine: junit), creatingFolders: true)
        }
        // A bad SOURCE_DATE_EPOCH is refused now, not after every pair was compared
        // (the report reads it when it is published).
        _ = try PDFDate.sourceDateEpoch(io.environment["SOURCE_DATE_EPOCH"])
        let html = try settings.html.map { (path) throws(BadgeError) in try HTMLReportFile(path) }
        if let html {
            excluded.append(html.assetsPath)
            check.assets = html.assets
        }
        let (entries, links): ([CheckEntry], [String])
        do throws(BadgeError) {
            (entries, links) = try DirectoryCheck.run(
                actual: actual, expected: expected, settings: check, excluding: excluded)
        } catch {
            html?.discard()
            throw error
        }
        let report = DirectoryCheckReport(
            entries: entries, actual: actual, expected: expected, failOn: check.failOn, update: update, links: links)
        var code = report.exitCode
        // No pair compared and no golden written: whatever --fail-on says, the check
        // checked nothing (every image renamed, an empty render folder).
        if !entries.contains(where: { $0.status == .passed || $0.status == .changed || $0.goldenWritten != nil }),
            !entries.contains(where: { $0.status == .error })
        {
            io.error(
                "compare \(Quoted(actual)) \(Quoted(expected)): no image is in both folders, so nothing was compared (\(report.count(.new)) new, \(report.count(.deleted)) deleted); check the folders' paths"
            )
            code = .noInput
        }
        if let html {
            do throws(BadgeError) {
                try html.publish(entries, title: "iconbadge compare \(actual) \(expected)", environment: io.environment)
            } catch {
                io.error(ErrorWording.message(error))
                code = code == .success || code == .different ? error.exitCode : code
            }
        }
        if let junit = settings.junit {
            do throws(BadgeError) {
                try OutputFile.write(
                    Array(JUnitReport.xml(entries, failOn: check.failOn).utf8), to: junit, creatingFolders: true)
            } catch {
                io.error(ErrorWording.message(error))
                code = code == .success || code == .different ? error.exitCode : code
            }
        }
        if !links.isEmpty {
            let shown = links.prefix(3).map { Quoted($0).description }.joined(separator: ", ")
            io.note(
                "skipped \(links.count) link\(links.count == 1 ? "" : "s") (a link in a compared folder is never followed): \(shown)\(links.count > 3 ? ", …" : "")"
            )
        }
        if settings.json {
            io.writeOut(report.json.serialized() + "\n")
        } else {
            for entry in entries where entry.status != .passed || entry.goldenWritten != nil {
                io.writeOut("\(entry.status.rawValue) \(Shown(entry.path)): \(entry.message)\n")
            }
            io.writeOut(report.summary + "\n")
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
