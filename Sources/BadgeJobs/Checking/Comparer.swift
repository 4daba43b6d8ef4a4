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

    /// Compares decoded straight-alpha pixels (fully transparent pixels count as
    /// 0,0,0,0, as `ImageFile` decodes them) under `settings`.
    ///
    /// - Parameters:
    ///   - counting: count every differing pixel (not stop at the first).
    ///   - diffImage: make the diff image (implies counting).
    package static func compare(
        _ actual: PixelBuffer, _ expected: PixelBuffer, settings: CompareSettings, counting: Bool, diffImage: Bool
    ) -> Result {
        var result = ImageDiff.compare(
            actual, expected, options: settings.options(counting: counting, diffImage: diffImage))
        let diff = result.diff
        result.diff = nil
        return Result(
            report: ComparisonReport(result: result, equal: settings.passes(result), settings: settings, diffPath: nil),
            diff: diff)
    }
}
