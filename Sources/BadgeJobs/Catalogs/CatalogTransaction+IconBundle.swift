import BadgeCore
import BadgeRender
import BadgeSystem

extension CatalogTransaction {
    /// An Icon Composer bundle's part of a plan.
    package struct BundlePlan {
        /// The bundle badged.
        package var bundle: IconComposerBundle
        /// The bundle's folder once written (itself, in place).
        package var target: String
    }

    /// Plans the badge layer of `bundle`: rendered on a blank 1024 px canvas staged
    /// for it, inside the bundle's platform shape; `icon.json` gets the badge group in
    /// front. With `out`, a whole copy of the bundle (its assets copied at the commit)
    /// becomes the folder there; in place, the badge image and `icon.json` replace
    /// their originals.
    ///
    /// - Throws: 64 for `--icon-filter` (the bundle's layers are kept as they are) and
    ///   an `out` that is the bundle; 65 for a layer image iconbadge badged and an
    ///   `icon.json` that would be too large to read back; 73 for a bundle at `out`
    ///   without iconbadge's badge layer (without `--replace`) or an unwritable
    ///   destination.
    static func planBundle(
        _ bundle: IconComposerBundle, out: String?, settings: Settings, relativeSize: Double,
        staging: CatalogStaging, messages: any CatalogMessages
    ) throws(BadgeError) -> Plan? {
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
        guard try CatalogSizing.isShown(settings.render, failIfHidden: settings.failIfHidden, messages: messages)
        else { return nil }
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
        if let out {
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
            // A folder that is no bundle iconbadge can read (no icon.json, or one it
            // cannot parse) is not replaced either, unless it is empty.
            if !settings.replace, InputFolder.holdsAnything(final.description) {
                guard let other = try? IconComposerBundle(path: final.description) else {
                    throw .cannotCreate(
                        path: final.description,
                        reason:
                            "is a folder that is not a bundle iconbadge wrote (no readable icon.json); --replace replaces it, or write elsewhere"
                    )
                }
                guard other.hasBadgeLayer else {
                    throw .cannotCreate(
                        path: final.description,
                        reason: "is a bundle without iconbadge's badge layer; --replace replaces it, or write elsewhere"
                    )
                }
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
        let staged = out == nil ? try staging.inside(final) : try staging.beside(final)
        try staged.write(canvas, components: [".canvas.png"], shown: final.description)
        let target = out == nil ? bundle.folder : final.description
        let badgeLocation = OutputLocation(root: target, components: ["Assets", IconComposerBundle.badgeImage])
        var job = RenderJob(
            label: IconComposerBundle.badgeImage, request: try render.request(icon: staged.path + "/.canvas.png"),
            output: .staged(staged, components: ["Assets", IconComposerBundle.badgeImage], final: badgeLocation),
            check: nil,
            encoding: Encoding(format: .png, compression: render.pngCompression, creationDate: nil),
            inputs: render.inputFiles(icon: bundle.folder + "/icon.json"))
        job.encoding.marksBadged = true
        job.requiredSize = (side, side)
        var plan = Plan(detail: .bundle(BundlePlan(bundle: bundle, target: target)))
        plan.jobs = [job]
        plan.scratch = [(staged, [".canvas.png"])]
        if out != nil {
            for asset in bundle.assets {
                plan.files.append(
                    File(
                        folder: staged, components: ["Assets", asset],
                        source: .copy(bundle.folder + "/Assets/" + asset, limit: render.limits.maxRasterBytes),
                        shown: final.description + "/Assets/" + asset))
            }
            plan.files.append(
                File(
                    folder: staged, components: ["icon.json"], source: .bytes(document),
                    shown: final.description + "/icon.json"))
            plan.commits = [(staged, .folder(name: final.name ?? bundle.name, subfolders: ["Assets"]))]
        } else {
            plan.files.append(
                File(folder: staged, components: ["icon.json"], source: .bytes(document), shown: final.description))
            plan.commits = [(staged, .files([["Assets", IconComposerBundle.badgeImage], ["icon.json"]]))]
        }
        return plan
    }
}
