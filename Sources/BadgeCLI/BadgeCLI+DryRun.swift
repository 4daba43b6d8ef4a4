import BadgeCore
import BadgeJobs

extension BadgeCLI {
    /// Parses the render command's arguments (what follows `iconbadge render`, without
    /// the program name) and runs every check `render` makes before it reads the icon:
    /// the option table, `--style` and `ICONBADGE_*` variables from `environment`,
    /// positionals, exclusive options, the output format, `--scales` planning, and the
    /// file-system checks (output is not an input, the golden exists, the output can be
    /// created), which only look. Nothing is decoded, rendered or written, and nothing is
    /// printed (`-h` builds the help text and drops it; an error's line is built, then
    /// dropped).
    ///
    /// For the fuzz target `FuzzArguments` and for tests; the CLI itself calls `run`.
    ///
    /// - Returns: the exit code `render` would have failed with before reading the icon
    ///   (64 usage, 65 a bad `--scales` plan or `SOURCE_DATE_EPOCH`, 66 a missing golden,
    ///   73 an output that cannot be created), or `.success`.
    public static func parseOnly(_ arguments: [String], environment: [String: String] = [:]) -> ExitCode {
        let io = CommandIO.silent(environment: environment)
        return RenderCommand.parse(arguments[...], io: io) { settings, positionals throws(BadgeError) in
            _ = try RenderCommand.plan(settings, positionals: positionals, io: io)
            return .success
        }
    }

    /// Parses a batch manifest's bytes (JSON or JSON Lines) and plans every job through
    /// the render option table, as `iconbadge batch` does before it renders anything:
    /// unknown keys, bad values, missing `icon`/`output`, bad templates, two jobs writing
    /// one file. Nothing is read (beyond `bytes`), rendered or written.
    ///
    /// For the fuzz target `FuzzManifest` and for tests.
    ///
    /// - Returns: 65 for a manifest `batch` would refuse (64 for a usage error), or
    ///   `.success` when every job plans.
    public static func planOnly(manifest bytes: [UInt8], environment: [String: String] = [:]) -> ExitCode {
        let io = CommandIO.silent(environment: environment)
        do throws(BadgeError) {
            let planned = try BatchCommand.plan(
                bytes, manifestPath: "manifest.json", settings: BatchCommand.Settings(), io: io)
            for item in planned { _ = item.label }
            return .success
        } catch {
            _ = error.message
            return error.exitCode
        }
    }
}

extension CommandIO {
    /// An IO that drops everything written to it.
    static func silent(environment: [String: String]) -> CommandIO {
        CommandIO(writeOut: { _ in }, writeErr: { _ in }, environment: environment, stderrIsTerminal: false)
    }
}

extension BadgeCLI {
    /// What `merge-reports` makes of one results file's bytes, without reading an image
    /// or writing anything: the reader (`RunResults.read`, item by item within its
    /// budgets), the merge, the HTML page, the JUnit file and the printed lines, each
    /// built then dropped.
    ///
    /// For the fuzz target `FuzzResults` and for tests; the CLI itself calls `run`.
    ///
    /// - Returns: the exit code and the lines `merge-reports RESULTS` would print on
    ///   standard output and standard error (an error's one line on refusal).
    public static func mergeOnly(results bytes: [UInt8]) -> (code: ExitCode, lines: [String]) {
        do throws(BadgeError) {
            let results = try RunResults.read(bytes, path: "results.json")
            let merged = try ReportMerge.merge([("results.json", results)])
            _ = HTMLReport.html(merged.entries, title: merged.title, assetsFolder: "report-assets")
            _ = JUnitReport.xml(merged.entries, failOn: merged.failOn, suite: merged.command.suite)
            var lines: [String] = []
            for entry in merged.entries where entry.status != .passed || entry.goldenWritten != nil {
                lines += MergeReportsCommand.shownLine(entry).split(separator: "\n").map(String.init)
            }
            lines.append(CheckEntry.summary(merged.entries))
            return (merged.exitCode, lines)
        } catch {
            return (error.exitCode, [TextEscaping.oneLine(error.message)])
        }
    }
}
