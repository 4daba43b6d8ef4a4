import BadgeCore
import BadgeRender

/// How two images are compared, as `compare`, `--check` and `batch --check` take it.
struct CompareSettings: Equatable, Sendable {
    var tolerance = 0
    var threshold: Double?
    var includeAntialiased = false
    var maxDiffPixels = 0
    var maxDiffRatio: Double?
    var alternateDarker: Color?

    /// Refuses options that mean nothing together.
    ///
    /// - Throws: `BadgeError.usage` (64) naming them.
    func checkCombinations() throws(BadgeError) {
        if threshold != nil, tolerance != 0 {
            throw .usage(
                "--tolerance is for the exact mode; with --threshold, pixelmatch's colour distance decides (use one of them)"
            )
        }
        if threshold == nil, includeAntialiased {
            throw .usage("--include-aa goes with --threshold (anti-aliasing is detected in the perceptual mode only)")
        }
    }

    /// The engine's options; `counting` asks for every differing pixel to be counted.
    func options(counting: Bool, diffImage: Bool) -> DiffOptions {
        DiffOptions(
            tolerance: tolerance, threshold: threshold, includeAntialiased: includeAntialiased,
            countAll: counting || diffImage || maxDiffPixels > 0 || maxDiffRatio != nil, diffImage: diffImage,
            alternateDarker: alternateDarker)
    }

    /// Whether `result` is within the budget: same size, and no more differing pixels
    /// than `--max-diff-pixels` and (when given) than `--max-diff-ratio` of all.
    func passes(_ result: DiffResult) -> Bool {
        guard result.sameSize else { return false }
        if result.differentPixels > maxDiffPixels { return false }
        if let ratio = maxDiffRatio, result.totalPixels > 0,
            Double(result.differentPixels) / Double(result.totalPixels) > ratio
        {
            return false
        }
        return true
    }

    /// The comparison options, shared by every command that compares.
    static let options: [OptionSpec<CompareSettings>] = [
        OptionSpec(
            name: "tolerance", kind: .value(placeholder: "N"), group: "Comparison",
            help: "exact mode: forgive per-channel differences up to N (0-255)", defaultText: "0"
        ) { settings, text throws(BadgeError) in
            settings.tolerance = try ValueParsers.integer(text, option: "--tolerance", range: 0...255)
        },
        OptionSpec(
            name: "threshold", kind: .value(placeholder: "T"), group: "Comparison",
            help: "perceptual mode, pixelmatch-compatible: YIQ colour distance 0-1 (pixelmatch's default is 0.1)"
        ) { settings, text throws(BadgeError) in
            settings.threshold = try ValueParsers.number(text, option: "--threshold", range: 0...1, unit: "")
        },
        OptionSpec(
            name: "include-aa", kind: .flag, group: "Comparison",
            help: "perceptual mode: count anti-aliased pixels as differences too"
        ) { settings, text throws(BadgeError) in
            settings.includeAntialiased = try ValueParsers.bool(text, option: "--include-aa")
        },
        OptionSpec(
            name: "max-diff-pixels", kind: .value(placeholder: "N"), group: "Comparison",
            help: "the images still match with up to N differing pixels", defaultText: "0"
        ) { settings, text throws(BadgeError) in
            settings.maxDiffPixels = try ValueParsers.integer(
                text, option: "--max-diff-pixels", range: 0...Int(Int32.max))
        },
        OptionSpec(
            name: "max-diff-ratio", kind: .value(placeholder: "R"), group: "Comparison",
            help: "the images still match with up to this fraction (0-1) of pixels differing"
        ) { settings, text throws(BadgeError) in
            settings.maxDiffRatio = try ValueParsers.number(text, option: "--max-diff-ratio", range: 0...1, unit: "")
        },
        OptionSpec(
            name: "diff-color-alt", kind: .value(placeholder: "COLOR"), group: "Comparison",
            help: "diff image: colour for pixels darker in the actual image (default: red like the rest)"
        ) { settings, text throws(BadgeError) in
            settings.alternateDarker = try ValueParsers.color(text, option: "--diff-color-alt")
        },
    ]
}

/// The outcome of one comparison, in the stable shape `--json` prints.
struct ComparisonReport: Sendable {
    var result: DiffResult
    var equal: Bool
    var settings: CompareSettings
    var diffPath: String?

    var reason: String { result.sameSize ? (result.differentPixels == 0 ? "same" : "pixels") : "size" }

    /// `compare --json`: schema 1, documented in the README.
    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("schema", .number(1)),
            ("equal", .bool(equal)),
            ("reason", .string(reason)),
            ("differentPixels", .number(Double(result.differentPixels))),
            ("totalPixels", .number(Double(result.totalPixels))),
            ("antialiasedPixels", .number(Double(result.antialiasedPixels))),
            ("maxChannelDelta", .number(Double(result.maxChannelDelta))),
            ("width", .number(Double(result.width))),
            ("height", .number(Double(result.height))),
            ("expectedWidth", .number(Double(result.expectedWidth))),
            ("expectedHeight", .number(Double(result.expectedHeight))),
            ("mode", .string(settings.threshold == nil ? "exact" : "perceptual")),
            ("tolerance", .number(Double(settings.tolerance))),
            ("threshold", settings.threshold.map { .number($0) } ?? .null),
            ("maxDiffPixels", .number(Double(settings.maxDiffPixels))),
            ("maxDiffRatio", settings.maxDiffRatio.map { .number($0) } ?? .null),
            ("countComplete", .bool(!result.stoppedEarly)),
        ]
        members.append(("diff", diffPath.map { .string($0) } ?? .null))
        return .object(members)
    }

    /// One human line.
    var line: String {
        guard result.sameSize else {
            return
                "different: sizes differ (actual \(result.width) × \(result.height), expected \(result.expectedWidth) × \(result.expectedHeight))"
        }
        if result.stoppedEarly {
            return "different: pixels differ (stopped at the first; --json or --diff counts them)"
        }
        let total = result.totalPixels
        let percent = total > 0 ? Double(result.differentPixels) * 100 / Double(total) : 0
        let counted =
            "\(result.differentPixels) of \(total) pixels differ (\(ValueParsers.format((percent * 1000).rounded() / 1000))%)"
        let aa = result.antialiasedPixels > 0 ? ", \(result.antialiasedPixels) anti-aliased not counted" : ""
        if equal {
            return result.differentPixels == 0
                ? "same: \(total) pixels equal\(aa)" : "same within budget: \(counted)\(aa)"
        }
        return "different: \(counted), largest channel difference \(result.maxChannelDelta)\(aa)"
    }
}
