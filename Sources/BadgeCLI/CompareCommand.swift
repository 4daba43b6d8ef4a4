import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

/// `iconbadge compare ACTUAL EXPECTED`: exit 0 when equal (within budget), 1 when
/// the images differ.
enum CompareCommand {
    struct Settings {
        var compare = CompareSettings()
        var diff: String?
        var json = false
        var limits = ImageLimits()
    }

    static let options: [OptionSpec<Settings>] =
        CompareSettings.options.map { $0.lifted(\Settings.compare) } + [
            OptionSpec(
                name: "diff", kind: .value(placeholder: "PATH"), group: "Output",
                help: "write a diff image: differing pixels red, anti-aliased yellow, the rest faded grey",
                completion: .file, fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.diff = text },
            OptionSpec(
                name: "json", kind: .flag, group: "Output", help: "print one JSON object (see README) instead of a line"
            ) { settings, text throws(BadgeError) in settings.json = try ValueParsers.bool(text, option: "--json") },
        ]
        + RenderOptions.limits.map { spec in
            // --max-side and --max-pixels, as the render command takes them.
            OptionSpec<Settings>(
                name: spec.name, short: spec.short, kind: spec.kind, group: spec.group, help: spec.help,
                defaultText: spec.defaultText, completion: spec.completion, fromEnvironment: false
            ) { settings, text throws(BadgeError) in
                var render = RenderSettings()
                render.limits = settings.limits
                try spec.apply(&render, text)
                settings.limits = render.limits
            }
        }

    static let info = CommandInfo(
        name: "compare",
        summary: "compare two images, exactly or like pixelmatch (exit 1 when they differ)",
        usage: "iconbadge compare ACTUAL EXPECTED [--tolerance N | --threshold T] [--diff PATH] [--json]",
        description: """
            Compares two images (any format iconbadge reads) on decoded straight RGBA pixels, alpha included.
            Exact by default; --threshold switches to pixelmatch's perceptual mode. Exit 0: equal (within the
            budget), 1: different (pixels or size), 64-74: errors.
            """,
        options: options.map(\.info),
        examples: [
            ("exact: any changed pixel fails", "iconbadge compare out/icon.png goldens/icon.png"),
            (
                "perceptual, with a diff image",
                "iconbadge compare out/icon.png goldens/icon.png --threshold 0.1 --diff out/icon.diff.png"
            ),
            (
                "a small budget, machine-readable",
                "iconbadge compare a.png b.png --tolerance 2 --max-diff-pixels 10 --json"
            ),
        ],
        positional: .file,
        run: { arguments, io in CompareCommand.run(arguments, io: io) })

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        CommandRunner.run(
            arguments, io: io, options: options, defaults: Settings(),
            name: "compare", command: info
        ) { parsed throws(BadgeError) in
            guard parsed.positionals.count == 2 else {
                throw .usage("compare takes two images: ACTUAL EXPECTED")
            }
            if parsed.positionals[0] == "-", parsed.positionals[1] == "-" {
                throw .usage("compare reads at most one image from standard input (-); give the other as a file")
            }
            let settings = parsed.settings
            try settings.compare.checkCombinations()
            if let diff = settings.diff {
                guard diff != "-" else { throw .usage("--diff needs a file path (standard output carries the report)") }
                if OutputNaming.unwritableFormat(of: diff) != nil
                    || (OutputFormat(path: diff).map { $0 != .png } ?? false)
                {
                    throw .usage("--diff \(Quoted(diff)): the diff image is a PNG; name it .png")
                }
                for input in parsed.positionals + [settings.compare.mask].compactMap(\.self)
                where FileIdentity.same(input, diff) {
                    throw .usage(
                        "--diff \(Quoted(diff)) is an input file; write elsewhere (iconbadge never overwrites its input)"
                    )
                }
                try OutputFile.checkWritable(diff)
            }
            let stored = settings.compare.storedColor
            let actual = try ImageFile.pixels(
                at: parsed.positionals[0], limits: settings.limits, keepTransparentColor: stored)
            let expected = try ImageFile.pixels(
                at: parsed.positionals[1], limits: settings.limits, keepTransparentColor: stored)
            let result = try Comparer.compare(
                actual, expected, settings: settings.compare, counting: settings.json,
                diffImage: settings.diff != nil, limits: settings.limits)
            var report = result.report
            if let path = settings.diff, let diff = result.diff {
                try OutputFile.write(try ImageFile.pngData(of: diff), to: path)
                report.diffPath = path
            }
            io.writeOut(settings.json ? report.json.serialized() + "\n" : report.line + "\n")
            if let path = settings.diff, result.diff == nil, !report.result.sameSize {
                io.note("no diff image written to \(Quoted(path)): the images differ in size, so no pixel pairs up")
            }
            return report.equal ? .success : .different
        }
    }
}
