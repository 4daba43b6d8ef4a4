import BadgeCore
import BadgeRender
import BadgeSystem

extension CatalogTransaction {
    /// An Android overlay's part of a plan.
    package struct OverlayPlan {
        /// The app's `res/` folder, never written.
        package var resources: AndroidResources
        /// The overlay `res/` folder, without trailing slashes.
        package var out: String
        /// What is written into it (`AndroidOverlay.plan`).
        package var overlay: AndroidOverlay
        /// Whether `out` exists already: its files are then replaced one by one (the
        /// others kept), else the staging folder becomes it.
        package var exists: Bool
        /// The staging folder.
        var staged: StagedFolder
        /// The overlay's record as the check found it.
        package var record = OverlayRecord()
        /// Files of the overlay the commit removes: another file of a resource this
        /// run writes (`ic_launcher.webp` beside a new `ic_launcher.png`), and an
        /// earlier run's stale files (`stale`).
        package var removing: [[String]] = []

        /// Every path committed below `out`: the written files and the record.
        var committing: [[String]] { overlay.written + [OverlayRecord.components] }
    }

    /// Plans the overlay of `resources` into `out`, staged inside `out` when it exists
    /// (its other files are kept) or beside it.
    ///
    /// - Throws: 64 when `out` is `RES` or inside it; the overlay plan's errors (65,
    ///   66, 73, 74).
    static func planOverlay(
        _ resources: AndroidResources, out: String, settings: Settings, relativeSize: Double,
        staging: CatalogStaging, messages: any CatalogMessages
    ) throws(BadgeError) -> Plan {
        var trimmedOut = out
        while trimmedOut.count > 1, trimmedOut.hasSuffix("/") { trimmedOut.removeLast() }
        if let outReal = resolvedPath(trimmedOut), let resReal = FileIdentity.realPath(resources.folder),
            outReal == resReal || outReal.hasPrefix(resReal + "/")
        {
            throw .usage(
                "--out \(Quoted(out)) is \(outReal == resReal ? "RES itself" : "inside RES"); write the overlay to a variant's res/ (app/src/debug/res)"
            )
        }
        if let note = gradleNote(out: trimmedOut) { messages.note(note) }
        let exists = FileIdentity.realPath(trimmedOut) != nil
        if exists { for note in AssetCatalog.leftovers(inFolders: [trimmedOut]) { messages.note(note) } }
        let staged =
            exists
            ? try staging.inside(OutputLocation(root: trimmedOut, components: ["res"]))
            : try staging.beside(OutputLocation(commandLine: trimmedOut))
        let overlay = try AndroidOverlay.plan(
            resources, settings: settings.render, relativeSize: relativeSize, out: trimmedOut
        ).staged(in: staged)
        for note in overlay.notes { messages.note(note) }
        var plan = Plan(
            detail: .overlay(
                OverlayPlan(resources: resources, out: trimmedOut, overlay: overlay, exists: exists, staged: staged)))
        plan.jobs = overlay.jobs
        plan.quiet = overlay.quiet
        let xmlInputs = resources.adaptive.map { resources.folder + "/" + $0.components.joined(separator: "/") }
        plan.identityInputs = (xmlInputs, resources.folder)
        for file in overlay.files {
            plan.files.append(
                File(
                    folder: staged, components: file.components, source: .bytes(file.bytes),
                    shown: OutputLocation(root: trimmedOut, components: file.components).description))
        }
        return plan
    }

