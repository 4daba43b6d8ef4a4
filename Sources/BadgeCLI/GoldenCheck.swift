import BadgeCore
import BadgeSystem
import BadgeRender

/// A render checked against (or written as) its golden image: the one-line CI
/// step of `--check`, and each job of `batch --check`.
enum GoldenCheck {
    enum Status: String, Sendable {
        case matched, different, created, updated, unchanged
    }

    struct Outcome: Sendable {
        var status: Status
        var report: ComparisonReport?
        /// The actual image and the diff written for a failure.
        var artifacts: [String] = []

        /// One line for a log.
        func line(golden: String) -> String {
            switch status {
            case .matched: return "check: \(golden): \(report?.line ?? "same")"
            case .different:
                var text = "check: \(golden): \(report?.line ?? "different")"
                for path in artifacts { text += "\n  wrote \(path)" }
                return text
            case .created: return "check: \(golden): created"
            case .updated: return "check: \(golden): updated (it differed)"
            case .unchanged: return "check: \(golden): unchanged"
            }
        }
    }

    /// Compares `composition` with `golden` (decoded pixels), or with `update`
    /// writes it as the golden (atomically, in the golden's format by extension)
    /// unless its pixels are already the same. An SVG golden is compared like with
    /// like: the fresh SVG and the golden are both decoded by librsvg. A PDF golden is
    /// refused (iconbadge cannot read PDF).
    ///
    /// - Parameters:
    ///   - artifacts: the folder for `NAME.actual.png` and `NAME.diff.png` when the
    ///     images differ; nil puts them beside the golden.
    ///   - inputs: files the artifacts must not overwrite.
    ///   - encoderThreads: threads for a large PNG (0: one per available CPU).
    /// - Throws: 64 for a PDF golden or an artifact that would overwrite an input; 66
    ///   when the golden is missing (without `update`); read, decode, write errors.
    static func run(
        _ composition: Composition, golden: String, settings: CompareSettings, artifacts: String?, update: Bool,
        compression: PNGCompression, inputs: [String], encoderThreads: Int = 0
    ) throws(BadgeError) -> Outcome {
        let format = OutputFormat(path: golden) ?? .png
        guard format != .pdf else {
            throw .usage(
                "--check \(Quoted(golden)): goldens are compared as pixels, and PDF cannot be read; use .png or .svg")
        }
        let bytes = try composition.data(format: format, compression: compression, encoderThreads: encoderThreads)
        let actual = format == .svg ? try ImageFile.pixels(of: bytes, path: golden) : try composition.pixels()
        let exists = InputFile.isRegularFile(golden)
        if update {
            if exists, let current = try? ImageFile.pixels(at: golden), current == actual {
                return Outcome(status: .unchanged)
            }
            try OutputFile.write(bytes, to: golden, creatingFolders: true)
            return Outcome(status: exists ? .updated : .created)
        }
        guard exists else {
            throw .missingInput(path: golden, reason: "no such golden image (create it with --update)")
        }
        let expected = try ImageFile.pixels(at: golden)
        var report = try CompareCommand.compare(actual, expected, settings: settings, counting: true, diffPath: nil)
        guard !report.equal else { return Outcome(status: .matched, report: report) }
        let folder = artifacts ?? OutputFile.parentFolder(of: golden)
        let name = OutputTemplate.baseName(of: golden)
        let actualPath = folder + "/" + name + ".actual.png"
        let diffPath = folder + "/" + name + ".diff.png"
        for path in [actualPath, diffPath] {
            try RenderCommand.checkNotInput(output: path, inputs: inputs + [golden], option: "--check's artifact")
        }
        var written = [actualPath]
        try OutputFile.write(
            try ImageFile.pngData(of: actual, compression: compression), to: actualPath, creatingFolders: true)
        if report.result.sameSize {
            report = try CompareCommand.compare(
                actual, expected, settings: settings, counting: true, diffPath: diffPath)
            written.append(diffPath)
        }
        return Outcome(status: .different, report: report, artifacts: written)
    }
}
