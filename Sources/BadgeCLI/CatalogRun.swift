import BadgeCore
import BadgeJobs
import BadgeRender
import Synchronization

/// What `appiconset` and `android` say about a run as a whole: the size advice of a
/// badge too large for its images, and how many images got a dot or no badge; and the
/// run once more at a smaller size when the default size does not fit.
enum CatalogRun {
    /// How one run of a catalog command ended: with its exit code, or, at the default
    /// size, with the badge too large for some images and the relative size (a
    /// fraction) at which every image fits.
    enum Attempt {
        case finished(ExitCode)
        case shrink(to: Double, tooLarge: Int, of: Int)
    }

    /// Runs a catalog command's `attempt` at `catalog.relativeSize`. When the size is the
    /// default one (no `--relative-size` and no `--height` for any badge, nor their
    /// `ICONBADGE_` variables; not a dot) and the badge is
    /// too large for some images, it runs once more at the largest relative size that
    /// fits every image, with one note saying so: a long label (`DEBUG`, `STAGING`,
    /// `BETA 1234`) then works without knowing the figure. The first run's messages
    /// are held back: printed when it stands or is refused, dropped when it runs
    /// again (it wrote nothing: a set is all or nothing). The images of that first run
    /// are drawn twice then; only a run that would have failed pays for it.
    ///
    /// - Parameter attempt: one run at a relative size; `shrinkable` tells it whether
    ///   it may end with `.shrink` instead of reporting its failures.
    /// - Throws: what `attempt` throws.
    static func shrinkingToFit(
        command: String, catalog: CatalogSettings, settings: RenderSettings, io: CommandIO,
        _ attempt: (_ relativeSize: Double, _ shrinkable: Bool, _ io: CommandIO) throws(BadgeError) -> Attempt
    ) throws(BadgeError) -> ExitCode {
        let relativeSize = catalog.relativeSize
        guard !catalog.relativeSizeGiven, !givesHeight(settings), !settings.dot else {
            return try finished(attempt(relativeSize, false, io))
        }
        let held = HeldOutput()
        var quiet = io
        quiet.writeOut = { text in held.append(1, text) }
        quiet.writeErr = { text in held.append(2, text) }
        quiet.stderrIsTerminal = false
        let first: Attempt
        do throws(BadgeError) {
            first = try attempt(relativeSize, true, quiet)
        } catch {
            // Refused before anything was drawn (73, 64, …): its notes still stand.
            held.replay(into: io)
            throw error
        }
        switch first {
        case .finished(let code):
            held.replay(into: io)
            return code
        case .shrink(let smaller, let tooLarge, let total):
            let which = total == 1 ? "" : " for \(tooLarge) of the \(total) images it draws"
            let drawn = total == 1 ? "drawn" : "every image drawn"
            io.note(
                "\(command): the badge is too large\(which) at the default --relative-size \(RenderProblem.pixels(relativeSize)); \(drawn) at \(RenderProblem.pixels(smaller)) (--relative-size sets it)"
            )
            return try finished(attempt(smaller, false, io))
        }
    }

    /// Whether any badge of `settings` was given a height (`--height`, or
    /// `ICONBADGE_HEIGHT`): the relative size does not size it.
    private static func givesHeight(_ settings: RenderSettings) -> Bool {
        settings.heightGiven || settings.moreBadges.contains(where: \.heightGiven)
    }

    /// The exit code of a run that was not allowed to shrink.
    private static func finished(_ attempt: Attempt) -> ExitCode {
        if case .finished(let code) = attempt { return code }
        return .software
    }

    /// The smallest relative size a run shrinks to by itself: half the default 0.3.
    /// A label that needs less is no longer the marker the default was chosen for, and
    /// a badge that small is rather a mistake; the error then names the figure.
    static let smallestShrunkSize = 0.15

    /// The relative size a run at the default size shrinks to: when every image that
    /// failed did so only for a badge too large for its shape or canvas, the largest
    /// relative size below `relativeSize` at which all of them fit
    /// (`RelativeSizeProbe`), and the number of images that failed; nil when nothing
    /// failed, something failed otherwise, or only a size under `smallestShrunkSize`
    /// fits.
    static func shrunkSize(_ outcomes: [JobOutcome], jobs: [RenderJob], relativeSize: Double) -> (Double, Int)? {
        var failed: [RenderRequest] = []
        for (outcome, job) in zip(outcomes, jobs) {
            guard case .failure(let error) = outcome.result else { continue }
            guard RelativeSizeProbe.isTooLarge(error) else { return nil }
            failed.append(job.request)
        }
        guard !failed.isEmpty, let smaller = RelativeSizeProbe.largestFitting(failed, below: relativeSize),
            smaller >= smallestShrunkSize
        else { return nil }
        return (smaller, failed.count)
    }

    /// The option that sizes the badge in a catalog command, for the advice of a badge
    /// too large for its shape: `--dot-size` for a dot, `--height` when that was given,
    /// else `--relative-size` with the largest value at which every image that failed
    /// for its size fits (`RelativeSizeProbe`). Probed only when some job failed so.
    static func sizeAdvice(
        _ outcomes: [JobOutcome], jobs: [RenderJob], settings: RenderSettings, relativeSize: Double
    ) -> ErrorWording.SizeAdvice {
        if settings.dot { return .dotSize }
        // A height given to any badge (`--and … --height 30%`) is what to change: the
        // relative size does not size that badge.
        if givesHeight(settings), !settings.relativeSizeGiven { return .height }
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

    /// Writes the contact sheet `make` builds to `path` after the set was written (its
    /// missing folders made, as `--out`'s are), its images read within the run's
    /// `limits`: one line saying where, or, when it fails, the error with a word that the set
    /// itself was written (its exit code is the error's).
    static func writePreview(
        to path: String, command: String, limits: ImageLimits, io: CommandIO,
        make: () throws(BadgeError) -> ContactSheet
    ) -> ExitCode {
        do throws(BadgeError) {
            let sheet = try make()
            try PreviewOutput.write(sheet, to: path, limits: limits, creatingFolders: true)
            io.writeErr("iconbadge: \(command): preview in \(Quoted(path)) (\(PreviewOutput.tileCount(sheet)))\n")
            return .success
        } catch {
            io.error("\(command): the badged icons were written, their preview was not: \(ErrorWording.message(error))")
            return error.exitCode
        }
    }
}

/// Standard output and error held back in order (file descriptor, text), to be
/// written later or dropped: the first run of a catalog command that may run again.
private final class HeldOutput: Sendable {
    private let texts = Mutex<[(Int32, String)]>([])

    func append(_ descriptor: Int32, _ text: String) { texts.withLock { $0.append((descriptor, text)) } }

    func replay(into io: CommandIO) {
        for (descriptor, text) in texts.withLock({ $0 }) {
            if descriptor == 1 { io.writeOut(text) } else { io.writeErr(text) }
        }
    }
}
