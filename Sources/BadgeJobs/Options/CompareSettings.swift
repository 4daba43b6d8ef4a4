import BadgeCore
import BadgeRender
import BadgeSystem

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
    /// Rectangles not compared (`--ignore`, repeatable), in pixels or percent of the
    /// expected image's size; their union with the mask's pixels is skipped.
    package var ignore: [IgnoreRegion] = []
    /// A mask image (`--mask`) the size of the expected image: where it is dark or
    /// transparent (``IgnoreMap/maskIgnores(_:)``), pixels are not compared.
    package var mask: String?
    /// Compare the colour a PNG stores under fully transparent pixels too
    /// (`--stored-color`) instead of taking every such pixel as (0, 0, 0, 0).
    package var storedColor = false

    /// Exact comparison, no budget.
    package init() {}

    /// The most `--ignore` rectangles one comparison takes (command and job together).
    package static let maxIgnoreRegions = 256

    /// The mask image, decoded once for many comparisons (a directory check), or nil
    /// without one.
    ///
    /// - Throws: as `ignoreMap`: 66 missing, 65 not an image or over a limit.
    package func decodeMask(limits: ImageLimits) throws(BadgeError) -> PixelBuffer? {
        guard let mask else { return nil }
        // ImageFile.pixels(at:limits:) with the mask named in "no such ..." messages.
        let bytes = try InputFile.bytes(at: mask, limit: limits.maxRasterBytes, what: "mask image")
        return try ImageFile.pixels(of: bytes, path: mask, limits: limits)
    }

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
        // Values that accept any image would make a check that cannot fail.
        if tolerance == 255 {
            throw .invalidValue(
                option: "--tolerance", value: "255",
                problem: "forgives every change, so no image could fail; give at most 254")
        }
        if threshold == 1 {
            throw .invalidValue(
                option: "--threshold", value: "1",
                problem: "is the largest colour distance there is, so no pixel could differ; give less than 1")
        }
        if maxDiffRatio == 1 {
            throw .invalidValue(
                option: "--max-diff-ratio", value: "1",
                problem: "lets every pixel differ, so no image could fail; give less than 1")
        }
    }

    /// The pixels not compared for an expected image of `width` × `height` pixels: the
    /// `--ignore` rectangles (percentages of that size) and the `--mask` image, read
    /// from disk under `limits`; nil when neither is given.
    ///
    /// - Throws: 66 when the mask is missing or unreadable, 65 when it is not an image
    ///   iconbadge reads, is over a limit, or is not `width` × `height` (both sizes named).
    package func ignoreMap(
        width: Int, height: Int, limits: ImageLimits, decodedMask: PixelBuffer? = nil
    ) throws(BadgeError)
        -> IgnoreMap?
    {
        guard !ignore.isEmpty || mask != nil else { return nil }
        // Each rectangle costs its area: a bound keeps a manifest's list from costing
        // minutes (a mask covers any shape).
        guard ignore.count <= Self.maxIgnoreRegions else {
            throw .invalidValue(
                option: "--ignore", value: "\(ignore.count) rectangles",
                problem: "is over the limit of \(Self.maxIgnoreRegions); draw the shape as a --mask image")
        }
        // A rectangle that misses the image ignores nothing: most likely a typo, or
        // pixels meant for a larger golden.
        for region in ignore where region.pixelRect(width: width, height: height) == nil {
            throw .invalidValue(
                option: "--ignore", value: region.description,
                problem: "lies outside the \(width) × \(height) image, so it ignores nothing; fix the rectangle")
        }
        var maskPixels = decodedMask
        if maskPixels == nil { maskPixels = try decodeMask(limits: limits) }
        return try IgnoreMap(
            width: width, height: height, regions: ignore, mask: maskPixels, maskPath: mask ?? "mask")
    }

    /// The engine's options; `counting` asks for every differing pixel to be counted.
    package func options(counting: Bool, diffImage: Bool) -> DiffOptions {
        DiffOptions(
            tolerance: tolerance, threshold: threshold, includeAntialiased: includeAntialiased,
            countAll: counting || diffImage || (maxDiffPixels ?? 0) > 0 || maxDiffRatio != nil, diffImage: diffImage,
            alternateDarker: alternateDarker, unchangedOpacity: Self.diffBackgroundOpacity)
    }

    /// How much of the expected image the diff image shows behind the changed pixels:
    /// 0.3 (pixelmatch's own default, 0.1, leaves a light page nearly white at 1×, so the
    /// red pixels lose their context; at 0.3 black text is a mid grey, 178, and the red
    /// still stands out).
    package static let diffBackgroundOpacity = 0.3

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
            help: "exact mode: forgive per-channel differences up to N (0-255)", defaultText: "0",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.tolerance = try ValueParsers.integer(text, option: "--tolerance", range: 0...255)
        },
        OptionSpec(
            name: "threshold", kind: .value(placeholder: "T"), group: "Comparison",
            help: "perceptual mode, pixelmatch-compatible: YIQ colour distance 0-1 (pixelmatch's default is 0.1)",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.threshold = try ValueParsers.number(text, option: "--threshold", range: 0...1, unit: "")
        },
        OptionSpec(
            name: "include-aa", kind: .flag, group: "Comparison",
            help: "perceptual mode: count anti-aliased pixels as differences too", fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.includeAntialiased = try ValueParsers.bool(text, option: "--include-aa")
        },
        OptionSpec(
            name: "max-diff-pixels", kind: .value(placeholder: "N"), group: "Comparison",
            help: "the images still match with up to N differing pixels (with --max-diff-ratio, both must hold)",
            defaultText: "0 unless --max-diff-ratio is given", fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.maxDiffPixels = try ValueParsers.integer(
                text, option: "--max-diff-pixels", range: 0...Int(Int32.max))
        },
        OptionSpec(
            name: "max-diff-ratio", kind: .value(placeholder: "R"), group: "Comparison",
            help:
                "the images still match with up to this fraction (0-1) of all pixels (ignored ones included) differing, alone or with --max-diff-pixels",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.maxDiffRatio = try ValueParsers.number(text, option: "--max-diff-ratio", range: 0...1, unit: "")
        },
        OptionSpec(
            name: "diff-color-alt", kind: .value(placeholder: "COLOR"), group: "Comparison",
            help: "diff image: colour for pixels darker in the actual image (default: red like the rest)",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.alternateDarker = try ValueParsers.color(text, option: "--diff-color-alt")
        },
        OptionSpec(
            name: "ignore", kind: .value(placeholder: "X,Y,W,H"), group: "Comparison",
            help:
                "do not compare this rectangle: pixels (10) or percent of the expected image's width/height (12.5%); partly covered pixels are ignored too",
            fromEnvironment: false, repeatable: true
        ) { settings, text throws(BadgeError) in
            settings.ignore.append(try ValueParsers.ignoreRegion(text, option: "--ignore"))
        },
        OptionSpec(
            name: "mask", kind: .value(placeholder: "PATH"), group: "Comparison",
            help:
                "an image the expected image's size: pixels under its dark or transparent areas (luma over black below 128) are not compared",
            completion: .file, fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            guard text != "-" else {
                throw .invalidValue(
                    option: "--mask", value: text, problem: "is standard input; give the mask as a file path")
            }
            settings.mask = text
        },
        OptionSpec(
            name: "stored-color", kind: .flag, group: "Comparison",
            help:
                "also compare the colour a PNG stores under fully transparent pixels (otherwise they count as 0,0,0,0; other formats cannot keep it)",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.storedColor = try ValueParsers.bool(text, option: "--stored-color")
        },
    ]
}
