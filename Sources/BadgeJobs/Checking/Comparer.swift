import BadgeCore

/// The one comparison of the project: `compare`, `--check`, `batch --check` and the
/// test suite's golden tests all compare pixels here.
package enum Comparer {
    /// A comparison's report and, when asked for and the sizes match, its diff image.
    package struct Result: Sendable {
        /// What `--json` prints and the check line says.
        package var report: ComparisonReport
        /// The diff image (straight RGBA), when asked for and the sizes match.
        package var diff: PixelBuffer?
        /// Whether the images count as equal under the settings' budget.
        package var equal: Bool { report.equal }
    }

    /// Compares decoded straight-alpha pixels under `settings`: fully transparent
    /// pixels count as 0,0,0,0 as `ImageFile` decodes them, unless the caller decoded
    /// with the stored colour kept (`settings.storedColor`). The settings' `--ignore`
    /// rectangles and `--mask` are resolved against the expected image's size (the
    /// mask is read from disk here, under `limits`).
    ///
    /// - Parameters:
    ///   - counting: count every differing pixel (not stop at the first).
    ///   - diffImage: make the diff image (implies counting).
    ///   - limits: the limits the mask is decoded under (the images' own).
    ///   - decodedMask: the settings' mask already decoded (a directory check decodes
    ///     it once for every pair), or nil to read it here.
    ///   - bands: the threads the comparison's bands of rows run on (the counts are the
    ///     same with any).
    /// - Throws: 66 when the mask is missing or unreadable; 65 when it is not an image,
    ///   is over a limit, or is not the expected image's size; 64 when nothing is left
    ///   to compare.
    package static func compare(
        _ actual: PixelBuffer, _ expected: PixelBuffer, settings: CompareSettings, counting: Bool, diffImage: Bool,
        limits: ImageLimits, decodedMask: PixelBuffer? = nil, bands: RowBands = .serial
    ) throws(BadgeError) -> Result {
        let ignoring = try checkedIgnoreMap(
            settings, width: expected.width, height: expected.height, limits: limits, decodedMask: decodedMask)
        var result = ImageDiff.compare(
            actual, expected, options: settings.options(counting: counting, diffImage: diffImage), ignoring: ignoring,
            bands: bands)
        let diff = result.diff
        result.diff = nil
        return Result(
            report: ComparisonReport(result: result, equal: settings.passes(result), settings: settings, diffPath: nil),
            diff: diff)
    }

    /// The pixels `settings` leave out of a comparison with an expected image of
    /// `width` × `height` pixels, after refusing what would make a check that cannot
    /// fail.
    ///
    /// - Throws: as `compare`: 66/65 for the mask; 64 when nothing is left to compare
    ///   or the pixel budget lets every pixel differ.
    static func checkedIgnoreMap(
        _ settings: CompareSettings, width: Int, height: Int, limits: ImageLimits, decodedMask: PixelBuffer?
    ) throws(BadgeError) -> IgnoreMap? {
        let ignoring = try settings.ignoreMap(width: width, height: height, limits: limits, decodedMask: decodedMask)
        if let ignoring, ignoring.count > 0, ignoring.count == width * height {
            // A check that compares no pixel cannot fail: refuse it.
            throw .usage(
                "--ignore and --mask leave no pixel of the \(width) × \(height) image to compare; ignore less")
        }
        let total = width * height
        if let pixels = settings.maxDiffPixels, total > 0, pixels >= total {
            throw .invalidValue(
                option: "--max-diff-pixels", value: String(pixels),
                problem:
                    "lets every pixel of the \(width) × \(height) image differ, so it could not fail; give less than \(total)"
            )
        }
        return ignoring
    }
}
