import BadgeCore
import BadgeJobs
import Synchronization

/// How `appiconset` and `android` word a catalog run (`CatalogTransaction`): its
/// notes and renders' reports on standard error, held back while a first run may
/// run again; how many images got a dot or no badge; where the preview went.
struct CatalogWording: CatalogMessages {
    let io: CommandIO
    /// The command's name, before every note (`android: …`).
    let command: String

    func note(_ text: String) { io.note("\(command): \(text)") }

    func report(_ outcomes: [JobOutcome], jobs: [RenderJob], advice: SizeAdvice) {
        _ = Reporter(io: io, advice: advice).report(outcomes, jobs: jobs, checkLines: .notable)
    }

    func holding() -> (messages: any CatalogMessages, replay: () -> Void) {
        let held = HeldOutput()
        var quiet = io
        quiet.writeOut = { text in held.append(1, text) }
        quiet.writeErr = { text in held.append(2, text) }
        quiet.stderrIsTerminal = false
        let io = self.io
        return (CatalogWording(io: quiet, command: command), { held.replay(into: io) })
    }

    /// Badges `kind` all or nothing (`CatalogTransaction.badge`) and words how it
    /// ended: nothing to do (0); `nothing written: FAILURE` with the first failure's
    /// exit code; or the summary `committed` says, then the preview to `preview`.
    ///
    /// - Throws: the transaction's refusals (64, 65, 66, 73, 74).
    func badge(
        _ kind: CatalogTransaction.Kind, catalog: CatalogSettings, render: RenderSettings, preview: String?,
        failure: (_ tally: CatalogTally, _ jobs: Int) -> String,
        summary: (CatalogTransaction.Committed) -> Void
    ) throws(BadgeError) -> ExitCode {
        switch try CatalogTransaction.badge(kind, settings: Self.settings(catalog, render: render), messages: self) {
        case .nothing:
            return .success
        case .failed(let tally, let jobs):
            io.writeErr("iconbadge: \(command): nothing written: \(failure(tally, jobs))\n")
            return tally.exitCode
        case .committed(let committed):
            summary(committed)
            return writePreview(of: committed, to: preview, limits: render.limits)
        }
    }

    /// The catalog options with the render settings, for `CatalogTransaction`.
    private static func settings(_ catalog: CatalogSettings, render: RenderSettings) -> CatalogTransaction.Settings {
        var settings = CatalogTransaction.Settings(render: render)
        settings.relativeSize = catalog.relativeSize
        settings.relativeSizeGiven = catalog.relativeSizeGiven
        settings.workers = catalog.jobs
        settings.failIfHidden = catalog.failIfHidden
        settings.replace = catalog.replace
        return settings
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

    /// Writes the contact sheet of what `committed` wrote to `path`, when given: one
    /// line saying where, or, when it fails, the error with a word that the icons
    /// themselves were written (its exit code is the error's). Its images are read
    /// within the run's `limits`.
    private func writePreview(
        of committed: CatalogTransaction.Committed, to path: String?, limits: ImageLimits
    ) -> ExitCode {
        guard let path else { return .success }
        do throws(BadgeError) {
            let tiles = try CatalogTransaction.writePreview(of: committed, to: path, limits: limits)
            io.writeErr("iconbadge: \(command): preview in \(Quoted(path)) (\(tiles))\n")
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
