import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

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
        var update: UpdateMode?
        var junit: String?
        var html: String?
        var artifacts: String?
        var results: String?
        var shard: Shard?
        var compare = CompareSettings()
        var outputRoot: String?
        /// `--set` and `--env`.
        var overrides = ManifestOverrides()
        /// Limits for every job (a manifest cannot set them).
        var limits = ImageLimits()
        /// Which limits the command line set (they override `ICONBADGE_*`).
        var limitsGiven: [String] = []
    }

    /// The render command's limit options, lifted onto the batch's own limits.
    static let limitOptions: [OptionSpec<Settings>] = LimitOptions.lifted(
        RenderOptions.limits + RenderOptions.svgLimit, onto: \Settings.limits
    ) { settings, name in settings.limitsGiven.append(name) }

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
                name: "output-root", kind: .value(placeholder: "DIR"), group: "Options",
                help: "outputs are paths inside DIR, which none may leave", defaultText: "the working folder",
                completion: .folder
            ) { settings, text throws(BadgeError) in
                guard !text.isEmpty else {
                    throw .invalidValue(option: "--output-root", value: text, problem: "is empty (give a folder)")
                }
                settings.outputRoot = text
            },
            OptionSpec(
                name: "set", kind: .value(placeholder: "KEY=VALUE"), group: "Options",
                help:
                    "set a manifest key in every job, over its own (--set text=1234, --set background=#34C759)",
                fromEnvironment: false, repeatable: true
            ) { settings, text throws(BadgeError) in
                settings.overrides.set.append(try ManifestOverrides.parseSet(text))
            },
            OptionSpec(
                name: "env", kind: .value(placeholder: "NAME"), group: "Options",
                help:
                    "let the manifest's values read ${NAME} from the environment (only the variables named here)",
                fromEnvironment: false, repeatable: true
            ) { settings, text throws(BadgeError) in
                try ManifestOverrides.checkVariableName(text)
                settings.overrides.variables.append((text, getenv(text).map { String(cString: $0) }))
            },
            OptionSpec(
                name: "shard", kind: .value(placeholder: "K/N"), group: "Options",
                help:
                    "run only part K of N of the jobs (split by a hash of each job's output path, the same on every machine)",
                fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.shard = try Shard.parse(text) },
            OptionSpec(
                name: "check", kind: .value(placeholder: "DIR"), group: "Golden check",
                help: "compare each job's render with DIR/<its output path> instead of writing it", completion: .folder
            ) { settings, text throws(BadgeError) in settings.check = text },
            OptionSpec(
                name: "update", kind: .flag, group: "Golden check",
                help:
                    "with --check: write goldens that are missing (missing), fail (changed), or either (all, the bare flag); ICONBADGE_UPDATE sets it too, except on CI",
                completion: .choices(UpdateMode.words, exhaustive: false)
            ) { settings, text throws(BadgeError) in settings.update = try UpdateMode.parse(text, option: "--update")
            },
            OptionSpec(
                name: "junit", kind: .value(placeholder: "PATH"), group: "Golden check",
                help: "with --check: write a JUnit XML report for CI systems (its folder made if missing)",
                completion: .file
            ) { settings, text throws(BadgeError) in settings.junit = text },
            OptionSpec(
                name: "html", kind: .value(placeholder: "PATH"), group: "Golden check",
                help: "with --check: write an HTML report (PATH and its PATH-assets folder of PNGs), viewable offline",
                completion: .file
            ) { settings, text throws(BadgeError) in settings.html = text },
            OptionSpec(
                name: "artifacts", kind: .value(placeholder: "DIR"), group: "Golden check",
                help:
                    "where failed checks write REL.actual.png and REL.diff.png (REL the golden's path below DIR), made if missing (default: iconbadge-artifacts)",
                completion: .folder
            ) { settings, text throws(BadgeError) in settings.artifacts = text },
            OptionSpec(
                name: "results", kind: .value(placeholder: "PATH"), group: "Golden check",
                help:
                    "with --check: write every job's status, comparison, regions and images as JSON, for merge-reports",
                completion: .file, fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.results = text },
        ] + CompareSettings.options.map { $0.lifted(\Settings.compare) } + limitOptions

    static let info = CommandInfo(
        name: "batch",
        summary: "render the jobs of a manifest in parallel, at several scales",
        usage:
            "iconbadge batch MANIFEST|- [--jobs N] [--scales LIST] [--quiet] [--check DIR [--update [MODE]] [--junit PATH] [--html PATH]] [--shard K/N] [--results PATH]",
        description: """
            Renders every job of a manifest in one process, in parallel. MANIFEST is JSON,
            {"defaults": {...}, "jobs": [{...}, ...]}, with the render options' long names as keys plus
            "icon", "output" and "scales"; or JSON Lines, one job object a line (- reads standard input).
            Outputs stay inside the working folder (or --output-root). Limits come from the command line or
            ICONBADGE_* variables, never from the manifest. Every job is checked before the first is
            rendered; a failed job does not stop the others.
            """,
        options: options.map(\.info),
        examples: [
            // The first is the top-level help's: a manifest of the user's own, not a
            // file of this repository (the tarball ships no Fixtures).
            ("every job of your manifest at @1x, @2x and @3x", "iconbadge batch assets.json --scales 1,2,3"),
            ("two jobs at a time", "iconbadge batch assets.json --jobs 2"),
            (
                "JSON Lines from a script",
                "printf '{\"icon\":\"a.png\",\"value\":\"3\",\"output\":\"out/a.png\"}\\n' | iconbadge batch -"
            ),
            ("golden checks for CI", "iconbadge batch goldens.json --check goldens --junit out/junit.xml"),
        ],
        manual: ["batch.md", "golden-checks.md", "options.md"],
        notesText: {
            """
            Output templates: {name} (the icon's file name without extension), {scale}, {@scale} ("", "@2x",
            "@3x"), {density} (a job's "densities"), {value}, {ext}, and {frame} (a job with "animate": one
            still file a frame, 00, 01, ...). With several scales a raster icon is the @1x image and is
            resampled for the others, an SVG icon is rendered at each scale, and {@scale} in "icon" picks a
            file per scale. A job's keys are the render command's long options ("animate", "fps", ...).
            """
        },
        positional: .file,
        run: { arguments, io in BatchCommand.run(arguments, io: io) })

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        CommandRunner.run(
            arguments, io: io, options: options, defaults: Settings(),
            name: "batch", command: info
        ) { parsed throws(BadgeError) in
            guard parsed.positionals.count == 1, let manifestPath = parsed.positionals.first else {
                throw .usage("batch takes one MANIFEST (a JSON file, or - for JSON Lines on standard input)")
            }
            var settings = parsed.settings
            guard
                settings.check != nil
                    || (settings.update == nil && settings.junit == nil && settings.html == nil
                        && settings.artifacts == nil && settings.results == nil)
            else { throw .usage("--update, --junit, --html, --artifacts and --results go with --check DIR") }
            if let goldens = settings.check {
                let outputs: [(String, String?)] = [
                    ("--artifacts", settings.artifacts), ("--junit", settings.junit), ("--html", settings.html),
                    ("--results", settings.results),
                ]
                for case (let option, let path?) in outputs where PathContainment.isInside(path, goldens) {
                    throw .usage(
                        "\(option) \(Quoted(path)) is inside the goldens folder \(Quoted(goldens)), where it would be committed with the goldens; write it elsewhere (e.g. iconbadge-artifacts/)"
                    )
                }
            }
            for (option, path) in [("--junit", settings.junit), ("--results", settings.results)] where path == "-" {
                throw .usage("\(option) needs a file path (standard output carries the check lines)")
            }
            guard settings.check != nil || settings.compare == CompareSettings() else {
                throw .usage(
                    "the comparison options (--tolerance, --threshold, --ignore, ...) go with --check DIR; without it nothing is compared"
                )
            }
            try settings.compare.checkCombinations()
            EnvironmentCheck.warnAboutUnknownVariables(io.environment, io: io)
            if let goldens = settings.check {
                let (mode, note) = try UpdateMode.resolve(given: settings.update, environment: io.environment)
                if let note { io.note(note) }
                settings.update = mode
                // One line for a mistyped folder, not one error per job.
                if !InputFile.exists(goldens) && !mode.createsMissing {
                    throw .missingInput(
                        path: goldens,
                        reason: "no such folder (the goldens' folder; --update missing makes it with the goldens)")
                }
            }
            let planned = try plan(manifestPath: manifestPath, settings: settings, io: io)
            if let results = settings.results {
                try OutputFile.checkWritable(OutputLocation(commandLine: results), creatingFolders: true)
            }
            // Every job is planned and checked in every shard; each runs its own part,
            // numbered as in the whole run, so that the shards' reports merge.
            let indexes = planned.indices.filter { settings.shard?.contains(shardKey(planned[$0])) ?? true }
            var jobs = indexes.map { planned[$0] }
            let run = Run(manifest: manifestPath, indexes: indexes, total: planned.count)
            guard let html = settings.html else { return execute(jobs, settings: settings, run: run, io: io) }
            let report = try HTMLReportFile(html)
            for (position, index) in indexes.enumerated() {
                jobs[position].check?.reportAssets = ReportAssets(folder: report.assets, index: index)
            }
            return execute(jobs, settings: settings, run: run, io: io, html: report)
        }
    }

    /// What splits a batch into shards: a job's golden below the goldens folder, or
    /// its output below the output root, or (standard output) its label.
    static func shardKey(_ job: RenderJob) -> String {
        if let golden = job.check?.golden { return golden.relative.description }
        switch job.output {
        case .file(let location, _), .staged(_, _, let location): return location.relative.description
        case .standardOutput, nil: return job.label
        }
    }

    /// The whole run a batch's jobs belong to: the manifest, each job's index in it
    /// (after expansion), and how many jobs it has.
    struct Run {
        var manifest: String
        var indexes: [Int]
        var total: Int
    }

    /// Reads, validates and expands every job; nothing is rendered or written if any
    /// job is wrong.
    static func plan(manifestPath: String, settings: Settings, io: CommandIO) throws(BadgeError) -> [RenderJob] {
        let bytes = try InputFile.bytes(at: manifestPath, limit: Manifest.maxBytes, what: "manifest")
        return try plan(bytes, manifestPath: manifestPath, settings: settings, io: io)
    }

    /// Validates and expands the jobs of a manifest's bytes that came from `manifestPath`.
    static func plan(_ bytes: [UInt8], manifestPath: String, settings: Settings, io: CommandIO) throws(BadgeError)
        -> [RenderJob]
    {
        let manifest = try settings.overrides.apply(to: Manifest.parse(bytes, path: manifestPath), path: manifestPath)
        // The environment is under every job, as under every render; then the batch's
        // own limit flags.
        var base = try ArgumentParser(options: RenderOptions.all).parse(
            [][...], defaults: RenderSettings(), environment: io.environment
        ).settings
        var limits = base.limits
        for name in settings.limitsGiven {
            switch name {
            case "max-side": limits.maxSide = settings.limits.maxSide
            case "max-pixels": limits.maxPixels = settings.limits.maxPixels
            default: limits.svgTimeLimit = settings.limits.svgTimeLimit
            }
        }
        base.limits = limits
        let context = JobPlanner.BatchContext(
            base: base, scales: settings.scales, outputRoot: OutputRoot(settings.outputRoot ?? "."),
            check: settings.check.map {
                JobPlanner.BatchCheck(
                    goldens: $0, artifacts: settings.artifacts, update: settings.update ?? .none,
                    compare: settings.compare)
            },
            creationDate: try PDFDate.sourceDateEpoch(io.environment["SOURCE_DATE_EPOCH"]),
            manifestPath: manifestPath)
        let jobs = try JobPlanner.manifest(manifest, context: context)
        do throws(JobPlanChecks.Conflict) {
            try JobPlanChecks.checkIdentities(jobs, extraInputs: manifestPath == "-" ? [] : [manifestPath])
        } catch {
            throw conflictError(error, manifestPath: manifestPath)
        }
        if let junit = settings.junit {
            // The report replaces no input: not the manifest, an icon, a font or a golden.
            let keys =
                ([manifestPath] + jobs.flatMap(\.inputs)).map(FileIdentity.key)
                + jobs.compactMap { $0.check.map { FileIdentity.key($0.golden) } }
            if keys.contains(FileIdentity.key(junit)) {
                throw .usage(
                    "--junit \(Quoted(junit)) is an input file; write elsewhere (iconbadge never overwrites its input)")
            }
        }
        return jobs
    }

    /// A manifest's plan conflict, as the bad input (65) it is.
    static func conflictError(_ conflict: JobPlanChecks.Conflict, manifestPath: String) -> BadgeError {
        conflict.badInput(manifest: manifestPath)
    }

    /// Runs the jobs; prints failures, check lines, the summary and the JUnit report.
    static func execute(
        _ jobs: [RenderJob], settings: Settings, run: Run, io: CommandIO, html: HTMLReportFile? = nil
    ) -> ExitCode {
        let start = ContinuousClock.now
        let progress = ProgressLine(total: jobs.count, enabled: io.stderrIsTerminal && !settings.quiet, io: io)
        let outcomes = JobRunner.run(jobs, workers: settings.jobs, progress: { progress.update(done: $0) })
        progress.finish()
        let tally = Reporter(io: io).report(outcomes, jobs: jobs, checkLines: .notable)
        // A manifest's relative paths start from the working folder, not the manifest's:
        // run from elsewhere, every icon is "no such file". Say so once.
        let relativeMissing = outcomes.indices.contains { index in
            // A missing input of the manifest's (an icon, image or font), not a golden.
            if case .failure(.missingInput(let path, _)) = outcomes[index].result {
                return !path.hasPrefix("/") && path != "-" && jobs[index].inputs.contains(path)
            }
            return false
        }
        if relativeMissing, let working = Platform.workingFolder() {
            io.note(
                "a manifest's relative paths start from the working folder, \(Quoted(working)), not the manifest's folder; run batch from the folder they are written for"
            )
        }
        let entries =
            settings.check == nil
            ? [] : CheckEntry.entries(of: ErrorWording.worded(outcomes), jobs: jobs, indexes: run.indexes)
        if let shard = settings.shard, jobs.isEmpty {
            io.note(
                "shard \(shard): none of the \(run.total) job\(run.total == 1 ? "" : "s") falls in this shard, so it does nothing and passes"
            )
        }
        let title = "iconbadge batch --check \(settings.check ?? "")"
        let results = settings.results.flatMap { (path) -> ReportPublishing.Results? in
            guard let goldens = settings.check else { return nil }
            return ReportPublishing.Results(path: path, artifacts: settings.artifacts ?? GoldenTarget.defaultArtifacts)
            {
                code in
                let identity = RunResults.identity(
                    [
                        ("manifest", .string(run.manifest)), ("goldens", .string(goldens)),
                        ("scales", settings.scales.map { .array($0.map { .number($0) }) } ?? .null),
                        ("outputRoot", .string(settings.outputRoot ?? ".")),
                        ("update", .string((settings.update ?? .none).rawValue)),
                    ], compare: settings.compare)
                return RunResults(
                    command: .batch, title: title, run: identity, shard: settings.shard, total: run.total, failOn: [],
                    exitCode: code, entries: entries)
            }
        }
        let (published, exitCode) = ReportPublishing.publish(
            entries, title: title, html: html,
            junit: settings.junit.map { .init(path: $0, failOn: [], suite: RunResults.Command.batch.suite) },
            results: results, exitCode: tally.exitCode, environment: io.environment)
        ReportWording.say(published, io: io)
        if let goldens = settings.check {
            GitHubAnnotations.print(
                entries, command: "batch --check",
                file: {
                    OutputLocation(root: goldens, components: $0.path.split(separator: "/").map(String.init))
                        .description
                },
                toStandardError: false, io: io)
        }
        if !settings.quiet {
            if settings.check != nil {
                io.writeErr(
                    "iconbadge: batch --check: " + CheckEntry.summary(entries)
                        + (settings.shard.map { " (shard \($0), of \(run.total) in all)" } ?? "") + "\n")
            } else {
                let elapsed = ContinuousClock.now - start
                let seconds =
                    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                let rate = seconds > 0 ? Double(jobs.count) / seconds : 0
                io.writeErr(
                    "iconbadge: batch: \(plural(jobs.count, "render")), \(jobs.count - tally.failed) written, \(tally.failed) failed in \(format(seconds)) s (\(format(rate))/s)\n"
                )
            }
        }
        return exitCode
    }

    /// "1 render", "2 renders".
    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return String(rounded)
    }
}
