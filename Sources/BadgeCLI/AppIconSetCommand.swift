import BadgeCore
import BadgeSystem
import BadgeRender

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `iconbadge appiconset PATH.appiconset --value BETA [--out DIR | --in-place]`:
/// badges every image of an Xcode app icon set at its own pixel size.
enum AppIconSetCommand {
    struct Settings {
        var render = RenderSettings()
        var out: String?
        var inPlace = false
        var relativeSize = 0.3
        var jobs = BatchCommand.cores
    }

    /// The render options that make sense here (no icon, output, scale or size of
    /// their own: those come from each image), and the command's own.
    static let options: [OptionSpec<Settings>] = {
        // Nor golden checks: a set is checked by checking its images (compare, batch --check).
        let excluded = Set(["output", "in-place", "scale", "scales", "size", "report", "format"])
            .union(RenderOptions.check.map(\.name))
        var list: [OptionSpec<Settings>] = RenderOptions.all.filter { !excluded.contains($0.name) }.map {
            $0.lifted(\Settings.render)
        }
        list += [
            OptionSpec(
                name: "out", kind: .value(placeholder: "DIR"), group: "Asset catalog",
                help: "write a badged copy of the set into DIR (DIR/NAME.appiconset)", completion: .folder,
                fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.out = text },
            OptionSpec(
                name: "in-place", kind: .flag, group: "Asset catalog", help: "replace the set's images, atomically",
                fromEnvironment: false
            ) { settings, text throws(BadgeError) in
                settings.inPlace = try ValueParsers.bool(text, option: "--in-place")
            },
            OptionSpec(
                name: "relative-size", kind: .value(placeholder: "F"), group: "Asset catalog",
                help: "badge height as a fraction of each image's shorter side", defaultText: "0.3"
            ) { settings, text throws(BadgeError) in
                settings.relativeSize = try ValueParsers.positive(text, option: "--relative-size", max: 1, unit: "")
            },
            OptionSpec(
                name: "jobs", short: "j", kind: .value(placeholder: "N"), group: "Asset catalog",
                help: "render N images at once", defaultText: "the number of cores"
            ) { settings, text throws(BadgeError) in
                settings.jobs = try ValueParsers.integer(text, option: "--jobs", range: 1...256)
            },
        ]
        return list
    }()

    static let info = CommandInfo(
        name: "appiconset",
        summary: "badge every image of an Xcode app icon set at its own size",
        usage: "iconbadge appiconset PATH.appiconset (--value TEXT | --dot) (--out DIR | --in-place) [options]",
        description: """
            Badges every image of an Xcode app icon set (Contents.json) at its own pixel size, so the badge
            reads the same at 40 px and 1024 px. Legacy multi-size sets and the single 1024 px set work; iOS 18
            appearances: "dark" images get the same badge, "tinted" images a greyscale one (the system tints
            those from their luminance). Contents.json is copied unchanged.
            """,
        options: options.map(\.info),
        examples: [
            (
                "a beta copy of the app icon",
                "iconbadge appiconset App/Assets.xcassets/AppIcon.appiconset --value BETA --out build/beta"
            ),
            (
                "a green DEV badge, in place",
                "iconbadge appiconset AppIcon.appiconset --value DEV --background '#34C759' --in-place"
            ),
            ("a small dot", "iconbadge appiconset AppIcon.appiconset --dot --relative-size 0.2 --out build/debug"),
        ],
        positional: .folder,
        run: { arguments, io in AppIconSetCommand.run(arguments, io: io) })

