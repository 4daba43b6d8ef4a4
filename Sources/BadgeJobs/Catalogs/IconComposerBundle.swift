import BadgeCore
import BadgeRender
import BadgeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An Xcode 26 Icon Composer bundle (`NAME.icon`): `icon.json` and an `Assets`
/// folder of PNG and SVG layer images.
///
/// The format, as read from bundles that Xcode wrote in public apps
/// (element-hq/element-x-ios, home-assistant/iOS, Dimillian/IceCubesApp and
/// others): `icon.json` holds `groups`, listed front to back (the first group is
/// drawn on top); each group holds `layers`, also front to back, each naming a file
/// of `Assets` by `image-name`. The canvas is 1024 × 1024 pt, and a layer image is
/// drawn at its own size (a PNG pixel is a point), centred, before its `position`.
///
/// The badge is added as a group of its own in front of the others: one layer, a
/// 1024 × 1024 px PNG that is transparent except for the badge (placed inside the
/// platform's shape), with no glass, shadow, translucency or specular highlight, so
/// it is drawn as rendered. Badging a bundle again replaces that group and image
/// instead of adding a second badge.
package struct IconComposerBundle: Sendable {
    /// The bundle's folder, as the caller wrote it (no trailing slash).
    package var folder: String
    /// The bundle's folder name (`AppIcon.icon`).
    package var name: String
    /// `icon.json`, parsed.
    package var document: JSONValue
    /// The regular files of `Assets`, by name (the badge's own image excluded).
    package var assets: [String]

    /// The badge layer's image in `Assets`.
    package static let badgeImage = "iconbadge-badge.png"
    /// The badge group's and layer's name.
    package static let badgeName = "iconbadge badge"
    /// The canvas side (pt, and px of the badge image).
    package static let canvasSide = 1024
    /// The largest `icon.json` read (bytes), and the most files in `Assets`.
    package static let maxDocumentBytes = 1 << 20
    package static let maxAssets = 256
    /// The most layers `icon.json` may name in all its groups together, iconbadge's
    /// own badge layer not counted: 256, one for each asset (the bundles Xcode
    /// writes have a handful). Each layer is composed on each tile of a preview.
    package static let maxLayers = 256

    /// Whether `path` names a bundle (`.icon`, or its `icon.json`).
    package static func isBundle(_ path: String) -> Bool {
        let trimmed = AssetCatalog.trimmed(path)
        return trimmed.hasSuffix(".icon") || trimmed.hasSuffix(".icon/icon.json")
    }

    /// Reads the bundle at `path`.
    ///
    /// - Throws: 66 when `icon.json` is missing; 65 when it is a link, not JSON, has
    ///   no `groups` array, names over `maxLayers` layers, or `Assets` holds a link or
    ///   more than `maxAssets` files.
    package init(path: String) throws(BadgeError) {
        var trimmed = AssetCatalog.trimmed(path)
        if trimmed.hasSuffix("/icon.json") { trimmed.removeLast("/icon.json".count) }
        folder = trimmed
        name = LexicalPath(trimmed).name ?? trimmed
        let documentPath = trimmed + "/icon.json"
        let bytes = try AssetCatalog.ownFile(
            documentPath, limit: IconComposerBundle.maxDocumentBytes, what: "Icon Composer icon.json", of: "a bundle")
        var info = stat()
        do throws(JSONSyntaxError) {
            document = try JSONParser(maxDepth: 32).parse(bytes)
        } catch {
            throw .badInput(path: documentPath, reason: "not valid JSON: \(error.description)")
        }
        guard case .array = document["groups"] ?? .null else {
            throw .badInput(
                path: documentPath,
                reason:
                    "has no \"groups\" array; iconbadge reads Xcode 26 Icon Composer bundles (icon.json with groups of layers)"
            )
        }
        var layerCount = 0
        if case .array(let groups) = document["groups"] ?? .null {
            for group in groups {
                guard case .array(let layers) = group["layers"] ?? .null else { continue }
                layerCount += layers.count { $0["image-name"] != .string(IconComposerBundle.badgeImage) }
            }
        }
        guard layerCount <= IconComposerBundle.maxLayers else {
            throw .badInput(
                path: documentPath,
                reason:
                    "names \(layerCount) layers; iconbadge reads a bundle of at most \(IconComposerBundle.maxLayers) (one for each asset)"
            )
        }
        assets = []
        if lstat(trimmed + "/Assets", &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw .badInput(
                path: trimmed + "/Assets",
                reason: "is a symbolic link or not a folder; a bundle's assets must be its own files")
        }
        for (file, isFolder, isLink) in AssetCatalog.entries(of: trimmed + "/Assets") {
            guard !isLink, !isFolder else {
                throw .badInput(
                    path: trimmed + "/Assets/" + file,
                    reason: "is a \(isLink ? "symbolic link" : "folder"); a bundle's assets must be its own files")
            }
            if file != IconComposerBundle.badgeImage { assets.append(file) }
        }
        guard assets.count <= IconComposerBundle.maxAssets else {
            throw .badInput(
                path: trimmed + "/Assets", reason: "holds more than \(IconComposerBundle.maxAssets) files")
        }
    }

    /// The shape the icon is shown in: a circle when the bundle supports watchOS
    /// (`supported-platforms` has `circles`; a circle also fits inside the squares),
    /// else iOS's rounded square, which macOS 26 and iPadOS draw these icons in too.
    package var platform: IconPlatform {
        if case .object(let platforms) = document["supported-platforms"] ?? .null,
            platforms.contains(where: { $0.0 == "circles" })
        {
            return .circle
        }
        return .ios
    }

    /// Whether a group shows the badge image (badged by iconbadge before).
    package var hasBadgeLayer: Bool {
        guard case .array(let groups) = document["groups"] ?? .null else { return false }
        return groups.contains { group in
            guard case .array(let layers) = group["layers"] ?? .null else { return false }
            return layers.contains { $0["image-name"] == .string(IconComposerBundle.badgeImage) }
        }
    }

    /// `icon.json` with the badge group in front: any group whose layers show the
    /// badge image is removed first.
    package var badgedDocument: JSONValue {
        guard case .object(var members) = document,
            let index = members.firstIndex(where: { $0.0 == "groups" }),
            case .array(var groups) = members[index].1
        else { return document }
        groups.removeAll { group in
            guard case .array(let layers) = group["layers"] ?? .null else { return false }
            return layers.contains { $0["image-name"] == .string(IconComposerBundle.badgeImage) }
        }
        let layer = JSONValue.object([
            ("glass", .bool(false)),
            ("image-name", .string(IconComposerBundle.badgeImage)),
            ("name", .string(IconComposerBundle.badgeName)),
        ])
        let group = JSONValue.object([
            ("layers", .array([layer])),
            ("name", .string(IconComposerBundle.badgeName)),
            ("shadow", .object([("kind", .string("none")), ("opacity", .number(0))])),
            ("specular", .bool(false)),
            ("translucency", .object([("enabled", .bool(false)), ("value", .number(0))])),
        ])
        groups.insert(group, at: 0)
        members[index].1 = .array(groups)
        return .object(members)
    }
}
