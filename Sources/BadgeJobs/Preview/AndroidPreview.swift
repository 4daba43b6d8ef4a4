import BadgeCore
import BadgeRender
import BadgeSystem

/// The contact sheet of an Android app's launcher icons as launchers show them:
/// adaptive icons composed from their layers (background, foreground, and the badge
/// layer iconbadge added to it) under the circle, squircle and rounded-square masks
/// of AOSP, themed icons (Android 13: the monochrome layer in two Material palettes,
/// light and dark), and legacy icons as they are.
package enum AndroidPreview {
    /// A launcher's wallpaper behind the icons, light and dark: Material 3's surface
    /// tones (the baseline scheme's surface variant #E7E0EC and surface #1C1B1F).
    static let lightWallpaper = Color(rgb: 0xE7E0EC)
    static let darkWallpaper = Color(rgb: 0x1C1B1F)

    /// A themed icon's colours: Launcher3 (`ThemedIconDrawable.getColors`) paints the
    /// monochrome layer's alpha in `foreground` over `background`: in light mode
    /// system_accent1_100 behind system_neutral2_700, in dark mode system_neutral1_800
    /// behind system_accent1_100, which are tones 90, 30 and 20 of the wallpaper's
    /// palettes.
    package struct ThemedColors: Equatable, Sendable {
        package let name: String
        package let background: Color
        package let foreground: Color
    }

    /// Two Material palettes, light and dark each. The first is Material 3's baseline
    /// (seed #6750A4): primary 90 #EADDFF, neutral-variant 30 #49454F, neutral 20
    /// #313033 (m3.material.io's baseline scheme). The second is a green one with the
    /// same tones (CIELAB L* 90, 30, 20, as HCT's tone is) at OKLCh hue 145°, computed
    /// for this project: #BFEEBF, #404940, #2E312E (the same computation gives the
    /// baseline's tones within 2 levels: #E8DDFF, #494551, #313033).
    package static let palettes: [ThemedColors] = [
        ThemedColors(name: "themed, purple, light", background: Color(rgb: 0xEADDFF), foreground: Color(rgb: 0x49454F)),
        ThemedColors(name: "themed, purple, dark", background: Color(rgb: 0x313033), foreground: Color(rgb: 0xEADDFF)),
        ThemedColors(name: "themed, green, light", background: Color(rgb: 0xBFEEBF), foreground: Color(rgb: 0x404940)),
        ThemedColors(name: "themed, green, dark", background: Color(rgb: 0x2E312E), foreground: Color(rgb: 0xBFEEBF)),
    ]

    /// The densities an adaptive icon is composed at: mdpi (48 px, the smallest a
    /// launcher shows, at 1:1 and 2×) and xxxhdpi (192 px).
    static let adaptiveDensities: [(name: String, scale: Double)] = [("mdpi", 1), ("xxxhdpi", 4)]

    /// The sheet of the icons `names` of `folders` (the overlay first, then `main`'s
    /// `res/`), titled `title`.
    package static func sheet(title: String, folders: [String], names: [String]) -> ContactSheet {
        let layers = AndroidLayers(folders: folders)
        var sheet = ContactSheet(title: title)
        var adaptive = ContactSheet.Section(title: "Android adaptive icons (Android 8 and up)")
        var legacy = ContactSheet.Section(title: "Android legacy icons (before Android 8, and launchers without masks)")
        var missingKinds: [String] = []
        for name in names {
            if let xml = adaptiveXML(name, folders: layers.folders),
                let bytes = try? InputFile.bytes(at: xml, limit: AndroidLayers.maxXMLBytes, what: "adaptive icon XML"),
                let root = try? XMLScanner.parse(bytes), root.name == "adaptive-icon"
            {
                for density in adaptiveDensities {
                    let side = Int(48 * density.scale)
                    func layer(_ part: String) -> AndroidLayers.Drawable? {
                        guard let element = root.child(part) else { return nil }
                        if let reference = element.attributes.first(where: { $0.name.hasSuffix(":drawable") })?.value {
                            return layers.drawable(reference, scale: density.scale)
                        }
                        if let child = element.children.first {
                            return layers.element(child, reference: "<\(part)>", scale: density.scale, depth: 1)
                        }
                        return nil
                    }
                    let background = layer("background")
                    let foreground = layer("foreground")
                    let monochrome = layer("monochrome")
                    var group = ContactSheet.Group(title: "\(name) · \(density.name) · \(side) px")
                    for mask in ContactSheet.AndroidMask.allCases {
                        var drawn: [ContactSheet.Layer] = []
                        for drawable in [background, foreground].compactMap({ $0 }) {
                            drawn += contactLayers(drawable, side: side, part: nil)
                        }
                        group.tiles.append(
                            ContactSheet.Tile(
                                caption: mask.rawValue, side: side, backdrop: lightWallpaper, layers: drawn,
                                mask: .android(mask)))
                    }
                    if let monochrome {
                        for palette in palettes {
                            let full = Rect(x: 0, y: 0, width: Double(side), height: Double(side))
                            let drawn =
                                [ContactSheet.Layer.fill(palette.background, rect: full)]
                                + contactLayers(monochrome, side: side, part: palette.foreground)
                            group.tiles.append(
                                ContactSheet.Tile(
                                    caption: palette.name, side: side,
                                    backdrop: palette.name.hasSuffix("dark") ? darkWallpaper : lightWallpaper,
                                    layers: drawn, mask: .android(.circle)))
                        }
                    }
                    for tile in group.tiles {
                        for kind in tile.missing where !missingKinds.contains(kind) { missingKinds.append(kind) }
                    }
                    adaptive.groups.append(group)
                }
                if root.child("monochrome") == nil {
                    sheet.notes.append(
                        "\(name) has no <monochrome> layer: Android 13's themed icons show it in full colour.")
                }
            }
            var group = ContactSheet.Group(title: "\(name) · legacy")
            for density in AndroidResources.densities {
                for folder in layers.folders {
                    let candidates = ["png", "webp"].map { "\(folder)/mipmap-\(density.name)/\(name).\($0)" }
                    guard let path = candidates.first(where: { InputFile.isPlainFile($0) }) else { continue }
                    guard let pixels = try? ImageFile.pixels(at: path) else { break }
                    let side = min(pixels.width, ContactSheet.maxShownSide)
                    group.tiles.append(
                        ContactSheet.Tile(
                            caption: "\(density.name) · \(pixels.width) px", side: side, backdrop: lightWallpaper,
                            layers: [
                                .image(path: path, rect: Rect(x: 0, y: 0, width: Double(side), height: Double(side)))
                            ]
                        ))
                    break
                }
            }
            if !group.tiles.isEmpty { legacy.groups.append(group) }
        }
        if !adaptive.groups.isEmpty {
            sheet.notes.append(
                "Adaptive icons: the background and foreground layers (108 dp) composed, the inner 72 dp shown through AOSP's masks; themed icons: the monochrome layer in Launcher3's colours of two Material palettes."
            )
            sheet.sections.append(adaptive)
        }
        if !missingKinds.isEmpty {
            sheet.notes.append(
                "Hatched: layers iconbadge cannot draw yet (\(missingKinds.joined(separator: "; "))); the launcher draws them."
            )
        }
        if !legacy.groups.isEmpty { sheet.sections.append(legacy) }
        return sheet
    }

    /// The adaptive icon XML of `name`: the first folder's, in the folders Android
    /// reads it from.
    static func adaptiveXML(_ name: String, folders: [String]) -> String? {
        for folder in folders {
            for sub in AndroidResources.adaptiveFolders {
                let path = folder + "/" + sub + "/" + name + ".xml"
                if InputFile.isPlainFile(path) { return path }
            }
        }
        return nil
    }

    /// A drawable as layers of the whole 108 dp canvas, `side` px (a badge layer's
    /// backdrop).
    static func canvasLayers(_ drawable: AndroidLayers.Drawable, side: Int) -> [ContactSheet.Layer] {
        let visible = Double(side) * 72 / 108
        let shift = Double(side) * 18 / 108
        return contactLayers(drawable, side: Int(visible.rounded()), part: nil, unit: visible / 72).map { layer in
            switch layer {
            case .image(let path, let rect): return .image(path: path, rect: rect.offsetBy(dx: shift, dy: shift))
            case .fill(let color, let rect): return .fill(color, rect: rect.offsetBy(dx: shift, dy: shift))
            case .alpha(let path, let rect, let color):
                return .alpha(path: path, rect: rect.offsetBy(dx: shift, dy: shift), color: color)
            case .missing(let what, let rect): return .missing(what, rect: rect.offsetBy(dx: shift, dy: shift))
            }
        }
    }

    /// A drawable as the sheet's layers on a tile of `side` px: a 108 dp layer reaches
    /// 18 dp past the 72 dp square each side. With `part` (a themed icon), only its
    /// alpha is drawn, in that colour.
    static func contactLayers(
        _ drawable: AndroidLayers.Drawable, side: Int, part: Color?, inset: Double = 0, unit: Double? = nil
    ) -> [ContactSheet.Layer] {
        let unit = unit ?? Double(side) / 72
        let full = 108 * unit
        let margin = inset * full
        let rect = Rect(
            x: -18 * unit + margin, y: -18 * unit + margin, width: full - 2 * margin, height: full - 2 * margin)
        switch drawable {
        case .color(let color):
            return [.fill(part ?? color, rect: rect)]
        case .bitmap(let path):
            if let part { return [.alpha(path: path, rect: rect, color: part)] }
            return [.image(path: path, rect: rect)]
        case .layers(let items):
            return items.flatMap { contactLayers($0, side: side, part: part, inset: inset, unit: unit) }
        case .inset(let inner, let fraction):
            // An inset of the inset's own box: fractions add up within the layer.
            return contactLayers(
                inner, side: side, part: part, inset: inset + fraction * (1 - 2 * inset), unit: unit)
        case .undrawable(let kind, let reference):
            return [.missing("\(kind) \(reference)", rect: rect)]
        }
    }
}
