import BadgeCore
import BadgeRender
import BadgeSystem

/// What an Android overlay `res/` holds for a badged launcher icon, planned in
/// memory: render jobs (legacy icons, badge layers) and XML files (the adaptive
/// icons' copies and their `<layer-list>` layers). Planning reads RES and writes
/// nothing: each adaptive layer is converted once per density and drawn in memory
/// (`DrawnImage`, held by its jobs' requests), and the preview is drawn from the
/// plan (`AndroidPreview.sheet(title:overlay:over:limits:)`). What that holds for
/// the run: 1.5 MB per layer drawn for an icon (its five densities, 108 to 432 px,
/// 4 bytes a pixel), at most three of the foreground, background, monochrome and
/// badge backdrop (a blank canvas holds nothing).
package struct AndroidOverlay: Sendable {
    /// The renders. Planned to write into the overlay folder itself; `staged(in:)`
    /// points them into a staging folder, as a run commits them.
    package var jobs: [RenderJob] = []
    /// Each job's output, by its path below the overlay `res/` (as `jobs`).
    private var outputs: [[String]] = []
    /// The XML files, by their path below the overlay `res/`.
    package var files: [(components: [String], bytes: [UInt8])] = []
    /// The overlay folder the plan is for (no trailing slash).
    package private(set) var folder = ""
    /// Whether that folder existed when planned: the files of its own that the
    /// commit keeps (a variant's colour, say) are then read from it by the preview.
    package private(set) var folderExisted = false
    /// The layers of RES's adaptive icons that the overlay's copies keep as they
    /// are (a background not filtered), as the plan converted them at each density
    /// with RES's resources: the preview of a new overlay folder draws them without
    /// converting them again (one that existed may hold resources that change them).
    package var keptLayers: [LayerKey: AndroidDrawing] = [:]
    /// A layer of an adaptive icon at a density.
    package struct LayerKey: Hashable, Sendable {
        /// The icon's XML, by its path below `res/`.
        package let icon: [String]
        /// `background`, `foreground` or `monochrome`.
        package let layer: String
        /// The density's name (`mdpi`).
        package let density: String
    }
    /// The size (pixels) of each legacy icon image, by its path below `res/`: its
    /// source's, read from the header.
    package var legacySizes: [[String]: (width: Int, height: Int)] = [:]
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

    /// Plans the overlay of `resources` for the overlay folder `out`; reads RES,
    /// writes nothing.
    ///
    /// Legacy icons are drawn at their density's scale in `android-legacy` (or
    /// `android-round`) unless `settings` gives a platform; badge layers are drawn on
    /// a transparent 108 dp canvas at each density in `android-adaptive` (inside the
    /// 66 dp safe-zone circle, sized against the 72 dp visible square), the
    /// monochrome one in white with its text cut out (the system shows only its
    /// alpha). The badge is `relativeSize` of the reference box tall unless a height is
    /// given.
    ///
    /// - Throws: image read errors (65, 66); 65 naming a drawable that cannot be
    ///   drawn.
    package static func plan(
        _ resources: AndroidResources, settings: RenderSettings, relativeSize: Double, out: String
    ) throws(BadgeError) -> AndroidOverlay {
        var overlay = AndroidOverlay()
        overlay.folder = out
        overlay.folderExisted = FileIdentity.realPath(out) != nil
        var settings = settings
        settings.defaultHeight(percent: relativeSize * 100)
        for icon in resources.legacy {
            let source = resources.folder + "/" + icon.components.joined(separator: "/")
            // The header says the size: the render decodes the pixels.
            let size = try ImageFile.size(at: source, limits: settings.limits)
            var render = settings
            render.scale = icon.density.scale
            if !settings.platformGiven { render.platform = icon.round ? .androidRound : .androidLegacy }
            // A WebP icon's copy is WebP too (lossless), a PNG's PNG: by the name.
            let components = icon.components
            let format: OutputFormat = components[1].hasSuffix(".webp") ? .webp : .png
            var job = RenderJob(
                label: icon.components.joined(separator: "/"), request: try render.request(icon: source),
                output: .file(OutputLocation(root: out, components: components), creatingFolders: true), check: nil,
                encoding: Encoding(format: format, compression: render.pngCompression, creationDate: nil),
                inputs: render.inputFiles(icon: source))
            job.requiredSize = size
            if render.style.avoidsContent || render.moreBadges.contains(where: \.style.avoidsContent) {
                job.report = true
                overlay.legacyAvoidance.append(overlay.jobs.count)
            }
            overlay.append(job, writing: components)
            overlay.legacySizes[components] = size
            overlay.legacyCount += 1
        }
        let table = try AndroidResourceTable(folder: resources.folder, limits: settings.limits)
        for icon in resources.adaptive {
            try planAdaptive(icon, resources: resources, table: table, settings: settings, overlay: &overlay)
        }
        return overlay
    }

    /// Adds `job`, which writes `components` below the overlay.
    mutating func append(_ job: RenderJob, writing components: [String]) {
        jobs.append(job)
        outputs.append(components)
        written.append(components)
    }

    /// The plan with its jobs writing into `staged` instead, each moved to its place
    /// in the overlay when the run commits.
    package func staged(in staged: StagedFolder) -> AndroidOverlay {
        var overlay = self
        for (index, components) in outputs.enumerated() {
            overlay.jobs[index].output = .staged(
                staged, components: components, final: OutputLocation(root: folder, components: components))
        }
        return overlay
    }
}
