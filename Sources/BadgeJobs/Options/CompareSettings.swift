import BadgeCore
import BadgeRender

/// How two images are compared, as `compare`, `--check` and `batch --check` take it.
package struct CompareSettings: Equatable, Sendable {
    /// Exact mode: per-channel differences up to this are forgiven (0-255).
    package var tolerance = 0
    /// Perceptual mode (pixelmatch's YIQ distance, 0-1); nil for the exact mode.
    package var threshold: Double?
    /// Perceptual mode: count anti-aliased pixels too.
    package var includeAntialiased = false
    /// The images still match with up to this many differing pixels; nil when not
    /// given (then only `maxDiffRatio` counts, or, without it, 0).
    package var maxDiffPixels: Int?
    /// The images still match with up to this fraction of pixels differing.
    package var maxDiffRatio: Double?
    /// Diff image colour for pixels darker in the actual image.
    package var alternateDarker: Color?

    /// Exact comparison, no budget.
    package init() {}

    /// Refuses options that mean nothing together.
    ///
    /// - Throws: `BadgeError.usage` (64) naming them.
    package func checkCombinations() throws(BadgeError) {
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
    package func options(counting: Bool, diffImage: Bool) -> DiffOptions {
        DiffOptions(
            tolerance: tolerance, threshold: threshold, includeAntialiased: includeAntialiased,
            countAll: counting || diffImage || (maxDiffPixels ?? 0) > 0 || maxDiffRatio != nil, diffImage: diffImage,
            alternateDarker: alternateDarker)
    }

    /// Whether `result` is within the budget: same size, and no more differing pixels
    /// than the budget. Either budget works alone; given both, both must hold (the
    /// stricter wins), as Playwright's `maxDiffPixels` and `maxDiffPixelRatio` do;
    /// given neither, no pixel may differ.
    package func passes(_ result: DiffResult) -> Bool {
        guard result.sameSize else { return false }
        return budgetBroken(result) == nil
    }

    /// The budget `result` breaks ("--max-diff-pixels 10"), or nil.
    package func budgetBroken(_ result: DiffResult) -> String? {
        let differing = result.differentPixels
        if let pixels = maxDiffPixels, differing > pixels { return "--max-diff-pixels \(pixels)" }
        if let ratio = maxDiffRatio {
            if result.totalPixels > 0, Double(differing) / Double(result.totalPixels) > ratio {
                return "--max-diff-ratio \(ValueParsers.format(ratio))"
            }
        } else if maxDiffPixels == nil, differing > 0 {
            return "no budget"
        }
        return nil
    }

    /// The comparison options, shared by every command that compares.
    package static let options: [OptionSpec<CompareSettings>] = [
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
            help: "the images still match with up to N differing pixels (with --max-diff-ratio, both must hold)",
            defaultText: "0 unless --max-diff-ratio is given"
        ) { settings, text throws(BadgeError) in
            settings.maxDiffPixels = try ValueParsers.integer(
                text, option: "--max-diff-pixels", range: 0...Int(Int32.max))
        },
        OptionSpec(
            name: "max-diff-ratio", kind: .value(placeholder: "R"), group: "Comparison",
            help:
                "the images still match with up to this fraction (0-1) of pixels differing, alone or with --max-diff-pixels"
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
