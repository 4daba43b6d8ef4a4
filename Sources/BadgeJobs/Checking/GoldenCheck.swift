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
    }

    /// Compares `composition` with the golden (decoded pixels), or with `update` writes
    /// it as the golden (atomically, in the golden's format by extension) unless its
    /// pixels are already the same. An SVG golden is compared like with like: the fresh
    /// SVG and the golden are both decoded by librsvg.
    ///
    /// - Parameter encoderThreads: threads for a large PNG (0: one per available CPU).
    /// - Throws: 64 for a PDF golden (iconbadge cannot read PDF); 66 when the golden is
    ///   missing (without `update`); read, decode and write errors (65, 73, 74).
    package static func run(
        _ composition: Composition, target: GoldenTarget, compression: PNGCompression, encoderThreads: Int = 0
    ) throws(BadgeError) -> Outcome {
        let golden = target.golden.description
        let format = OutputFormat(path: golden) ?? .png
        guard format != .pdf else {
            throw .usage(
                "--check \(Quoted(golden)): goldens are compared as pixels, and PDF cannot be read; use .png or .svg")
        }
        let bytes = try composition.data(format: format, compression: compression, encoderThreads: encoderThreads)
        let actual = format == .svg ? try ImageFile.pixels(of: bytes, path: golden) : try composition.pixels()
        let exists = InputFile.isRegularFile(golden)
        if target.update {
            if exists, let current = try? ImageFile.pixels(at: golden), current == actual {
                return Outcome(status: .unchanged)
            }
            try OutputFile.write(bytes, to: target.golden, creatingFolders: true)
            return Outcome(status: exists ? .updated : .created)
        }
        guard exists else {
            throw .missingInput(path: golden, reason: "no such golden image (create it with --update)")
        }
        let expected = try ImageFile.pixels(at: golden, keepTransparentColor: target.compare.storedColor)
        let result = try Comparer.compare(actual, expected, settings: target.compare, counting: true, diffImage: true)
        guard !result.equal else { return Outcome(status: .matched, report: result.report) }
        var report = result.report
        var written = [target.actual]
        try OutputFile.write(
            try ImageFile.pngData(of: actual, compression: compression), to: target.actual, creatingFolders: true)
        if let diff = result.diff {
            try OutputFile.write(try ImageFile.pngData(of: diff), to: target.diff, creatingFolders: true)
            report.diffPath = target.diff.description
            written.append(target.diff)
        }
        return Outcome(status: .different, report: report, artifacts: written)
    }
}
