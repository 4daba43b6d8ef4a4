import BadgeCore
import BadgeRender
import BadgeSystem

extension AndroidOverlay {
    /// Stages what a launcher shows under an adaptive icon's badge layer, at each of
    /// `AndroidResources.layerDensities`: the icon's background and foreground layers
    /// as drawn (`AndroidDrawableSVG.layerDrawing`, drawn natively as the preview draws them) on the
    /// 108 dp canvas, so the badge's contrast is measured against them
    /// (`RenderRequest.Icon.backdrop`). Each is staged as `.backdrop-STEM-DENSITY.png`
    /// and removed before the commit like the canvases.
    ///
    /// A measure, not an output: a layer that cannot be drawn, or a backdrop that
    /// cannot be staged, leaves that density without one (nil), and its badge is
    /// made all the same, unmeasured; the layer's own problem is the foreground's to
    /// report where it is drawn.
    static func stageBackdrops(
        _ icon: AndroidResources.AdaptiveIcon, path: String, lookup: AndroidResourceLookup, limits: ImageLimits,
        out: String, staged: StagedFolder, overlay: inout AndroidOverlay
    ) -> [String?] {
        guard var painter = try? ContactSheetPainter(limits: limits) else {
            return AndroidResources.layerDensities.map { _ in nil }
        }
        var backdrops: [String?] = []
        densities: for density in AndroidResources.layerDensities {
            let side = Int((AndroidResources.layerSide * density.scale).rounded())
            let full = Rect(x: 0, y: 0, width: Double(side), height: Double(side))
            var layers: [ContactSheet.Layer] = []
            for part in ["background", "foreground"] {
                guard let element = icon.root.child(part) else { continue }
                guard
                    let drawing = try? AndroidDrawableSVG.layerDrawing(
                        element, of: icon.bytes, path: path, width: AndroidResources.layerSide,
                        height: AndroidResources.layerSide, density: density.scale, lookup: lookup, limits: limits)
                else {
                    backdrops.append(nil)
                    continue densities
                }
                layers.append(.image(.drawing(drawing, name: "the \(part) of \(icon.name)"), rect: full))
            }
            let tile = ContactSheet.Tile(caption: "", side: side, backdrop: .transparent, layers: layers)
            let sheet = ContactSheet(title: "", sections: [.init(title: "", groups: [.init(title: "", tiles: [tile])])])
            let components = [".backdrop-\(icon.stem)-\(density.name).png"]
            guard !layers.isEmpty, let bytes = try? painter.tilePNGs(sheet).first,
                (try? staged.write(bytes, components: components, shown: out)) != nil
            else {
                backdrops.append(nil)
                continue
            }
            overlay.canvases.append(components)
            backdrops.append(staged.path + "/" + components[0])
        }
        return backdrops
    }
}
