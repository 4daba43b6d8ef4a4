import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

extension AppIconSetCommand {
    /// Badges an Icon Composer bundle all or nothing: the badge layer is rendered
    /// into a staging folder (on a blank 1024 px canvas, inside the bundle's platform
    /// shape), `icon.json` gets the badge group in front, and only then are the files
    /// moved into place: with `--out`, a whole copy of the bundle renamed into place;
    /// with `--in-place`, the badge image and `icon.json` renamed over their
    /// originals.
    ///
    /// - Throws: 64, 65, 66, 73 and 74 as `badge(_:settings:io:)`; render failures
    ///   are reported and give their exit code.
    static func badgeBundle(_ bundle: IconComposerBundle, settings: Settings, io: CommandIO) throws(BadgeError)
        -> ExitCode
    {
        try CatalogRun.shrinkingToFit(
            command: "appiconset", catalog: settings.catalog, settings: settings.render, io: io
        ) { (relativeSize, shrinkable, io) throws(BadgeError) in
            try badgeBundle(bundle, settings: settings, relativeSize: relativeSize, shrinkable: shrinkable, io: io)
        }
    }

    /// One run of `badgeBundle` at `relativeSize`; `.shrink` instead of the failure's
    /// report when `shrinkable` and the badge is too large for the layer alone.
    private static func badgeBundle(
        _ bundle: IconComposerBundle, settings: Settings, relativeSize: Double, shrinkable: Bool, io: CommandIO
    ) throws(BadgeError) -> CatalogRun.Attempt {
        // The bundle's own layers are kept as they are and the badge added as a layer:
        // no icon pixels are drawn here for a filter to change.
        if !settings.render.iconFilters.isEmpty {
            throw .usage(
                "--icon-filter: \(Quoted(bundle.folder)) is an Icon Composer bundle, whose layers iconbadge keeps as they are (the badge is a layer of its own), so no filter can apply; filter the layers' images, or badge an .appiconset"
            )
        }
        // Badging a bundle again replaces its badge layer (the other layers are never
        // drawn on); a layer image that iconbadge badged in a set would still show
        // that badge under the new one.
        for asset in bundle.assets where BadgedMark.isMarked(path: bundle.folder + "/Assets/" + asset) {
            throw .badInput(
                path: bundle.folder + "/Assets/" + asset,
                reason:
                    "already has a badge iconbadge drew (it was badged in an app icon set), and the bundle's badge layer would add a second: put the layer's original image back"
            )
        }
        guard
            try HiddenBadge.isShown(
                settings.render, failIfHidden: settings.catalog.failIfHidden, command: "appiconset", io: io)
        else { return .finished(.success) }
        // Written as Xcode writes it, so the diff is the badge group alone; compact
        // when that is over the size iconbadge reads, so that what it writes always
        // reads back (badged again, or by --preview).
        var document = Array(bundle.badgedDocument.serializedAsXcode().utf8)
        if document.count > IconComposerBundle.maxDocumentBytes {
            document = Array(bundle.badgedDocument.serialized().utf8)
        }
        guard document.count <= IconComposerBundle.maxDocumentBytes else {
            throw .badInput(
                path: bundle.folder + "/icon.json",
                reason:
                    "with the badge group it would be \(document.count) bytes, over the \(IconComposerBundle.maxDocumentBytes >> 20) MiB iconbadge reads back"
            )
        }
        let final: OutputLocation
        if let out = settings.out {
            var trimmed = out
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            final =
                trimmed.hasSuffix(".icon")
                ? OutputLocation(commandLine: trimmed) : OutputLocation(root: out, components: [bundle.name])
            guard FileIdentity.key(final.description) != FileIdentity.key(bundle.folder) else {
                throw .usage(
                    "--out \(Quoted(out)) would write into the bundle itself; use --in-place to badge it")
            }
            // A bundle there is replaced only when iconbadge made it (it has the badge
            // layer), or with --replace.
            let existing = final.description + "/icon.json"
            if !settings.catalog.replace, InputFile.isRegularFile(existing),
                let other = try? IconComposerBundle(path: final.description), !other.hasBadgeLayer
            {
                throw .cannotCreate(
                    path: final.description,
                    reason: "is a bundle without iconbadge's badge layer; --replace replaces it, or write elsewhere")
            }
        } else {
            final = OutputLocation(root: bundle.folder, components: ["icon.json"])
            try OutputFile.checkWritable(final)
            try OutputFile.checkWritable(
                OutputLocation(root: bundle.folder, components: ["Assets", IconComposerBundle.badgeImage]),
                creatingFolders: true)
        }
        var render = settings.render
        render.defaultHeight(percent: relativeSize * 100)
        if !render.platformGiven { render.platform = bundle.platform }
        render.scale = 1
        let side = IconComposerBundle.canvasSide
        let canvas = try ImageFile.pngData(of: PixelBuffer(width: side, height: side, fill: .transparent))
        let staged = settings.out == nil ? try StagedFolder.inside(final) : try StagedFolder.beside(final)
        var committed = false
        defer { if !committed { staged.discard() } }
        try staged.write(canvas, components: [".canvas.png"], shown: final.description)
        let badgeLocation =
            settings.out == nil
            ? OutputLocation(root: bundle.folder, components: ["Assets", IconComposerBundle.badgeImage])
            : OutputLocation(root: final.description, components: ["Assets", IconComposerBundle.badgeImage])
        var job = RenderJob(
            label: IconComposerBundle.badgeImage, request: try render.request(icon: staged.path + "/.canvas.png"),
            output: .staged(staged, components: ["Assets", IconComposerBundle.badgeImage], final: badgeLocation),
            check: nil,
            encoding: Encoding(format: .png, compression: render.pngCompression, creationDate: nil),
            inputs: render.inputFiles(icon: bundle.folder + "/icon.json"))
        job.encoding.marksBadged = true
        job.requiredSize = (side, side)
        let outcomes = JobRunner.run([job], workers: 1)
        if shrinkable,
            let (smaller, tooLarge) = CatalogRun.shrunkSize(outcomes, jobs: [job], relativeSize: relativeSize)
        {
            return .shrink(to: smaller, tooLarge: tooLarge, of: 1)
        }
        let advice = CatalogRun.sizeAdvice(outcomes, jobs: [job], settings: settings.render, relativeSize: relativeSize)
        let tally = Reporter(io: io, advice: advice).report(outcomes, jobs: [job], checkLines: .notable)
        guard tally.failed == 0 else {
            io.writeErr("iconbadge: appiconset: nothing written: the badge layer failed\n")
            return .finished(tally.exitCode)
        }
        staged.remove([".canvas.png"])
        if settings.out != nil {
            for asset in bundle.assets {
                let bytes = try InputFile.bytes(
                    at: bundle.folder + "/Assets/" + asset, limit: render.limits.maxRasterBytes, what: "asset")
                try staged.write(
                    bytes, components: ["Assets", asset], shown: final.description + "/Assets/" + asset)
            }
            try staged.write(document, components: ["icon.json"], shown: final.description + "/icon.json")
            try staged.commit(as: final.name ?? bundle.name, subfolders: ["Assets"])
        } else {
            try staged.write(document, components: ["icon.json"], shown: final.description)
            try staged.commitFiles([["Assets", IconComposerBundle.badgeImage], ["icon.json"]])
        }
        committed = true
        let target = settings.out == nil ? bundle.folder : final.description
        let verb = bundle.hasBadgeLayer ? "replaced the badge layer" : "added a badge layer"
        io.writeErr(
            "iconbadge: appiconset: \(verb) (Assets/\(IconComposerBundle.badgeImage), in front of every group) in \(Quoted(target))\n"
        )
        guard let preview = settings.preview else { return .finished(.success) }
        return .finished(
            CatalogRun.writePreview(to: preview, command: "appiconset", limits: render.limits, io: io) {
                () throws(BadgeError) in
                try IconBundlePreview.sheet(
                    title: Shown(target).description, bundle: try IconComposerBundle(path: target),
                    limits: render.limits)
            })
    }
}
