import BadgeCore
import BadgeRender
import BadgeSystem

/// The adaptive icons of an overlay: each layer iconbadge changes, drawn per density.
///
/// - `<foreground>`: a `<layer-list>` of the original drawable (by name, untouched)
///   under a badge layer (`drawable-<density>/iconbadge_NAME_badge.png`, the badges
///   alone on a transparent 108 dp canvas, placed inside the 66 dp safe zone). With
///   `--avoid-content` the badge is placed on the foreground as drawn (its
///   VectorDrawable drawn natively), so as to cover as little of it as it can.
/// - With `--icon-filter`, the foreground and background are drawn per density
///   instead, filtered (`iconbadge_NAME_foreground.png` with the badge on it,
///   `iconbadge_NAME_background.png`), or a `@color` background filtered as a colour
///   (`values/iconbadge_NAME_colors.xml`).
/// - `<monochrome>` (Android 13 themed icons, shown by its alpha alone): drawn per
///   density (`iconbadge_NAME_monochrome.png`) with a white badge over it whose text
///   is cut out, the drawing cleared under the whole badge and a 1 pt gap (plus a pixel) around it,
///   so the letters are empty.
///
/// Layers are converted by `AndroidDrawableSVG.layerDrawing`, once per density, and
/// drawn natively at each density's pixel size by `AndroidDrawingPainter` (no SVG
/// renderer is needed), in memory: the jobs' requests hold the drawn pixels
/// (`DrawnImage`), and nothing is written before the commit.
extension AndroidOverlay {
    /// Plans the adaptive icon `icon` into `overlay`.
    ///
    /// - Throws: 65 naming the file and line of a drawable that cannot be drawn.
    static func planAdaptive(
        _ icon: AndroidResources.AdaptiveIcon, resources: AndroidResources, table: AndroidResourceTable,
        settings: RenderSettings, overlay: inout AndroidOverlay
    ) throws(BadgeError) {
        let out = overlay.folder
        let prefix = AndroidResources.androidPrefix(icon.root)
        let source = resources.folder + "/" + icon.components.joined(separator: "/")
        // How messages name the icon: its name, and its folder when it has several XMLs.
        let shown = icon.stem == icon.name ? icon.name : "\(icon.name) (\(icon.components[0]))"
        let filtered = !settings.iconFilters.isEmpty
        let avoiding = settings.style.avoidsContent || settings.moreBadges.contains { $0.style.avoidsContent }
        var replacements: [(Range<Int>, String)] = []
        // Values are copied between double quotes into the new XML: one that holds a
        // double quote (legal in single quotes) or a control character could break
        // out of its attribute there.
        for layer in ["foreground", "background", "monochrome"] {
            guard let element = icon.root.child(layer) else { continue }
            for (name, value) in icon.root.attributes + element.attributes
            where value.utf8.contains(where: { $0 == 0x22 || $0 < 0x20 || $0 == 0x26 }) {
                throw .badInput(
                    path: source,
                    reason:
                        "the value of \(Quoted(name)) holds a quote, '&' or a control character; iconbadge copies plain values only"
                )
            }
        }
        // Each layer converted once a density, whoever asks first: its render, the
        // badge's backdrop, the preview (for a layer the overlay keeps).
        var converted: [String: Result<AndroidDrawing, AndroidDrawableProblem>] = [:]
        func conversion(of layer: String, at density: AndroidResources.Density) -> Result<
            AndroidDrawing, AndroidDrawableProblem
        >? {
            guard let element = icon.root.child(layer) else { return nil }
            let key = layer + "@" + density.name
            if let known = converted[key] { return known }
            let result = Result { () throws(AndroidDrawableProblem) in
                try AndroidDrawableSVG.layerDrawing(
                    element, of: icon.bytes, path: source, width: AndroidResources.layerSide,
                    height: AndroidResources.layerSide, density: density.scale, lookup: table.lookup,
                    limits: settings.limits)
            }
            converted[key] = result
            return result
        }
        /// The layer drawn at each density's pixel size (natively, no SVG renderer:
        /// `AndroidDrawingPainter`), in memory, for the renders, which draw it at
        /// that same size, so it is never resampled.
        func drawnLayer(_ layer: String) throws(BadgeError) -> [Layer] {
            var drawn: [Layer] = []
            for density in AndroidResources.layerDensities {
                let drawing: AndroidDrawing
                switch conversion(of: layer, at: density) {
                case .success(let converted)?: drawing = converted
                case .failure(let error)?:
                    throw .badInput(path: error.path, reason: "\(error.description) (the \(layer) of \(shown))")
                case nil: throw .internalError("no <\(layer)> in \(Quoted(source))")
                }
                let side = Int((AndroidResources.layerSide * density.scale).rounded())
                let name = "the \(layer) of \(shown)"
                drawn.append(
                    Layer(
                        name: "\(name) at \(density.name)",
                        image: try DrawnImage.drawing(
                            drawing, width: side, height: side, name: name, limits: settings.limits)))
            }
            return drawn
        }
        /// One render job per density: `icons` (one a density, drawn in memory), into
        /// `drawable-<density>/NAME.png`.
        func jobs(
            _ name: String, icons: [Layer], configure: (inout RenderSettings) -> Void,
            layers: RenderRequest.Output.Layers = .all, backdrops: [Layer?] = []
        ) throws(BadgeError) {
            for (index, (density, icon)) in zip(AndroidResources.layerDensities, icons).enumerated() {
                let side = Int((AndroidResources.layerSide * density.scale).rounded())
                var render = settings
                render.scale = density.scale
                if !settings.platformGiven { render.platform = .androidAdaptive }
                render.outputLayers = layers
                var drawn = [icon.name: icon.image]
                // What the launcher shows under the badge: its contrast is measured there.
                if index < backdrops.count, let backdrop = backdrops[index] {
                    render.backdrop = backdrop.name
                    drawn[backdrop.name] = backdrop.image
                }
                configure(&render)
                let request = try render.request(
                    icon: icon.name, iconSize: Size(width: Double(side), height: Double(side)))
                let components = ["drawable-\(density.name)", name + ".png"]
                var job = RenderJob(
                    label: components.joined(separator: "/"), request: request.holding(drawn),
                    output: .file(OutputLocation(root: out, components: components), creatingFolders: true),
                    check: nil, encoding: Encoding(format: .png, compression: render.pngCompression, creationDate: nil),
                    // The icon is in memory: the other inputs are files (a badge image, fonts).
                    inputs: Array(render.inputFiles(icon: icon.name).dropFirst()))
                job.requiredSize = (side, side)
                job.report = avoiding && density.name == "xxxhdpi"
                overlay.append(job, writing: components)
                if layers == .icon { overlay.quiet.append(overlay.jobs.count - 1) }
            }
        }
        func point(_ element: XMLElement, _ layer: String, at reference: String) {
            replacements.append((element.range, "<\(layer) \(prefix):drawable=\"\(reference)\" />"))
        }

        // The foreground: drawn with the badge when filtered, else under a badge layer.
        if let foreground = icon.root.child("foreground") {
            let name = "iconbadge_\(icon.stem)_foreground"
            if filtered {
                try jobs(name, icons: try drawnLayer("foreground")) { _ in }
                point(foreground, "foreground", at: "@drawable/\(name)")
                overlay.avoidance.append((shown, "foreground", overlay.jobs.count - 1))
            } else {
                let item: String
                if let drawable = foreground.attribute(prefix + ":drawable") {
                    item = "    <item \(prefix):drawable=\"\(drawable)\" />"
                } else if let inner = foreground.inner, !foreground.children.isEmpty {
                    item = "    <item>" + String(decoding: icon.bytes[inner], as: UTF8.self) + "</item>"
                } else {
                    throw .badInput(path: source, reason: "<foreground> has no android:drawable and no drawable inside")
                }
                let badge = "iconbadge_\(icon.stem)_badge"
                // The namespaces the copied layer may use: the root's and its own.
                var declared: [(name: String, value: String)] = []
                var seen: Set<String> = []
                for attribute in icon.root.attributes + foreground.attributes
                where attribute.name.hasPrefix("xmlns") && seen.insert(attribute.name).inserted {
                    declared.append(attribute)
                }
                let namespaces = declared.map { " \($0.name)=\"\($0.value)\"" }.joined()
                // Stacked, not nested (LayerDrawable's default): nested, the badge would be
                // inset by the foreground's padding (an <inset>'s insets, a shape's
                // <padding>), which a device reads differently from one copy of the
                // drawable to the next for a fractional inset. Stacked, every layer
                // fills the layer list's bounds (API 21 and up).
                let text = """
                    <?xml version="1.0" encoding="utf-8"?>
                    <!-- Written by iconbadge: the icon's foreground layer under a badge drawn inside the 66 dp safe zone. -->
                    <layer-list\(namespaces.isEmpty ? " xmlns:android=\"\(AndroidResources.androidNamespace)\"" : namespaces) \(namespaces.isEmpty ? "android" : prefix):paddingMode="stack">
                    \(item)
                        <item \(prefix):drawable="@drawable/\(badge)" />
                    </layer-list>

                    """
                overlay.files.append((["drawable", name + ".xml"], Array(text.utf8)))
                overlay.written.append(["drawable", name + ".xml"])
                point(foreground, "foreground", at: "@drawable/\(name)")
                // The badge alone, placed on the foreground as drawn when it must avoid
                // it, else on a blank canvas (the foreground need not be read).
                let canvases =
                    avoiding
                    ? try drawnLayer("foreground") : AndroidResources.layerDensities.map(blankCanvas)
                let backdrops = drawBackdrops(icon, limits: settings.limits) { part, density in
                    try? conversion(of: part, at: density)?.get()
                }
                try jobs(badge, icons: canvases, configure: { _ in }, layers: .badges, backdrops: backdrops)
                overlay.avoidance.append((shown, "foreground", overlay.jobs.count - 1))
            }
        }

        // The background, filtered: a colour stays a colour; any drawable is drawn.
        if filtered, let background = icon.root.child("background") {
            let name = "iconbadge_\(icon.stem)_background"
            let color: Color?
            do throws(AndroidDrawableProblem) {
                color = try AndroidDrawableSVG.layerColor(
                    background, of: icon.bytes, path: source, lookup: table.lookup, limits: settings.limits)
            } catch {
                throw .badInput(path: error.path, reason: "\(error.description) (the background of \(shown))")
            }
            if let color {
                let text = """
                    <?xml version="1.0" encoding="utf-8"?>
                    <!-- Written by iconbadge: the background colour of \(shown), through \(settings.iconFilters.map(\.description).joined(separator: ", ")). -->
                    <resources>
                        <color name="\(name)">\(Self.androidHex(IconFilter.apply(settings.iconFilters, to: color)))</color>
                    </resources>

                    """
                let components = ["values", "\(name)_colors.xml"]
                overlay.files.append((components, Array(text.utf8)))
                overlay.written.append(components)
                point(background, "background", at: "@color/\(name)")
            } else {
                try jobs(name, icons: try drawnLayer("background"), configure: { _ in }, layers: .icon)
                point(background, "background", at: "@drawable/\(name)")
            }
        }

        // The themed icon: the monochrome drawing, cleared under a white badge whose
        // text is cut out.
        if let monochrome = icon.root.child("monochrome") {
            let name = "iconbadge_\(icon.stem)_monochrome"
            try jobs(name, icons: try drawnLayer("monochrome")) { render in
                render.iconFilters = []
                render.style.background = .white
                render.style.borderColor = .white
                render.knockoutText = true
                render.clearsUnderBadges = true
                for index in render.moreBadges.indices {
                    render.moreBadges[index].style.background = .white
                    render.moreBadges[index].style.borderColor = .white
                }
            }
            point(monochrome, "monochrome", at: "@drawable/\(name)")
            overlay.avoidance.append((shown, "monochrome", overlay.jobs.count - 1))
        }

        // The copy of the adaptive icon's XML, its layers pointed at the new ones.
        var bytes = icon.bytes
        for (range, text) in replacements.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            bytes.replaceSubrange(range, with: Array(text.utf8))
        }
        overlay.files.append((icon.components, bytes))
        overlay.written.append(icon.components)
        // The background the copy keeps, as converted: the preview draws it so.
        if !filtered {
            for density in AndroidResources.layerDensities {
                guard case .success(let kept)? = converted["background@" + density.name] else { continue }
                overlay.keptLayers[LayerKey(icon: icon.components, layer: "background", density: density.name)] = kept
            }
        }
        for suffix in Self.layerNames { overlay.ownedNames.insert("iconbadge_\(icon.stem)_\(suffix)") }
        overlay.adaptiveCount += 1
    }

    /// What the names of the files written for an adaptive icon end in, every version's
    /// (`badge_mono` was the monochrome badge layer before the layer was drawn).
    static let layerNames = [
        "foreground", "badge", "background", "background_colors", "monochrome", "badge_mono",
    ]

    /// An image a layer's render reads, drawn in memory, and the name it goes by
    /// (`RenderRequest.Icon.path` or `backdrop`, and messages).
    struct Layer {
        let name: String
        let image: DrawnImage
    }

    /// A transparent 108 dp canvas at `density`: the badge layer's icon when the
    /// foreground need not be read.
    static func blankCanvas(_ density: AndroidResources.Density) -> Layer {
        let side = Int((AndroidResources.layerSide * density.scale).rounded())
        return Layer(name: "a blank \(side) px canvas", image: .blank(width: side, height: side))
    }

    /// `#AARRGGBB`, Android's colour form.
    static func androidHex(_ color: Color) -> String {
        let rgba = color.description.dropFirst()
        return "#" + rgba.suffix(2) + rgba.prefix(6)
    }
}

extension IconFilter {
    /// A straight-alpha colour through `filters` in order, as the icon's pixels go
    /// through them (on its premultiplied value; `apply(toPremultiplied:)`).
    static func apply(_ filters: [IconFilter], to color: Color) -> Color {
        let alpha = UInt32(color.alpha)
        func premultiplied(_ channel: UInt8) -> UInt32 { (UInt32(channel) * alpha + 127) / 255 }
        var pixel =
            alpha << 24 | premultiplied(color.red) << 16 | premultiplied(color.green) << 8 | premultiplied(color.blue)
        for filter in filters { pixel = filter.apply(toPremultiplied: pixel) }
        guard alpha > 0 else { return color }
        func straight(_ shift: UInt32) -> UInt8 { UInt8(min(255, ((pixel >> shift & 0xFF) * 255 + alpha / 2) / alpha)) }
        return Color(red: straight(16), green: straight(8), blue: straight(0), alpha: color.alpha)
    }
}
