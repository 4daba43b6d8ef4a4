import BadgeCore
import BadgeSystem
import BadgeRender

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `iconbadge batch MANIFEST`: many renders in one process, in parallel.
enum BatchCommand {
    struct Settings {
        var jobs = BatchCommand.cores
        var scales: [Double]?
        var quiet = false
        var check: String?
        var update = false
        var junit: String?
        var artifacts: String?
        var compare = CompareSettings()
    }

    static var cores: Int { BatchRenderer.availableCPUs }

    static let options: [OptionSpec<Settings>] =
        [
            OptionSpec(
                name: "jobs", short: "j", kind: .value(placeholder: "N"), group: "Options",
                help: "render N jobs at once", defaultText: "the number of cores"
            ) { settings, text throws(BadgeError) in
                settings.jobs = try ValueParsers.integer(text, option: "--jobs", range: 1...256)
            },
            OptionSpec(
                name: "scales", kind: .value(placeholder: "LIST"), group: "Options",
                help: "render every job at each scale, e.g. 1,2,3 (outputs need {scale} or {@scale})"
            ) { settings, text throws(BadgeError) in
                settings.scales = try JobPlanner.parseScaleList(text, option: "--scales")
            },
            OptionSpec(
                name: "quiet", short: "q", kind: .flag, group: "Options",
                help: "no summary line (errors are still printed)"
            ) { settings, text throws(BadgeError) in settings.quiet = try ValueParsers.bool(text, option: "--quiet") },
            OptionSpec(
                name: "check", kind: .value(placeholder: "DIR"), group: "Golden check",
                help: "compare each job's render with DIR/<its output path> instead of writing it", completion: .folder
            ) { settings, text throws(BadgeError) in settings.check = text },
            OptionSpec(
                name: "update", kind: .flag, group: "Golden check",
                help: "with --check: rewrite the goldens that changed"
            ) { settings, text throws(BadgeError) in settings.update = try ValueParsers.bool(text, option: "--update")
            },
            OptionSpec(
                name: "junit", kind: .value(placeholder: "PATH"), group: "Golden check",
                help: "with --check: write a JUnit XML report for CI systems (its folder made if missing)",
                completion: .file
            ) { settings, text throws(BadgeError) in settings.junit = text },
            OptionSpec(
                name: "artifacts", kind: .value(placeholder: "DIR"), group: "Golden check",
                help:
                    "where failed checks write NAME.actual.png and NAME.diff.png, made if missing (default: beside each golden)",
                completion: .folder
            ) { settings, text throws(BadgeError) in settings.artifacts = text },
        ] + CompareSettings.options.map { $0.lifted(\Settings.compare) }

