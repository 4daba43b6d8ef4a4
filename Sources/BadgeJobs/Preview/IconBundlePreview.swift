import BadgeCore
import BadgeRender

/// The contact sheet of an Icon Composer bundle: its groups composed flat, back to
/// front, over its fill, under the iOS mask (and the watch's circle when it supports
/// watchOS), at the sizes the devices draw it. Glass, specular highlights, shadows,
/// translucency and blur are Xcode's to draw and are not drawn here; the sheet says so.
package enum IconBundlePreview {
    /// The sizes drawn (pixels): the 1024 pt canvas at 256, the home screen @3x and
    /// @2x, Spotlight @2x and a notification @2x.
    static let sides: [(label: String, side: Int)] = [
        ("1024 pt canvas, shown at 256 px", 256), ("home screen 60 pt @3x", 180), ("home screen 60 pt @2x", 120),
        ("Spotlight 40 pt @2x", 80), ("notification 20 pt @2x", 40),
    ]

    /// The sheet of `bundle`, titled `title`.
    ///
    /// - Throws: a layer image's read errors (65, 66).
    package static func sheet(title: String, bundle: IconComposerBundle) throws(BadgeError) -> ContactSheet {
        var sheet = ContactSheet(title: title)
        sheet.notes.append(
            "Icon Composer bundle: the groups composed flat in their order over the fill; glass, specular highlights, shadows, translucency and blur are not drawn (Xcode draws them)."
        )
        let canvas = Double(IconComposerBundle.canvasSide)
        // The fill: a colour (a gradient is drawn flat in its colour).
        var fill: Color?
        if case .object(let members) = bundle.document["fill"] ?? .null {
            for (kind, value) in members {
                var text: String?
                if case .string(let single) = value { text = single }
                if case .array(let list) = value, case .string(let first)? = list.first { text = first }
                if let text, let color = colour(text) {
                    fill = color
                    if kind != "solid" { sheet.notes.append("The fill's \(kind) is drawn flat in its colour.") }
                    break
                }
            }
        }
        // Layers back to front: the groups and their layers are listed front to back.
        var layers: [(path: String, width: Double, height: Double, x: Double, y: Double)] = []
        if case .array(let groups) = bundle.document["groups"] ?? .null {
            for group in groups.reversed() where group["hidden"] != .bool(true) {
                guard case .array(let items) = group["layers"] ?? .null else { continue }
                for layer in items.reversed() where layer["hidden"] != .bool(true) {
                    guard case .string(let name) = layer["image-name"] ?? .null,
                        !name.contains("/"), name != ".", name != ".."
                    else { continue }
                    let path = bundle.folder + "/Assets/" + name
                    try AppIconSetPreview.refuseLink(path, of: "a bundle")
                    let pixels = try ImageFile.pixels(at: path)
                    var scale = 1.0
                    var dx = 0.0
                    var dy = 0.0
                    if case .object = layer["position"] ?? .null {
                        if case .number(let value) = layer["position"]?["scale"] ?? .null, value > 0, value < 100 {
                            scale = value
                        }
                        if case .array(let offset) = layer["position"]?["translation-in-points"] ?? .null,
                            offset.count == 2, case .number(let x) = offset[0], case .number(let y) = offset[1],
                            abs(x) < 1e5, abs(y) < 1e5
                        {
                            dx = x
                            dy = y
                        }
                    }
                    let width = Double(pixels.width) * scale
                    let height = Double(pixels.height) * scale
                    layers.append((path, width, height, (canvas - width) / 2 + dx, (canvas - height) / 2 + dy))
                }
            }
        }
        func tile(_ caption: String, side: Int, mask: ContactSheet.Mask, backdrop: Color) -> ContactSheet.Tile {
            let k = Double(side) / canvas
            var drawn: [ContactSheet.Layer] = []
            if let fill { drawn.append(.fill(fill, rect: Rect(x: 0, y: 0, width: Double(side), height: Double(side)))) }
            for layer in layers {
                drawn.append(
                    .image(
                        .file(layer.path),
                        rect: Rect(x: layer.x * k, y: layer.y * k, width: layer.width * k, height: layer.height * k)))
            }
            return ContactSheet.Tile(caption: caption, side: side, backdrop: backdrop, layers: drawn, mask: mask)
        }
        var section = ContactSheet.Section(title: "Icon Composer icon (iOS, iPadOS, macOS 26)")
        var round = ContactSheet.Section(title: "watchOS")
        for (label, side) in sides {
            section.groups.append(
                ContactSheet.Group(
                    title: side == 256 ? label : "\(label) · \(side) px",
                    tiles: [tile("light", side: side, mask: .appleSquare, backdrop: AppIconSetPreview.iosLight)]))
        }
        if bundle.platform == .circle {
            for (label, side) in AppIconSetPreview.derived[.watchos] ?? [] {
                round.groups.append(
                    ContactSheet.Group(
                        title: "\(label) · \(side) px",
                        tiles: [tile("watch face", side: side, mask: .circle, backdrop: .black)]))
            }
        }
        sheet.sections.append(section)
        if !round.groups.isEmpty { sheet.sections.append(round) }
        return sheet
    }

    /// A colour as icon.json writes it: `srgb:R,G,B,A` (or `extended-srgb:`,
    /// `display-p3:`, drawn as sRGB), components 0...1; nil otherwise.
    static func colour(_ text: String) -> Color? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let parts = text[text.index(after: colon)...].split(separator: ",").compactMap { DecimalNumber.parse($0) }
        guard parts.count == 4 || parts.count == 3 else { return nil }
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, (value * 255).rounded()))) }
        return Color(
            red: byte(parts[0]), green: byte(parts[1]), blue: byte(parts[2]),
            alpha: parts.count == 4 ? byte(parts[3]) : 255)
    }
}
