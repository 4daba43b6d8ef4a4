import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `iconbadge appiconset PATH.appiconset --value BETA [--out DIR | --in-place]`:
/// badges every image of an Xcode app icon set at its own pixel size.
enum AppIconSetCommand {
    struct Settings {
        var render = RenderSettings()
        var out: String?
        var inPlace = false
        var relativeSize = 0.3
        var jobs = BatchCommand.cores
        var failIfHidden = false
    }

    /// The render options that make sense here (no icon, output, scale or size of
    /// their own: those come from each image), and the command's own.
    static let options: [OptionSpec<Settings>] = {
        // Nor golden checks: a set is checked by checking its images (compare, batch --check).
        let excluded = Set(["output", "in-place", "scale", "scales", "size", "report", "format", "force"])
            .union(RenderOptions.check.map(\.name))
        var list: [OptionSpec<Settings>] = RenderOptions.all.filter { !excluded.contains($0.name) }.map {
            $0.lifted(\Settings.render)
        }
        list += [
            OptionSpec(
                name: "out", kind: .value(placeholder: "DIR"), group: "Asset catalog",
                help:
                    "write a badged copy of the set into DIR (DIR/NAME.appiconset; a DIR ending in .appiconset is the copy)",
                completion: .folder,
                fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.out = text },
            OptionSpec(
                name: "in-place", kind: .flag, group: "Asset catalog", help: "replace the set's images, atomically",
                fromEnvironment: false
            ) { settings, text throws(BadgeError) in
                settings.inPlace = try ValueParsers.bool(text, option: "--in-place")
            },
            OptionSpec(
                name: "relative-size", kind: .value(placeholder: "F"), group: "Asset catalog",
                help: "badge height as a fraction of each image's reference box: the same as --height F×100%",
                defaultText: "0.3"
            ) { settings, text throws(BadgeError) in
                settings.relativeSize = try ValueParsers.positive(text, option: "--relative-size", max: 1, unit: "")
            },
            OptionSpec(
                name: "fail-if-hidden", kind: .flag, group: "Asset catalog",
                help: "exit 64 instead of 0 when the badge is hidden (a value of 0 or empty): nothing is written either way"
            ) { settings, text throws(BadgeError) in
                settings.failIfHidden = try ValueParsers.bool(text, option: "--fail-if-hidden")
            },
            OptionSpec(
                name: "jobs", short: "j", kind: .value(placeholder: "N"), group: "Asset catalog",
                help: "render N images at once", defaultText: "the number of cores"
            ) { settings, text throws(BadgeError) in
                settings.jobs = try ValueParsers.integer(text, option: "--jobs", range: 1...256)
            },
        ]
        return list
    }()

