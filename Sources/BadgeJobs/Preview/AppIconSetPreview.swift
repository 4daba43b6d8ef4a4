import BadgeCore
import BadgeRender

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The contact sheet of Xcode app icon sets as the devices show them: iOS images
/// under Apple's continuous-corner mask on iOS 18's light, dark and tinted home
/// screens; macOS images as they are (the body is drawn in the image) on a light and
/// a dark desktop; watchOS images under the circle on a black face. A single-size
/// image is also drawn at the sizes the device derives from it.
package enum AppIconSetPreview {
    /// Home screens and desktops (sRGB): iOS's light and dark system grouped
    /// backgrounds (#F2F2F7 is too close to white icons: #E5E5EA, systemGray5), iOS's
    /// dark #1C1C1E, macOS's window backgrounds #ECECEC and #1E1E1E, a watch face's black.
    static let iosLight = Color(rgb: 0xE5E5EA)
    static let iosDark = Color(rgb: 0x1C1C1E)
    static let macLight = Color(rgb: 0xECECEC)
    static let macDark = Color(rgb: 0x1E1E1E)
    static let watchFace = Color.black
    /// The tint of iOS 18's tinted appearance drawn here (the user chooses it; this is
    /// an amber between the choices' extremes).
    package static let tint = Color(rgb: 0xFFB340)

    /// The sizes a device draws a single-size 1024 px image at (pixels): iOS's home
    /// screen @3x and @2x, Spotlight @2x, Settings @2x and notifications @2x; macOS's
    /// 256, 128, 64, 32 and 16 (Finder and Dock, menus and lists); watchOS's home
    /// screen on the 49, 45 and 41 mm watches (108, 100, 88) and notifications (48).
    static let derived: [IconPlatform: [(label: String, side: Int)]] = [
        .ios: [
            ("home screen 60 pt @3x", 180), ("home screen 60 pt @2x", 120), ("Spotlight 40 pt @2x", 80),
            ("Settings 29 pt @2x", 58), ("notification 20 pt @2x", 40),
        ],
        .macos: [("256 pt", 256), ("128 pt", 128), ("32 pt @2x", 64), ("32 pt", 32), ("16 pt", 16)],
        .watchos: [("49 mm", 108), ("45 mm", 100), ("41 mm", 88), ("notification", 48)],
    ]

    /// The sizes the device draws `image` at when it is a single-size image (at least
    /// 1024 px wide, `universal`, or `ios-marketing` alone in its set of `slots`
    /// slots), smallest last; nil when it is one size of several.
    package static func derivedSizes(_ image: AppIconSet.Image, width: Int, slots: Int) -> [(
        label: String, side: Int
    )]? {
        guard width >= 1024, image.idiom == "universal" || image.idiom == "ios-marketing" && slots == 1,
            let platform = image.platform
        else { return nil }
        return derived[platform]
    }

    /// The sheet of `sets`, titled `title`, reading each image within `limits`.
    ///
    /// - Throws: an image's read errors (65, 66); 65 for one over `limits`.
    package static func sheet(title: String, sets: [AppIconSet], limits: ImageLimits) throws(BadgeError)
        -> ContactSheet
    {
        var sheet = ContactSheet(title: title)
        var sections: [(platform: IconPlatform?, section: ContactSheet.Section)] = []
        func append(_ group: ContactSheet.Group, to platform: IconPlatform?) {
            if let index = sections.firstIndex(where: { $0.platform == platform }) {
                sections[index].section.groups.append(group)
            } else {
                sections.append((platform, ContactSheet.Section(title: sectionTitle(platform), groups: [group])))
            }
        }
        var derivedShown = false
        for set in sets {
            // One group a slot: its default, dark and tinted images together.
            var slots: [[AppIconSet.Image]] = []
            for image in set.images {
                if let index = slots.firstIndex(where: {
                    $0[0].idiom == image.idiom && $0[0].size == image.size && $0[0].scale == image.scale
                        && $0[0].platform == image.platform
                }) {
                    slots[index].append(image)
                } else {
                    slots.append([image])
                }
            }
            for slot in slots {
                let light = slot.first { $0.appearance == nil } ?? slot[0]
                let dark = slot.first { $0.appearance == "dark" }
                let tinted = slot.first { $0.appearance == "tinted" }
                let path = set.folder + "/" + light.filename
                for image in [light, dark, tinted].compactMap({ $0 }) {
                    try refuseLink(set.folder + "/" + image.filename, of: "a set")
                }
                let pixels = try ImageFile.pixels(at: path, limits: limits)
                let side = min(pixels.width, ContactSheet.maxShownSide)
                let shown = side == pixels.width ? "\(pixels.width) px" : "\(pixels.width) px, shown at \(side) px"
                let prefix = sets.count > 1 ? set.name + " · " : ""
                let title = "\(prefix)\(slotName(light)) · \(light.filename) · \(shown)"
                let folder = set.folder
                append(
                    ContactSheet.Group(
                        title: title,
                        tiles: tiles(
                            light.platform, side: side, light: path, dark: dark.map { folder + "/" + $0.filename },
                            tinted: tinted.map { folder + "/" + $0.filename })),
                    to: light.platform)
                // A single-size image: the device draws every size from it.
                if let platform = light.platform,
                    let sizes = derivedSizes(light, width: pixels.width, slots: slots.count)
                {
                    derivedShown = true
                    for (label, derivedSide) in sizes {
                        append(
                            ContactSheet.Group(
                                title: "\(prefix)as the device draws it: \(label) · \(derivedSide) px",
                                tiles: tiles(
                                    platform, side: derivedSide, light: path,
                                    dark: dark.map { folder + "/" + $0.filename },
                                    tinted: tinted.map { folder + "/" + $0.filename })),
                            to: platform)
                    }
                }
            }
        }
        sheet.sections = sections.map(\.section)
        let platforms = sections.compactMap(\.platform)
        if platforms.contains(.ios) {
            sheet.notes.append(
                "iOS: under Apple's continuous-corner mask (a superellipse of degree 5), on iOS 18's light, dark and tinted home screens; tinted: the image's luma × the tint \(tint.hexDescription), which the user chooses."
            )
        }
        if platforms.contains(.macos) {
            sheet.notes.append(
                "macOS: the images as they are (the body is drawn in them), on a light and a dark desktop.")
        }
        if platforms.contains(.watchos) { sheet.notes.append("watchOS: under the circle, on a black watch face.") }
        sheet.notes.append(
            "Each image at 1:1 and, up to 128 px, at 2× (each pixel a 2 × 2 block)"
                + (derivedShown
                    ? "; sizes derived from a 1024 px image are resampled here with a box filter, as near as can be to Xcode's."
                    : "."))
        return sheet
    }

    /// Refuses an image that is a symbolic link, as `appiconset` does: it could point
    /// out of the set or bundle (`owner`).
    ///
    /// - Throws: 65 naming the image.
    static func refuseLink(_ path: String, of owner: String) throws(BadgeError) {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw .badInput(path: path, reason: "is a symbolic link; the images of \(owner) must be its own files")
        }
    }

    /// The tiles of one slot on `platform`'s screens.
    static func tiles(_ platform: IconPlatform?, side: Int, light: String, dark: String?, tinted: String?)
        -> [ContactSheet.Tile]
    {
        let full = Rect(x: 0, y: 0, width: Double(side), height: Double(side))
        switch platform {
        case .ios?:
            return [
                ContactSheet.Tile(
                    caption: "light", side: side, backdrop: iosLight, layers: [.image(.file(light), rect: full)],
                    mask: .appleSquare),
                ContactSheet.Tile(
                    caption: dark == nil ? "dark (no dark image)" : "dark", side: side, backdrop: iosDark,
                    layers: [.image(.file(dark ?? light), rect: full)], mask: .appleSquare),
                ContactSheet.Tile(
                    caption: tinted == nil ? "tinted (from light)" : "tinted", side: side, backdrop: iosDark,
                    layers: [.image(.file(tinted ?? light), rect: full)], mask: .appleSquare, filter: .tinted(tint)),
            ]
        case .macos?:
            return [
                ContactSheet.Tile(
                    caption: "on light", side: side, backdrop: macLight, layers: [.image(.file(light), rect: full)]),
                ContactSheet.Tile(
                    caption: "on dark", side: side, backdrop: macDark,
                    layers: [.image(.file(dark ?? light), rect: full)]),
            ]
        case .watchos?:
            return [
                ContactSheet.Tile(
                    caption: "watch face", side: side, backdrop: watchFace, layers: [.image(.file(light), rect: full)],
                    mask: .circle)
            ]
        default:
            return [
                ContactSheet.Tile(
                    caption: "as it is", side: side, backdrop: macLight, layers: [.image(.file(light), rect: full)])
            ]
        }
    }

    /// A section's title.
    static func sectionTitle(_ platform: IconPlatform?) -> String {
        switch platform {
        case .ios?: return "iOS and iPadOS"
        case .macos?: return "macOS"
        case .watchos?: return "watchOS"
        default: return "Other slots"
        }
    }

    /// A slot as Xcode names it: "iPhone 60 pt @3x", "Mac 16 pt @2x", "iOS 1024 pt".
    static func slotName(_ image: AppIconSet.Image) -> String {
        let idiom: String
        switch image.idiom {
        case "iphone": idiom = "iPhone"
        case "ipad": idiom = "iPad"
        case "ios-marketing": idiom = "App Store"
        case "car": idiom = "CarPlay"
        case "mac": idiom = "Mac"
        case "watch": idiom = "Watch"
        case "watch-marketing": idiom = "Watch App Store"
        case "universal":
            switch image.platform {
            case .ios?: idiom = "iOS"
            case .watchos?: idiom = "watchOS"
            case .macos?: idiom = "macOS"
            default: idiom = "universal"
            }
        default: idiom = image.idiom ?? "unknown idiom"
        }
        var name = idiom
        if let size = image.size, let points = size.split(separator: "x").first { name += " \(points) pt" }
        if image.scale != 1 || image.idiom != "universal" { name += " @\(RenderProblem.pixels(image.scale))x" }
        return name
    }
}
