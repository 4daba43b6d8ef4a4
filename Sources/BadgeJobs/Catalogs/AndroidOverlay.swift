import BadgeCore
import BadgeRender
import BadgeSystem

/// What an Android overlay `res/` holds for a badged launcher icon, planned into a
/// staging folder: render jobs (legacy icons, badge layers) and XML files (the
/// adaptive icons' copies and their `<layer-list>` layers).
package struct AndroidOverlay: Sendable {
    /// The renders, each writing into the staging folder.
    package var jobs: [RenderJob] = []
    /// The XML files, by their path below the overlay `res/`.
    package var files: [(components: [String], bytes: [UInt8])] = []
    /// Blank canvases staged for the badge layers, removed before the commit.
    package var canvases: [[String]] = []
    /// Every path the overlay writes below `res/` (jobs' outputs and files).
    package var written: [[String]] = []
    /// How many legacy images and adaptive icons are badged (for the summary).
    package var legacyCount = 0
    package var adaptiveCount = 0
    /// Notes for the user.
    package var notes: [String] = []
    /// Jobs whose notes are not said (a filtered background: its badges are not
    /// drawn, and the other layers say the same), by index.
    package var quiet: [Int] = []
    /// For each badged layer of an adaptive icon, its xxxhdpi job, whose report
    /// says how much of the layer the badge covers (`--avoid-content`).
    package var avoidance: [(icon: String, layer: String, job: Int)] = []
    /// With `--avoid-content`, the legacy icons' jobs, by index: their reports say
    /// whether the badge moved from where clamp puts it.
    package var legacyAvoidance: [Int] = []
    /// The resource names iconbadge writes for the adaptive icons of this run
    /// (`iconbadge_NAME_foreground`, `_badge`, …, the names of every version): files of
    /// an earlier run with these names that this one does not write are stale.
    package var ownedNames: Set<String> = []

    /// Plans the overlay of `resources` into `staged`, for the overlay folder `out`.
    ///
    /// Legacy icons are drawn at their density's scale in `android-legacy` (or
    /// `android-round`) unless `settings` gives a platform; badge layers are drawn on
    /// a transparent 108 dp canvas at each density in `android-adaptive` (inside the
    /// 66 dp safe-zone circle, sized against the 72 dp visible square), the
    /// monochrome one in white with its text cut out (the system shows only its
    /// alpha). The badge is `relativeSize` of the reference box tall unless a height is
    /// given.
    ///
    /// - Throws: image read errors (65, 66), 73/74 when a canvas cannot be staged.
    package static func plan(
        _ resources: AndroidResources, settings: RenderSettings, relativeSize: Double, out: String,
        staged: StagedFolder
    ) throws(BadgeError) -> AndroidOverlay {
        var overlay = AndroidOverlay()
        var settings = settings
        settings.defaultHeight(percent: relativeSize * 100)
        func final(_ components: [String]) -> OutputLocation { OutputLocation(root: out, components: components) }
        func encoding(_ render: RenderSettings) -> Encoding {
            Encoding(format: .png, compression: render.pngCompression, creationDate: nil)
        }
        for icon in resources.legacy {
            let source = resources.folder + "/" + icon.components.joined(separator: "/")
            let pixels = try ImageFile.pixels(at: source, limits: settings.limits)
            var render = settings
            render.scale = icon.density.scale
            if !settings.platformGiven { render.platform = icon.round ? .androidRound : .androidLegacy }
            // A WebP icon's copy is WebP too (lossless), a PNG's PNG: by the name.
            let components = icon.components
            let format: OutputFormat = components[1].hasSuffix(".webp") ? .webp : .png
            var job = RenderJob(
                label: icon.components.joined(separator: "/"), request: try render.request(icon: source),
                output: .staged(staged, components: components, final: final(components)), check: nil,
                encoding: Encoding(format: format, compression: render.pngCompression, creationDate: nil),
                inputs: render.inputFiles(icon: source))
            job.requiredSize = (pixels.width, pixels.height)
            if render.style.avoidsContent || render.moreBadges.contains(where: \.style.avoidsContent) {
                job.report = true
                overlay.legacyAvoidance.append(overlay.jobs.count)
            }
            overlay.jobs.append(job)
            overlay.written.append(components)
            overlay.legacyCount += 1
        }
        let table = try AndroidResourceTable(folder: resources.folder, limits: settings.limits)
        for icon in resources.adaptive {
            try planAdaptive(
                icon, resources: resources, table: table, settings: settings, out: out, staged: staged,
                overlay: &overlay)
        }
        return overlay
    }
}
