import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

extension AppIconSetCommand {
    /// Badges an Icon Composer bundle all or nothing (`CatalogTransaction`): the
    /// badge layer is rendered into a staging folder (on a blank 1024 px canvas,
    /// inside the bundle's platform shape), `icon.json` gets the badge group in front,
    /// and only then are the files moved into place: with `--out`, a whole copy of the
    /// bundle renamed into place; with `--in-place`, the badge image and `icon.json`
    /// renamed over their originals.
    ///
    /// - Throws: 64, 65, 66, 73 and 74 as `badge(_:settings:io:)`; render failures
    ///   are reported and give their exit code.
    static func badgeBundle(_ bundle: IconComposerBundle, settings: Settings, io: CommandIO) throws(BadgeError)
        -> ExitCode
    {
        let wording = CatalogWording(io: io, command: "appiconset")
        let result = try CatalogTransaction.badge(
            .iconBundle(bundle, out: settings.out),
            settings: CatalogWording.settings(settings.catalog, render: settings.render), messages: wording)
        switch result {
        case .nothing:
            return .success
        case .failed(let tally, _):
            io.writeErr("iconbadge: appiconset: nothing written: the badge layer failed\n")
            return tally.exitCode
        case .committed(let committed):
            guard case .bundle(let plan) = committed.plan.detail else { return .software }
            let verb = bundle.hasBadgeLayer ? "replaced the badge layer" : "added a badge layer"
            io.writeErr(
                "iconbadge: appiconset: \(verb) (Assets/\(IconComposerBundle.badgeImage), in front of every group) in \(Quoted(plan.target))\n"
            )
            return wording.writePreview(of: committed, to: settings.preview)
        }
    }
}
