import BadgeCore
import BadgeRender
import BadgeSystem

/// A render checked against (or written as) its golden image: `--check`, each job of
/// `batch --check`, and the test suite's own golden tests.
package enum GoldenCheck {
    /// What a check found.
    package enum Status: String, Sendable {
        /// The pixels match (within the budget).
        case matched
        /// The pixels differ beyond the budget, or the sizes differ.
        case different
        /// `update`: no golden existed; it was written.
        case created
        /// `update`: the golden's pixels differed; it was rewritten.
        case updated
        /// `update`: the golden's pixels were already the same; nothing was written.
        case unchanged
    }

    /// A check's result.
    package struct Outcome: Sendable {
        /// What was found.
        package var status: Status
        /// The comparison, when one was made.
        package var report: ComparisonReport?
        /// The actual image and the diff written for a failure.
        package var artifacts: [OutputLocation] = []
        /// The HTML report's images of this check, when it has a report.
        package var assets = CheckEntry.Assets()
        /// Why an update rewrote a golden it could not compare with (unreadable).
        package var reason: String?
    }

    /// Compares `scene` with the golden (decoded pixels) under the target's
    /// comparison settings. The target's update mode may write the golden instead
    /// (atomically, in the golden's format by extension): a missing one with
    /// `missing` or `all`, one that fails the comparison with `changed` or `all`. A
    /// golden that passes is never rewritten. An SVG golden is compared like with like:
    /// the fresh SVG and the golden are both decoded by librsvg.
    ///
    /// Artifacts (`NAME.actual.png`, `NAME.diff.png`) are written for a failure and
    /// removed otherwise, so the artifacts folder shows the last run only.
    ///
    /// - Parameters:
    ///   - limits: the run's limits (`--max-side`, `--max-pixels`, …), which the golden,
    ///     an SVG render decoded to be compared, and the mask are read within.
    ///   - encoderThreads: threads for a large PNG (0: one per available CPU).
    /// - Throws: 64 for a PDF golden (iconbadge cannot read PDF); 66 when the golden is
    ///   missing and the mode does not create it; read, decode and write errors (65,
    ///   73, 74), 65 for a golden over `limits`.
    package static func run(
        _ scene: Scene, target: GoldenTarget, limits: ImageLimits, compression: PNGCompression,
        encoderThreads: Int = 0
    ) throws(BadgeError) -> Outcome {
        let golden = target.golden.description
        let format = OutputFormat(path: golden) ?? .png
        guard format != .pdf else {
            throw .usage(
                "--check \(Quoted(golden)): goldens are compared as pixels, and PDF cannot be read; use .png or .svg")
        }
        let bytes: [UInt8]
        let actual: PixelBuffer
        if format == .png {
            // One raster for the bytes and the pixels compared.
            let raster = try scene.raster()
            bytes = try raster.pngData(compression: compression, encoderThreads: encoderThreads)
            actual = raster.pixels()
        } else {
            bytes = try scene.data(format: format, compression: compression, encoderThreads: encoderThreads)
            actual = format == .svg ? try ImageFile.pixels(of: bytes, path: golden, limits: limits) : try scene.pixels()
        }
        guard InputFile.isRegularFile(golden) else {
            guard target.update.createsMissing else {
                throw .missingInput(
                    path: golden,
                    reason:
                        "no such golden image (create it with --update missing, or --update for missing and changed)")
            }
            try OutputFile.write(bytes, to: target.golden, creatingFolders: true)
            try removeArtifacts(target)
            var outcome = Outcome(status: .created)
            outcome.assets.actual = try target.reportAssets?.write(actual, role: .actual)
            outcome.assets.expected = outcome.assets.actual
            return outcome
        }
        let expected: PixelBuffer
        do throws(BadgeError) {
            let goldenBytes = try InputFile.bytes(
                at: target.golden, limit: limits.maxRasterBytes, what: "golden image")
            // An unchanged render (the golden's very bytes) is not decoded again: its
            // pixels are the render's. (--stored-color reads what the file stores under
            // alpha 0, which only a decode gives.)
            expected =
                goldenBytes == bytes && !target.compare.storedColor
                ? actual
                : try ImageFile.pixels(
                    of: goldenBytes, path: golden, limits: limits, keepTransparentColor: target.compare.storedColor)
        } catch {
            // A golden that cannot be read fails; an update that rewrites failing
            // goldens replaces it (never through a link: OutputFile refuses one).
            guard target.update.rewritesChanged else { throw error }
            try OutputFile.write(bytes, to: target.golden, creatingFolders: true)
            try removeArtifacts(target)
            var outcome = Outcome(status: .updated)
            outcome.reason = "the old one could not be read: \(error.message)"
            return outcome
        }
        let result = try Comparer.compare(
            actual, expected, settings: target.compare, counting: true, diffImage: true, limits: limits)
        var assets = CheckEntry.Assets()
        if let report = target.reportAssets {
            assets.actual = try report.write(actual, role: .actual)
            assets.expected = actual == expected ? assets.actual : try report.write(expected, role: .expected)
            if !result.equal, let diff = result.diff { assets.diff = try report.write(diff, role: .diff) }
        }
        guard !result.equal else {
            try removeArtifacts(target)
            return Outcome(
                status: target.update == .none ? .matched : .unchanged, report: result.report, assets: assets)
        }
        if target.update.rewritesChanged {
            try OutputFile.write(bytes, to: target.golden, creatingFolders: true)
            try removeArtifacts(target)
            return Outcome(status: .updated, report: result.report, assets: assets)
        }
        var report = result.report
        var written = [target.actual]
        try OutputFile.write(
            try ImageFile.pngData(of: actual, compression: compression), to: target.actual, creatingFolders: true)
        if let diff = result.diff {
            // A diff image is looked at once, then deleted: fast compression (same pixels).
            try OutputFile.write(
                try ImageFile.pngData(of: diff, compression: .fast), to: target.diff, creatingFolders: true)
            report.diffPath = target.diff.description
            written.append(target.diff)
        } else {
            try OutputFile.removeIfPresent(target.diff)
        }
        return Outcome(status: .different, report: report, artifacts: written, assets: assets)
    }

    /// Removes a target's artifacts left by an earlier failing run.
    ///
    /// - Throws: 73 when a folder on the way is a link, or a file cannot be removed.
    static func removeArtifacts(_ target: GoldenTarget) throws(BadgeError) {
        try OutputFile.removeIfPresent(target.actual)
        try OutputFile.removeIfPresent(target.diff)
    }
}
