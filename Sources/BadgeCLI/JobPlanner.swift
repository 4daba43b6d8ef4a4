import BadgeCore
import BadgeRender

/// A job ready to render: one manifest entry at one scale.
struct PlannedJob {
    /// `jobs[3]`, or `jobs[3]@2x` when a job renders at several scales.
    var label: String
    var job: BatchJob
    /// Every file the job reads, to refuse an output that would overwrite one.
    var inputs: [String]
}

/// Turns manifest entries into jobs through the render command's option table,
/// so a key is validated exactly as its flag is.
enum JobPlanner {
    /// The jobs of `entry`, one per scale.
    ///
    /// - Parameters:
    ///   - base: settings from the environment, under every entry.
    ///   - scales: the batch's `--scales`, unless the entry has its own `"scales"`.
    /// - Throws: 65 naming `jobs[i].key` and the value when a key is unknown or a
    ///   value is not accepted.
    static func plan(
        _ entry: Manifest.Entry, base: RenderSettings, scales batchScales: [Double]?, manifest: String,
        environment: [String: String]
    ) throws(BadgeError) -> [PlannedJob] {
        let prefix = "jobs[\(entry.index)]"
        func fail(_ key: String?, _ reason: String) -> BadgeError {
            .badInput(path: manifest, reason: key.map { "\(prefix).\($0): \(reason)" } ?? "\(prefix): \(reason)")
        }
        var settings = base
        var icon: String?
        var output: String?
        var scales = batchScales
        let specs = RenderOptions.all
        let ordered = entry.pairs.filter { $0.key == "style" } + entry.pairs.filter { $0.key != "style" }
        for (key, value) in ordered {
            switch key {
            case "icon", "output":
                guard case .string(let text) = value else { throw fail(key, "must be a string, not \(value.kindName)") }
                guard !text.isEmpty else { throw fail(key, "must not be empty") }
                if key == "icon" { icon = text } else { output = text }
                continue
            case "scales":
                scales = try parseScales(value, fail: { fail("scales", $0) })
                continue
            default:
                break
            }
            if Manifest.excludedKeys.contains(key) {
                throw fail(
                    nil,
                    "\(Quoted(key)) is not a manifest key (\(Manifest.excludedKeys.joined(separator: ", ")) are the batch command's own flags or one render's)"
                )
            }
            guard let spec = specs.first(where: { $0.name == key }) else {
                let known = specs.map(\.name).filter { !Manifest.excludedKeys.contains($0) } + Manifest.extraKeys
                let guess = Suggestion.closest(to: key, among: known)
                throw fail(nil, "unknown key \(Quoted(key))" + (guess.map { " (did you mean \($0)?)" } ?? ""))
            }
            var values: [JSONValue] = [value]
            if case .array(let items) = value {
                guard spec.repeatable else { throw fail(key, "takes one value, not an array") }
                values = items
            }
            for item in values {
                guard let text = Manifest.text(item) else {
                    throw fail(key, "must be a string, number or boolean, not \(item.kindName)")
                }
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
        guard let icon else { throw fail(nil, "has no \"icon\"") }
        guard let output else { throw fail(nil, "has no \"output\"") }
        // "scales" would override "scale" silently; a job's own scale or scales already
        // replaced the defaults' (Manifest), so both here is one level giving both.
        if entry.pairs.contains(where: { $0.key == "scale" }) {
            if entry.pairs.contains(where: { $0.key == "scales" }) {
                throw fail("scale", "conflicts with \"scales\": give one")
            }
            if batchScales != nil { throw fail("scale", "conflicts with --scales: give one") }
        }
        let scaleList = scales ?? [settings.scale]
        if scaleList.count > 1, !output.contains("{scale}"), !output.contains("{@scale}") {
            throw fail(
                "output", "\(Quoted(output)) needs {scale} or {@scale}: this job renders at \(scaleList.count) scales")
        }
        let iconHasScale = icon.contains("{scale}") || icon.contains("{@scale}")
        var jobs: [PlannedJob] = []
        for scale in scaleList {
            var perScale = settings
            perScale.scale = scale
            let iconPath: String
            let outputPath: String
            do throws(TemplateError) {
                iconPath = try OutputTemplate.expand(icon, name: "", scale: scale, value: "", ext: "")
                let name = OutputTemplate.baseName(
                    of: try OutputTemplate.expand(icon, name: "", scale: 1, value: "", ext: ""))
                let format = settings.format ?? OutputFormat(path: output) ?? .png
                outputPath = try OutputTemplate.expand(
                    output, name: name, scale: scale, value: settings.value ?? "", ext: format.rawValue)
            } catch {
                throw fail(nil, error.message)
            }
            var request: RenderRequest
            do throws(BadgeError) {
                request = try perScale.request(icon: iconPath)
            } catch {
                throw fail(nil, error.message)
            }
            if scales != nil, !iconHasScale { request.iconRasterScale = scale }
            guard let format = settings.format ?? OutputFormat(path: outputPath) else {
                throw fail(
                    "output", "cannot tell the format of \(Quoted(outputPath)); use .png, .svg or .pdf, or \"format\"")
            }
            let label = scaleList.count > 1 ? "\(prefix)@\(OutputTemplate.scaleText(scale))x" : prefix
            let job = BatchJob(
                index: entry.index, request: request, output: outputPath, format: format,
                compression: settings.pngCompression,
                creationDate: try PDFDate.sourceDateEpoch(environment["SOURCE_DATE_EPOCH"]))
            jobs.append(PlannedJob(label: label, job: job, inputs: perScale.inputFiles(icon: iconPath)))
        }
        return jobs
    }

    /// `[1, 2, 3]` or `"1,2,3"`: each a positive number up to 100.
    static func parseScales(_ value: JSONValue, fail: (String) -> BadgeError) throws(BadgeError) -> [Double] {
        switch value {
        case .array(let items):
            var result: [Double] = []
            for item in items {
                guard case .number(let number) = item, number > 0, number <= 100 else {
                    throw fail("must be positive numbers up to 100, like [1, 2, 3]")
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
    static func parseScaleList(_ text: String, option: String) throws(BadgeError) -> [Double] {
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
