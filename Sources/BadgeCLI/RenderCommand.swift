import BadgeCore
import BadgeSystem
import BadgeRender

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `iconbadge [render] ICON --value TEXT -o OUT.png`: draws a badge onto an icon.
enum RenderCommand {
    static let info = CommandInfo(
        name: "render",
        summary: "draw a badge onto an icon (the default command)",
        usage:
            "iconbadge [render] ICON (--value TEXT | --dot | --image PATH) (-o OUTPUT | --in-place | --check GOLDEN) [options]",
        description: """
            Draws a notification badge onto an icon (PNG, SVG, JPEG, WebP, GIF, BMP, TIFF or ICO; - reads
            standard input) and writes PNG, SVG or PDF (by -o's extension or --format). Sizes are points at
            1x; --scale turns them into pixels.
            """,
        options: RenderOptions.all.map(\.info),
        examples: [
            ("a count badge on an app icon", "iconbadge icon.png --value 3 -o icon-3.png"),
            ("99+ at @3x for an asset catalog", "iconbadge icon.png --value 150 --scale 3 -o icon@3x.png"),
            ("a label in a blue pill, as SVG", "iconbadge icon.svg --value NEW --background '#007AFF' -o icon-new.svg"),
            (
                "@1x, @2x and @3x from one command",
                "iconbadge bell.svg --dot --scales 1,2,3 -o 'out/{name}{@scale}.png'"
            ),
            ("the CI step: compare with a golden", "iconbadge icon.png --value 3 --check goldens/icon-3.png"),
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
        CommandRunner.run(
            arguments, io: io, options: RenderOptions.all, defaults: RenderSettings(), environment: io.environment,
            command: info
        ) { parsed throws(BadgeError) in
            return try render(parsed.settings, positionals: parsed.positionals, io: io)
        }
    }

    /// Checks the settings and renders; with `dryRun`, stops after the last check that
    /// comes before the icon is read (nothing is read, rendered or written).
    static func render(_ settings: RenderSettings, positionals: [String], io: CommandIO, dryRun: Bool = false)
        throws(BadgeError) -> ExitCode
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
        try settings.checkCombinations()
        if let scales = settings.scales {
            return try renderScales(settings, icon: icon, scales: scales, io: io, dryRun: dryRun)
        }
        if let output = settings.output, OutputTemplate.hasTokens(output) {
            throw .usage("-o \(Quoted(output)) is a template; templates go with --scales (e.g. --scales 1,2,3)")
        }
        let request = try settings.request(icon: icon)
        let inputs = settings.inputFiles(icon: icon)
        var output = settings.output
        if settings.inPlace {
            guard output == nil else {
                throw .usage("--in-place and -o are exclusive: --in-place writes the icon itself")
            }
            guard icon != "-" else { throw .usage("--in-place needs an icon file, not standard input") }
            output = icon
            try checkNotInput(output: icon, inputs: Array(inputs.dropFirst()), option: "--in-place")
        } else if let output {
            try checkNotInput(output: output, inputs: inputs)
        }
        guard output != nil || settings.report || settings.check != nil else {
            throw .usage("missing -o OUTPUT: say where to write the image (- for standard output), or --in-place")
        }
        if output == "-", settings.report {
            throw .usage("--report and -o - both use standard output; write the image to a file")
        }
        let creationDate = try PDFDate.sourceDateEpoch(io.environment["SOURCE_DATE_EPOCH"])
        if let golden = settings.check {
            if OutputFormat(path: golden) == .pdf {
                throw .usage(
                    "--check \(Quoted(golden)): goldens are compared as pixels, and PDF cannot be read; use .png or .svg"
                )
            }
            try checkNotInput(output: golden, inputs: inputs, option: "--check")
            if let output { try checkNotInput(output: output, inputs: [golden]) }
            if settings.update {
                try OutputFile.checkWritable(golden)
            } else if !InputFile.isRegularFile(golden) {
                var info = stat()
                let exists = stat(golden, &info) == 0
                throw .missingInput(
                    path: golden,
                    reason: exists ? "is not a regular file" : "no such golden image (create it with --update)")
            }
        }
        if let output { try OutputFile.checkWritable(output) }
        let format = try outputFormat(settings.format, output: output, inPlace: settings.inPlace)
        if dryRun { return .success }
        let renderer = try Renderer()
        let composition = try renderer.compose(request)
        if let reason = composition.hidden {
            let why = reason == .zero ? "the value is 0 (use --show-zero to draw it)" : "the value is empty"
            io.note("badge hidden: \(why); the output is the icon unchanged")
        }
        if !composition.missingGlyphs.isEmpty {
            let points = composition.missingGlyphs.map(\.codePointName).joined(separator: " ")
            io.warning(
                "no font has \(points) (tried: \(composition.fontsTried.joined(separator: ", "))); drawn as a box (--strict-glyphs makes this an error)"
            )
        }
        if let output {
            let bytes = try composition.data(
                format: format, compression: settings.pngCompression, creationDate: creationDate,
                consumingIcon: settings.check == nil)
            try OutputFile.write(bytes, to: output)
        }
        if settings.report {
            io.writeOut(Report.json(composition, request: request, output: output).serialized(pretty: true) + "\n")
        }
        if let golden = settings.check {
            let outcome = try GoldenCheck.run(
                composition, golden: golden, settings: settings.compare, artifacts: settings.artifacts,
                update: settings.update, compression: settings.pngCompression, inputs: inputs)
            // With --report, standard output stays one JSON document.
            let line = outcome.line(golden: golden) + "\n"
            if settings.report { io.writeErr(line) } else { io.writeOut(line) }
            return outcome.status == .different ? .different : .success
        }
        return .success
    }

