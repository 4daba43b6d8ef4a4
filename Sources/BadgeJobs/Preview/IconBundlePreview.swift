import BadgeCore
import BadgeRender
import BadgeSystem

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

    /// The largest side a layer may be drawn at on the 1024 pt canvas (pt): its
    /// image's side (a pixel is a point) times its `position.scale`. 8192, the side
    /// limit of an image, 8 canvases: what is drawn past the canvas is not seen.
    static let maxLayerSide = 8192.0
    /// The most canvas area the layers may cover together (pt², each image at each
    /// scale counted once, as the sheet draws it once a tile): 64 canvases, one
    /// layer at `maxLayerSide`. The tiles' resampled layers then hold at most
    /// 64 × 256² px × 4 bytes × 1.84 (the five tile sides' areas over the largest's)
    /// ≈ 31 MiB.
    static let maxLayerArea = 64.0 * 1024 * 1024

    /// The sheet of `bundle`, titled `title`. Each layer image is read once, however
    /// many layers show it, within `limits`.
    ///
    /// - Throws: a layer image's read errors (65, 66, 65 over `limits`); 65 for a `position.scale`
    ///   that is not a number over 0, a layer drawn over `maxLayerSide`, or layers
    ///   over `maxLayerArea` together.
    package static func sheet(title: String, bundle: IconComposerBundle, limits: ImageLimits) throws(BadgeError)
        -> ContactSheet
    {
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
        let documentPath = bundle.folder + "/icon.json"
        // Each image's size, read once; the canvas area drawn, each image and scale once.
        var sizes: [String: (width: Int, height: Int)] = [:]
        var drawn: Set<String> = []
        var area = 0.0
        if case .array(let groups) = bundle.document["groups"] ?? .null {
            for group in groups.reversed() where group["hidden"] != .bool(true) {
                guard case .array(let items) = group["layers"] ?? .null else { continue }
                for layer in items.reversed() where layer["hidden"] != .bool(true) {
                    guard case .string(let name) = layer["image-name"] ?? .null,
                        !name.contains("/"), name != ".", name != ".."
                    else { continue }
                    let path = bundle.folder + "/Assets/" + name
                    let pixels: (width: Int, height: Int)
                    if let known = sizes[name] {
                        pixels = known
                    } else {
                        try AppIconSetPreview.refuseLink(path, of: "a bundle")
                        // A PNG's size from its header (its pixels are decoded once,
                        // at the size drawn, by the sheet); other formats decoded.
                        let bytes = try InputFile.bytes(at: path, limit: limits.maxRasterBytes, what: "image file")
                        if let header = try ImageFile.pngHeader(of: bytes, path: path, limits: limits) {
                            pixels = (header.width, header.height)
                        } else {
                            let image = try ImageFile.pixels(of: bytes, path: path, limits: limits)
                            pixels = (image.width, image.height)
                        }
                        sizes[name] = pixels
                    }
                    var scale = 1.0
                    var dx = 0.0
                    var dy = 0.0
                    if case .object = layer["position"] ?? .null {
                        if let given = layer["position"]?["scale"] {
                            guard case .number(let value) = given, value > 0, value.isFinite else {
                                throw .badInput(
                                    path: documentPath,
                                    reason:
                                        "the layer showing \(Quoted(name)) has the position.scale \(given.serialized()); it must be a number over 0"
                                )
                            }
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
                    guard max(width, height) <= maxLayerSide else {
                        throw .badInput(
                            path: documentPath,
                            reason:
                                "the layer showing \(Quoted(name)) (\(pixels.width) × \(pixels.height) px) at position.scale \(JSONValue.number(scale).serialized()) is drawn \(max(width, height).isFinite ? JSONValue.number(max(width, height).rounded(.up)).serialized() : "over 1e308") pt wide, over the \(Int(maxLayerSide)) pt a layer may be on the 1024 pt canvas"
                        )
                    }
                    if drawn.insert("\(scale) \(name)").inserted {
                        area += width * height
                        guard area <= maxLayerArea else {
                            throw .badInput(
                                path: documentPath,
                                reason:
                                    "its layers cover over \(Int(maxLayerArea / 1024 / 1024)) times the 1024 pt canvas together, each image at each scale counted once (the most a preview draws)"
                            )
                        }
                    }
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
