import BadgeCore
import BadgeRender
import BadgeSystem

extension AndroidOverlay {
    /// What a launcher shows under an adaptive icon's badge layer, at each of
    /// `AndroidResources.layerDensities`: the icon's background and foreground layers
    /// as converted (`drawing`, the plan's conversion of a part at a density), drawn
    /// natively as the preview draws them, on the 108 dp canvas, in memory, so the
    /// badge's contrast is measured against them (`RenderRequest.Icon.backdrop`).
    ///
    /// A measure, not an output: a layer that cannot be drawn, or a backdrop that
    /// cannot be composed, leaves that density without one (nil), and its badge is made all the same,
    /// unmeasured; the layer's own problem is the foreground's to report where it is
    /// drawn.
    static func drawBackdrops(
        _ icon: AndroidResources.AdaptiveIcon, limits: ImageLimits,
        drawing: (String, AndroidResources.Density) -> AndroidDrawing?
    ) -> [Layer?] {
        // One painter an icon: the layers it draws are dropped with it.
        guard var painter = try? ContactSheetPainter(limits: limits) else {
            return AndroidResources.layerDensities.map { _ in nil }
        }
        var backdrops: [Layer?] = []
        densities: for density in AndroidResources.layerDensities {
            let side = Int((AndroidResources.layerSide * density.scale).rounded())
            let full = Rect(x: 0, y: 0, width: Double(side), height: Double(side))
            var layers: [ContactSheet.Layer] = []
            for part in ["background", "foreground"] {
                guard icon.root.child(part) != nil else { continue }
                guard let drawing = drawing(part, density) else {
                    backdrops.append(nil)
                    continue densities
                }
                layers.append(.image(.drawing(drawing, name: "the \(part) of \(icon.name)"), rect: full))
            }
            let tile = ContactSheet.Tile(caption: "", side: side, backdrop: .transparent, layers: layers)
            guard !layers.isEmpty, let image = try? painter.tileImage(tile) else {
                backdrops.append(nil)
                continue
            }
            backdrops.append(Layer(name: "the backdrop of \(icon.name) at \(density.name)", image: image))
        }
        return backdrops
    }
}
