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
        var limits = CompareCommand.defaultLimits
        // Folders (compare ACTUAL_DIR EXPECTED_DIR) only:
        var jobs = BatchRenderer.availableCPUs
        var failOn: [CheckEntry.Status]?
        var update: UpdateMode?
        var junit: String?
        var html: String?
        var artifacts: String?
        var results: String?
        var shard: Shard?
    }

    /// The limits images are compared under: a side up to 32767 px, the largest any of
    /// iconbadge's decoders reads (Cairo's image surfaces; full-page screenshots are
    /// often taller than the render command's 8192), and the same pixel limit as a
    /// render (67,108,864), which is what bounds memory.
    static let defaultLimits: ImageLimits = {
        var limits = ImageLimits()
        limits.maxSide = ImageLimits.cairoMaxSide
        return limits
    }()

    /// The options of a folder comparison.
    static let folderOnly: [OptionSpec<Settings>] = [
        OptionSpec(
            name: "jobs", short: "j", kind: .value(placeholder: "N"), group: "Folders",
            help: "compare N pairs at once", defaultText: "the number of cores", fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.jobs = try ValueParsers.integer(text, option: "--jobs", range: 1...256)
        },
        OptionSpec(
            name: "fail-on", kind: .value(placeholder: "LIST"), group: "Folders",
            help: "which of new and deleted images fail the check besides changed ones (none: neither)",
            defaultText: "new,deleted",
            completion: .choices(["new,deleted", "new", "deleted", "none"], exhaustive: false),
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.failOn = try parseFailOn(text)
        },
        OptionSpec(
            name: "update", kind: .flag, group: "Folders",
            help:
                "copy new images into EXPECTED_DIR (missing), failing ones over their goldens (changed), or both (all, the bare flag); ICONBADGE_UPDATE sets it too, except on CI",
            completion: .choices(UpdateMode.words, exhaustive: false), fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.update = try UpdateMode.parse(text, option: "--update")
        },
        OptionSpec(
            name: "junit", kind: .value(placeholder: "PATH"), group: "Folders",
            help: "write a JUnit XML report, a test case per image (its folder made if missing)", completion: .file,
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.junit = text
        },
        OptionSpec(
            name: "html", kind: .value(placeholder: "PATH"), group: "Folders",
            help: "write an HTML report (PATH and its PATH-assets folder of PNGs), viewable offline",
            completion: .file, fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.html = text
        },
        OptionSpec(
            name: "artifacts", kind: .value(placeholder: "DIR"), group: "Folders",
            help:
                "write each changed image as DIR/REL.actual.png and DIR/REL.diff.png (REL its path, icons/a.png.diff.png; stale ones removed)",
            completion: .folder, fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.artifacts = text
        },
        OptionSpec(
            name: "shard", kind: .value(placeholder: "K/N"), group: "Folders",
            help: "check only part K of N (split by a hash of each image's path, the same on every machine)",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.shard = try Shard.parse(text)
        },
        OptionSpec(
            name: "results", kind: .value(placeholder: "PATH"), group: "Folders",
            help:
                "write every image's status, comparison, regions and images as JSON, for merge-reports (its folder made if missing)",
            completion: .file, fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.results = text
        },
    ]

    /// `--fail-on new,deleted`: a list of `new` and `deleted` (`changed` and `error`
    /// always fail, so they may be named too), or `none`.
    ///
    /// - Throws: 64 naming the word.
    static func parseFailOn(_ text: String) throws(BadgeError) -> [CheckEntry.Status] {
        if text == "none" { return [] }
        var list: [CheckEntry.Status] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let status = CheckEntry.Status(rawValue: word), status != .passed else {
                let guess = Suggestion.closest(to: word, among: ["new", "deleted", "changed", "none"])
                throw .invalidValue(
                    option: "--fail-on", value: text,
                    problem:
                        "lists \(Quoted(word)), not a status that can fail (use new, deleted, both as new,deleted, or none)"
                        + (guess.map { " (did you mean \($0)?)" } ?? ""))
            }
            if !list.contains(status) { list.append(status) }
        }
        return list
    }

    static let options: [OptionSpec<Settings>] =
        CompareSettings.options.map { $0.lifted(\Settings.compare) } + [
            OptionSpec(
                name: "diff", kind: .value(placeholder: "PATH"), group: "Output",
                help: "write a diff image: differing pixels red, anti-aliased yellow, the rest faded grey",
                completion: .file, fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.diff = text },
            OptionSpec(
                name: "json", kind: .flag, group: "Output",
                help: "print one JSON object (manual: golden-checks.md) instead of a line"
            ) { settings, text throws(BadgeError) in settings.json = try ValueParsers.bool(text, option: "--json") },
        ]
        + folderOnly
        // --max-side and --max-pixels, as the render command takes them; the side
        // limit's default is the largest the decoders read.
        + LimitOptions.lifted(RenderOptions.limits, onto: \Settings.limits, defaultSide: ImageLimits.cairoMaxSide)

    static let info = CommandInfo(
        name: "compare",
        summary: "compare two images, exactly or like pixelmatch (exit 1 when they differ)",
        usage:
            "iconbadge compare (ACTUAL EXPECTED [--diff PATH] | ACTUAL_DIR EXPECTED_DIR [--junit PATH] [--html PATH] [--artifacts DIR] [--update [MODE]] [--fail-on LIST] [--shard K/N] [--results PATH]) [--tolerance N | --threshold T] [--json]",
        description: """
            Compares two images (any format iconbadge reads) on decoded straight RGBA pixels, alpha included.
            Exact by default; --threshold switches to pixelmatch's perceptual mode. Prints "same: ..." or
            "different: ..."; exit 0: equal (within the budget), 1: different (pixels or size), 64-74: errors.
            Differing pixels within 4 px of each other are one region: the line names them ("3 regions, the
            largest 12 × 8 at 30,0"), --json lists the 20 largest (x, y, width, height, pixels).

            Given two folders, pairs their images by relative path. Each image is passed, changed, new
            (ACTUAL_DIR only), deleted (EXPECTED_DIR only) or error, the words batch --check uses too; changed
            and error fail, new and deleted unless --fail-on says otherwise. It prints a line for each image
            that is not passed, then the counts:
              changed icons/a.png: 62 of 2304 pixels differ (2.691%), largest channel difference 207; 1 region, 8 × 10 at 35,5
                wrote out/artifacts/icons/a.png.actual.png
                wrote out/artifacts/icons/a.png.diff.png
              compare: 5 images: 4 passed, 1 changed, 0 new, 0 deleted, 0 errors
            A changed image's artifacts are DIR/REL.actual.png and DIR/REL.diff.png (--artifacts DIR; REL is
            its path, extension included), named so by batch --check too. A folder that does not exist is
            "no such folder" (66). --shard K/N checks part K of N, --results PATH writes the run for
            merge-reports.
            """,
        options: options.map(\.info),
        examples: [
            ("exact: any changed pixel fails", "iconbadge compare out/icon.png goldens/icon.png"),
            (
                "perceptual, with a diff image",
                "iconbadge compare out/icon.png goldens/icon.png --threshold 0.1 --diff out/icon.diff.png"
            ),
            (
                "two folders, with JUnit and an HTML report for CI",
                "iconbadge compare out/icons goldens --junit out/junit.xml --html out/report.html"
            ),
            (
                "a small budget, machine-readable",
                "iconbadge compare a.png b.png --tolerance 2 --max-diff-pixels 10 --json"
            ),
            (
                "the second of three CI jobs, its results for merge-reports",
                "iconbadge compare out/icons goldens --shard 2/3 --artifacts shard-2 --html shard-2/report.html --results shard-2/results.json"
            ),
        ],
        manual: ["golden-checks.md", "options.md"],
        positional: .file,
        run: { arguments, io in CompareCommand.run(arguments, io: io) })

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        CommandRunner.run(
            arguments, io: io, options: options, defaults: Settings(),
            name: "compare", command: info
        ) { parsed throws(BadgeError) in
            guard parsed.positionals.count == 2 else {
                throw .usage("compare takes two images, ACTUAL EXPECTED, or two folders, ACTUAL_DIR EXPECTED_DIR")
            }
            if isFolder(parsed.positionals[0]) || isFolder(parsed.positionals[1]) {
                return try runFolders(parsed.positionals[0], parsed.positionals[1], settings: parsed.settings, io: io)
            }
            if parsed.settings.compare.alternateDarker != nil, parsed.settings.diff == nil {
                throw .usage("--diff-color-alt colours the diff image; it goes with --diff PATH")
            }
            if let name = parsed.flags.first(where: { name in folderOnly.contains { $0.name == name } }) {
                let option = "--" + name
                throw .usage(
                    "\(option) goes with two folders (compare ACTUAL_DIR EXPECTED_DIR); here two images are compared")
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
            if parsed.positionals[0] != "-", FileIdentity.same(parsed.positionals[0], parsed.positionals[1]) {
                throw .usage(
                    "compare \(Quoted(parsed.positionals[0])) \(Quoted(parsed.positionals[1])): both are one file, so they would always be equal; give the fresh image and the golden"
                )
            }
            let first = try InputFile.bytes(
                at: parsed.positionals[0], limit: settings.limits.maxRasterBytes, what: "image file")
            let second = try InputFile.bytes(
                at: parsed.positionals[1], limit: settings.limits.maxRasterBytes, what: "image file")
            var images = Comparer.Images()
            if settings.diff != nil { images.diff = .always }
            let compared = try Comparer.compareFiles(
                actual: first, actualPath: parsed.positionals[0], expected: second,
                expectedPath: parsed.positionals[1], settings: settings.compare, counting: settings.json,
                images: images, limits: settings.limits,
                bands: ParallelMap.rowBands(workers: BatchRenderer.availableCPUs))
            var report = compared.report
            if let path = settings.diff, let png = compared.diff {
                try OutputFile.write(png, to: path)
                report.diffPath = path
            }
            io.writeOut(settings.json ? report.json.serialized() + "\n" : report.line + "\n")
            if let path = settings.diff, compared.diff == nil, !report.result.sameSize {
                io.note("no diff image written to \(Quoted(path)): the images differ in size, so no pixel pairs up")
            }
            return report.equal ? .success : .different
        }
    }
}
