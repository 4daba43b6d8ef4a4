import BadgeCore
import BadgeSystem
import BadgeRender

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
            command: info
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
                if let format = OutputFormat(path: diff), format != .png {
                    throw .usage("--diff \(Quoted(diff)): the diff image is a PNG; name it .png")
                }
                try RenderCommand.checkNotInput(output: diff, inputs: parsed.positionals, option: "--diff")
                try OutputFile.checkWritable(diff)
            }
            let actual = try ImageFile.pixels(at: parsed.positionals[0], limits: settings.limits)
            let expected = try ImageFile.pixels(at: parsed.positionals[1], limits: settings.limits)
            let report = try compare(
                actual, expected, settings: settings.compare, counting: settings.json, diffPath: settings.diff)
            io.writeOut(settings.json ? report.json.serialized() + "\n" : report.line + "\n")
            return report.equal ? .success : .different
        }
    }

    /// Compares, writes the diff image when a path is given (and the sizes match),
    /// and returns the report.
    static func compare(
        _ actual: PixelBuffer, _ expected: PixelBuffer, settings: CompareSettings, counting: Bool, diffPath: String?
    ) throws(BadgeError) -> ComparisonReport {
        let result = ImageDiff.compare(
            actual, expected, options: settings.options(counting: counting, diffImage: diffPath != nil))
        var written: String?
        if let diffPath, let diff = result.diff {
            try OutputFile.write(try ImageFile.pngData(of: diff), to: diffPath)
            written = diffPath
        }
        return ComparisonReport(result: result, equal: settings.passes(result), settings: settings, diffPath: written)
    }
}
