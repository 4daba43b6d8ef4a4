import BadgeCore
import BadgeRender
import BadgeSystem

/// An Android app's resources as a launcher resolves them for one icon: `res/`
/// folders in priority order (a variant's overlay first, then `main`: the order the
/// Android Gradle plugin merges them in, the first folder's file winning for each
/// resource and qualifier), read for the preview.
///
/// The folders may come from a pull request: names are resource names, files are
/// read with a size limit, XML goes through `XMLScanner`, links are not followed,
/// and references are followed at most `maxDepth` deep.
package struct AndroidLayers: Sendable {
    /// The `res/` folders, first wins.
    package let folders: [String]

    /// A drawable as the launcher would draw it, resolved from its reference.
    package indirect enum Drawable: Equatable, Sendable {
        /// A solid colour (straight alpha).
        case color(Color)
        /// A PNG, WebP or JPEG file.
        case bitmap(path: String)
        /// Drawables drawn over each other, first at the back (`<layer-list>`).
        case layers([Drawable])
        /// A drawable inset on every side by a fraction of the layer (`<inset>`).
        case inset(Drawable, fraction: Double)
        /// A drawable iconbadge cannot draw yet: `kind` ("VectorDrawable", "<shape>
        /// with a gradient") and where it is (`reference`).
        case undrawable(kind: String, reference: String)
    }

    /// How deep references are followed (a layer list of a reference of a …).
    static let maxDepth = 8
    /// The largest XML or values file read (bytes).
    static let maxXMLBytes = 1 << 20

    package init(folders: [String]) {
        self.folders = folders.map { folder in
            var trimmed = folder
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
            return trimmed
        }
    }

    /// The density qualifiers a bitmap may come from, by their scale.
    static let densityScales: [(name: String, scale: Double)] = AndroidResources.densities.map {
        ($0.name, $0.scale)
    }

    /// The file of resource `type`/`name` (`drawable`, `mipmap`) best for a screen of
    /// `scale` (mdpi 1): the first folder's file for each qualifier; an exact density,
    /// else a density-free one (XML in `anydpi`, `nodpi`, `v26`, none), else the
    /// nearest denser one, else the densest. Nil when no folder has it.
    package func file(type: String, name: String, scale: Double) -> String? {
        var byQualifier: [(qualifier: String, path: String)] = []
        for folder in folders {
            for (sub, isFolder, isLink) in Self.entries(of: folder) where isFolder && !isLink {
                guard sub == type || sub.hasPrefix(type + "-") else { continue }
                let qualifier = sub == type ? "" : String(sub.dropFirst(type.count + 1))
                for ext in ["png", "webp", "jpg", "xml"] {
                    let path = folder + "/" + sub + "/" + name + "." + ext
                    guard InputFile.isPlainFile(path) else { continue }
                    if !byQualifier.contains(where: { $0.qualifier == qualifier }) {
                        byQualifier.append((qualifier, path))
                    }
                }
            }
        }
        func density(_ qualifier: String) -> Double? {
            for part in qualifier.split(separator: "-") {
                if let match = Self.densityScales.first(where: { $0.name == part }) { return match.scale }
            }
            return nil
        }
        if let exact = byQualifier.first(where: { density($0.qualifier) == scale }) { return exact.path }
        if let free = byQualifier.first(where: { density($0.qualifier) == nil }) { return free.path }
        let sized = byQualifier.compactMap { entry in density(entry.qualifier).map { ($0, entry.path) } }
        if let denser = sized.filter({ $0.0 > scale }).min(by: { $0.0 < $1.0 }) { return denser.1 }
        return sized.max(by: { $0.0 < $1.0 })?.1
    }

    /// The colour `name` of the first `values*/` file that defines it (`<color
    /// name="…">`), following `@color/` references; nil when none does.
    package func color(_ name: String, depth: Int = 0) -> Color? {
        guard depth < Self.maxDepth else { return nil }
        for folder in folders {
            for (sub, isFolder, isLink) in Self.entries(of: folder).sorted(by: { $0.0 < $1.0 })
            where isFolder && !isLink && (sub == "values" || sub.hasPrefix("values-v")) {
                for (file, isSubfolder, isFileLink) in Self.entries(of: folder + "/" + sub).sorted(by: { $0.0 < $1.0 })
                where !isSubfolder && !isFileLink && file.hasSuffix(".xml") {
                    guard
                        let bytes = try? InputFile.bytes(
                            at: folder + "/" + sub + "/" + file, limit: Self.maxXMLBytes, what: "values XML"),
                        let root = try? XMLScanner.parse(bytes)
                    else { continue }
                    for element in root.children where element.name == "color" && element.attribute("name") == name {
                        guard let inner = element.inner else { continue }
                        let text = String(decoding: bytes[inner], as: UTF8.self).trimmingASCIIWhitespace()
                        return value(String(text), depth: depth)
                    }
                }
            }
        }
        return nil
    }

    /// A colour value as Android writes it (`#RGB`, `#ARGB`, `#RRGGBB`, `#AARRGGBB`,
    /// `@color/NAME`, `@android:color/white|black|transparent`); nil otherwise.
    package func value(_ text: String, depth: Int = 0) -> Color? {
        if text.hasPrefix("@color/") { return color(String(text.dropFirst(7)), depth: depth + 1) }
        switch text {
        case "@android:color/white": return .white
        case "@android:color/black": return .black
        case "@android:color/transparent": return .transparent
        default: break
        }
        return Self.hexColor(text)
    }

    /// `#RGB`, `#ARGB`, `#RRGGBB` or `#AARRGGBB` (alpha first, as Android has it).
    static func hexColor(_ text: String) -> Color? {
        guard text.hasPrefix("#") else { return nil }
        var digits: [UInt8] = []
        for character in text.utf8.dropFirst() {
            switch character {
            case 0x30...0x39: digits.append(character - 0x30)
            case 0x41...0x46: digits.append(character - 0x41 + 10)
            case 0x61...0x66: digits.append(character - 0x61 + 10)
            default: return nil
            }
        }
        func pair(_ i: Int) -> UInt8 { digits[i] * 16 + digits[i + 1] }
        switch digits.count {
        case 3: return Color(red: digits[0] * 17, green: digits[1] * 17, blue: digits[2] * 17)
        case 4: return Color(red: digits[1] * 17, green: digits[2] * 17, blue: digits[3] * 17, alpha: digits[0] * 17)
        case 6: return Color(red: pair(0), green: pair(2), blue: pair(4))
        case 8: return Color(red: pair(2), green: pair(4), blue: pair(6), alpha: pair(0))
        default: return nil
        }
    }

    /// The drawable a reference names (`@drawable/NAME`, `@mipmap/NAME`, `@color/NAME`,
    /// a colour value) for a screen of `scale`.
    package func drawable(_ reference: String, scale: Double, depth: Int = 0) -> Drawable {
        guard depth < Self.maxDepth else { return .undrawable(kind: "a reference too deep", reference: reference) }
        if reference.hasPrefix("#") || reference.hasPrefix("@color/") || reference.hasPrefix("@android:color/") {
            if let color = value(reference, depth: depth) { return .color(color) }
            return .undrawable(kind: "a colour not found", reference: reference)
        }
        for type in ["drawable", "mipmap"] where reference.hasPrefix("@\(type)/") {
            let name = String(reference.dropFirst(type.count + 2))
            guard AndroidResources.isResourceName(name), let path = file(type: type, name: name, scale: scale) else {
                return .undrawable(kind: "not found", reference: reference)
            }
            guard path.hasSuffix(".xml") else { return .bitmap(path: path) }
            guard let bytes = try? InputFile.bytes(at: path, limit: Self.maxXMLBytes, what: "drawable XML"),
                let root = try? XMLScanner.parse(bytes)
            else { return .undrawable(kind: "unreadable XML", reference: reference) }
            return element(root, reference: reference, scale: scale, depth: depth + 1)
        }
        return .undrawable(kind: "a reference iconbadge does not read", reference: reference)
    }

    /// A drawable written as an element (a layer's child, a drawable file's root).
    package func element(_ element: XMLElement, reference: String, scale: Double, depth: Int) -> Drawable {
        guard depth < Self.maxDepth else { return .undrawable(kind: "a reference too deep", reference: reference) }
        func attribute(_ name: String) -> String? {
            element.attributes.first { $0.name.hasSuffix(":" + name) }?.value
        }
        switch element.name {
        case "layer-list":
            return .layers(
                element.children.filter { $0.name == "item" }.map { item in
                    if let reference = item.attributes.first(where: { $0.name.hasSuffix(":drawable") })?.value {
                        return drawable(reference, scale: scale, depth: depth + 1)
                    }
                    if let inner = item.children.first {
                        return self.element(inner, reference: reference, scale: scale, depth: depth + 1)
                    }
                    return .undrawable(kind: "an empty <item>", reference: reference)
                })
        case "inset":
            let inner: Drawable
            if let reference = attribute("drawable") {
                inner = drawable(reference, scale: scale, depth: depth + 1)
            } else if let child = element.children.first {
                inner = self.element(child, reference: reference, scale: scale, depth: depth + 1)
            } else {
                return .undrawable(kind: "an empty <inset>", reference: reference)
            }
            // A fraction ("22%") or a dimension of the 108 dp layer ("18dp").
            var fraction = 0.0
            if let text = attribute("inset") {
                if text.hasSuffix("%"), let value = DecimalNumber.parse(text.dropLast()) {
                    fraction = value / 100
                } else if text.hasSuffix("dp"), let value = DecimalNumber.parse(text.dropLast(2)) {
                    fraction = value / AndroidResources.layerSide
                }
            }
            return .inset(inner, fraction: max(0, min(0.49, fraction)))
        case "bitmap":
            if let source = attribute("src") { return drawable(source, scale: scale, depth: depth + 1) }
            return .undrawable(kind: "a <bitmap> without src", reference: reference)
        case "color":
            if let text = attribute("color"), let color = value(text, depth: depth) { return .color(color) }
            return .undrawable(kind: "a <color> not read", reference: reference)
        case "shape":
            // A plain rectangle with a solid fill is a colour; corners and gradients are not drawn.
            if attribute("shape") == nil || attribute("shape") == "rectangle",
                let solid = element.child("solid"),
                let text = solid.attributes.first(where: { $0.name.hasSuffix(":color") })?.value,
                let color = value(text, depth: depth), element.child("gradient") == nil, element.child("corners") == nil
            {
                return .color(color)
            }
            return .undrawable(kind: "a <shape>", reference: reference)
        case "vector":
            return .undrawable(kind: "VectorDrawable", reference: reference)
        case "adaptive-icon":
            return .undrawable(kind: "an <adaptive-icon> inside a layer", reference: reference)
        default:
            return .undrawable(kind: "<\(element.name)>", reference: reference)
        }
    }

    /// The entries of `folder`: name, is a folder, is a link.
    static func entries(of folder: String) -> [(String, Bool, Bool)] { AssetCatalog.entries(of: folder) }
}