    /// `--scales 1,2,3 -o 'out/{name}{@scale}.png'`: one render per scale, as a
    /// batch of one job would do it.
    static func renderScales(
        _ settings: RenderSettings, icon: String, scales: [Double], io: CommandIO, dryRun: Bool = false
    )
        throws(BadgeError)
        -> ExitCode
    {
        guard let output = settings.output, !settings.inPlace else {
            throw .usage("--scales needs -o with a template such as 'out/{name}{@scale}.png' (and no --in-place)")
        }
        guard !settings.report else { throw .usage("--report describes one render; it does not combine with --scales") }
        guard !settings.scaleGiven else {
            throw .usage("--scale and --scales both set the scale; give one (--scales 1,2,3 renders at each)")
        }
        var pairs: [(key: String, value: JSONValue)] = [("icon", .string(icon)), ("output", .string(output))]
        pairs.append(("scales", .array(scales.map { .number($0) })))
        var base = settings
        base.scales = nil
        let planned: [PlannedJob]
        do throws(BadgeError) {
            planned = try JobPlanner.plan(
                Manifest.Entry(index: 0, pairs: pairs), base: base, scales: nil, manifest: "-o",
                environment: io.environment)
        } catch {
            if case .badInput(_, let reason) = error {
                throw .usage(reason.replacingJobPrefix())
            }
            throw error
        }
        for item in planned {
            try checkNotInput(output: item.job.output, inputs: item.inputs)
        }
        // Messages name the scale ("@2x"), not a manifest job ("jobs[0]@2x").
        let labelled = planned.map { item in
            var item = item
            if item.label.hasPrefix("jobs[0]") { item.label = String(item.label.dropFirst("jobs[0]".count)) }
            return item
        }
        if dryRun { return .success }
        var batch = BatchCommand.Settings()
        batch.quiet = true
        return BatchCommand.execute(labelled, settings: batch, io: io)
    }

    /// The format to write: `--format`, else the output's extension, else PNG for
    /// standard output.
    static func outputFormat(_ given: OutputFormat?, output: String?, inPlace: Bool) throws(BadgeError) -> OutputFormat
    {
        if let given { return given }
        guard let output, output != "-" else { return .png }
        if let format = OutputFormat(path: output) { return format }
        if inPlace {
            throw .usage(
                "--in-place writes PNG, SVG or PDF, and \(Quoted(output)) has another extension; give --format")
        }
        throw .usage(
            "cannot tell the format of \(Quoted(output)) from its extension; use .png, .svg or .pdf, or --format")
    }

    /// Refuses an output that is one of the inputs: the same path, or the same
    /// file reached another way (a link, `./`), by `FileIdentity`.
    static func checkNotInput(output: String, inputs: [String], option: String = "-o") throws(BadgeError) {
        guard output != "-" else { return }
        for input in inputs where FileIdentity.same(input, output) {
            throw .usage(
                "\(option) \(Quoted(output)) is an input file; write elsewhere (iconbadge never overwrites its input)")
        }
    }
}

extension String {
    /// A planner message about the one job of `--scales`, without the `jobs[0]`
    /// prefix (`jobs[0].output: ...` becomes `-o: ...`).
    fileprivate func replacingJobPrefix() -> String {
        if hasPrefix("jobs[0].output: ") { return "-o: " + dropFirst("jobs[0].output: ".count) }
        if hasPrefix("jobs[0]: ") { return String(dropFirst("jobs[0]: ".count)) }
        return self
    }
}
