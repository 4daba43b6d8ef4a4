import BadgeCore
import BadgeRender
import BadgeSystem

extension AndroidOverlay {
    /// Stages what a launcher shows under an adaptive icon's badge layer at `density`:
    /// the icon's background and foreground layers from `resources`, composed on the
    /// 108 dp canvas (`side` px), so the badge's contrast is measured against them
    /// (`RenderRequest.Icon.backdrop`). Layers iconbadge cannot draw (a
    /// VectorDrawable) are left out; nil when none can be drawn. The file is staged as
    /// `.backdrop-NAME-DENSITY.png` and removed before the commit like the canvases.
    ///
    /// - Throws: a layer image's read errors (65, 66); 73/74 when it cannot be staged.
    static func stageBackdrop(
        _ icon: AndroidResources.AdaptiveIcon, resources: AndroidResources, density: AndroidResources.Density,
        side: Int, staged: StagedFolder, limits: ImageLimits
    ) throws(BadgeError) -> [String]? {
        let layers = AndroidLayers(folders: [resources.folder])
        var drawn: [ContactSheet.Layer] = []
        for part in ["background", "foreground"] {
            guard let element = icon.root.child(part) else { continue }
            let drawable: AndroidLayers.Drawable
            if let reference = element.attributes.first(where: { $0.name.hasSuffix(":drawable") })?.value {
                drawable = layers.drawable(reference, scale: density.scale)
            } else if let child = element.children.first {
                drawable = layers.element(child, reference: "<\(part)>", scale: density.scale, depth: 1)
            } else {
                continue
            }
            drawn += AndroidPreview.canvasLayers(drawable, side: side).filter {
                if case .missing = $0 { false } else { true }
            }
        }
        guard !drawn.isEmpty else { return nil }
        let tile = ContactSheet.Tile(caption: "", side: side, backdrop: .transparent, layers: drawn)
        var painter = try ContactSheetPainter(limits: limits)
        let bytes = try painter.tilePNGs(
            ContactSheet(title: "", sections: [.init(title: "", groups: [.init(title: "", tiles: [tile])])]))
        let components = [".backdrop-\(icon.name)-\(density.name).png"]
        try staged.write(bytes[0], components: components, shown: staged.path)
        return components
    }
}
