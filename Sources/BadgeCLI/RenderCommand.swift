import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

/// `iconbadge [render] ICON --value TEXT -o OUT.png`: draws a badge onto an icon.
enum RenderCommand {
    static let info = CommandInfo(
        name: "render",
        summary: "draw a badge onto an icon (the default command)",
        usage:
            "iconbadge [render] ICON (--value TEXT | --text TEXT | --dot | --image PATH) [badge options] [--and BADGE...] (-o OUTPUT | --in-place | --check GOLDEN) [options]",
        description: """
            Draws a notification badge onto an icon (PNG, SVG, JPEG, WebP, GIF, BMP, TIFF or ICO; - reads
            standard input) and writes PNG, WebP, SVG or PDF (by -o's extension or --format). Sizes are points at
            1x; --scale turns them into pixels. --and starts another badge, drawn after the first on the
            same icon, from the defaults; the output, scale, platform and other options of the whole render
            may be given anywhere.
            """,
        options: RenderOptions.all.map(\.info),
        examples: [
            (
                "a beta badge on an iOS app icon, 28% of its height, inside its rounded corners",
                "iconbadge AppIcon.png --value BETA --platform ios --height 28% -o AppIcon-beta.png"
            ),
            (
                "a BETA ribbon across the top-left corner and a count",
                "iconbadge AppIcon.png --platform ios --shape ribbon --text BETA --anchor top-left --and --value 3 --height 28% -o AppIcon-beta.png"
            ),
            ("99+ on a toolbar icon at @3x", "iconbadge icon.png --value 150 --scale 3 -o icon@3x.png"),
            (
                "@1x, @2x and @3x from one command",
                "iconbadge bell.svg --dot --scales 1,2,3 -o 'out/{name}{@scale}.png'"
            ),
            ("the CI step: compare with a golden", "iconbadge icon.png --value 3 --check goldens/icon-3.png"),
        ],
        manual: [
            "geometry.md", "platforms.md", "looks.md", "text.md", "formats.md", "animation.md", "golden-checks.md",
            "environment.md", "options.md",
        ],
        notesText: { environmentNote },
        positional: .file,
        run: { arguments, io in RenderCommand.run(arguments, io: io) })