    /// One image of the set.
    struct Image {
        var filename: String
        var appearance: String?
        var declaredPixels: Int?
    }

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        CommandRunner.run(
            arguments, io: io, options: options, defaults: Settings(), environment: io.environment,
            command: info
        ) { parsed throws(BadgeError) in
            guard parsed.positionals.count == 1, var set = parsed.positionals.first else {
                throw .usage("appiconset takes one PATH.appiconset folder")
            }
            while set.count > 1, set.hasSuffix("/") { set.removeLast() }
            let settings = parsed.settings
            guard (settings.out != nil) != settings.inPlace else {
                throw .usage("say where the badged set goes: --out DIR or --in-place (one of them)")
            }
            let contentsPath = set + "/Contents.json"
            let contents = try InputFile.bytes(at: contentsPath, limit: 1 << 20, what: "Contents.json")
            let images = try readImages(contents, path: contentsPath)
            guard !images.isEmpty else { throw .badInput(path: contentsPath, reason: "lists no image files") }
            var target = set
            if let out = settings.out {
                target = out + "/" + (set.split(separator: "/").last.map(String.init) ?? set)
                guard FileIdentity.key(target) != FileIdentity.key(set) else {
                    throw .usage(
                        "--out \(Quoted(out)) would write into the set itself; use --in-place to replace its images")
                }
            }
            // Every image is read and measured before anything is written.
            var planned: [PlannedJob] = []
            for (index, image) in images.enumerated() {
                let source = set + "/" + image.filename
                var render = settings.render
                let side = try shorterSide(of: source)
                if let declared = image.declaredPixels, declared != side {
                    io.warning(
                        "\(image.filename): Contents.json says \(declared) px, the file is \(side) px; badged at \(side) px"
                    )
                }
                let height: Double
                switch render.style.height {
                case .fixed(let points): height = points
                case .auto: height = render.style.fontSize * 1.5
                }
                render.scale = settings.relativeSize * Double(side) / height
                if image.appearance == "tinted" {
                    render.style.background = render.style.background.greyscale
                    render.style.textColor = render.style.textColor.greyscale
                    render.style.borderColor = render.style.borderColor.greyscale
                }
                let request = try render.request(icon: source)
                let output = target + "/" + image.filename
                let format: OutputFormat = OutputFormat(path: output) == .pdf ? .pdf : .png
                planned.append(
                    PlannedJob(
                        label: "\(image.filename)",
                        job: BatchJob(
                            index: index, request: request, output: output, format: format,
                            compression: render.pngCompression,
                            creationDate: try PDFDate.sourceDateEpoch(io.environment["SOURCE_DATE_EPOCH"])),
                        inputs: settings.inPlace ? [] : [source]))
            }
            var batch = BatchCommand.Settings()
            batch.jobs = settings.jobs
            batch.quiet = true
            if let out = settings.out {
                try makeFolder(out)
                try makeFolder(target)
            }
            let code = BatchCommand.execute(planned, settings: batch, io: io)
            // Contents.json last: a set whose images could not all be written is not
            // made to look complete.
            if code == .success, settings.out != nil {
                try OutputFile.write(contents, to: target + "/Contents.json")
            }
            if code == .success {
                io.writeErr("iconbadge: appiconset: badged \(planned.count) images into \(Quoted(target))\n")
            }
            return code
        }
    }

    /// The images Contents.json lists with a file, with their appearance
    /// (`dark`, `tinted`) and declared pixel size (size × scale).
    static func readImages(_ bytes: [UInt8], path: String) throws(BadgeError) -> [Image] {
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
        var seen: Set<String> = []
        for (index, entry) in entries.enumerated() {
            guard case .string(let filename) = entry["filename"] ?? .null else { continue }
            guard !filename.isEmpty, !filename.contains("/"), filename != ".", filename != ".." else {
                throw .badInput(
                    path: path, reason: "images[\(index)].filename \(Quoted(filename)) is not a plain file name")
            }
            guard seen.insert(filename).inserted else { continue }
            var appearance: String?
            if case .array(let appearances) = entry["appearances"] ?? .null {
                for item in appearances {
                    if case .string(let value) = item["value"] ?? .null { appearance = value }
                }
            }
            var pixels: Int?
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
            images.append(Image(filename: filename, appearance: appearance, declaredPixels: pixels))
        }
        return images
    }

    private static func shorterSide(of path: String) throws(BadgeError) -> Int {
        let pixels = try ImageFile.pixels(at: path)
        return min(pixels.width, pixels.height)
    }

    private static func makeFolder(_ path: String) throws(BadgeError) {
        if mkdir(path, 0o777) != 0, errno != EEXIST {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
    }
}

extension Color {
    /// The colour's luma (Rec. 709 weights) as a grey, alpha kept: what a tinted
    /// iOS 18 icon is made from.
    var greyscale: Color {
        let luma = (0.2126 * Double(red) + 0.7152 * Double(green) + 0.0722 * Double(blue)).rounded()
        let grey = UInt8(max(0, min(255, luma)))
        return Color(red: grey, green: grey, blue: grey, alpha: alpha)
    }
}
