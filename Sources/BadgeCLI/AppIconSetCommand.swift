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
            let destination: AppIconSet.Destination = settings.out.map { .copy(into: $0) } ?? .inPlace
            var contentsCopy: OutputLocation?
            if let out = settings.out {
                let target = OutputLocation(root: out, components: set.setComponents(into: out))
                guard FileIdentity.key(target) != FileIdentity.key(set.folder) else {
                    throw .usage(
                        "--out \(Quoted(out)) would write into the set itself; use --in-place to replace its images")
                }
                contentsCopy = OutputLocation(root: out, components: set.setComponents(into: out) + ["Contents.json"])
            }
            // Every image is read and measured before anything is written.
            let jobs = try set.jobs(
                settings: settings.render, relativeSize: settings.relativeSize, destination: destination,
                creationDate: try PDFDate.sourceDateEpoch(io.environment["SOURCE_DATE_EPOCH"]))
            do throws(JobPlanChecks.Conflict) {
                try JobPlanChecks.checkIdentities(jobs, extraInputs: [set.folder + "/Contents.json"])
            } catch {
                throw BatchCommand.conflictError(error, manifestPath: set.folder + "/Contents.json")
            }
            // All or nothing: every image is composed before any is written, so a badge
            // that fits one size and not another leaves the set as it was (in place, a
            // half-badged set would be badged twice on the next run).
            let trial = JobRunner.dryRun(jobs, workers: settings.jobs)
            if trial.contains(where: { if case .failure = $0.result { true } else { false } }) {
                let tally = Reporter(io: io).report(trial, jobs: jobs, checkLines: .notable)
                io.writeErr(
                    "iconbadge: appiconset: nothing written: \(tally.failed) of \(jobs.count) images failed\n")
                return tally.exitCode
            }
            let outcomes = JobRunner.run(jobs, workers: settings.jobs)
            let tally = Reporter(io: io).report(outcomes, jobs: jobs, checkLines: .notable)
            guard tally.failed == 0 else { return tally.exitCode }
            // Contents.json last: a set whose images could not all be written is not
            // made to look complete.
            if let contentsCopy { try OutputFile.write(set.contents, to: contentsCopy, creatingFolders: true) }
            let target =
                settings.out.map { out in
                    let below = set.setComponents(into: out)
                    return below.isEmpty ? out : OutputLocation(root: out, components: below).description
                } ?? set.folder
            let noun = jobs.count == 1 ? "image" : "images"
            io.writeErr("iconbadge: appiconset: badged \(jobs.count) \(noun) into \(Quoted(target))\n")
            return .success
        }
    }
}