    static let info = CommandInfo(
        name: "appiconset",
        summary: "badge every image of an Xcode app icon set at its own size",
        usage:
            "iconbadge appiconset PATH.appiconset (--value TEXT | --dot | --image PATH) (--out DIR | --in-place) [options]",
        description: """
            Badges every image of an Xcode app icon set (Contents.json) at its own pixel size, so the badge
            reads the same at 40 px and 1024 px, inside the shape of each image's platform (from its idiom:
            iPhone, iPad and marketing icons are ios, Mac is macos, Watch is watchos) unless --platform is
            given. Legacy multi-size sets and the single 1024 px set work; iOS 18 appearances: "dark" images
            get the same badge, "tinted" images a greyscale one (the system tints those from their
            luminance). Contents.json is copied unchanged.
            """,
        options: options.map(\.info),
        examples: [
            (
                "a beta copy of the app icon",
                "iconbadge appiconset App/Assets.xcassets/AppIcon.appiconset --value BETA --out build/beta"
            ),
            (
                "a green DEV badge, in place",
                "iconbadge appiconset AppIcon.appiconset --value DEV --background '#34C759' --in-place"
            ),
            (
                "a dot 15% of each image",
                "iconbadge appiconset AppIcon.appiconset --dot --dot-size 15% --out build/debug"
            ),
        ],
        positional: .folder,
        run: { arguments, io in AppIconSetCommand.run(arguments, io: io) })

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        CommandRunner.run(
            arguments, io: io, options: options, defaults: Settings(), environment: io.environment,
            name: "appiconset", command: info
        ) { parsed throws(BadgeError) in
            guard parsed.positionals.count == 1, let folder = parsed.positionals.first else {
                throw .usage("appiconset takes one PATH.appiconset folder")
            }
            var settings = parsed.settings
            guard !(settings.out != nil && settings.inPlace) else {
                throw .usage(
                    "--out and --in-place are exclusive: write a badged copy or replace the set's images, not both")
            }
            guard settings.out != nil || settings.inPlace else {
                throw .usage("say where the badged set goes: --out DIR (a copy) or --in-place (replace its images)")
            }
            if parsed.flags.contains("relative-size"), parsed.flags.contains("height") {
                throw .usage(
                    "--relative-size and --height both set the badge's height; give one (--height 30% is --relative-size 0.3)"
                )
            }
            // A flag overrides a variable: --relative-size over ICONBADGE_HEIGHT.
            if parsed.flags.contains("relative-size") { settings.render.heightGiven = false }
            EnvironmentCheck.warnAboutUnknownVariables(
                io.environment, io: io, alsoKnown: options.filter(\.fromEnvironment).map(\.environmentName))
            let set = try AppIconSet(folder: folder)
            return try badge(set, settings: settings, io: io)
        }
    }

    /// Badges `set` all or nothing: every image is rendered into a staging folder
    /// beside the destination, and only when all succeeded is it moved into place
    /// (`--out`: the folder renamed; `--in-place`: each file renamed over its
    /// original). Any failure, or SIGINT/SIGTERM, leaves the destination as it was.
    ///
    /// - Throws: the plan's errors (64, 65, 66, 73); render failures are reported per
    ///   image and give the exit code of the first.
    static func badge(_ set: AppIconSet, settings: Settings, io: CommandIO) throws(BadgeError) -> ExitCode {
        guard !set.images.isEmpty else {
            io.note("appiconset: \(Quoted(set.folder)) has no images (every slot is empty); nothing to badge")
            return .success
        }
        guard settings.render.style.overflow != .expand else {
            throw .usage(
                "--overflow expand grows each image past its slot's size, which breaks the set; use clamp (the default) or clip"
            )
        }
        if let value = settings.render.value, case .hidden(let reason) = settings.render.labelRules.label(for: value) {
            let why = reason == .zero ? "the value is 0 (--show-zero draws it)" : "the value is empty"
            if settings.failIfHidden {
                throw .usage("--fail-if-hidden: the badge is hidden: \(why); nothing written")
            }
            io.note("appiconset: the badge is hidden: \(why); nothing written (--fail-if-hidden makes this an error)")
            return .success
        }
        let destination: AppIconSet.Destination = settings.out.map { .copy(into: $0) } ?? .inPlace
        let final = set.destinationFolder(destination)
        if case .copy(let out) = destination {
            guard FileIdentity.key(final.description) != FileIdentity.key(set.folder) else {
                throw .usage(
                    "--out \(Quoted(out)) would write into the set itself; use --in-place to replace its images")
            }
        }
        // Every image is read and measured before anything is rendered or made.
        let planned = try set.jobs(
            settings: settings.render, relativeSize: settings.relativeSize, destination: destination,
            creationDate: try PDFDate.sourceDateEpoch(io.environment["SOURCE_DATE_EPOCH"]))
        do throws(JobPlanChecks.Conflict) {
            try JobPlanChecks.checkIdentities(planned, extraInputs: [set.folder + "/Contents.json"])
        } catch {
            throw BatchCommand.conflictError(error, manifestPath: set.folder + "/Contents.json")
        }
        if destination.isInPlace { try JobPlanChecks.checkFileSystem(planned) }
        let staged = destination.isInPlace ? try StagedFolder.inside(final) : try StagedFolder.beside(final)
        var committed = false
        defer { if !committed { staged.discard() } }
        let jobs = AppIconSet.staging(planned, into: staged)
        let outcomes = JobRunner.run(jobs, workers: settings.jobs)
        let tally = Reporter(io: io).report(outcomes, jobs: jobs, checkLines: .notable)
        guard tally.failed == 0 else {
            io.writeErr("iconbadge: appiconset: nothing written: \(tally.failed) of \(jobs.count) images failed\n")
            return tally.exitCode
        }
        switch destination {
        case .inPlace:
            try staged.commitFiles(set.images.map(\.filename))
        case .copy:
            try staged.write(set.contents, components: ["Contents.json"], shown: final.description + "/Contents.json")
            try staged.commit(as: final.name ?? set.name)
        }
        committed = true
        let target = destination.isInPlace ? set.folder : final.description
        let noun = jobs.count == 1 ? "image" : "images"
        io.writeErr("iconbadge: appiconset: badged \(jobs.count) \(noun) into \(Quoted(target))\n")
        return .success
    }
}
