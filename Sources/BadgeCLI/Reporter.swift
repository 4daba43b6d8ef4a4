import BadgeCore
import BadgeJobs
import BadgeSystem

/// Prints job outcomes the same way for every command: each job's notes and
/// warnings, its error, its check line; every path and label escaped (`Shown`,
/// `Quoted`). The command prints its own summary from the returned tally.
struct Reporter {
    let io: CommandIO
    /// The option that sizes the badge in the command in use, for the advice of a
    /// badge too large for its icon.
    var advice: ErrorWording.SizeAdvice = .heightOrDotSize

    init(io: CommandIO, advice: ErrorWording.SizeAdvice = .heightOrDotSize) {
        self.io = io
        self.advice = advice
    }

    /// Which check lines go out: all of them (a lone render, `--scales`), or only the
    /// failures and updates (a batch, whose summary counts the rest).
    enum CheckLines {
        case all
        case notable
    }

    /// Counts of a run, for summaries and the exit code.
    struct Tally {
        var jobs = 0
        var failed = 0
        var firstError: ExitCode?
        /// Checks by status (a list, not a dictionary: a lone render pays no
        /// conformance scan at start).
        var checkCounts: [(status: GoldenCheck.Status, count: Int)] = []

        /// How many checks ended with `status`.
        func checks(_ status: GoldenCheck.Status) -> Int {
            checkCounts.first { $0.status == status }?.count ?? 0
        }

        mutating func count(_ status: GoldenCheck.Status) {
            if let index = checkCounts.firstIndex(where: { $0.status == status }) {
                checkCounts[index].count += 1
            } else {
                checkCounts.append((status, 1))
            }
        }

        /// 0, the first error's code, or 1 when a check found a difference.
        var exitCode: ExitCode {
            if let firstError { return firstError }
            return checks(.different) > 0 ? .different : .success
        }
    }

    /// Prints what `outcomes` (of `jobs`, in order) have to say. A check line goes to
    /// standard error when `checkLinesToStderr` (standard output holds a JSON report).
    func report(
        _ outcomes: [JobOutcome], jobs: [RenderJob], checkLines: CheckLines, checkLinesToStderr: Bool = false
    ) -> Tally {
        var tally = Tally()
        tally.jobs = outcomes.count
        printUpscaleWarnings(outcomes)
        printSixteenBitNote(outcomes)
        printContrastNote(outcomes)
        // The frames of one animation ({frame}) share their notes and, often, their
        // error: each is said once, an error naming the frames it stopped.
        var frameNotes: (group: String, said: Set<String>)?
        var frameError: FrameError?
        func flushFrameError() {
            if let pending = frameError { io.error(pending.line) }
            frameError = nil
        }
        for index in outcomes.indices {
            let outcome = outcomes[index]
            let job = jobs[index]
            // A note shared by frames names their animation, not one frame.
            let named = job.frame?.group ?? outcome.label
            let prefix = named.isEmpty ? "" : "\(Shown(named)): "
            if frameNotes?.group != job.frame?.group { frameNotes = job.frame.map { ($0.group, []) } }
            for diagnostic in outcome.diagnostics {
                if let group = job.frame?.group {
                    let key = "\(diagnostic)"
                    if frameNotes?.said.contains(key) == true { continue }
                    frameNotes = (group, (frameNotes?.said ?? []).union([key]))
                }
                switch diagnostic {
                case .hidden(let reason):
                    let why = reason == .zero ? "the value is 0 (use --show-zero to draw it)" : "the value is empty"
                    io.note("\(prefix)badge hidden: \(why); the output is the icon unchanged")
                case .missingGlyphs(let codePoints, let fontsTried):
                    io.warning(
                        "\(prefix)no font has \(codePoints.joined(separator: " ")) (tried: \(fontsTried.map { Shown($0).description }.joined(separator: ", "))); drawn as a box (--strict-glyphs makes this an error)"
                    )
                case .declaredSize(let file, let declared, let actual):
                    io.warning(
                        "\(Shown(file)): Contents.json says \(declared) px, the file is \(actual) px; badged at \(actual) px"
                    )
                case .upscaledRaster:
                    break  // once per icon, above
                case .offsetIgnored:
                    io.note(
                        "\(prefix)--offset changed nothing: clamp moved the badge to where it goes without it (it already touches the shape's edge; use --overflow clip to let it overhang)"
                    )
                case .render(.notSquare(let platform, let width, let height)):
                    io.note(
                        "\(prefix)the icon is \(width) × \(height) px and \(platform.rawValue) icons are square: its shape is fitted to the shorter side, centred"
                    )
                case .render(.colorNotConverted(let reason)):
                    io.note(
                        "\(prefix)the icon's colour chunks are kept, but the badge's colours are drawn as sRGB: \(reason)"
                    )
                case .render(.sixteenBit), .render(.lowContrast):
                    break  // once per run, above
                case .render(.smallText(let label, let pixels, let became)):
                    // Rounded down: 6.96 px is not "7.0 px, under 7".
                    let size = (pixels * 10).rounded(.down) / 10
                    let outcome: String
                    switch became {
                    case .dot: outcome = "drawn as a dot"
                    case .hidden: outcome = "hidden"
                    case .bandWithoutText: outcome = "the band is drawn without it"
                    }
                    io.note(
                        "\(prefix)the text \(Quoted(label)) would be \(size) px, under --min-text-px: \(outcome) (--small-text keep draws it anyway)"
                    )
                }
            }
            let place = job.check?.golden.description ?? job.output?.description
            if case .failure(let error) = outcome.result, let frame = job.frame {
                tally.failed += 1
                tally.firstError = tally.firstError ?? error.exitCode
                let message = ErrorWording.message(error, advice: advice)
                if frameError?.group == frame.group, frameError?.message == message {
                    frameError?.last = (frame.number, place)
                } else {
                    flushFrameError()
                    frameError = FrameError(group: frame.group, message: message, first: (frame.number, place))
                }
                continue
            }
            flushFrameError()
            switch outcome.result {
            case .failure(let error):
                tally.failed += 1
                tally.firstError = tally.firstError ?? error.exitCode
                let where_ =
                    outcome.label.isEmpty ? "" : "\(Shown(outcome.label))\(place.map { " (\(Shown($0)))" } ?? ""): "
                io.error(where_ + ErrorWording.message(error, advice: advice))
            case .success(let done):
                guard let check = done.check, let target = job.check else { continue }
                tally.count(check.status)
                guard checkLines == .all || check.status == .different || target.update != .none else { continue }
                // A batch's line names its job, as its HTML report and merged lines do.
                let line =
                    Reporter.checkLine(
                        check, golden: target.golden.description, job: checkLines == .notable ? job.label : "") + "\n"
                if checkLinesToStderr { io.writeErr(line) } else { io.writeOut(line) }
            }
        }
        flushFrameError()
        return tally
    }

