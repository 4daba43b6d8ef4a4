import BadgeCore
import BadgeRender
import BadgeSystem

/// Turns what the user asked for into `RenderJob`s, through the render command's
/// option table, so that a manifest key is validated exactly as its flag is:
/// - a command line (one render, or one per scale with `--scales`): `render`;
/// - each entry of a manifest, at each scale: `manifest`;
/// - each slot of an asset catalog: `AppIconSetPlanner`.
///
/// Nothing is read (beyond the manifest) or written; `JobPlanChecks` then checks the
/// jobs together against the file system.
package enum JobPlanner {
    /// The most renders (jobs × scales × {frame} frames) one manifest may plan: memory for validation
    /// stays bounded (about 1 KiB a render), and a batch of 100,000 icons is far beyond
    /// any asset pipeline seen (an app icon set has 18 to 66).
    package static let maxRenders = 100_000

    /// Settings keys a manifest may not set: limits come from the caller (the command
    /// line and the environment), never from the data they protect against.
    package static let callerOnlyKeys = ["max-side", "max-pixels", "svg-time-limit"]

    // MARK: - The command line

    /// The jobs of one render command: one job, or one per scale of `--scales`.
    ///
    /// - Throws: 64 for options that do not combine or values that cannot be used
    ///   together (`-o` a template without `--scales`, `--in-place` on standard
    ///   input, an output that is an input), 65 for a bad `SOURCE_DATE_EPOCH`.
    package static func render(_ settings: RenderSettings, icon: String, environment: [String: String])
        throws(BadgeError) -> [RenderJob]
    {
        try settings.checkCombinations()
        if settings.check == "-" {
            throw .usage("--check needs a golden image file; standard input cannot be one")
        }
        if icon == "-",
            let template = [settings.output, settings.check].compactMap({ $0 }).first(where: {
                $0.contains("{name}")
            })
        {
            throw .usage(
                "\(Quoted(template)) uses {name}, and an icon on standard input has no name; write the name in the path"
            )
        }
        let creationDate = try PDFDate.sourceDateEpoch(environment["SOURCE_DATE_EPOCH"])
        let animation = try settings.animation()
        // One job per scale of --scales, or one file a frame: the template path, at
        // the one scale.
        let perFile =
            settings.scales != nil
            || (animation != nil
                && [settings.output, settings.check].contains(where: { $0?.contains("{frame}") == true }))
        var settings = settings
        let template: String?
        if perFile {
            template = try perFileTemplate(settings)
        } else {
            template = nil
            if settings.output == "/dev/stdout" { settings.output = "-" }
            if let output = settings.output, OutputTemplate.hasTokens(output) {
                throw .usage(
                    "-o \(Quoted(output)) is a template; templates go with --scales (e.g. --scales 1,2,3), or {frame} with --animate"
                )
            }
            if let check = settings.check, OutputTemplate.hasTokens(check) {
                throw .usage(
                    "--check \(Quoted(check)) is a template; templates go with --scales (e.g. --scales 1,2,3), or {frame} with --animate"
                )
            }
        }
        if let check = settings.check {
            try refusePDFGolden(check)
            if let artifacts = settings.artifacts { try refuseArtifactsBesideGolden(artifacts, golden: check) }
        }
        if let template {
            return try renderScales(settings, icon: icon, output: template, creationDate: creationDate)
        }
        var outputPath = settings.output
        if settings.inPlace {
            guard outputPath == nil else {
                throw .usage("--in-place and -o are exclusive: --in-place writes the icon itself")
            }
            guard icon != "-" else { throw .usage("--in-place needs an icon file, not standard input") }
            outputPath = icon
        }
        guard outputPath != nil || settings.report || settings.check != nil else {
            throw .usage("missing -o OUTPUT: say where to write the image (- for standard output), or --in-place")
        }
        if outputPath == "-", settings.report {
            throw .usage("--report and -o - both use standard output; write the image to a file")
        }
        let format = try outputFormat(settings, output: outputPath)
        // --size is the 1x size, in points like every length: pixels = size × scale.
        let request = try settings.request(
            icon: icon,
            iconSize: settings.iconSize.map {
                Size(width: ($0.width * settings.scale).rounded(), height: ($0.height * settings.scale).rounded())
            }, animation: motion(animation, frame: nil, settings: settings))
        var job = RenderJob(
            label: "", request: request, output: nil, check: nil,
            encoding: Encoding(format: format, compression: settings.pngCompression, creationDate: creationDate),
            inputs: settings.inputFiles(icon: icon))
        if let outputPath {
            job.output =
                outputPath == "-"
                ? .standardOutput : .file(OutputLocation(commandLine: outputPath), creatingFolders: false)
        }
        if settings.inPlace { job.inputs.removeFirst() }  // the icon is the output, on purpose
        job.report = settings.report
        if let animation {
            try animate(&job, animation, settings: settings, wording: Wording { _, reason in .usage(reason) })
        }
        if let golden = settings.check {
            job.check = GoldenTarget(
                golden: OutputLocation(commandLine: golden),
                artifacts: settings.artifacts.map { OutputLocation(root: $0, components: []) },
                update: settings.update ?? .none, compare: settings.compare)
        }
        return [job]
    }

    /// Artifacts in the golden's own folder would be committed with it (the accident
    /// the `iconbadge-artifacts/` default avoids) and could replace another golden.
    ///
    /// - Throws: 64 naming both.
    static func refuseArtifactsBesideGolden(_ artifacts: String, golden: String) throws(BadgeError) {
        let folder = OutputFile.parentFolder(of: golden)
        guard PathContainment.resolved(artifacts) == PathContainment.resolved(folder) else { return }
        throw .usage(
            "--artifacts \(Quoted(artifacts)) is the folder of the golden \(Quoted(golden)): artifacts there would be committed with it, and could replace another golden; write them elsewhere (the default is iconbadge-artifacts/)"
        )
    }

    /// Goldens are compared as pixels, and iconbadge cannot read PDF.
    static func refusePDFGolden(_ golden: String) throws(BadgeError) {
        if let named = OutputNaming.unwritableFormat(of: golden) {
            throw .usage(
                "--check \(Quoted(golden)) names \(OutputNaming.aFile(named)); goldens are PNG or SVG (compared as pixels): name it .png"
            )
        }
        if OutputFormat(path: golden) == .pdf {
            throw .usage(
                "--check \(Quoted(golden)): goldens are compared as pixels, and PDF cannot be read; use .png or .svg")
        }
    }

    /// The format to write: `--format`, else the output's extension, else PNG for
    /// standard output. `--in-place` keeps the icon's own format, so a file's content
    /// never contradicts its name.
    ///
    /// - Throws: 64 when the format cannot be told, or `--in-place` names a file
    ///   iconbadge cannot write in its own format (JPEG, GIF, ...).
    static func outputFormat(_ settings: RenderSettings, output: String?) throws(BadgeError) -> OutputFormat {
        guard let output, output != "-" else { return settings.format ?? .png }
        let byName = OutputFormat(path: output)
        if settings.inPlace {
            guard let byName else {
                throw .usage(
                    "--in-place keeps the icon's format, and iconbadge writes only PNG, WebP, SVG or PDF, not \(Quoted(output)); write a new file with -o NAME.png"
                )
            }
            if let given = settings.format, given != byName {
                throw .usage(
                    "--in-place keeps the icon's format (\(byName.rawValue.uppercased())); --format \(given.rawValue) would contradict the name \(Quoted(output))"
                )
            }
            return byName
        }
        if let given = settings.format {
            try OutputNaming.check(output, format: given, option: "-o")
            return given
        }
        if let named = OutputNaming.unwritableFormat(of: output) {
            throw .usage(
                "-o \(Quoted(output)) names \(OutputNaming.aFile(named)), and iconbadge writes PNG, WebP, SVG or PDF; name it .png, .webp, .svg or .pdf"
            )
        }
        guard let byName else {
            // A folder or a device named as the output says so first (73).
            try OutputFile.checkWritable(output)
            throw .usage(
                "cannot tell the format of \(Quoted(output)) from its extension; use .png, .webp, .svg or .pdf, or --format"
            )
        }
        return byName
    }

    /// The template a command line writes one file per scale or frame with (`-o`,
    /// else `--check`), once the options that cannot do so are refused.
    ///
    /// - Throws: 64 for `--in-place`, `--report`, `--scale` beside `--scales`, no
    ///   template, or standard output.
    private static func perFileTemplate(_ settings: RenderSettings) throws(BadgeError) -> String {
        let scales = settings.scales
        let what = scales == nil ? "{frame} writes one file a frame" : "--scales writes one file per scale"
        guard !settings.inPlace else { throw .usage("\(what); it does not go with --in-place") }
        // A check alone (no -o) renders in memory: its template names the goldens.
        guard let output = settings.output ?? settings.check else {
            throw .usage(
                "--scales needs -o (or --check) with a template such as 'out/{name}{@scale}.png'")
        }
        guard !settings.report else {
            throw .usage(
                "--report describes one render; it does not combine with \(scales == nil ? "{frame}" : "--scales")"
                    + (scales == nil ? " (give -o one animated file: --report lists every frame)" : ""))
        }
        guard scales == nil || !settings.given.contains("scale") else {
            throw .usage("--scale and --scales both set the scale; give one (--scales 1,2,3 renders at each)")
        }
        guard output != "-" else { throw .usage("\(what); -o - cannot hold them") }
        return output
    }

    /// `--scales 1,2,3 -o 'out/{name}{@scale}.png'`: one job per scale, labelled
    /// `@2x`, with every template expanded inside its own folder.
    /// `-o 'frames/{frame}.png'` with `--animate` (no `--scales`): one job per frame.
    /// `output` is the template (`perFileTemplate`).
    private static func renderScales(
        _ settings: RenderSettings, icon: String, output: String, creationDate: String?
    ) throws(BadgeError) -> [RenderJob] {
        let scales = settings.scales ?? [settings.scale]
        if let check = settings.check, scales.count > 1, !hasScaleToken(check) {
            throw .usage(
                "--check \(Quoted(check)) names one golden for \(scales.count) scales; give a template such as 'goldens/{name}{@scale}.png'"
            )
        }
        var draft = Draft(
            settings: settings, icon: icon, output: output, scales: settings.scales == nil ? nil : scales, label: "")
        draft.writes = settings.output != nil
        let wording = Wording { field, reason in
            switch field {
            case .output: return .usage("-o: \(reason)")
            case .check: return .usage("--check: \(reason)")
            default: return .usage(reason)
            }
        }
        return try expand(
            draft, outputRoot: nil, goldens: nil, creationDate: creationDate, wording: wording)
    }

    // MARK: - Manifests

    /// What a batch adds to every entry of its manifest.
    package struct BatchContext: Sendable {
        /// Settings under every entry: the environment's `ICONBADGE_*` and the batch's
        /// limit flags.
        package var base: RenderSettings
        /// `--scales`, unless an entry has its own `"scales"`.
        package var scales: [Double]?
        /// The folder every output stays inside (`--output-root`, default the working
        /// folder).
        package var outputRoot: OutputRoot
        /// `--check DIR`: compare with DIR/<output> instead of writing.
        package var check: BatchCheck?
        /// `SOURCE_DATE_EPOCH` as a PDF date.
        package var creationDate: String?
        /// The manifest's path, for messages (`-` for standard input).
        package var manifestPath: String

        /// A context from its parts.
        package init(
            base: RenderSettings, scales: [Double]?, outputRoot: OutputRoot, check: BatchCheck?,
            creationDate: String?, manifestPath: String
        ) {
            self.base = base
            self.scales = scales
            self.outputRoot = outputRoot
            self.check = check
            self.creationDate = creationDate
            self.manifestPath = manifestPath
        }
    }

    /// `batch --check DIR [--artifacts DIR] [--update]`.
    package struct BatchCheck: Sendable {
        /// The goldens folder: each job's golden is DIR/<its output path>.
        package var goldens: String
        /// Where artifacts go (DIR/<output's folder>/NAME.actual.png), nil:
        /// `iconbadge-artifacts/`.
        package var artifacts: String?
        /// Write goldens that changed.
        package var update: UpdateMode
        /// How images are compared.
        package var compare: CompareSettings

        /// A check from its parts.
        package init(goldens: String, artifacts: String?, update: UpdateMode, compare: CompareSettings) {
            self.goldens = goldens
            self.artifacts = artifacts
            self.update = update
            self.compare = compare
        }
    }

    /// Every job of `manifest`, in order; nothing is planned if any entry is wrong.
    ///
    /// - Throws: 65 naming the manifest, `jobs[i]` and the key: an unknown key, a bad
    ///   value, a missing `icon` or `output`, an output leaving the output root, a
    ///   limit set by the manifest, more than `maxRenders` renders.
    package static func manifest(_ manifest: Manifest, context: BatchContext) throws(BadgeError) -> [RenderJob] {
        guard !manifest.entries.isEmpty else { throw .badInput(path: context.manifestPath, reason: "has no jobs") }
        var jobs: [RenderJob] = []
        var renders = 0
        for entry in manifest.entries {
            let draft = try self.draft(entry, context: context)
            // {frame} makes one render a frame (a bad animation fails in `expand`).
            let frames =
                draft.output.contains("{frame}") ? ((try? draft.settings.animation())??.frameCount ?? 1) : 1
            renders += (draft.scales?.count ?? 1) * frames
            guard renders <= maxRenders else {
                throw .badInput(
                    path: context.manifestPath,
                    reason:
                        "plans more than \(maxRenders) renders (jobs × scales × frames); split it into several manifests"
                )
            }
            let prefix = "jobs[\(entry.index)]"
            let path = context.manifestPath
            let wording = Wording { field, reason in
                switch field {
                case .general: return .badInput(path: path, reason: "\(prefix): \(reason)")
                default: return .badInput(path: path, reason: "\(prefix).\(field.rawValue): \(reason)")
                }
            }
            jobs += try expand(
                draft, outputRoot: context.outputRoot, goldens: context.check, creationDate: context.creationDate,
                wording: wording)
        }
        return jobs
    }

    /// One entry's settings (its keys applied through the option table over `base`),
    /// icon, output template and scales.
    private static func draft(_ entry: Manifest.Entry, context: BatchContext) throws(BadgeError) -> Draft {
        let prefix = "jobs[\(entry.index)]"
        let path = context.manifestPath
        func fail(_ key: String?, _ reason: String) -> BadgeError {
            .badInput(path: path, reason: key.map { "\(prefix).\($0): \(reason)" } ?? "\(prefix): \(reason)")
        }
        var settings = context.base
        var icon: String?
        var output: String?
        var scales = context.scales
        var densities: [String]?
        var badges: [JSONValue]?
        let specs = RenderOptions.all
        try applyKeys(entry.pairs, to: &settings, fail: { fail($0, $1) }) { key, value throws(BadgeError) in
            switch key {
            case "badges":
                guard case .array(let items) = value, !items.isEmpty else {
                    throw fail(key, "must be a non-empty array of badge objects")
                }
                guard items.count <= RenderRequest.maxBadges else {
                    throw fail(key, "has \(items.count) badges; one icon takes at most \(RenderRequest.maxBadges)")
                }
                badges = items
                return nil
            case "icon", "output":
                guard case .string(let text) = value else { throw fail(key, "must be a string, not \(value.kindName)") }
                guard !text.isEmpty else { throw fail(key, "must not be empty") }
                guard text.utf8.count <= Manifest.maxPathBytes, !text.utf8.contains(0) else {
                    throw fail(key, "is not a usable path (a NUL character, or over \(Manifest.maxPathBytes) bytes)")
                }
                guard text != "-" else { throw fail(key, Self.standardStreamInManifest) }
                if key == "icon" { icon = text } else { output = text }
                return nil
            case "scales":
                scales = try parseScales(value, fail: { fail("scales", $0) })
                return nil
            case "densities":
                densities = try parseDensities(value, fail: { fail("densities", $0) })
                return nil
            default:
                break
            }
            if callerOnlyKeys.contains(key) {
                throw fail(
                    key,
                    "a manifest cannot set a limit; limits come from the command line or ICONBADGE_* (e.g. --\(key) on the batch command)"
                )
            }
            if Manifest.excludedKeys.contains(key) {
                throw fail(
                    nil,
                    "\(Quoted(key)) is not a manifest key (\(Manifest.excludedKeys.joined(separator: ", ")) are the batch command's own flags or one render's)"
                )
            }
            guard let spec = specs.first(where: { $0.name == key }) else {
                let known =
                    specs.map(\.name).filter { !Manifest.excludedKeys.contains($0) && !callerOnlyKeys.contains($0) }
                    + Manifest.extraKeys
                let guess = Suggestion.closest(to: key, among: known)
                throw fail(nil, "unknown key \(Quoted(key))" + (guess.map { " (did you mean \($0)?)" } ?? ""))
            }
            return spec
        }
        settings.given.own = entry.ownKeys
        if let badges {
            settings = try badgeSettings(badges, over: settings, fail: fail)
        }
        guard let icon else { throw fail(nil, "has no \"icon\"") }
        guard let output else { throw fail(nil, "has no \"output\"") }
        // "scales" would override "scale" silently; a job's own scale or scales already
        // replaced the defaults' (Manifest), so both here is one level giving both.
        if entry.pairs.contains(where: { $0.key == "scale" }) {
            if entry.pairs.contains(where: { $0.key == "scales" }) {
                throw fail("scale", "conflicts with \"scales\": give one")
            }
            if context.scales != nil { throw fail("scale", "conflicts with --scales: give one") }
        }
        if let densities {
            if entry.pairs.contains(where: { $0.key == "scale" || $0.key == "scales" }) || context.scales != nil {
                throw fail(
                    "densities",
                    "sets the scales itself (mdpi is 1, xxxhdpi 4); drop \"scale\", \"scales\" and --scales")
            }
            guard output.contains("{density}") else {
                throw fail(
                    "output", "\(Quoted(output)) needs {density}: this job renders at \(densities.count) densities")
            }
            var draft = Draft(
                settings: settings, icon: icon, output: output,
                scales: densities.map { name in OutputTemplate.androidDensities.first { $0.name == name }!.scale },
                label: prefix)
            draft.densities = densities
            return draft
        }
        return Draft(settings: settings, icon: icon, output: output, scales: scales, label: prefix)
    }

    /// A job's "badges": each object's keys applied over the job's own settings (so
    /// keys the job gives are shared by its badges), the first badge carrying the
    /// others as `moreBadges`.
    ///
    /// - Throws: 65 naming `badges[i].key` for a key of the whole job, an unknown key,
    ///   or a bad value; and for content given both to the job and in "badges".
    private static func badgeSettings(
        _ badges: [JSONValue], over job: RenderSettings, fail: (String?, String) -> BadgeError
    ) throws(BadgeError) -> RenderSettings {
        guard job.value == nil, job.text == nil, !job.dot, job.image == nil else {
            throw fail("badges", "gives each badge its content; drop the job's own value, text, dot or image")
        }
        var made: [RenderSettings] = []
        for (index, badge) in badges.enumerated() {
            let place = "badges[\(index)]"
            guard case .object(let pairs) = badge else { throw fail(place, "must be an object, not \(badge.kindName)") }
            var settings = job
            // A badge's own keys are its explicit options; the job's are shared.
            settings.given.own = pairs.map(\.0)
            try applyKeys(pairs.map { ($0.0, $0.1) }, to: &settings, fail: { fail("\(place).\($0)", $1) }) {
                key, _ throws(BadgeError) in
                guard let spec = RenderOptions.perBadge.first(where: { $0.name == key }) else {
                    if Manifest.excludedKeys.contains(key) {
                        throw fail(
                            "\(place).\(key)",
                            "is not a manifest key (\(Manifest.excludedKeys.joined(separator: ", ")) are the batch command's own flags or one render's)"
                        )
                    }
                    if RenderOptions.all.contains(where: { $0.name == key }) || Manifest.extraKeys.contains(key) {
                        throw fail(
                            "\(place).\(key)", "is a key of the whole job, not of one badge; give it beside \"badges\"")
                    }
                    let guess = Suggestion.closest(to: key, among: RenderOptions.perBadge.map(\.name))
                    throw fail(place, "unknown key \(Quoted(key))" + (guess.map { " (did you mean \($0)?)" } ?? ""))
                }
                return spec
            }
            made.append(settings)
        }
        var first = made[0]
        first.moreBadges = Array(made.dropFirst())
        return first
    }

    /// Applies manifest keys (a job's, or one entry of its "badges") over `settings`
    /// through the option table, so a key is validated exactly as its flag is: "style"
    /// first, as on the command line; an array gives a repeatable option each of its
    /// values; a file is never "-".
    ///
    /// - Parameters:
    ///   - spec: the option of a key; nil for a key the caller took itself (`icon`).
    ///     It throws for a key that is no option here.
    ///   - fail: the error naming a key and the reason.
    /// - Throws: what `spec` throws; `fail`'s error for a value of the wrong kind or
    ///   one its option refuses.
    private static func applyKeys(
        _ pairs: [(key: String, value: JSONValue)], to settings: inout RenderSettings,
        fail: (String, String) -> BadgeError,
        spec: (String, JSONValue) throws(BadgeError) -> RenderOptions.Spec?
    ) throws(BadgeError) {
        let ordered = pairs.filter { $0.key == "style" } + pairs.filter { $0.key != "style" }
        for (key, value) in ordered {
            guard let spec = try spec(key, value) else { continue }
            var values: [JSONValue] = [value]
            if case .array(let items) = value {
                guard spec.repeatable else { throw fail(key, "takes one value, not an array") }
                values = items
            }
            for item in values {
                guard let text = Manifest.text(item) else {
                    throw fail(key, "must be a string, number or boolean, not \(item.kindName)")
                }
                if case .file = spec.completion, text == "-" { throw fail(key, Self.standardStreamInManifest) }
                do throws(BadgeError) {
                    try spec.apply(&settings, text)
                } catch {
                    if case .invalidValue(_, let raw, let problem) = error {
                        throw fail(key, "\(Quoted(raw)) \(problem)")
                    }
                    throw fail(key, error.message)
                }
            }
        }
    }

    /// Why a manifest's path is never "-": standard input (or output) is the caller's,
    /// and a manifest from a pull request must not make a job read what a CI step pipes
    /// in, or write an image where the caller reads a report.
    static let standardStreamInManifest =
        "\"-\" (standard input or output) is the caller's to give, not a manifest's; name a file"

    // MARK: - Expansion

    /// One entry or command line before its scales are expanded.
    struct Draft {
        var settings: RenderSettings
        var icon: String
        var output: String
        /// nil: one render at `settings.scale`.
        var scales: [Double]?
        /// `jobs[3]`, or "" on the command line.
        var label: String
        /// Android densities, one per scale (`{density}` in the templates), or nil.
        var densities: [String]?
        /// Whether the output is written (a command-line check alone only compares).
        var writes = true
    }

    /// Which part of a job an error is about, for its wording.
    enum Field: String {
        case general, icon, output, scales, scale, check
    }

    /// Words planning errors for where the job came from (usage errors naming flags
    /// on the command line, 65 naming `jobs[i].key` in a manifest).
    struct Wording {
        let make: (Field, String) -> BadgeError
        init(_ make: @escaping (Field, String) -> BadgeError) { self.make = make }
        func callAsFunction(_ field: Field, _ reason: String) -> BadgeError { make(field, reason) }
    }

    /// The jobs of `draft`, one per scale: templates expanded, each output placed
    /// inside its root (`outputRoot`, or for a command-line template the folder before
    /// its first token), `--size` and raster icons scaled with the scale.
    private static func expand(
        _ draft: Draft, outputRoot: OutputRoot?, goldens: BatchCheck?, creationDate: String?, wording: Wording
    ) throws(BadgeError) -> [RenderJob] {
        let settings = draft.settings
        let scaleList = draft.scales ?? [settings.scale]
        if scaleList.count > 1, draft.densities == nil, !hasScaleToken(draft.output) {
            throw wording(
                .output,
                "\(Quoted(draft.output)) needs {scale} or {@scale}: this job renders at \(scaleList.count) scales")
        }
        let iconHasScale = hasScaleToken(draft.icon) || draft.icon.contains("{density}")
        let animation: BadgeAnimation?
        do throws(BadgeError) {
            try settings.checkAnimationCombinations()
            animation = try settings.animation()
        } catch {
            throw wording(.general, error.message)
        }
        // {frame}: one static render a frame; else one animated file (or none).
        let framed = animation != nil && draft.output.contains("{frame}")
        let frames: [Int?] = framed ? Array(0..<animation!.frameCount) : [nil]
        var jobs: [RenderJob] = []
        for (index, scale) in scaleList.enumerated() {
            for frame in frames {
                let frameText = frame.map { OutputTemplate.frameText($0, count: frames.count) }
                let density = draft.densities?[index]
                var perScale = settings
                perScale.scale = scale
                let iconPath: String
                let outputPath: String
                var checkPath: String?
                let name: String
                do throws(TemplateError) {
                    iconPath = try OutputTemplate.expand(
                        draft.icon, name: "", scale: scale, value: "", ext: "", density: density)
                    name = OutputTemplate.baseName(
                        of: try OutputTemplate.expand(
                            draft.icon, name: "", scale: 1, value: "", ext: "", density: draft.densities?.first))
                    let ext = (settings.format ?? OutputFormat(path: draft.output) ?? .png).rawValue
                    outputPath = try OutputTemplate.expand(
                        draft.output, name: name, scale: scale, value: settings.shownValue ?? "", ext: ext,
                        density: density,
                        frame: frameText)
                    if outputRoot == nil, let check = settings.check {
                        checkPath = try OutputTemplate.expand(
                            check, name: name, scale: scale, value: settings.shownValue ?? "", ext: "png",
                            frame: frameText)
                    }
                } catch {
                    // Which option animates a render is the planner's to say.
                    throw wording(
                        .general,
                        error.needsAnimation
                            ? error.message + "; give --animate (\"animate\" in a manifest)" : error.message)
                }
                if let named = OutputNaming.unwritableFormat(of: outputPath) {
                    throw wording(
                        .output,
                        "\(Quoted(outputPath)) names \(OutputNaming.aFile(named)), and iconbadge writes PNG, WebP, SVG or PDF; name it .png, .webp, .svg or .pdf"
                    )
                }
                if let given = settings.format, let named = OutputFormat(path: outputPath), named != given {
                    throw wording(
                        .output,
                        "\(Quoted(outputPath)) names \(OutputNaming.aFile(named.rawValue.uppercased())), but \"format\" is \(given.rawValue); make them agree"
                    )
                }
                guard let format = settings.format ?? OutputFormat(path: outputPath) else {
                    throw wording(
                        .output,
                        "cannot tell the format of \(Quoted(outputPath)); use .png, .webp, .svg or .pdf, or \"format\"")
                }
                let request: RenderRequest
                do throws(BadgeError) {
                    // --size is the @1x size, in points like every length: it scales with
                    // the rest, for a job's own "scale" as for a lone render's --scale. A
                    // raster icon without a file per scale is resampled by the scale.
                    request = try perScale.request(
                        icon: iconPath,
                        iconSize: settings.iconSize.map {
                            Size(width: ($0.width * scale).rounded(), height: ($0.height * scale).rounded())
                        },
                        rasterScale: settings.iconSize == nil && draft.scales != nil && !iconHasScale ? scale : 1,
                        animation: motion(animation, frame: frame, settings: settings))
                } catch {
                    throw wording(.general, error.message)
                }
                var label =
                    scaleList.count > 1 || (draft.scales != nil && draft.label.isEmpty)
                    ? "\(draft.label)@\(OutputTemplate.scaleText(scale))x" : draft.label
                if let density { label = "\(draft.label)@\(density)" }
                if let frameText { label = label.isEmpty ? "frame \(frameText)" : "\(label) frame \(frameText)" }
                let location = try place(outputPath, template: draft.output, root: outputRoot, wording: wording)
                var job = RenderJob(
                    label: label, request: request, output: nil, check: nil,
                    encoding: Encoding(
                        format: format, compression: settings.pngCompression, creationDate: creationDate),
                    inputs: perScale.inputFiles(icon: iconPath))
                if let goldens {
                    // A batch check renders in memory: the golden is DIR/<output path>.
                    let relative = location.relative.components
                    // The job's own ignore regions join the command's; its mask replaces it.
                    var compare = goldens.compare
                    compare.ignore += settings.compare.ignore
                    if let mask = settings.compare.mask { compare.mask = mask }
                    job.check = GoldenTarget(
                        golden: OutputLocation(root: goldens.goldens, components: relative),
                        artifacts: OutputLocation(
                            root: goldens.artifacts ?? GoldenTarget.defaultArtifacts,
                            components: Array(relative.dropLast())),
                        update: goldens.update, compare: compare)
                } else {
                    // Templates and manifests name folders per job: they are made if missing.
                    if draft.writes { job.output = .file(location, creatingFolders: true) }
                    if let checkPath, let template = settings.check {
                        let golden = try place(
                            checkPath, template: template, root: nil, wording: wording, field: .check)
                        job.check = GoldenTarget(
                            golden: golden,
                            artifacts: settings.artifacts.map { OutputLocation(root: $0, components: []) },
                            update: settings.update ?? .none, compare: settings.compare)
                    }
                }
                if draft.scales != nil, settings.iconSize == nil, !iconHasScale, scale > 1 {
                    job.notes.append(.upscaledRaster(icon: iconPath, factor: scale))
                }
                if let animation {
                    if let frameText {
                        job.frame = (group: String(label.dropLast(" frame \(frameText)".count)), number: frameText)
                    } else {
                        try animate(&job, animation, settings: settings, wording: wording)
                    }
                }
                jobs.append(job)
            }
        }
        return jobs
    }

    /// Makes `job` write `animation` as one animated file.
    ///
    /// - Throws: the wording's error for a golden check (it compares one image; frames
    ///   written with {frame} are checked one by one) or a format without animation.
    private static func animate(
        _ job: inout RenderJob, _ animation: BadgeAnimation, settings: RenderSettings, wording: Wording
    ) throws(BadgeError) {
        if job.check != nil || settings.check != nil {
            // Named after the output: a manifest job has no "check" key to blame.
            throw wording(
                settings.check != nil ? .check : .output,
                "a golden check compares one image, and --animate writes an animation; write one file a frame with {frame} in the output (e.g. 'frames/{name}-{frame}.png') to check every frame"
            )
        }
        guard Scene.animates(job.encoding.format) else {
            throw wording(
                .output,
                "PDF cannot hold an animation; write .png (APNG), .webp or .svg, or one file a frame with {frame} in the output"
            )
        }
        job.animation = animation
    }

    /// The animation part of a job's request: still without an animation; else the
    /// frame the job shows (`frame`: one file a frame; nil: the whole animation, whose
    /// request is at rest), a pop's old value, and the room expand makes for the
    /// largest frame.
    private static func motion(_ animation: BadgeAnimation?, frame: Int?, settings: RenderSettings)
        -> RenderRequest.Animation
    {
        guard let animation else { return .still }
        return RenderRequest.Animation(
            frame: frame.map { animation.state(at: animation.time(ofFrame: $0)) } ?? .rest,
            room: settings.style.overflow == .expand ? animation.largestScale : 1,
            previousContent: settings.animateFrom.map { .value($0) })
    }

    /// Where an expanded output goes: under `root` (a manifest's output root), or for
    /// a command-line template under the folder written before its first token.
    ///
    /// - Throws: the wording's error when the path leaves its root or names no file.
    private static func place(
        _ path: String, template: String, root: OutputRoot?, wording: Wording, field: Field = .output
    ) throws(BadgeError) -> OutputLocation {
        let effectiveRoot: OutputRoot
        var relative = path
        if let root {
            effectiveRoot = root
        } else {
            guard let fixed = fixedFolder(of: template) else { return OutputLocation(commandLine: path) }
            effectiveRoot = OutputRoot(fixed)
            // The expansion's own text below the fixed folder (written literally first).
            relative = String(path.dropFirst(fixed == "." ? 0 : fixed.count).drop(while: { $0 == "/" }))
        }
        do throws(OutputRoot.Escape) {
            return try effectiveRoot.location(of: relative)
        } catch {
            let rootText = effectiveRoot.path == "." ? "the working folder" : Quoted(effectiveRoot.path).description
            switch error {
            case .absolute:
                throw wording(
                    field,
                    "\(Quoted(path)) is outside \(rootText) (outputs stay inside it; set another with --output-root)")
            case .climbs:
                throw wording(field, "\(Quoted(path)) leaves \(rootText) (no .. above it)")
            case .noName:
                throw wording(field, "\(Quoted(path)) names no file")
            }
        }
    }

    /// The folder a template writes before its first token (`out/{name}.png` →
    /// `out`; `.` or `/` when the first component has one), or nil without tokens: what
    /// the caller wrote literally is theirs, what tokens expand to must stay inside it.
    static func fixedFolder(of template: String) -> String? {
        guard OutputTemplate.hasTokens(template) else { return nil }
        let parts = template.split(separator: "/", omittingEmptySubsequences: false)
        // A brace ends the fixed part too: `}}` and `{{` expand to one brace, and the
        // fixed folder must read the same before and after expansion.
        guard let first = parts.firstIndex(where: { $0.contains("{") || $0.contains("}") }) else { return nil }
        let fixed = parts[..<first].joined(separator: "/")
        if fixed.isEmpty { return template.hasPrefix("/") ? "/" : "." }
        return fixed
    }

    static func hasScaleToken(_ text: String) -> Bool {
        text.contains("{scale}") || text.contains("{@scale}")
    }

    // MARK: - Scales

    /// `["mdpi", "hdpi"]` or `"mdpi,hdpi"`: Android density qualifiers, none twice.
    package static func parseDensities(_ value: JSONValue, fail: (String) -> BadgeError) throws(BadgeError)
        -> [String]
    {
        var names: [String] = []
        switch value {
        case .array(let items):
            for item in items {
                guard case .string(let text) = item else {
                    throw fail("must be density names, like [\"mdpi\", \"hdpi\"]")
                }
                names.append(text)
            }
        case .string(let text):
            names = text.split(separator: ",").map { String($0.trimmingSpaces()) }
        default:
            throw fail("must be an array of density names, like [\"mdpi\", \"hdpi\", \"xhdpi\"]")
        }
        guard !names.isEmpty else { throw fail("must list at least one density") }
        let known = OutputTemplate.androidDensities.map(\.name)
        for (index, name) in names.enumerated() {
            guard known.contains(name) else {
                throw fail("\(Quoted(name)) is not a density (\(known.joined(separator: ", ")))")
            }
            guard !names[..<index].contains(name) else { throw fail("lists \(Quoted(name)) twice") }
        }
        return names
    }

    /// `[1, 2, 3]` or `"1,2,3"`: each a positive number up to 100, none twice.
    package static func parseScales(_ value: JSONValue, fail: (String) -> BadgeError) throws(BadgeError) -> [Double] {
        switch value {
        case .array(let items):
            var result: [Double] = []
            for item in items {
                guard case .number(let number) = item, number > 0, number <= 100 else {
                    throw fail("must be positive numbers up to 100, like [1, 2, 3]")
                }
                guard !result.contains(number) else {
                    throw fail("lists the scale \(OutputTemplate.scaleText(number)) twice")
                }
                result.append(number)
            }
            guard !result.isEmpty else { throw fail("must list at least one scale") }
            return result
        case .string(let text):
            do throws(BadgeError) {
                return try parseScaleList(text, option: "scales")
            } catch {
                throw fail(error.message)
            }
        default:
            throw fail("must be an array of numbers, like [1, 2, 3]")
        }
    }

    /// `1,2,3` → [1, 2, 3]; each positive, at most 100, no repeats.
    package static func parseScaleList(_ text: String, option: String) throws(BadgeError) -> [Double] {
        var result: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = DecimalNumber.parse(part.trimmingSpaces()), value > 0, value <= 100 else {
                throw .invalidValue(
                    option: option, value: text,
                    problem: "is not a list of scales (use e.g. 1,2,3; each more than 0, up to 100)")
            }
            guard !result.contains(value) else {
                throw .invalidValue(option: option, value: text, problem: "lists a scale twice")
            }
            result.append(value)
        }
        return result
    }
}
