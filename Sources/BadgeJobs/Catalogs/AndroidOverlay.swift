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
            overlay.jobs.append(job)
            overlay.written.append(components)
            overlay.legacyCount += 1
        }
        var layersMade: [String] = []
        for icon in resources.adaptive {
            let prefix = AndroidResources.androidPrefix(icon.root)
            var replacements: [(Range<Int>, String)] = []
            for (layer, kind) in [("foreground", "badge"), ("monochrome", "badge_mono")] {
                guard let element = icon.root.child(layer) else { continue }
                // Values are copied between double quotes into the new XML: one that
                // holds a double quote (legal in single quotes) or a control character
                // could break out of its attribute there.
                for (name, value) in icon.root.attributes + element.attributes
                where value.utf8.contains(where: { $0 == 0x22 || $0 < 0x20 || $0 == 0x26 }) {
                    throw .badInput(
                        path: resources.folder + "/" + icon.components.joined(separator: "/"),
                        reason:
                            "the value of \(Quoted(name)) holds a quote, '&' or a control character; iconbadge copies plain values only"
                    )
                }
                let item: String
                if let drawable = element.attribute(prefix + ":drawable") {
                    item = "    <item \(prefix):drawable=\"\(drawable)\" />"
                } else if let inner = element.inner, !element.children.isEmpty {
                    item = "    <item>" + String(decoding: icon.bytes[inner], as: UTF8.self) + "</item>"
                } else {
                    continue
                }
                let layerList = "iconbadge_\(icon.name)_\(layer)"
                let badge = "iconbadge_\(icon.name)_\(kind)"
                // The namespaces the copied layer may use: the root's and its own.
                var declared: [(name: String, value: String)] = []
                for attribute in icon.root.attributes + element.attributes
                where attribute.name.hasPrefix("xmlns") && !declared.contains(where: { $0.name == attribute.name }) {
                    declared.append(attribute)
                }
                let namespaces = declared.map { " \($0.name)=\"\($0.value)\"" }.joined()
                let text = """
                    <?xml version="1.0" encoding="utf-8"?>
                    <!-- Written by iconbadge: the icon's \(layer) layer under a badge drawn inside the 66 dp safe zone. -->
                    <layer-list\(namespaces.isEmpty ? " xmlns:android=\"\(AndroidResources.androidNamespace)\"" : namespaces)>
                    \(item)
                        <item \(prefix):drawable="@drawable/\(badge)" />
                    </layer-list>

                    """
                if !layersMade.contains(layerList) {
                    layersMade.append(layerList)
                    overlay.files.append((["drawable", layerList + ".xml"], Array(text.utf8)))
                    overlay.written.append(["drawable", layerList + ".xml"])
                }
                replacements.append((element.range, "<\(layer) \(prefix):drawable=\"@drawable/\(layerList)\" />"))
                guard !layersMade.contains(badge) else { continue }
                layersMade.append(badge)
                for density in AndroidResources.layerDensities {
                    let side = Int((AndroidResources.layerSide * density.scale).rounded())
                    let canvas = [".canvas-\(side).png"]
                    if !overlay.canvases.contains(canvas) {
                        let blank = try ImageFile.pngData(
                            of: PixelBuffer(width: side, height: side, fill: .transparent), compression: .fast)
                        try staged.write(blank, components: canvas, shown: out)
                        overlay.canvases.append(canvas)
                    }
                    var render = settings
                    render.scale = density.scale
                    if !settings.platformGiven { render.platform = .androidAdaptive }
                    // What the launcher shows under the badge: its contrast is measured there.
                    if kind == "badge",
                        let backdrop = try stageBackdrop(
                            icon, resources: resources, density: density, side: side, staged: staged,
                            limits: settings.limits)
                    {
                        render.backdrop = staged.path + "/" + backdrop[0]
                        overlay.canvases.append(backdrop)
                    }
                    if kind == "badge_mono" {
                        render.style.background = .white
                        render.style.borderColor = .white
                        render.knockoutText = true
                    }
                    let request = try render.request(icon: staged.path + "/" + canvas[0])
                    let components = ["drawable-\(density.name)", badge + ".png"]
                    var job = RenderJob(
                        label: components.joined(separator: "/"), request: request,
                        output: .staged(staged, components: components, final: final(components)), check: nil,
                        encoding: encoding(render), inputs: render.inputFiles(icon: staged.path + "/" + canvas[0]))
                    job.requiredSize = (side, side)
                    overlay.jobs.append(job)
                    overlay.written.append(components)
                }
            }
            // The copy of the adaptive icon's XML, its layers pointed at the layer lists.
            var bytes = icon.bytes
            for (range, text) in replacements.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
                bytes.replaceSubrange(range, with: Array(text.utf8))
            }
            overlay.files.append((icon.components, bytes))
            overlay.written.append(icon.components)
            overlay.adaptiveCount += 1
        }
        return overlay
    }
}