    /// Which options the environment can set, from the table itself.
    static var environmentNote: String {
        let perRun = RenderOptions.all.filter { !$0.fromEnvironment }.map(\.flagName)
        return "Every option but " + perRun.dropLast().joined(separator: ", ") + " and " + (perRun.last ?? "")
            + "\ncan also be set with an ICONBADGE_* variable named after it (ICONBADGE_BACKGROUND,\n"
            + "ICONBADGE_BADGE_ANCHOR); flags override variables, which override --style."
    }

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        parse(arguments, io: io) { settings, positionals throws(BadgeError) in
            // An SVG icon is drawn by the isolated renderer: it starts now and loads
            // librsvg while this process plans and loads its fonts.
            if let icon = positionals.first, icon.lowercased().hasSuffix(".svg") || icon.lowercased().hasSuffix(".svgz")
            {
                IsolatedLoader.prestart()
            }
            EnvironmentCheck.warnAboutUnknownVariables(io.environment, io: io)
            var settings = settings
            if settings.check != nil {
                let (mode, note) = try UpdateMode.resolve(given: settings.update, environment: io.environment)
                if let note { io.note(note) }
                settings.update = mode
            }
            let jobs = try plan(settings, positionals: positionals, io: io)
            return execute(jobs, settings: settings, io: io)
        }
    }

    /// Parses a render command line, its badges split at `--and` (`BadgeGroups`), and
    /// runs `body` on the settings (the first badge's, carrying the others) and the
    /// positionals; help and errors as `CommandRunner`.
    static func parse(
        _ arguments: ArraySlice<String>, io: CommandIO,
        body: (RenderSettings, [String]) throws(BadgeError) -> ExitCode
    ) -> ExitCode {
        BadgeGroups.run(
            arguments, io: io, options: RenderOptions.all, defaults: RenderSettings(), render: \.self, name: "render",
            command: info
        ) { parsed throws(BadgeError) in try body(parsed.settings, parsed.positionals) }
    }

    /// The jobs of a render command line, checked (nothing read, rendered or written).
    ///
    /// - Throws: 64 for usage errors (and an output that is an input), 65 for a bad
    ///   plan, 66 for a missing golden, 73 for an output that cannot be created.
    static func plan(_ settings: RenderSettings, positionals: [String], io: CommandIO) throws(BadgeError)
        -> [RenderJob]
    {
        guard let icon = positionals.first else {
            throw .usage(
                "missing ICON: give the icon to badge (a PNG file, or - for standard input); see iconbadge --help")
        }
        guard positionals.count == 1 else {
            if let guess = BadgeCLI.misspeltCommand(icon) {
                throw .usage(
                    "unknown command \(Quoted(icon)) (did you mean \(guess)?); "
                        + "to badge a file of that name, write ./\(icon)")
            }
            throw .usage(
                "unexpected argument \(Quoted(positionals[1])): give one ICON (use -- before a name that starts with -)"
            )
        }
        let jobs = try JobPlanner.render(settings, icon: icon, environment: io.environment)
        if let job = jobs.first, job.output == .standardOutput, io.stdoutIsTerminal, !settings.force,
            job.encoding.format != .svg
        {
            throw .usage(
                "standard output is a terminal: \(job.encoding.format.rawValue.uppercased()) bytes would garble it; redirect it (> file) or give --force"
            )
        }
        do throws(JobPlanChecks.Conflict) {
            try JobPlanChecks.checkIdentities(jobs)
        } catch {
            throw conflictError(error, inPlace: settings.inPlace, icon: icon)
        }
        try JobPlanChecks.checkFileSystem(jobs)
        return jobs
    }

    /// A plan conflict of the command line, as the usage error (64) it is. An `-o`
    /// naming `icon` itself names `--in-place`, the way to replace it.
    static func conflictError(_ conflict: JobPlanChecks.Conflict, inPlace: Bool, icon: String? = nil) -> BadgeError {
        switch conflict {
        case .overwritesInput(let label, let role, let path):
            let option: String
            switch role {
            case "golden": option = "--check"
            case "artifact": option = "--check's artifact"
            default: option = inPlace ? "--in-place" : "-o"
            }
            let scale = label.isEmpty ? "" : " (\(label))"
            // One output (not one scale of several) that is the icon: --in-place is that.
            if option == "-o", label.isEmpty, let icon, icon != "-", FileIdentity.same(path, icon) {
                return .usage("-o \(Quoted(path)) is the icon itself: --in-place replaces it, or write elsewhere")
            }
            return .usage(
                "\(option) \(Quoted(path))\(scale) is an input file; write elsewhere (iconbadge never overwrites its input)"
            )
        case .goldenIsInput(_, let path):
            return .usage(
                "--check \(Quoted(path)) is an input of the render (the icon); compare with a golden image of its own")
        case .sameFile(let first, let second, let path):
            return .usage("\(first) and \(second) both write \(Quoted(path)); give each its own file")
        }
    }

    /// Runs the planned jobs and prints their outcomes.
    static func execute(_ jobs: [RenderJob], settings: RenderSettings, io: CommandIO) -> ExitCode {
        let outcomes = JobRunner.run(jobs, workers: jobs.count > 1 ? BatchRenderer.availableCPUs : 1)
        // With --report, standard output stays one JSON document: check lines go to stderr.
        let tally = Reporter(io: io).report(outcomes, jobs: jobs, checkLines: .all, checkLinesToStderr: settings.report)
        for outcome in outcomes {
            if case .success(let done) = outcome.result, let report = done.report {
                io.writeOut(report.serialized(pretty: true) + "\n")
            }
        }
        return tally.exitCode
    }
}
