import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

/// `iconbadge preview PATH... -o SHEET.png|.html`: a contact sheet of an app icon
/// set, asset catalog, Icon Composer bundle or Android app as the devices show it,
/// for a set already written (`appiconset` and `android` make one with `--preview`).
enum PreviewCommand {
    struct Settings {
        var output: String?
        var icons: [String] = []
        var setNames: [String] = []
        /// The images read and the layers drawn are within these.
        var limits = ImageLimits()
    }

    /// Its own options, then the render's limit options.
    static let options: [OptionSpec<Settings>] =
        ownOptions + LimitOptions.lifted(RenderOptions.limits + RenderOptions.svgLimit, onto: \Settings.limits)

    static let ownOptions: [OptionSpec<Settings>] = [
        OptionSpec(
            name: "output", short: "o", kind: .value(placeholder: "PATH"), group: "Options",
            help: "the contact sheet: a .png, or an .html page", completion: .file, fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.output = text },
        OptionSpec(
            name: "icon", kind: .value(placeholder: "NAME"), group: "Options",
            help:
                "an Android launcher icon's resource name; repeat for more (default: the manifest's android:icon and android:roundIcon, else ic_launcher and ic_launcher_round)",
            fromEnvironment: false, repeatable: true
        ) { settings, text throws(BadgeError) in settings.icons.append(text) },
        OptionSpec(
            name: "set", kind: .value(placeholder: "NAME"), group: "Options",
            help: "in an .xcassets catalog, only the set NAME; repeat for more", fromEnvironment: false,
            repeatable: true
        ) { settings, text throws(BadgeError) in
            guard !text.isEmpty else { throw .usage("--set: give a set's name, such as AppIcon") }
            settings.setNames.append(text)
        },
    ]

    static let info = CommandInfo(
        name: "preview",
        summary: "draw a contact sheet of an icon set or Android app as the devices show it",
        usage:
            "iconbadge preview PATH(.appiconset|.xcassets|.icon|res/...) -o SHEET(.png|.html) [--icon NAME] [--set NAME]",
        description: """
            Writes one PNG contact sheet (or, with -o ending in .html, a page of its own) of every image of an
            Xcode app icon set or asset catalog, an Icon Composer bundle, or an Android app's launcher icons,
            as the devices show them, each labelled with its slot and size, at 1:1 and (up to 128 px) at 2×:
            iOS images under the continuous-corner mask on iOS 18's light, dark and tinted home screens; macOS
            images as they are on a light and a dark desktop; watchOS images under the circle; Android adaptive
            icons composed from their layers under AOSP's circle, squircle and rounded-square masks, themed
            icons in two Material palettes, legacy icons as they are; an Icon Composer bundle's groups composed
            flat (glass, specular highlights and shadows are not drawn). For Android give the res/ folders in
            the order Gradle merges them, the variant's overlay first (app/src/debug/res app/src/main/res);
            their layers are drawn as android draws them (VectorDrawables too), and a layer it cannot draw
            (a theme attribute such as ?attr/colorPrimary) is hatched and named. The sheet is the same bytes
            for the same files.
            """,
        options: options.map(\.info),
        examples: [
            ("a badged set", "iconbadge preview build/beta/AppIcon.appiconset -o beta.png"),
            ("an Android variant over main", "iconbadge preview app/src/debug/res app/src/main/res -o debug.png"),
            ("an Icon Composer icon, as a page", "iconbadge preview App/AppIcon.icon -o icon.html"),
        ],
        manual: ["preview.md", "xcode.md", "android.md"],
        positional: .folder,
        run: { arguments, io in PreviewCommand.run(arguments, io: io) })

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        CommandRunner.run(
            arguments, io: io, options: options, defaults: Settings(), name: "preview", command: info
        ) { parsed throws(BadgeError) in
            let settings = parsed.settings
            guard let output = settings.output else {
                throw .usage("say where the contact sheet goes: -o SHEET.png (or .html)")
            }
            _ = try PreviewOutput.kind(of: output, option: "-o")
            guard let first = parsed.positionals.first else {
                throw .usage(
                    "preview takes a PATH: an .appiconset, .xcassets, .icon, or Android res/ folders (overlay first)")
            }
            let sheet = try sheet(
                of: parsed.positionals, icons: settings.icons, setNames: settings.setNames, limits: settings.limits,
                io: io)
            guard !sheet.tiles.isEmpty else {
                throw .missingInput(path: first, reason: "has no icon to preview")
            }
            try PreviewOutput.checkWritable(output)
            try PreviewOutput.write(sheet, to: output, limits: settings.limits)
            io.writeErr("iconbadge: preview: wrote \(Quoted(output)) (\(PreviewOutput.tileCount(sheet)))\n")
            return .success
        }
    }

    /// Whether `path` is an Xcode set or catalog: by its name, or its Contents.json.
    static func isCatalog(_ path: String) -> Bool {
        let name = LexicalPath(AssetCatalog.trimmed(path)).name ?? path
        return [".appiconset", ".xcassets", ".brandassets"].contains { name.hasSuffix($0) }
            || InputFile.isRegularFile(AssetCatalog.trimmed(path) + "/Contents.json")
    }

    /// The sheet of `paths`: one app icon set, catalog or Icon Composer bundle, or
    /// Android res/ folders in Gradle's order (the overlay first), read within `limits`.
    ///
    /// - Throws: 64 for paths of different kinds, and for an overlay of `android`
    ///   given alone; the readers' errors (65, 66).
    static func sheet(
        of paths: [String], icons: [String], setNames: [String], limits: ImageLimits, io: CommandIO
    ) throws(BadgeError) -> ContactSheet {
        let title = paths.map { Shown($0).description }.joined(separator: " over ")
        if paths.count == 1, IconComposerBundle.isBundle(paths[0]) {
            return try IconBundlePreview.sheet(
                title: title, bundle: try IconComposerBundle(path: paths[0]), limits: limits)
        }
        if paths.count == 1, isCatalog(paths[0]) {
            var notes: [String] = []
            let sets = try AssetCatalog.sets(at: paths[0], names: setNames, notes: &notes)
            for note in notes { io.note("preview: \(note)") }
            return try AppIconSetPreview.sheet(title: title, sets: sets.filter { !$0.images.isEmpty }, limits: limits)
        }
        for path in paths where IconComposerBundle.isBundle(path) || isCatalog(path) {
            throw .usage(
                "preview \(Quoted(path)): give one app icon set, catalog or bundle, or Android res/ folders, not both")
        }
        // Android: every folder must be there (a mistyped overlay would show main alone);
        // the names come from the last folder (main's), as android reads them.
        for path in paths.dropLast() { try InputFolder.check(path, missing: "no such res/ folder") }
        // An overlay holds only what iconbadge changed; alone, its icons would be drawn
        // without main's layers and colours (hatched), which no device shows.
        if paths.count == 1, AndroidPreview.isOverlay(paths[0]) {
            throw .usage(
                "preview \(Quoted(paths[0])): an overlay written by iconbadge android holds only what it changed; give main's res/ after it, as Gradle merges them: iconbadge preview \(Shown(paths[0])) app/src/main/res -o SHEET"
            )
        }
        var notes: [String] = []
        let main = try AndroidResources(folder: paths[paths.count - 1], names: icons, notes: &notes)
        for note in notes { io.note("preview: \(note)") }
        return try AndroidPreview.sheet(title: title, folders: paths, names: main.names, limits: limits)
    }
}
