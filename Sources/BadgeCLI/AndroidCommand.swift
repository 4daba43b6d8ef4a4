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
                try HiddenBadge.isShown(
                    settings.render, failIfHidden: settings.catalog.failIfHidden, command: "android", io: io)
            else { return .success }
            var notes: [String] = []
            var names: [String] = []
            for name in settings.icons where !names.contains(name) { names.append(name) }
            let resources = try AndroidResources(folder: res, names: names, notes: &notes)
            for note in notes { io.note("android: \(note)") }
            return try badge(resources, out: out, settings: settings, io: io)
        }
    }

    /// The note for an overlay folder Gradle does not read as resources: a source
    /// set's resources are its `res/` folder (`app/src/beta/res`), so `--out
    /// app/src/beta` gets a note naming the variant `beta` and its `res/`; nil when
    /// `out` is a `res/` folder.
    static func gradleNote(out: String) -> String? {
        let path = LexicalPath(out)
        guard path.name != "res" else { return nil }
        let suggested = (out == "/" ? "" : out) + "/res"
        // app/src/VARIANT: the variant is the folder's name.
        let parent = LexicalPath(OutputFile.parentFolder(of: out)).name
        let whose = parent == "src" ? path.name.map { "the \(Quoted($0)) source set's" } : nil
        return
            "Gradle reads \(whose ?? "a source set's") resources from its res/ folder, \(Quoted(suggested)); \(Quoted(out)) is written as given"
    }

    /// The files that stand for the same resource as `path` in its folder: the same
    /// name with any image or XML extension (`ic_launcher.png` and `ic_launcher.webp`
    /// in one folder are a duplicate resource, which fails the build).
    static func sameResource(_ path: [String]) -> [[String]] {
        guard path.count == 2, let dot = path[1].firstIndex(of: ".") else { return [path] }
        let base = String(path[1][..<dot])
        return [path]
            + ["png", "webp", "jpg", "xml", "9.png"].map { [path[0], base + "." + $0] }.filter { $0 != path }
    }

    /// `path` as the kernel resolves it, for a path whose last folders may not exist
    /// yet: its nearest existing ancestor resolved, with the rest appended.
    static func resolvedPath(_ path: String) -> String? {
        var missing: [String] = []
        var current = path
        for _ in 0..<256 {
            if let real = FileIdentity.realPath(current) {
                return ([real == "/" ? "" : real] + missing.reversed()).joined(separator: "/")
            }
            guard let name = LexicalPath(current).name, name != "..", name != "." else { return nil }
            missing.append(name)
            current = OutputFile.parentFolder(of: current)
        }
        return nil
    }

    /// Renders the overlay into a staging folder and moves it into place when every
    /// image succeeded: into an existing `out` file by file (its other files are
    /// kept), or as a whole new folder.
    ///
    /// - Throws: 64 when `out` is `RES` or inside it; the plan's and the commit's
    ///   errors (65, 66, 73, 74).
    static func badge(_ resources: AndroidResources, out: String, settings: Settings, io: CommandIO)
        throws(BadgeError) -> ExitCode
    {
        try CatalogRun.shrinkingToFit(
            command: "android", catalog: settings.catalog, settings: settings.render, io: io
        ) { (relativeSize, shrinkable, io) throws(BadgeError) in
            try badge(
                resources, out: out, settings: settings, relativeSize: relativeSize, shrinkable: shrinkable, io: io)
        }
    }

    /// One run of `badge` at `relativeSize`; `.shrink` instead of the failures'
    /// report when `shrinkable` and the badge is too large for some images alone.
    private static func badge(
        _ resources: AndroidResources, out: String, settings: Settings, relativeSize: Double, shrinkable: Bool,
        io: CommandIO
    ) throws(BadgeError) -> CatalogRun.Attempt {
        var trimmedOut = out
        while trimmedOut.count > 1, trimmedOut.hasSuffix("/") { trimmedOut.removeLast() }
        if let outReal = resolvedPath(trimmedOut), let resReal = FileIdentity.realPath(resources.folder),
            outReal == resReal || outReal.hasPrefix(resReal + "/")
        {
            throw .usage(
                "--out \(Quoted(out)) is \(outReal == resReal ? "RES itself" : "inside RES"); write the overlay to a variant's res/ (app/src/debug/res)"
            )
        }
        if let note = gradleNote(out: trimmedOut) { io.note("android: " + note) }
        let exists = FileIdentity.realPath(trimmedOut) != nil
        if exists { for note in AssetCatalog.leftovers(inFolders: [trimmedOut]) { io.note("android: \(note)") } }
        let staged =
            exists
            ? try StagedFolder.inside(OutputLocation(root: trimmedOut, components: ["res"]))
            : try StagedFolder.beside(OutputLocation(commandLine: trimmedOut))
        var committed = false
        defer { if !committed { staged.discard() } }
        let overlay = try AndroidOverlay.plan(
            resources, settings: settings.render, relativeSize: relativeSize, out: trimmedOut
        ).staged(in: staged)
        for note in overlay.notes { io.note("android: \(note)") }
        let xmlInputs = resources.adaptive.map { resources.folder + "/" + $0.components.joined(separator: "/") }
        do throws(JobPlanChecks.Conflict) {
            try JobPlanChecks.checkIdentities(overlay.jobs, extraInputs: xmlInputs)
        } catch {
            throw BatchCommand.conflictError(error, manifestPath: resources.folder)
        }
        // What the overlay holds already: iconbadge's own files (its record) are
        // replaced; a variant's own files of the same resources only with --replace.
        let record = OverlayRecord.read(overlay: trimmedOut)
        var removing: [[String]] = []
        if exists {
            var foreign: [String] = []
            for path in overlay.written + [OverlayRecord.components] {
                try OutputFile.checkWritable(OutputLocation(root: trimmedOut, components: path), creatingFolders: true)
                for other in sameResource(path) {
                    let joined = other.joined(separator: "/")
                    let full = trimmedOut + "/" + joined
                    guard InputFile.exists(full) else { continue }
                    if other != path { removing.append(other) }
                    if other == OverlayRecord.components { continue }
                    // Only a plain file is hashed: a link (to anything) is never ours.
                    let bytes =
                        InputFile.isPlainFile(full)
                        ? (try? InputFile.bytes(at: full, limit: OverlayRecord.maxHashedBytes, what: "overlay file"))
                        : nil
                    if !(bytes.map { record.owns(joined, bytes: $0) } ?? false) { foreign.append(joined) }
                }
            }
            removing += stale(record, overlay: overlay, out: trimmedOut)
            if !foreign.isEmpty {
                let shown = foreign.prefix(3).map { Quoted($0).description }.joined(separator: ", ")
                let more = foreign.count > 3 ? " and \(foreign.count - 3) more" : ""
                guard settings.catalog.replace else {
                    throw .cannotCreate(
                        path: trimmedOut,
                        reason:
                            "holds its own \(shown)\(more), not written by iconbadge; --replace replaces them with RES's icons badged, or remove them"
                    )
                }
                io.note("android: --replace: replacing the overlay's own \(shown)\(more)")
            }
        }
        var outcomes = JobRunner.run(overlay.jobs, workers: settings.catalog.jobs)
        for index in overlay.quiet { outcomes[index] = outcomes[index].withoutDiagnostics }
        if shrinkable,
            let (smaller, tooLarge) = CatalogRun.shrunkSize(outcomes, jobs: overlay.jobs, relativeSize: relativeSize)
        {
            return .shrink(to: smaller, tooLarge: tooLarge, of: overlay.jobs.count)
        }
        let advice = CatalogRun.sizeAdvice(
            outcomes, jobs: overlay.jobs, settings: settings.render, relativeSize: relativeSize)
        let tally = Reporter(io: io, advice: advice).report(outcomes, jobs: overlay.jobs, checkLines: .notable)
        guard tally.failed == 0 else {
            io.writeErr(
                "iconbadge: android: nothing written: \(tally.failed) of \(overlay.jobs.count) images failed\n")
            return .finished(tally.exitCode)
        }
        for file in overlay.files {
            try staged.write(
                file.bytes, components: file.components,
                shown: OutputLocation(root: trimmedOut, components: file.components).description)
        }
        // The record: what this run wrote, and what earlier runs wrote that is still there.
        var updated = OverlayRecord()
        for path in overlay.written {
            let joined = path.joined(separator: "/")
            let bytes = try InputFile.bytes(at: staged.path + "/" + joined, limit: 64 << 20, what: "staged file")
            updated.files.append((joined, ContentHash.fnv1a64(bytes)))
        }
        for (path, hash) in record.files where !updated.files.contains(where: { $0.path == path }) {
            let full = trimmedOut + "/" + path
            if InputFile.isPlainFile(full),
                let bytes = try? InputFile.bytes(at: full, limit: OverlayRecord.maxHashedBytes, what: "overlay file"),
                ContentHash.fnv1a64(bytes) == hash
            {
                updated.files.append((path, hash))
            }
        }
        try staged.write(
            updated.bytes, components: OverlayRecord.components,
            shown: OutputLocation(root: trimmedOut, components: OverlayRecord.components).description)
        let committing = overlay.written + [OverlayRecord.components]
        if exists {
            try staged.commitFiles(committing, removing: removing)
        } else {
            try staged.commit(
                as: LexicalPath(trimmedOut).name ?? trimmedOut,
                subfolders: Array(Set(committing.compactMap { $0.count > 1 ? $0[0] : nil })))
        }
        committed = true
        var parts: [String] = []
        if overlay.legacyCount > 0 {
            parts.append("\(overlay.legacyCount) legacy icon image\(overlay.legacyCount == 1 ? "" : "s")")
        }
        if overlay.adaptiveCount > 0 {
            parts.append("\(overlay.adaptiveCount) adaptive icon\(overlay.adaptiveCount == 1 ? "" : "s")")
        }
        for line in AndroidAvoidance.lines(overlay, outcomes: outcomes) { io.note("android: \(line)") }
        io.writeErr(
            "iconbadge: android: badged \(parts.joined(separator: " and "))\(CatalogRun.smallSlots(outcomes)) into \(Quoted(trimmedOut))\n"
        )
        guard let preview = settings.preview else { return .finished(.success) }
        return .finished(
            CatalogRun.writePreview(to: preview, command: "android", io: io) { () throws(BadgeError) in
                try AndroidPreview.sheet(
                    title: "\(Shown(trimmedOut)) over \(Shown(resources.folder))", overlay: overlay, over: resources,
                    limits: settings.render.limits)
            })
    }
}
