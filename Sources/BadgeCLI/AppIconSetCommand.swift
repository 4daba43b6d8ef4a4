import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

/// `iconbadge appiconset PATH.appiconset --value BETA [--out DIR | --in-place]`:
/// badges every image of an Xcode app icon set at its own pixel size.
enum AppIconSetCommand {
    struct Settings {
        var render = RenderSettings()
        var catalog = CatalogSettings()
        var out: String?
        var inPlace = false
        var setNames: [String] = []
        /// `--preview`: where the contact sheet of the badged set goes.
        var preview: String?
    }

    /// The render options that make sense here (no icon, output, scale or size of
    /// their own: those come from each image), and the command's own.
    static let options: [OptionSpec<Settings>] = {
        // Nor golden checks: a set is checked by checking its images (compare, batch --check).
        let excluded = Set(["output", "in-place", "scale", "scales", "size", "report", "format", "force"])
            .union(RenderOptions.check.map(\.name)).union(RenderOptions.animation.map(\.name))
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
                name: "set", kind: .value(placeholder: "NAME"), group: "Asset catalog",
                help:
                    "in an .xcassets catalog, badge only the set NAME (AppIcon or AppIcon.appiconset); repeat for more",
                fromEnvironment: false, repeatable: true
            ) { settings, text throws(BadgeError) in
                guard !text.isEmpty else { throw .usage("--set: give a set's name, such as AppIcon") }
                settings.setNames.append(text)
            },
        ]
        list.append(
            OptionSpec(
                name: "preview", kind: .value(placeholder: "PATH"), group: "Asset catalog",
                help:
                    "also write a contact sheet of the badged set as the devices show it: a .png, or an .html page (see iconbadge preview)",
                completion: .file, fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.preview = text })
        list += CatalogOptions.options(
            group: "Asset catalog",
            replaceHelp:
                "let --out replace a set or bundle there that is not a copy of this one (a hand-made beta set); without it that is refused (73)"
        ).map { $0.lifted(\Settings.catalog) }
        return list
    }()

    static let info = CommandInfo(
        name: "appiconset",
        summary: "badge an Xcode app icon set, asset catalog or Icon Composer bundle, all or nothing",
        usage:
            "iconbadge appiconset PATH(.appiconset|.xcassets|.brandassets|.icon) (--value TEXT | --text TEXT | --dot | --image PATH) [--and BADGE...] (--out DIR | --in-place) [options]",
        description: """
            Badges every image of an Xcode app icon set (Contents.json) at its own pixel size, so the badge
            reads the same at 40 px and 1024 px, inside the shape of each image's platform (from its idiom:
            iPhone, iPad and marketing icons are ios, Mac is macos, Watch is watchos) unless --platform is
            given. Legacy multi-size sets and the single 1024 px set work; iOS 18 appearances: "dark" images
            get the same badge, "tinted" images a grey one (Rec. 709 luma, whatever the badge is made of: the
            system tints those from their luminance). Contents.json is copied unchanged.

            PATH may also be an .xcassets catalog (every app icon set inside it, or those named by --set), a
            tvOS .brandassets (the front layer of each image stack), or an Xcode 26 Icon Composer .icon
            bundle (a badge layer is added in front of every group: Assets/iconbadge-badge.png and an entry
            in icon.json; badging again replaces it).

            All or nothing: every image is rendered into a hidden staging folder beside the destination and
            moved into place only when all succeeded; a failure, a full disk or an interrupt leaves the
            destination as it was. A hidden badge (a value of 0, or empty) writes nothing: a note and exit 0,
            or 64 with --fail-if-hidden. --out's missing parent folders are made when the set is written.
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
            (
                "every app icon set of a catalog, failing the build if the label is empty",
                "iconbadge appiconset App/Assets.xcassets --value \"$LABEL\" --fail-if-hidden --in-place"
            ),
            (
                "an Icon Composer icon",
                "iconbadge appiconset App/AppIcon.icon --value BETA --in-place"
            ),
        ],
        manual: ["xcode.md", "preview.md", "platforms.md", "looks.md", "options.md"],
        positional: .folder,
        run: { arguments, io in AppIconSetCommand.run(arguments, io: io) })

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        BadgeGroups.run(
            arguments, io: io, options: options, defaults: Settings(), render: \.render, name: "appiconset",
            command: info
        ) { parsed throws(BadgeError) in
            guard parsed.positionals.count == 1, let folder = parsed.positionals.first else {
                throw .usage("appiconset takes one PATH: an .appiconset, .xcassets, .brandassets or .icon folder")
            }
            var settings = parsed.settings
            guard !(settings.out != nil && settings.inPlace) else {
                throw .usage(
                    "--out and --in-place are exclusive: write a badged copy or replace the set's images, not both")
            }
            guard settings.out != nil || settings.inPlace else {
                throw .usage("say where the badged set goes: --out DIR (a copy) or --in-place (replace its images)")
            }
            try CatalogOptions.applyFlagRules(
                flags: parsed.flags, render: &settings.render, catalog: settings.catalog,
                knownVariables: options.filter(\.fromEnvironment).map(\.environmentName), io: io)
            if let preview = settings.preview {
                _ = try PreviewOutput.kind(of: preview, option: "--preview")
                // Its folders are made as --out's are.
                try PreviewOutput.checkWritable(preview, creatingFolders: true)
            }
            if IconComposerBundle.isBundle(folder) {
                return try badgeBundle(IconComposerBundle(path: folder), settings: settings, io: io)
            }
            Platform.raiseOpenFileLimit()
            var notes: [String] = []
            let sets = try AssetCatalog.sets(at: folder, names: settings.setNames, notes: &notes)
            for note in notes + AssetCatalog.leftovers(in: sets) { io.note("appiconset: \(note)") }
            if AssetCatalog.kind(of: folder) != .set {
                if settings.out != nil, AssetCatalog.kind(of: folder) == .brandAssets {
                    throw .usage(
                        "a .brandassets is badged in place (its stacks' front layers): copy it, then badge the copy with --in-place"
                    )
                }
                guard !sets.isEmpty else {
                    io.note("appiconset: \(Quoted(folder)) holds no app icon set; nothing to badge")
                    return .success
                }
            }
            return try badge(sets, settings: settings, io: io)
        }
    }

    /// Badges `sets` all or nothing (`CatalogTransaction`): every image is rendered
    /// into a staging folder beside its destination, and only when all images of all
    /// sets succeeded are they moved into place (`--out`: each set's folder renamed;
    /// `--in-place`: each file renamed over its original). Any failure, or
    /// SIGINT/SIGTERM before the commit, leaves every destination as it was.
    ///
    /// - Throws: the plan's errors (64, 65, 66, 73); render failures are reported per
    ///   image and give the exit code of the first.
    static func badge(_ allSets: [AppIconSet], settings: Settings, io: CommandIO) throws(BadgeError) -> ExitCode {
        let wording = CatalogWording(io: io, command: "appiconset")
        return try wording.badge(
            .appIconSets(allSets, out: settings.out, sourceDateEpoch: io.environment["SOURCE_DATE_EPOCH"]),
            catalog: settings.catalog, render: settings.render, preview: settings.preview,
            failure: { tally, jobs in "\(tally.failed) of \(jobs) images failed" }
        ) { committed in
            guard case .sets(let plan) = committed.plan.detail else { return }
            let sets = plan.sets
            let jobs = committed.plan.jobs
            let target: String
            if sets.count == 1 {
                target = plan.destination.isInPlace ? sets[0].folder : plan.finals[0].description
            } else {
                target = "\(sets.count) sets" + (settings.out.map { " in \(Quoted($0))" } ?? "")
            }
            if let note = derivedSizeNote(
                sets, jobs: jobs, outcomes: committed.outcomes, minimum: settings.render.minimumTextPixels)
            {
                wording.note(note)
            }
            let noun = jobs.count == 1 ? "image" : "images"
            let shown = sets.count == 1 ? Quoted(target).description : target
            io.writeErr(
                "iconbadge: appiconset: badged \(jobs.count) \(noun)\(CatalogWording.smallSlots(committed.outcomes)) into \(shown)\n"
            )
        }
    }

    /// Badges an Icon Composer bundle all or nothing (`CatalogTransaction`): the
    /// badge layer is rendered into a staging folder (on a blank 1024 px canvas,
    /// inside the bundle's platform shape), `icon.json` gets the badge group in front,
    /// and only then are the files moved into place: with `--out`, a whole copy of the
    /// bundle renamed into place; with `--in-place`, the badge image and `icon.json`
    /// renamed over their originals.
    ///
    /// - Throws: 64, 65, 66, 73 and 74 as `badge(_:settings:io:)` (for sets); render failures
    ///   are reported and give their exit code.
    static func badgeBundle(_ bundle: IconComposerBundle, settings: Settings, io: CommandIO) throws(BadgeError)
        -> ExitCode
    {
        try CatalogWording(io: io, command: "appiconset").badge(
            .iconBundle(bundle, out: settings.out), catalog: settings.catalog, render: settings.render,
            preview: settings.preview, failure: { _, _ in "the badge layer failed" }
        ) { committed in
            guard case .bundle(let plan) = committed.plan.detail else { return }
            let verb = bundle.hasBadgeLayer ? "replaced the badge layer" : "added a badge layer"
            io.writeErr(
                "iconbadge: appiconset: \(verb) (Assets/\(IconComposerBundle.badgeImage), in front of every group) in \(Quoted(plan.target))\n"
            )
        }
    }

    /// The note for a single-size image (one 1024 px image the device draws every
    /// size from, `AppIconSetPreview.derivedSizes`) whose text falls under `minimum`
    /// (`--min-text-px`, pixels) at the smallest size the device draws it: the text's
    /// em size scales with the image, as Xcode's resampling shrinks it. One note a run,
    /// for the image with the smallest text; it names that size and the smallest at
    /// which the text reads. The images with their own sizes get their own notes
    /// (`RenderNote.smallText`) when they are drawn. `jobs` and `outcomes` are in the
    /// order of the sets' images.
    static func derivedSizeNote(_ sets: [AppIconSet], jobs: [RenderJob], outcomes: [JobOutcome], minimum: Double)
        -> String?
    {
        var worst: (image: String, label: String, ratio: Double, sizes: [(label: String, side: Int)])?
        var index = 0
        for set in sets {
            let slots = set.slotCount
            for image in set.images {
                defer { index += 1 }
                guard index < outcomes.count, index < jobs.count, case .success(let done) = outcomes[index].result,
                    let text = done.smallestText, let width = jobs[index].requiredSize?.width,
                    let sizes = AppIconSetPreview.derivedSizes(image, width: width, slots: slots)
                else { continue }
                let ratio = text.pixels / Double(width)
                if ratio < worst?.ratio ?? .infinity {
                    worst = (set.folder + "/" + image.filename, text.label, ratio, sizes)
                }
            }
        }
        guard let worst else { return nil }
        let sizes = worst.sizes.sorted { $0.side < $1.side }
        guard let smallest = sizes.first, worst.ratio * Double(smallest.side) < minimum else { return nil }
        // Rounded down, as the other small-text note: 6.96 px is not "7.0 px, under 7".
        let pixels = (worst.ratio * Double(smallest.side) * 10).rounded(.down) / 10
        let reads = sizes.first { worst.ratio * Double($0.side) >= minimum }
        let from =
            reads.map { "it reads from \($0.side) px (\($0.label)) up" }
            ?? "it is under it at every size the device draws"
        return
            "\(Quoted(worst.image)) is one image the device draws every size from: as the device draws it at \(smallest.side) px (\(smallest.label)), the text \(Quoted(worst.label)) is \(pixels) px, under --min-text-px \(RenderProblem.pixels(minimum)) (\(from); --preview shows every size)"
    }
}