    /// Checks what the overlay holds already: iconbadge's own files (its record) are
    /// replaced; a variant's own files of the same resources only with `replace`,
    /// with a note. Finds the files the commit removes (`OverlayPlan.removing`).
    ///
    /// - Throws: 73 for an unwritable path of the overlay, and for its own files
    ///   without `replace` (naming the first three).
    static func checkOverlay(_ plan: inout Plan, replace: Bool, messages: any CatalogMessages) throws(BadgeError) {
        guard case .overlay(var overlay) = plan.detail else { return }
        let out = overlay.out
        overlay.record = OverlayRecord.read(overlay: out)
        if overlay.exists {
            var foreign: [String] = []
            for path in overlay.committing {
                try OutputFile.checkWritable(OutputLocation(root: out, components: path), creatingFolders: true)
                for other in sameResource(path) {
                    let joined = other.joined(separator: "/")
                    let full = out + "/" + joined
                    guard InputFile.exists(full) else { continue }
                    if other != path { overlay.removing.append(other) }
                    if other == OverlayRecord.components { continue }
                    // Only a plain file is hashed: a link (to anything) is never ours.
                    let bytes =
                        InputFile.isPlainFile(full)
                        ? (try? InputFile.bytes(at: full, limit: OverlayRecord.maxHashedBytes, what: "overlay file"))
                        : nil
                    if !(bytes.map { overlay.record.owns(joined, bytes: $0) } ?? false) { foreign.append(joined) }
                }
            }
            overlay.removing += stale(overlay.record, overlay: overlay.overlay, out: out)
            if !foreign.isEmpty {
                let shown = foreign.prefix(3).map { Quoted($0).description }.joined(separator: ", ")
                let more = foreign.count > 3 ? " and \(foreign.count - 3) more" : ""
                guard replace else {
                    throw .cannotCreate(
                        path: out,
                        reason:
                            "holds its own \(shown)\(more), not written by iconbadge; --replace replaces them with RES's icons badged, or remove them"
                    )
                }
                messages.note("--replace: replacing the overlay's own \(shown)\(more)")
            }
        }
        let commit: StagedFolder.Commit =
            overlay.exists
            ? .files(overlay.committing, removing: overlay.removing)
            : .folder(
                name: LexicalPath(out).name ?? out,
                subfolders: Array(Set(overlay.committing.compactMap { $0.count > 1 ? $0[0] : nil })))
        plan.commits = [(overlay.staged, commit)]
        plan.detail = .overlay(overlay)
    }

    /// Writes the overlay's record into its staging folder: the hash of every file
    /// this run wrote (read back from the staging folder), and the entries of the
    /// earlier record whose files are still there unchanged.
    ///
    /// - Throws: 74 when a staged file cannot be read or the record written.
    static func writeRecord(_ overlay: OverlayPlan) throws(BadgeError) {
        var updated = OverlayRecord()
        for path in overlay.overlay.written {
            let joined = path.joined(separator: "/")
            let bytes = try InputFile.bytes(
                at: overlay.staged.path + "/" + joined, limit: 64 << 20, what: "staged file")
            updated.files.append((joined, ContentHash.fnv1a64(bytes)))
        }
        for (path, hash) in overlay.record.files where !updated.files.contains(where: { $0.path == path }) {
            let full = overlay.out + "/" + path
            if InputFile.isPlainFile(full),
                let bytes = try? InputFile.bytes(at: full, limit: OverlayRecord.maxHashedBytes, what: "overlay file"),
                ContentHash.fnv1a64(bytes) == hash
            {
                updated.files.append((path, hash))
            }
        }
        try overlay.staged.write(
            updated.bytes, components: OverlayRecord.components,
            shown: OutputLocation(root: overlay.out, components: OverlayRecord.components).description)
    }

    /// Files an earlier run wrote for the adaptive icons this run badges that this
    /// run does not write (a layer list of an older version, a filtered layer no
    /// longer asked for): listed in the record, still unchanged, and named as iconbadge
    /// names one of this run's icons' layers (`AndroidOverlay.ownedNames`). They are
    /// removed at the commit, so that two configurations of one resource never remain
    /// side by side.
    package static func stale(_ record: OverlayRecord, overlay: AndroidOverlay, out: String) -> [[String]] {
        var found: [[String]] = []
        for (path, _) in record.files {
            let components = path.split(separator: "/").map(String.init)
            guard components.count == 2, !overlay.written.contains(components),
                let dot = components[1].firstIndex(of: "."),
                overlay.ownedNames.contains(String(components[1][..<dot]))
            else { continue }
            let full = out + "/" + path
            guard InputFile.isPlainFile(full),
                let bytes = try? InputFile.bytes(at: full, limit: OverlayRecord.maxHashedBytes, what: "overlay file"),
                record.owns(path, bytes: bytes)
            else { continue }
            found.append(components)
        }
        return found
    }

    /// The note for an overlay folder Gradle does not read as resources: a source
    /// set's resources are its `res/` folder (`app/src/beta/res`), so `--out
    /// app/src/beta` gets a note naming the variant `beta` and its `res/`; nil when
    /// `out` is a `res/` folder.
    package static func gradleNote(out: String) -> String? {
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
}
