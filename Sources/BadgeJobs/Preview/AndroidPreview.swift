import BadgeCore
import BadgeRender
import BadgeSystem

/// The contact sheet of an Android app's launcher icons as launchers show them:
/// adaptive icons composed from their layers (background, foreground, and the badge
/// layer iconbadge added to it) under the circle, squircle and rounded-square masks
/// of AOSP, themed icons (Android 13: the monochrome layer in two Material palettes,
/// light and dark), and legacy icons as they are.
///
/// The layers are drawn as `android` draws them: each converted by
/// `AndroidDrawableSVG` (vectors, shapes, gradients, bitmaps, insets, layer lists)
/// with the resources of the `res/` folders in Gradle's order, and drawn natively
/// (`AndroidDrawingPainter`). A layer that cannot be converted is hatched and named.
///
/// The folders are read from the disk (`preview`), or, for `android --preview`, the
/// overlay is the plan of the run (`AndroidOverlay`: its XML in memory, its renders
/// by their paths once committed) over RES: what the plan wrote is not read back.
package enum AndroidPreview {
    /// A `res/` folder as the sheet reads it: on disk, or what an overlay's plan
    /// writes there.
    struct Folder {
        /// Its path (no trailing slash).
        let path: String
        /// The plan that writes it; nil: the folder on disk.
        let planned: AndroidOverlay?
    }

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
    /// (source colour #6750A4): primary 90 #EADDFF, neutral-variant 30 #49454F, neutral
    /// 20 #313033 (m3.material.io's baseline scheme). The second is a green one with the
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

    /// Whether `folder` is an overlay `android` wrote (it holds iconbadge's record),
    /// which holds only what iconbadge changed and is previewed over main's `res/`.
    package static func isOverlay(_ folder: String) -> Bool {
        InputFile.exists(folder + "/" + OverlayRecord.components.joined(separator: "/"))
    }

    /// The sheet of the icons `names` of `folders` (the overlay first, then `main`'s
    /// `res/`), titled `title`, reading within `limits`.
    ///
    /// - Throws: 65 when a folder lists over `AndroidResourceTable.maxEntries` names
    ///   or its XML passes `AndroidResourceTable.maxXMLBytes`.
    package static func sheet(
        title: String, folders: [String], names: [String], limits: ImageLimits
    ) throws(BadgeError) -> ContactSheet {
        let folders = folders.map { folder in
            var trimmed = folder
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            return Folder(path: trimmed, planned: nil)
        }
        return try sheet(title: title, folders: folders, names: names, limits: limits)
    }

    /// The sheet of the launcher icons of `resources` under the overlay `overlay`
    /// plans for them, as the launcher will show them once it is committed: drawn
    /// from the plan (its XML as planned, its renders read from their committed
    /// paths) over RES. The overlay folder is listed only when it existed before
    /// the run, for the files of its own the commit keeps, under the plan's.
    ///
    /// - Throws: as `sheet(title:folders:names:limits:)`.
    package static func sheet(
        title: String, overlay: AndroidOverlay, over resources: AndroidResources, limits: ImageLimits
    ) throws(BadgeError) -> ContactSheet {
        var folders = [Folder(path: overlay.folder, planned: overlay)]
        if overlay.folderExisted { folders.append(Folder(path: overlay.folder, planned: nil)) }
        folders.append(Folder(path: resources.folder, planned: nil))
        return try sheet(title: title, folders: folders, names: resources.names, limits: limits)
    }

    /// The sheet of the icons `names` of `folders`, the first first.
    static func sheet(title: String, folders: [Folder], names: [String], limits: ImageLimits) throws(BadgeError)
        -> ContactSheet
    {
        var tables: [AndroidResourceTable] = []
        for folder in folders {
            if let overlay = folder.planned {
                let held = Dictionary(overlay.files.map { ($0.components, $0.bytes) }, uniquingKeysWith: { $1 })
                tables.append(
                    try AndroidResourceTable(
                        planned: folder.path, files: overlay.written.map { ($0, held[$0]) }, limits: limits))
            } else {
                tables.append(try AndroidResourceTable(folder: folder.path, limits: limits))
            }
        }
        let lookup = self.lookup(tables)
        var sheet = ContactSheet(title: title)
        var adaptive = ContactSheet.Section(title: "Android adaptive icons (Android 8 and up)")
        var legacy = ContactSheet.Section(title: "Android legacy icons (before Android 8, and launchers without masks)")
        // Each problem of a layer not drawn, with the layers it keeps from the sheet.
        var problems: [(problem: String, layers: [String])] = []
        for name in names {
            if let icon = adaptiveIcon(name, folders: folders) {
                // A planned copy's layers the plan converted already (with RES's
                // resources), by their key; not when the overlay has files of its own,
                // which may change them (a variant's colour).
                let plan = folders.first {
                    $0.planned.map { !$0.folderExisted } ?? false && icon.path.hasPrefix($0.path + "/")
                }
                let kept = plan?.planned?.keptLayers ?? [:]
                let copy = plan.map { icon.path.dropFirst($0.path.count + 1).split(separator: "/").map(String.init) }
                for density in adaptiveDensities {
                    let side = Int(48 * density.scale)
                    let parts = ["background", "foreground", "monochrome"].map { part in
                        layer(
                            part, of: icon, name: name, side: side, density: density.scale, lookup: lookup,
                            limits: limits,
                            converted: copy.flatMap { kept[.init(icon: $0, layer: part, density: density.name)] })
                    }
                    var group = ContactSheet.Group(title: "\(name) · \(density.name) · \(side) px")
                    for mask in ContactSheet.AndroidMask.allCases {
                        group.tiles.append(
                            ContactSheet.Tile(
                                caption: mask.rawValue, side: side, backdrop: lightWallpaper,
                                layers: [parts[0], parts[1]].compactMap { $0 }, mask: .android(mask)))
                    }
                    if let monochrome = parts[2] {
                        for palette in palettes {
                            let full = Rect(x: 0, y: 0, width: Double(side), height: Double(side))
                            let drawn: ContactSheet.Layer
                            switch monochrome {
                            case .image(let source, let rect):
                                drawn = .alpha(source, rect: rect, color: palette.foreground)
                            default: drawn = monochrome
                            }
                            group.tiles.append(
                                ContactSheet.Tile(
                                    caption: palette.name, side: side,
                                    backdrop: palette.name.hasSuffix("dark") ? darkWallpaper : lightWallpaper,
                                    layers: [.fill(palette.background, rect: full), drawn], mask: .android(.circle)))
                        }
                    }
                    for (part, result) in zip(["background", "foreground", "monochrome"], parts) {
                        guard case .missing(let problem, _)? = result else { continue }
                        let layer = "the \(part) of \(name)"
                        if let index = problems.firstIndex(where: { $0.problem == problem }) {
                            if !problems[index].layers.contains(layer) { problems[index].layers.append(layer) }
                        } else {
                            problems.append((problem, [layer]))
                        }
                    }
                    adaptive.groups.append(group)
                }
                if icon.root.child("monochrome") == nil {
                    sheet.notes.append(
                        "\(name) has no <monochrome> layer: Android 13's themed icons show it in full colour.")
                }
            }
            var group = ContactSheet.Group(title: "\(name) · legacy")
            for density in AndroidResources.densities {
                for folder in folders {
                    let candidates = ["png", "webp"].map { ["mipmap-" + density.name, "\(name).\($0)"] }
                    let path: String
                    let width: Int
                    if let overlay = folder.planned {
                        // The plan's render, which keeps its source's size.
                        guard let found = candidates.first(where: { overlay.legacySizes[$0] != nil }) else { continue }
                        path = folder.path + "/" + found.joined(separator: "/")
                        width = overlay.legacySizes[found]!.width
                    } else {
                        let paths = candidates.map { folder.path + "/" + $0.joined(separator: "/") }
                        guard let found = paths.first(where: { InputFile.isPlainFile($0) }) else { continue }
                        // An unreadable image is left off, as the launcher would show none;
                        // one over the limits is refused, as every other read is.
                        let read: Result<Int, BadgeError>
                        do throws(BadgeError) {
                            read = .success(try ImageFile.pixels(at: found, limits: limits).width)
                        } catch {
                            if case .overLimit = error { throw error }
                            read = .failure(error)
                        }
                        guard case .success(let readWidth) = read else { break }
                        path = found
                        width = readWidth
                    }
                    let side = min(width, ContactSheet.maxShownSide)
                    group.tiles.append(
                        ContactSheet.Tile(
                            caption: "\(density.name) · \(width) px", side: side, backdrop: lightWallpaper,
                            layers: [
                                .image(.file(path), rect: Rect(x: 0, y: 0, width: Double(side), height: Double(side)))
                            ]))
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
        for (problem, layers) in problems {
            sheet.notes.append("Hatched, not drawn: \(layers.joined(separator: ", ")): \(problem).")
        }
        if !legacy.groups.isEmpty { sheet.sections.append(legacy) }
        return sheet
    }

    /// An adaptive icon's XML as a launcher on the newest Android picks it from
    /// `folders` (the overlay first): for each folder that can hold one
    /// (`AndroidResources.isAdaptiveFolder`), the first `res/` folder's file; of
    /// those, the highest API level's.
    package static func adaptiveIcon(_ name: String, folders: [String]) -> (
        path: String, bytes: [UInt8], root: XMLElement
    )? {
        adaptiveIcon(name, folders: folders.map { Folder(path: $0, planned: nil) })
    }

    /// `adaptiveIcon(_:folders:)` of folders on disk or planned (the plan's XML, in
    /// memory).
    static func adaptiveIcon(_ name: String, folders: [Folder]) -> (path: String, bytes: [UInt8], root: XMLElement)? {
        var byQualifier: [String: (path: String, held: [UInt8]?)] = [:]
        for folder in folders {
            if let overlay = folder.planned {
                for (components, bytes) in overlay.files
                where components.count == 2 && components[1] == name + ".xml"
                    && AndroidResources.isAdaptiveFolder(components[0]) && byQualifier[components[0]] == nil
                {
                    byQualifier[components[0]] = (folder.path + "/" + components.joined(separator: "/"), bytes)
                }
                continue
            }
            for (sub, isFolder, isLink) in AssetCatalog.entries(of: folder.path)
            where isFolder && !isLink && AndroidResources.isAdaptiveFolder(sub) && byQualifier[sub] == nil {
                let path = folder.path + "/" + sub + "/" + name + ".xml"
                if InputFile.isPlainFile(path) { byQualifier[sub] = (path, nil) }
            }
        }
        func level(_ sub: String) -> Int {
            sub.split(separator: "-").last.flatMap { $0.first == "v" ? Int($0.dropFirst()) : nil } ?? 0
        }
        // The highest API level first; of the same level mipmap (what launcher icons
        // are named as) before drawable, then by name.
        let ordered = byQualifier.keys.sorted {
            if level($0) != level($1) { return level($0) > level($1) }
            if $0.hasPrefix("mipmap") != $1.hasPrefix("mipmap") { return $0.hasPrefix("mipmap") }
            return $0 < $1
        }
        for sub in ordered {
            guard let (path, held) = byQualifier[sub],
                let bytes = try? held
                    ?? AssetCatalog.ownFile(
                        path, limit: AndroidResources.maxXMLBytes, what: "adaptive icon XML", of: "res/"),
                let root = try? XMLScanner.parse(bytes), root.name == "adaptive-icon"
            else { continue }
            return (path, bytes, root)
        }
        return nil
    }

    /// The layer `part` of `icon` as the sheet draws it on a tile of `side` px: its
    /// 108 dp reaching 18 dp past the 72 dp shown on each side, converted at
    /// `density` (or as the plan `converted` it: a layer an overlay's copy keeps from
    /// RES converts to the same drawing there); hatched and named when it cannot be
    /// converted; nil when the icon has no such layer.
    static func layer(
        _ part: String, of icon: (path: String, bytes: [UInt8], root: XMLElement), name: String, side: Int,
        density: Double, lookup: AndroidResourceLookup, limits: ImageLimits, converted: AndroidDrawing? = nil
    ) -> ContactSheet.Layer? {
        guard let element = icon.root.child(part) else { return nil }
        let unit = Double(side) / 72
        let rect = Rect(x: -18 * unit, y: -18 * unit, width: 108 * unit, height: 108 * unit)
        do throws(AndroidDrawableProblem) {
            let drawing: AndroidDrawing
            if let converted {
                drawing = converted
            } else {
                drawing = try AndroidDrawableSVG.layerDrawing(
                    element, of: icon.bytes, path: icon.path, width: AndroidResources.layerSide,
                    height: AndroidResources.layerSide, density: density, lookup: lookup, limits: limits)
            }
            return .image(.drawing(drawing, name: "the \(part) of \(name) (\(Shown(icon.path)))"), rect: rect)
        } catch {
            return .missing("\(Shown(error.path)): \(error.description)", rect: rect)
        }
    }

    /// The lookup of `tables` in Gradle's order: a value or file of the first table
    /// that has it.
    package static func lookup(_ tables: [AndroidResourceTable]) -> AndroidResourceLookup {
        AndroidResourceLookup(
            value: { reference in
                for table in tables { if let value = table.value(reference) { return value } }
                return nil
            },
            file: { (reference, density) throws(AndroidDrawableProblem) in
                for table in tables { if let file = try table.file(reference, density: density) { return file } }
                return nil
            }, unreadable: tables.flatMap(\.unreadable),
            document: { file throws(XMLSyntaxError) in
                // Any table keeps it: the first, for the run.
                guard let first = tables.first else { return try XMLScanner.parse(file.bytes) }
                return try first.document(file)
            })
    }
}
