import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

/// `iconbadge android RES --out OVERLAY_RES --value BETA`: badges an app's launcher
/// icons into an overlay `res/` folder for a build variant, never touching `RES`.
enum AndroidCommand {
    struct Settings {
        var render = RenderSettings()
        var catalog = CatalogSettings()
        var out: String?
        var icons: [String] = []
        /// `--preview`: where the contact sheet of the badged icons goes.
        var preview: String?
    }

    /// The render options that make sense here (no icon, output, scale or size of
    /// their own: those come from each density), and the command's own.
    static let options: [OptionSpec<Settings>] = {
        let excluded = Set(["output", "in-place", "scale", "scales", "size", "report", "format", "force"])
            .union(RenderOptions.check.map(\.name)).union(RenderOptions.animation.map(\.name))
        var list: [OptionSpec<Settings>] = RenderOptions.all.filter { !excluded.contains($0.name) }.map {
            $0.lifted(\Settings.render)
        }
        list += [
            OptionSpec(
                name: "out", kind: .value(placeholder: "DIR"), group: "Android resources",
                help:
                    "the overlay res/ folder to write (app/src/debug/res); files there of the same names are replaced",
                completion: .folder, fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.out = text },
            OptionSpec(
                name: "icon", kind: .value(placeholder: "NAME"), group: "Android resources",
                help:
                    "the launcher icon's resource name; repeat for more (default: the manifest's android:icon and android:roundIcon, else ic_launcher and ic_launcher_round)",
                fromEnvironment: false, repeatable: true
            ) { settings, text throws(BadgeError) in settings.icons.append(text) },
            OptionSpec(
                name: "preview", kind: .value(placeholder: "PATH"), group: "Android resources",
                help:
                    "also write a contact sheet of the badged icons as launchers show them: a .png, or an .html page (see iconbadge preview)",
                completion: .file, fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.preview = text },
        ]
        list += CatalogOptions.options(
            group: "Android resources",
            replaceHelp:
                "replace the overlay's own files of the same resource names (a hand-made debug icon); without it they are refused (73)"
        ).map { $0.lifted(\Settings.catalog) }
        return list
    }()

    static let info = CommandInfo(
        name: "android",
        summary: "badge an Android app's launcher icons into an overlay res/ folder for a build variant",
        usage:
            "iconbadge android RES --out DIR (--value TEXT | --text TEXT | --dot | --image PATH) [--and BADGE...] [--icon NAME] [options]",
        description: """
            Writes an overlay res/ folder (app/src/debug/res, app/src/beta/res) that badges the launcher
            icons of RES (app/src/main/res) for one build variant; RES itself is never written. Legacy icons
            (mipmap-<density>/NAME.png or .webp) are badged at each density from that density's own file, in
            the android-legacy shape (android-round for NAME_round and the manifest's roundIcon). Adaptive
            icons (mipmap-anydpi-v26/NAME.xml) keep their layers: the overlay's copy points <foreground> at
            a <layer-list> of the original foreground under a badge drawn inside the 66 dp safe zone (a PNG
            per density in drawable-<density>/). The <monochrome> layer (themed icons) is drawn per density,
            its VectorDrawable converted: a white badge over it, its text cut out, nothing of the drawing
            under the badge. --icon-filter draws the foreground and background filtered; --avoid-content
            places the badge off the drawing. All or nothing, like appiconset.
            """,
        options: options.map(\.info),
        examples: [
            (
                "a BETA badge for the debug build",
                "iconbadge android app/src/main/res --out app/src/debug/res --value BETA"
            ),
            (
                "a dot on a custom-named icon",
                "iconbadge android app/src/main/res --out app/src/staging/res --dot --icon ic_launcher_home"
            ),
            (
                "a grey debug icon, its badge off the logo",
                "iconbadge android app/src/main/res --out app/src/debug/res --value DEV --icon-filter greyscale --avoid-content"
            ),
            (
                "a green label that fails the build when empty",
                "iconbadge android app/src/main/res --out app/src/beta/res --value \"$LABEL\" --background '#34C759' --fail-if-hidden"
            ),
        ],
        manual: ["android.md", "preview.md", "platforms.md", "looks.md", "options.md"],
        positional: .folder,
        run: { arguments, io in AndroidCommand.run(arguments, io: io) })

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        BadgeGroups.run(
            arguments, io: io, options: options, defaults: Settings(), render: \.render, name: "android", command: info
        ) { parsed throws(BadgeError) in
            guard parsed.positionals.count == 1, let res = parsed.positionals.first else {
                throw .usage("android takes one RES folder (app/src/main/res)")
            }
            var settings = parsed.settings
            guard let out = settings.out else {
                throw .usage("say where the overlay goes: --out DIR (app/src/debug/res); RES itself is never written")
            }
            try CatalogOptions.applyFlagRules(
                flags: parsed.flags, render: &settings.render, catalog: settings.catalog,
                knownVariables: options.filter(\.fromEnvironment).map(\.environmentName), io: io)
            if let preview = settings.preview {
                _ = try PreviewOutput.kind(of: preview, option: "--preview")
                // Its folders are made as --out's are.
                try PreviewOutput.checkWritable(preview, creatingFolders: true)
            }
            guard
                try CatalogSizing.isShown(
                    settings.render, failIfHidden: settings.catalog.failIfHidden,
                    messages: CatalogWording(io: io, command: "android"))
            else { return .success }
            var notes: [String] = []
            var names: [String] = []
            for name in settings.icons where !names.contains(name) { names.append(name) }
            let resources = try AndroidResources(folder: res, names: names, notes: &notes)
            for note in notes { io.note("android: \(note)") }
            return try badge(resources, out: out, settings: settings, io: io)
        }
    }

    /// Badges the launcher icons of `resources` into the overlay `out`, all or
    /// nothing (`CatalogTransaction`), and words the result: the failures, or what was
    /// badged, what `--avoid-content` did, and the preview.
    ///
    /// - Throws: 64 when `out` is `RES` or inside it; the plan's, the check's and the
    ///   commit's errors (65, 66, 73, 74).
    static func badge(_ resources: AndroidResources, out: String, settings: Settings, io: CommandIO)
        throws(BadgeError) -> ExitCode
    {
        let wording = CatalogWording(io: io, command: "android")
        return try wording.badge(
            .androidOverlay(resources, out: out), catalog: settings.catalog, render: settings.render,
            preview: settings.preview, failure: { tally, jobs in "\(tally.failed) of \(jobs) images failed" }
        ) { committed in
            guard case .overlay(let plan) = committed.plan.detail else { return }
            let overlay = plan.overlay
            var parts: [String] = []
            if overlay.legacyCount > 0 {
                parts.append("\(overlay.legacyCount) legacy icon image\(overlay.legacyCount == 1 ? "" : "s")")
            }
            if overlay.adaptiveCount > 0 {
                parts.append("\(overlay.adaptiveCount) adaptive icon\(overlay.adaptiveCount == 1 ? "" : "s")")
            }
            for line in AndroidAvoidance.lines(overlay, outcomes: committed.outcomes) { wording.note(line) }
            io.writeErr(
                "iconbadge: android: badged \(parts.joined(separator: " and "))\(CatalogWording.smallSlots(committed.outcomes)) into \(Quoted(plan.out))\n"
            )
        }
    }
}
