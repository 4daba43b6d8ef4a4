import BadgeCore
import BadgeJobs
import BadgeSystem

/// `iconbadge merge-reports RESULTS...`: the results of a check's shards (`--shard K/N
/// --results PATH`) joined into one JUnit file and one HTML page, with the lines,
/// summary and exit code the unsplit run would have had.
enum MergeReportsCommand {
    struct Settings {
        var html: String?
        var junit: String?
        var quiet = false
        /// The images copied into the report are within these (their PNG headers'
        /// sizes), by default `compare`'s.
        var limits = CompareCommand.defaultLimits
    }

    /// Its own options, then compare's limit options.
    static let options: [OptionSpec<Settings>] =
        ownOptions
        + LimitOptions.lifted(
            RenderOptions.limits, onto: \Settings.limits, defaultSide: ImageLimits.cairoMaxSide)

    static let ownOptions: [OptionSpec<Settings>] = [
        OptionSpec(
            name: "html", kind: .value(placeholder: "PATH"), group: "Reports",
            help: "write one HTML report of the whole run (PATH and its PATH-assets folder of the shards' images)",
            completion: .file, fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.html = text },
        OptionSpec(
            name: "junit", kind: .value(placeholder: "PATH"), group: "Reports",
            help: "write one JUnit XML file of the whole run (its folder made if missing)", completion: .file,
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.junit = text },
        OptionSpec(
            name: "quiet", short: "q", kind: .flag, group: "Reports",
            help: "no line per image and no summary (errors are still printed)", fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.quiet = try ValueParsers.bool(text, option: "--quiet") },
    ]

    static let info = CommandInfo(
        name: "merge-reports",
        summary: "join the results of a check split across CI jobs (--shard) into one report",
        usage: "iconbadge merge-reports RESULTS... [--html PATH] [--junit PATH]",
        description: """
            Reads the results files of a check split with --shard K/N (compare ACTUAL_DIR EXPECTED_DIR or
            batch --check, each run with --results PATH) and writes one HTML report and one JUnit file for the
            whole run, the shards' images copied into the report's assets. It prints the lines and the summary
            of the unsplit run and exits with its code (0, 1, or the first error's). The output is the same
            whatever order the files are given in. Shards of another run or another N, the same shard twice, a
            file that is not a results file or comes from a newer iconbadge: exit 65; a shard's results
            missing: 66. An image that was not uploaded shows as "artifacts missing".
            """,
        options: options.map(\.info),
        examples: [
            (
                "the shards' results, downloaded into shard-*/",
                "iconbadge merge-reports shard-*/results.json --html report.html --junit junit.xml"
            ),
            ("only the verdict of the whole run", "iconbadge merge-reports shard-1/results.json shard-2/results.json"),
            (
                "the shards of batch --check --shard K/3 --results shard-K/results.json",
                "iconbadge merge-reports shard-1/results.json shard-2/results.json shard-3/results.json --junit junit.xml"
            ),
        ],
        manual: ["golden-checks.md", "options.md"],
        positional: .file,
        run: { arguments, io in MergeReportsCommand.run(arguments, io: io) })

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        CommandRunner.run(
            arguments, io: io, options: options, defaults: Settings(),
            name: "merge-reports", command: info
        ) { parsed throws(BadgeError) in
            guard !parsed.positionals.isEmpty else {
                throw .usage("merge-reports takes the results files of a run's shards (written with --results PATH)")
            }
            let settings = parsed.settings
            if settings.junit == "-" { throw .usage("--junit needs a file path (standard output carries the lines)") }
            if let junit = settings.junit {
                try OutputFile.checkWritable(OutputLocation(commandLine: junit), creatingFolders: true)
                if parsed.positionals.contains(where: { FileIdentity.same($0, junit) }) {
                    throw .usage("--junit \(Quoted(junit)) is an input file; write elsewhere")
                }
            }
            _ = try PDFDate.sourceDateEpoch(io.environment["SOURCE_DATE_EPOCH"])
            var inputs: [(path: String, results: RunResults)] = []
            // One budget for the run: the files together hold at most RunResults.maxBytes,
            // each read, parsed item by item and let go before the next.
            var budget = RunResults.maxBytes
            for path in parsed.positionals {
                let bytes: [UInt8]
                do throws(BadgeError) {
                    bytes = try InputFile.bytes(at: path, limit: budget, what: "results file")
                } catch {
                    guard case .badInput = error, budget < RunResults.maxBytes else { throw error }
                    throw .badInput(
                        path: path,
                        reason:
                            "takes the results files past \(RunResults.maxBytes) bytes together, the most one merge reads (about 100,000 items)"
                    )
                }
                budget -= bytes.count
                inputs.append((path, try RunResults.read(bytes, path: path)))
            }
            var merged = try ReportMerge.merge(inputs)
            let html = try settings.html.map { (path) throws(BadgeError) in try HTMLReportFile(path) }
            do throws(BadgeError) {
                try ReportMerge.copyImages(&merged, into: html?.assets, limits: settings.limits)
            } catch {
                html?.discard()
                throw error
            }
            let (published, code) = ReportPublishing.publish(
                merged.entries, title: merged.title, html: html,
                junit: settings.junit.map {
                    .init(path: $0, failOn: merged.failOn, suite: merged.command.suite)
                },
                results: nil, exitCode: merged.exitCode, environment: io.environment)
            ReportWording.say(published, io: io)
            let missing = merged.entries.filter(\.imagesMissing).count
            if missing > 0 {
                io.note(
                    "the actual and diff images of \(missing) checked image\(missing == 1 ? " were" : "s were") not found beside their results file (not uploaded?); the report marks \(missing == 1 ? "it" : "them") \"artifacts missing\""
                )
            }
            if !settings.quiet {
                let summary =
                    CheckEntry.summary(merged.entries)
                    + " (\(merged.shards) shard\(merged.shards == 1 ? "" : "s") merged)"
                switch merged.command {
                case .compare:
                    for entry in merged.entries where entry.status != .passed || entry.goldenWritten != nil {
                        io.writeOut(shownLine(entry) + "\n")
                    }
                    io.writeOut("compare: " + summary + "\n")
                case .batch:
                    for entry in merged.entries where entry.status != .passed || entry.goldenWritten != nil {
                        if entry.status == .error {
                            io.error(
                                "\(Shown(entry.label))\(entry.name.map { " (\(Shown($0)))" } ?? ""): \(TextEscaping.shownLine(entry.message))"
                            )
                        } else {
                            io.writeOut(shownLine(entry) + "\n")
                        }
                    }
                    io.writeErr("iconbadge: batch --check: " + summary + "\n")
                }
            }
            return code
        }
    }

    /// An entry's line (`CheckEntry.line`) with its message, a value read from a
    /// results file, cut to `TextEscaping.maxShown` characters as every printed value is.
    static func shownLine(_ entry: CheckEntry) -> String {
        var shown = entry
        shown.message = TextEscaping.shownLine(entry.message)
        return shown.line
    }
}