    /// One error shared by consecutive frames of an animation, said once: "frames 00
    /// to 12 (out/00.png to out/12.png): …", or as any job's for a single frame.
    struct FrameError {
        var group: String
        var message: String
        var first: (number: String, place: String?)
        var last: (number: String, place: String?)?

        init(group: String, message: String, first: (number: String, place: String?)) {
            self.group = group
            self.message = message
            self.first = first
        }

        var line: String {
            let base = group.isEmpty ? "" : "\(Shown(group)) "
            guard let last else {
                return "\(base)frame \(first.number)\(first.place.map { " (\(Shown($0)))" } ?? ""): \(message)"
            }
            let places = first.place.flatMap { a in last.place.map { b in " (\(Shown(a)) to \(Shown(b)))" } } ?? ""
            return "\(base)frames \(first.number) to \(last.number)\(places): \(message)"
        }
    }

    /// One note for the whole run when icons have 16 bits per channel: the user cannot
    /// change Cairo 1.16's 8 bits, so it is said once, not once per image.
    private func printSixteenBitNote(_ outcomes: [JobOutcome]) {
        var labels: [String] = []
        for outcome in outcomes where outcome.diagnostics.contains(.render(.sixteenBit)) {
            if !labels.contains(outcome.label) { labels.append(outcome.label) }
        }
        guard let first = labels.first else { return }
        let which =
            labels.count == 1
            ? (first.isEmpty ? "the icon has" : "\(Shown(first)) has") : "\(labels.count) icons have"
        let outputs = labels.count == 1 ? "the output has" : "their outputs have"
        io.note("\(which) 16 bits per channel; \(outputs) 8 (Cairo 1.16 composites 8 bits per channel)")
    }

