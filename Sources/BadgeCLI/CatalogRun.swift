import BadgeCore
import BadgeJobs
import BadgeRender

/// What `appiconset` and `android` say about a run as a whole: the size advice of a
/// badge too large for its images, and how many images got a dot or no badge.
enum CatalogRun {
    /// The option that sizes the badge in a catalog command, for the advice of a badge
    /// too large for its shape: `--dot-size` for a dot, `--height` when that was given,
    /// else `--relative-size` with the largest value at which every image that failed
    /// for its size fits (`RelativeSizeProbe`). Probed only when some job failed so.
    static func sizeAdvice(
        _ outcomes: [JobOutcome], jobs: [RenderJob], settings: RenderSettings, relativeSize: Double
    ) -> ErrorWording.SizeAdvice {
        if settings.dot { return .dotSize }
        if settings.heightGiven, !settings.relativeSizeGiven { return .height }
        var failed: [RenderRequest] = []
        for (outcome, job) in zip(outcomes, jobs) {
            if case .failure(let error) = outcome.result, RelativeSizeProbe.isTooLarge(error) {
                failed.append(job.request)
            }
        }
        guard !failed.isEmpty else { return .relativeSize(largest: nil) }
        return .relativeSize(largest: RelativeSizeProbe.largestFitting(failed, below: relativeSize))
    }

    /// ` (4 as dots)`, ` (4 as dots, 1 without a badge)`: the images whose text was
    /// too small to read and became a dot, a band without its text, or nothing
    /// (`--small-text`); "" when every image shows its text.
    static func smallSlots(_ outcomes: [JobOutcome]) -> String {
        var dots = 0
        var bands = 0
        var hidden = 0
        for outcome in outcomes {
            for case .render(.smallText(_, _, let became)) in outcome.diagnostics {
                switch became {
                case .dot: dots += 1
                case .bandWithoutText: bands += 1
                case .hidden: hidden += 1
                }
                break
            }
        }
        var parts: [String] = []
        if dots > 0 { parts.append("\(dots) as \(dots == 1 ? "a dot" : "dots")") }
        if bands > 0 { parts.append("\(bands) without \(bands == 1 ? "its" : "their") text") }
        if hidden > 0 { parts.append("\(hidden) without a badge") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    /// Writes the contact sheet `make` builds to `path` after the set was written:
    /// one line saying where, or, when it fails, the error with a word that the set
    /// itself was written (its exit code is the error's).
    static func writePreview(
        to path: String, command: String, io: CommandIO, make: () throws(BadgeError) -> ContactSheet
    ) -> ExitCode {
        do throws(BadgeError) {
            let sheet = try make()
            try PreviewOutput.write(sheet, to: path, limits: ImageLimits())
            io.writeErr("iconbadge: \(command): preview in \(Quoted(path)) (\(PreviewOutput.tileCount(sheet)))\n")
            return .success
        } catch {
            io.error("\(command): the badged icons were written, their preview was not: \(ErrorWording.message(error))")
            return error.exitCode
        }
    }
}
