import BadgeCore
import BadgeRender
import BadgeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An Xcode app icon set (`NAME.appiconset` with `Contents.json`) and the jobs that
/// badge each of its images at its own pixel size.
///
/// The set may come from a pull request: file names must be plain names, an image
/// that is a symbolic link is refused (it could point out of the set), and two
/// entries naming one file (a hard link) are refused (their renders would race).
package struct AppIconSet: Sendable {
    /// One image of the set.
    package struct Image: Sendable, Equatable {
        /// The file name inside the set (a plain name: no `/`, not `.` or `..`).
        package var filename: String
        /// `dark` or `tinted` (iOS 18 appearances), nil for the default.
        package var appearance: String?
        /// size × scale from Contents.json, in pixels, when it says.
        package var declaredPixels: Int?
        /// The slot's scale (`2x` is 2), 1 when Contents.json does not say.
        package var scale: Double = 1
        /// The shape the slot's platform shows it in, from its `idiom` (and
        /// `platform`): iPhone, iPad, CarPlay and iOS marketing are `ios`, Mac is
        /// `macos`, Watch is `watchos`; nil when Contents.json does not say.
        package var platform: IconPlatform?
        /// Contents.json's `idiom` and `size` (points, `60x60`), as written, for labels.
        package var idiom: String? = nil
        package var size: String? = nil
    }

    /// The platform of an `idiom` (and `platform`, in single-size sets) of Contents.json.
    static func platform(idiom: String?, platform: String?) -> IconPlatform? {
        switch idiom {
        case "iphone", "ipad", "ios-marketing", "car": return .ios
        case "mac": return .macos
        case "watch", "watch-marketing": return .watchos
        case "universal":
            switch platform {
            case "ios": return .ios
            case "watchos": return .watchos
            case "macos": return .macos
            default: return nil
            }
        default: return nil
        }
    }

    /// The set's folder, as the caller wrote it (no trailing slash).
    package var folder: String
    /// The name of the set's folder (`AppIcon.appiconset`).
    package var name: String
    /// Contents.json, as read.
    package var contents: [UInt8]
    /// The images Contents.json lists with a file, each once, in order.
    package var images: [Image]

    /// The largest Contents.json read (bytes).
    package static let maxContentsBytes = 1 << 20

    /// Reads the set at `folder`.
    ///
    /// A set whose slots are all empty has no images (a note, not an error: a loop
    /// over every set of a catalog must not stop at one).
    ///
    /// - Throws: 66 when Contents.json is missing; 65 when it is not JSON, has no
    ///   `images` array, or names a file that is not a plain name.
    package init(folder: String) throws(BadgeError) {
        // The set's Contents.json names the set as well as its folder does.
        let trimmed = AssetCatalog.trimmed(folder)
        self.folder = trimmed
        name = LexicalPath(trimmed).name ?? trimmed
        let contentsPath = trimmed + "/Contents.json"
        contents = try AssetCatalog.ownFile(
            contentsPath, limit: AppIconSet.maxContentsBytes, what: "Contents.json", of: "a set")
        images = try AppIconSet.readImages(contents, path: contentsPath)
    }

    /// The images Contents.json lists with a file, with their appearance (`dark`,
    /// `tinted`) and declared pixel size (size × scale).
    ///
    /// - Throws: 65 naming the path when the JSON or an entry is not usable.
    package static func readImages(_ bytes: [UInt8], path: String) throws(BadgeError) -> [Image] {
        let document: JSONValue
        do throws(JSONSyntaxError) {
            document = try JSONParser(maxDepth: 16).parse(bytes)
        } catch {
            throw .badInput(path: path, reason: "not valid JSON: \(error.description)")
        }
        guard case .array(let entries) = document["images"] ?? .null else {
            throw .badInput(path: path, reason: "has no \"images\" array (is this an .appiconset?)")
        }
        var images: [Image] = []
        for (index, entry) in entries.enumerated() {
            guard case .string(let filename) = entry["filename"] ?? .null else { continue }
            guard !filename.isEmpty, !filename.contains("/"), filename != ".", filename != "..",
                !filename.utf8.contains(0), filename.utf8.count <= 255
            else {
                throw .badInput(
                    path: path, reason: "images[\(index)].filename \(Quoted(filename)) is not a plain file name")
            }
            guard !images.contains(where: { $0.filename == filename }) else { continue }
            var appearance: String?
            if case .array(let appearances) = entry["appearances"] ?? .null {
                for item in appearances {
                    if case .string(let value) = item["value"] ?? .null { appearance = value }
                }
            }
            var pixels: Int?
            var slotScale = 1.0
            if case .string(let text) = entry["scale"] ?? .null, text.hasSuffix("x"),
                let value = DecimalNumber.parse(text.dropLast()), value > 0, value <= 100
            {
                slotScale = value
            }
            if case .string(let size) = entry["size"] ?? .null,
                let points = size.split(separator: "x").first.flatMap({ DecimalNumber.parse($0) })
            {
                var scale = 1.0
                if case .string(let text) = entry["scale"] ?? .null, text.hasSuffix("x"),
                    let value = DecimalNumber.parse(text.dropLast())
                {
                    scale = value
                }
                let product = points * scale
                pixels = product.isFinite && product > 0 && product < 1e6 ? Int(product.rounded()) : nil
            }
            var idiom: String?
            var platformName: String?
            if case .string(let text) = entry["idiom"] ?? .null { idiom = text }
            if case .string(let text) = entry["platform"] ?? .null { platformName = text }
            var sizeText: String?
            if case .string(let size) = entry["size"] ?? .null { sizeText = size }
            images.append(
                Image(
                    filename: filename, appearance: appearance, declaredPixels: pixels, scale: slotScale,
                    platform: platform(idiom: idiom, platform: platformName), idiom: idiom, size: sizeText))
        }
        return images
    }

    /// Where the badged set goes.
    package enum Destination: Sendable {
        /// Replace the set's own images.
        case inPlace
        /// Write `DIR/NAME.appiconset` (images and a copy of Contents.json); when `DIR`
        /// itself ends in `.appiconset`, it is the new set (`--out
        /// Assets.xcassets/AppIconBeta.appiconset`).
        case copy(into: String)

        /// Whether the set's own images are replaced.
        package var isInPlace: Bool {
            if case .inPlace = self { return true }
            return false
        }
    }

    /// The components below a `.copy` destination's folder that hold the new set:
    /// none when the folder is named as a set itself, else the set's own name.
    package func setComponents(into out: String) -> [String] {
        let last = out.split(separator: "/").last.map(String.init) ?? out
        return last.hasSuffix(".appiconset") && last != ".appiconset" ? [] : [name]
    }

    /// The set's folder as an output: where the staging folder goes beside (a copy,
    /// by its parent and name), or a file in it (in place).
    package func destinationFolder(_ destination: Destination) -> OutputLocation {
        switch destination {
        case .inPlace: return OutputLocation(root: folder, components: ["Contents.json"])
        case .copy(let out):
            let below = setComponents(into: out)
            if below.isEmpty {
                var trimmed = out
                while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
                return OutputLocation(commandLine: trimmed)
            }
            return OutputLocation(root: out, components: below)
        }
    }

    /// How many slots the set fills: its images by idiom, size, scale and platform
    /// (a slot's dark and tinted images are one slot with its default one).
    package var slotCount: Int {
        var slots: [String] = []
        for image in images {
            let key = [image.idiom ?? "", image.size ?? "", "\(image.scale)", image.platform?.rawValue ?? ""]
                .joined(separator: "|")
            if !slots.contains(key) { slots.append(key) }
        }
        return slots.count
    }

    /// Where `filename` is written for `destination`.
    package func location(of filename: String, destination: Destination) -> OutputLocation {
        switch destination {
        case .inPlace: return OutputLocation(root: folder, components: [filename])
        case .copy(let out): return OutputLocation(root: out, components: setComponents(into: out) + [filename])
        }
    }

    /// One job per image, each at the image's own pixel size: unless the settings give
    /// a height, the badge is `relativeSize` of the image's reference box tall (a
    /// percentage height, so the whole badge scales with the image); a height in
    /// points is at the slot's own scale. Each image is placed in its idiom's platform
    /// shape unless `platformGiven`; tinted images get a greyscale badge.
    /// Every image is read and measured before anything is written (the command then
    /// sends each output to a staging folder: `staging(_:into:)`).
    ///
    /// - Throws: 65 for an image that is a symbolic link (73 with `inPlace`, where it
    ///   is an output), for two entries that are one file, for an image iconbadge
    ///   already badged (`BadgedMark`: badging it again would stack a second badge),
    ///   and any image read error.
    package func jobs(
        settings: RenderSettings, relativeSize: Double, destination: Destination, creationDate: String?
    ) throws(BadgeError) -> [RenderJob] {
        var settings = settings
        settings.defaultHeight(percent: relativeSize * 100)
        var jobs: [RenderJob] = []
        var identities: [FileIdentity.Key] = []
        for image in images {
            let source = folder + "/" + image.filename
            var info = stat()
            if lstat(source, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                let reason = "is a symbolic link; the images of a set must be files of the set"
                if case .inPlace = destination { throw .cannotCreate(path: source, reason: reason) }
                throw .badInput(path: source, reason: reason)
            }
            let identity = FileIdentity.key(source)
            if let other = identities.firstIndex(of: identity) {
                throw .badInput(
                    path: source,
                    reason:
                        "is the same file as \(Quoted(images[other].filename)) (a hard link); give each slot its own file"
                )
            }
            identities.append(identity)
            if BadgedMark.isMarked(path: source) { throw Self.badgedError(source, inCatalog: false) }
            let pixels = try ImageFile.pixels(at: source, limits: settings.limits)
            let side = min(pixels.width, pixels.height)
            var render = settings
            render.scale = image.scale
            if !settings.platformGiven, let platform = image.platform { render.platform = platform }
            let output = location(of: image.filename, destination: destination)
            let format = try Self.outputFormat(of: image.filename, source: source)
            // iOS 18 colours a tinted image from its luminance: the whole badge
            // (image badges and colour glyphs too) is drawn in greys.
            render.greyscaleBadges = image.appearance == "tinted"
            let request = try render.request(icon: source)
            var encoding = Encoding(format: format, compression: render.pngCompression, creationDate: creationDate)
            encoding.marksBadged = true
            var job = RenderJob(
                label: image.filename, request: request,
                output: .file(output, creatingFolders: !destination.isInPlace), check: nil,
                encoding: encoding, inputs: render.inputFiles(icon: source))
            if case .inPlace = destination { job.inputs.removeFirst() }  // the image is its own output
            // The slot's size is the image's: a render of another size breaks the set.
            if format != .pdf { job.requiredSize = (pixels.width, pixels.height) }
            if let declared = image.declaredPixels, declared != side {
                job.notes.append(.declaredSize(file: image.filename, declared: declared, actual: side))
            }
            jobs.append(job)
        }
        return jobs
    }

    /// The first of the set's images that iconbadge badged (`BadgedMark`), as a path;
    /// nil when none is. Not through a link.
    package var badgedImage: String? {
        images.lazy.map { folder + "/" + $0.filename }.first { BadgedMark.isMarked(path: $0) }
    }

    /// The refusal of an image iconbadge badged (`path`): a second badge would be drawn
    /// over the first, so the fix is the originals; in a catalog of several sets,
    /// `--set` badges the others.
    package static func badgedError(_ path: String, inCatalog: Bool) -> BadgeError {
        let folder = LexicalPath(path).folder.description
        let fix =
            inCatalog
            ? "badge the other sets alone (--set NAME), or restore this set's original images"
            : "restore the set's original images (from your copy or version control: git checkout -- \(Quoted(folder))) and badge those, with --out DIR to keep them"
        return .badInput(
            path: path,
            reason:
                "already has a badge iconbadge drew (an earlier run wrote this image), and a second would be drawn over it: \(fix)"
        )
    }

    /// `jobs` with each output sent to `staged` under its file name instead, to be
    /// committed when every job succeeded.
    package static func staging(_ jobs: [RenderJob], into staged: StagedFolder) -> [RenderJob] {
        jobs.map { job in
            var job = job
            if case .file(let final, _) = job.output, let name = final.name {
                job.output = .staged(staged, components: [name], final: final)
            }
            return job
        }
    }

    /// The format an image of the set is rewritten in: PDF for a `.pdf` slot, PNG
    /// otherwise. A slot named for another format (`icon.jpg`, `icon.svg`) is refused:
    /// PNG bytes under that name would be a file whose content contradicts its name, and
    /// app icon sets take PNG (and PDF) images.
    ///
    /// - Throws: `BadgeError.badInput` (65) naming the image and its format.
    static func outputFormat(of filename: String, source: String) throws(BadgeError) -> OutputFormat {
        let named = OutputFormat(path: filename)
        if named == .pdf { return .pdf }
        if let other = OutputNaming.unwritableFormat(of: filename) ?? (named == .svg ? "SVG" : nil)
            ?? (named == .webp ? "WebP" : nil)
        {
            throw .badInput(
                path: source,
                reason:
                    "is named as \(OutputNaming.aFile(other)); iconbadge rewrites a set's images as PNG or PDF: convert it to PNG and rename it in Contents.json"
            )
        }
        return .png
    }
}