    /// One note for the whole run when badges are close in colour to the icons around
    /// them (`BadgeVisibility.closeDeltaE`): the fill, the measured ΔE_OK (the range
    /// over the images) and WCAG ratio, and the fix: `--ring auto`, or another
    /// `--background`; or, where a ring was drawn, which and how to leave it out.
    private func printContrastNote(_ outcomes: [JobOutcome]) {
        var found: [(fill: Color, contrast: BadgeContrast, ring: Color?)] = []
        var images = 0
        for outcome in outcomes {
            var here = false
            for case .render(.lowContrast(let fill, let contrast, let ring)) in outcome.diagnostics {
                found.append((fill, contrast, ring))
                here = true
            }
            if here { images += 1 }
        }
        guard let first = found.first else { return }
        func figure(_ value: Double) -> String { RenderProblem.pixels(value) }
        let deltas = found.map(\.contrast.deltaE)
        let ratios = found.map(\.contrast.ratio)
        let low = deltas.min()!
        let high = deltas.max()!
        let deltaText = low == high || figure(low) == figure(high) ? figure(low) : "\(figure(low)) to \(figure(high))"
        let ratioLow = ratios.min()!
        let ratioHigh = ratios.max()!
        let ratioText =
            figure(ratioLow) == figure(ratioHigh)
            ? "\(figure(ratioLow)):1" : "\(figure(ratioLow)):1 to \(figure(ratioHigh)):1"
        let fills = found.map(\.fill.hexDescription).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let whose = images > 1 ? "in \(images) images the badge's fill" : "the badge's fill"
        var text =
            "\(whose) \(fills.joined(separator: ", ")) is close in colour to the icon around it (ΔE_OK \(deltaText), under \(figure(BadgeVisibility.closeDeltaE)); WCAG contrast \(ratioText))"
        let ringed = found.filter { $0.ring != nil }
        if let ring = ringed.first?.ring {
            let colour = ring == .white ? "white" : "black"
            text +=
                ringed.count == found.count
                ? ": a \(colour) ring is drawn round it (--ring none leaves it out)"
                : ": a ring is drawn round the \(ringed.count) \(ringed.count == 1 ? "dot" : "dots") that stand in for text; --ring auto draws one round every badge, or choose another --background"
        } else {
            let ring = BadgeVisibility.ringColor(surroundLuminance: first.contrast.surroundLuminance)
            text +=
                ": --ring auto draws a \(ring == .white ? "white" : "black") ring round it, or choose another --background"
        }
        io.note(text)
    }

    /// One warning per raster icon that `--scales` resampled up, naming the scales and,
    /// where files for them exist beside it (`icon@2x.png`), the template to use them.
    private func printUpscaleWarnings(_ outcomes: [JobOutcome]) {
        var icons: [(icon: String, factors: [Double])] = []
        for outcome in outcomes {
            for case .upscaledRaster(let icon, let factor) in outcome.diagnostics {
                if let index = icons.firstIndex(where: { $0.icon == icon }) {
                    if !icons[index].factors.contains(factor) { icons[index].factors.append(factor) }
                } else {
                    icons.append((icon, [factor]))
                }
            }
        }
        for (icon, factors) in icons {
            let names = factors.map { "@\(OutputTemplate.scaleText($0))x" }
            let scales =
                names.count == 1
                ? names[0] + " is" : names.dropLast().joined(separator: ", ") + " and \(names.last!) are"
            let look = names.count == 1 ? "looks" : "look"
            var text = "\(Quoted(icon)) is a raster image, so \(scales) resampled up from it and \(look) blurry"
            // The caller's spelling of the folder is kept: the advice is to copy.
            let file = LexicalPath(icon).name ?? icon
            let dot = file.lastIndex(of: ".").flatMap { $0 == file.startIndex ? nil : $0 }
            let stem = dot.map { String(file[..<$0]) } ?? file
            let ext = dot.map { String(file[$0...]) } ?? ""
            let folder = icon.hasSuffix(file) ? String(icon.dropLast(file.count)) : ""
            let sibling = folder + stem + "@\(OutputTemplate.scaleText(factors[0]))x" + ext
            let template = folder + stem + "{@scale}" + ext
            if InputFile.isRegularFile(sibling) {
                text += "; \(Quoted(sibling)) exists: name the icon \(Quoted(template)) to use a file per scale"
            } else {
                text += "; give a file per scale with {@scale} in the icon's path, or an SVG icon"
            }
            io.warning(text)
        }
    }

    /// `STATUS GOLDEN: RESULT` in the checks' one vocabulary (`passed`, `changed`,
    /// `new`; CheckEntry.Status), `STATUS GOLDEN (JOB): RESULT` with a manifest's
    /// `job` label (`jobs[3]@2x`), and `  wrote PATH` lines for the artifacts.
    static func checkLine(_ outcome: GoldenCheck.Outcome, golden: String, job: String = "") -> String {
        let shown = Shown(golden).description + (job.isEmpty ? "" : " (\(Shown(job)))")
        let detail = outcome.report?.detail
        switch outcome.status {
        case .matched: return "passed \(shown): \(detail ?? "the same pixels")"
        case .different:
            var text = "changed \(shown): \(detail ?? "the pixels differ")"
            for location in outcome.artifacts { text += "\n  wrote \(Shown(location.description))" }
            return text
        case .created: return "new \(shown): golden created (it was missing)"
        case .updated:
            return
                "changed \(shown): golden updated: \(detail ?? outcome.reason.map { Shown($0).description } ?? "the pixels differed")"
        case .unchanged: return "passed \(shown): unchanged (the golden already matches)"
        }
    }
}