    static let info = CommandInfo(
        name: "batch",
        summary: "render the jobs of a manifest in parallel, at several scales",
        usage:
            "iconbadge batch MANIFEST|- [--jobs N] [--scales LIST] [--quiet] [--check DIR [--update] [--junit PATH]]",
        description: """
            Renders every job of a manifest in one process, in parallel. MANIFEST is JSON,
            {"defaults": {...}, "jobs": [{...}, ...]}, with the render options' long names as keys plus
            "icon", "output" and "scales"; or JSON Lines, one job object a line (- reads standard input).
            Every job is checked before the first is rendered; a failed job does not stop the others.
            """,
        options: options.map(\.info),
        examples: [
            ("the README's @1x/@2x/@3x example", "iconbadge batch Fixtures/examples/assets.json"),
            ("every job at three scales, two at a time", "iconbadge batch assets.json --scales 1,2,3 --jobs 2"),
            (
                "JSON Lines from a script",
                "printf '{\"icon\":\"a.png\",\"value\":\"3\",\"output\":\"out/a.png\"}\\n' | iconbadge batch -"
            ),
            ("golden checks for CI", "iconbadge batch goldens.json --check goldens --junit out/junit.xml"),
        ],
        notesText: {
            """
            Output templates: {name} (the icon's file name without extension), {scale}, {@scale} ("", "@2x",
            "@3x"), {value}, {ext}. With several scales a raster icon is the @1x image and is resampled for
            the others, an SVG icon is rendered at each scale, and {@scale} in "icon" picks a file per scale.
            """
        },
        positional: .file,
        run: { arguments, io in BatchCommand.run(arguments, io: io) })

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        CommandRunner.run(
            arguments, io: io, options: options, defaults: Settings(),
            command: info
        ) { parsed throws(BadgeError) in
            guard parsed.positionals.count == 1, let manifestPath = parsed.positionals.first else {
                throw .usage("batch takes one MANIFEST (a JSON file, or - for JSON Lines on standard input)")
            }
            let settings = parsed.settings
            guard settings.check != nil || (!settings.update && settings.junit == nil && settings.artifacts == nil)
            else { throw .usage("--update, --junit and --artifacts go with --check DIR") }
            try settings.compare.checkCombinations()
            let planned = try plan(manifestPath: manifestPath, settings: settings, io: io)
            if let goldens = settings.check {
                if let junit = settings.junit {
                    // The report replaces no input: not the manifest, an icon, a font or a golden.
                    let goldenPaths = planned.map { goldenPath(for: $0.job.output, in: goldens) }
                    try RenderCommand.checkNotInput(
                        output: junit, inputs: [manifestPath] + planned.flatMap(\.inputs) + goldenPaths,
                        option: "--junit")
                }
                return check(planned, goldens: goldens, settings: settings, io: io)
            }
            return execute(planned, settings: settings, io: io)
        }
    }

    /// Reads, validates and expands every job; nothing is rendered or written if
    /// any job is wrong.
    static func plan(manifestPath: String, settings: Settings, io: CommandIO) throws(BadgeError) -> [PlannedJob] {
        let bytes = try InputFile.bytes(at: manifestPath, limit: Manifest.maxBytes, what: "manifest")
        return try plan(bytes, manifestPath: manifestPath, settings: settings, io: io)
    }

    /// Validates and expands the jobs of a manifest's bytes that came from `manifestPath`.
    static func plan(_ bytes: [UInt8], manifestPath: String, settings: Settings, io: CommandIO) throws(BadgeError)
        -> [PlannedJob]
    {
        let manifest = try Manifest.parse(bytes, path: manifestPath)
        guard !manifest.entries.isEmpty else { throw .badInput(path: manifestPath, reason: "has no jobs") }
        // The environment is under every job, as under every render.
        let base = try ArgumentParser(options: RenderOptions.all).parse(
            [][...], defaults: RenderSettings(), environment: io.environment
        ).settings
        var planned: [PlannedJob] = []
        for entry in manifest.entries {
            planned += try JobPlanner.plan(
                entry, base: base, scales: settings.scales, manifest: manifestPath, environment: io.environment)
        }
        // The same file however spelled (FileIdentity): two jobs may not write one
        // file, and no job may write a file any job reads, or the manifest itself.
        var writers: [FileIdentity.Key: String] = [:]
        for item in planned {
            if item.job.output.utf8.contains(0) || item.inputs.contains(where: { $0.utf8.contains(0) }) {
                throw .badInput(path: manifestPath, reason: "\(item.label) has a path with a NUL character")
            }
            let key = FileIdentity.key(item.job.output)
            if let other = writers[key] {
                throw .badInput(
                    path: manifestPath, reason: "\(other) and \(item.label) both write \(Quoted(item.job.output))")
            }
            writers[key] = item.label
        }
        var inputs = Set(planned.flatMap(\.inputs).map(FileIdentity.key))
        inputs.insert(FileIdentity.key(manifestPath))
        for item in planned where inputs.contains(FileIdentity.key(item.job.output)) {
            throw .badInput(
                path: manifestPath, reason: "\(item.label) would overwrite an input, \(Quoted(item.job.output))")
        }
        return planned
    }

    static func execute(_ planned: [PlannedJob], settings: Settings, io: CommandIO) -> ExitCode {
        let start = ContinuousClock.now
        let progress = ProgressLine(total: planned.count, enabled: io.stderrIsTerminal && !settings.quiet, io: io)
        let results = BatchRenderer.run(
            planned.map(\.job), workers: settings.jobs,
            deliver: { job, composition throws(BadgeError) in try job.write(composition) },
            progress: { progress.update(done: $0) })
        progress.finish()
        var failures = 0
        var firstCode: ExitCode?
        for (item, result) in zip(planned, results) {
            if case .failure(let error) = result {
                failures += 1
                firstCode = firstCode ?? error.exitCode
                io.error("\(item.label) (\(item.job.output)): \(error.message)")
            }
        }
        if !settings.quiet {
            let seconds =
                Double((ContinuousClock.now - start).components.attoseconds) / 1e18
                + Double((ContinuousClock.now - start).components.seconds)
            let rate = seconds > 0 ? Double(planned.count) / seconds : 0
            io.writeErr(
                "iconbadge: batch: \(planned.count) renders, \(planned.count - failures) written, \(failures) failed in \(format(seconds)) s (\(format(rate))/s)\n"
            )
        }
        return firstCode ?? .success
    }

    /// The golden for an output: DIR joined with the output path as written
    /// (absolute outputs use their file name).
    static func goldenPath(for output: String, in folder: String) -> String {
        folder + "/" + relativePath(of: output)
    }

    /// Where a job's artifacts go under `--artifacts DIR`: the output's relative
    /// folder inside DIR, so that `a.png` and `icons/a.png` do not overwrite each
    /// other's `a.actual.png`.
    static func artifactFolder(for output: String, in folder: String) -> String {
        let relative = relativePath(of: output)
        guard relative.contains("/") else { return folder }
        return folder + "/" + OutputFile.parentFolder(of: relative)
    }

    private static func relativePath(of output: String) -> String {
        var relative = Substring(output)
        if relative.hasPrefix("/") { relative = relative.split(separator: "/").last ?? relative }
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return String(relative)
    }

    /// `batch --check DIR`: every job compared with its golden; one report.
    static func check(_ planned: [PlannedJob], goldens: String, settings: Settings, io: CommandIO) -> ExitCode {
        let compare = settings.compare
        let artifacts = settings.artifacts
        let update = settings.update
        // Goldens stay inside DIR: an output with a ".." component would escape it.
        for item in planned where item.job.output.split(separator: "/").contains("..") {
            io.error("\(item.label): output \(Quoted(item.job.output)) leaves the golden folder (no .. with --check)")
            return .dataError
        }
        var inputsByOutput: [String: [String]] = [:]
        for item in planned { inputsByOutput[item.job.output] = item.inputs }
        let inputs = inputsByOutput
        let progress = ProgressLine(total: planned.count, enabled: io.stderrIsTerminal && !settings.quiet, io: io)
        let results = BatchRenderer.run(
            planned.map(\.job), workers: settings.jobs,
            deliver: { job, composition throws(BadgeError) -> GoldenCheck.Outcome in
                var outcome = try GoldenCheck.run(
                    composition, golden: goldenPath(for: job.output, in: goldens), settings: compare,
                    artifacts: artifacts.map { artifactFolder(for: job.output, in: $0) }, update: update,
                    compression: job.compression,
                    inputs: inputs[job.output] ?? [], encoderThreads: job.encoderThreads)
                outcome.report?.result.diff = nil
                return outcome
            },
            progress: { progress.update(done: $0) })
        progress.finish()
        var counts: [GoldenCheck.Status: Int] = [:]
        var errors = 0
        var firstError: ExitCode?
        var cases: [JUnitReport.Case] = []
        for (item, result) in zip(planned, results) {
            let golden = goldenPath(for: item.job.output, in: goldens)
            let name = "\(item.label) \(golden)"
            switch result {
            case .success(let outcome):
                counts[outcome.status, default: 0] += 1
                if outcome.status == .different || update { io.writeOut(outcome.line(golden: golden) + "\n") }
                cases.append(
                    JUnitReport.Case(
                        name: name,
                        failure: outcome.status == .different ? (outcome.report?.line ?? "different") : nil,
                        error: nil, output: outcome.artifacts.map { "wrote \($0)" }.joined(separator: "\n")))
            case .failure(let error):
                errors += 1
                firstError = firstError ?? error.exitCode
                io.error("\(item.label) (\(golden)): \(error.message)")
                cases.append(JUnitReport.Case(name: name, failure: nil, error: error.message, output: ""))
            }
        }
        if let junit = settings.junit {
            do throws(BadgeError) {
                try OutputFile.write(Array(JUnitReport.xml(cases).utf8), to: junit, creatingFolders: true)
            } catch {
                io.error(error.message)
                firstError = firstError ?? error.exitCode
            }
        }
        if !settings.quiet {
            let same = (counts[.matched] ?? 0) + (counts[.unchanged] ?? 0)
            var parts = ["\(same) same", "\(counts[.different] ?? 0) different"]
            if update { parts += ["\(counts[.created] ?? 0) created", "\(counts[.updated] ?? 0) updated"] }
            parts.append("\(errors) errors")
            io.writeErr("iconbadge: batch --check: \(planned.count) renders: " + parts.joined(separator: ", ") + "\n")
        }
        if let firstError { return firstError }
        return (counts[.different] ?? 0) > 0 ? .different : .success
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return String(rounded)
    }
}

/// The progress line on a terminal: done/total, rate and time left, redrawn at
/// most ten times a second.
final class ProgressLine: @unchecked Sendable {
    private let total: Int
    private let enabled: Bool
    private let io: CommandIO
    private let start = ContinuousClock.now
    private var lastDraw = ContinuousClock.now
    private var mutex = pthread_mutex_t()

    init(total: Int, enabled: Bool, io: CommandIO) {
        self.total = total
        self.enabled = enabled
        self.io = io
        pthread_mutex_init(&mutex, nil)
    }

    func update(done: Int) {
        guard enabled else { return }
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        let now = ContinuousClock.now
        guard done == total || now - lastDraw > .milliseconds(100) else { return }
        lastDraw = now
        let elapsed = Double((now - start).components.seconds) + Double((now - start).components.attoseconds) / 1e18
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Double(total - done) / rate : 0
        io.writeErr("\r\u{1B}[K[\(done)/\(total)] \(Int(rate))/s, about \(Int(left.rounded(.up))) s left")
    }

    func finish() {
        guard enabled else { return }
        io.writeErr("\r\u{1B}[K")
    }
}
