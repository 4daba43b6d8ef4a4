import BadgeCore
import BadgeJobs

/// GitHub Actions annotations of a check: where `GITHUB_ACTIONS` is `true`, one
/// `::error` workflow command per changed image, naming its largest region, so that
/// the run's summary and the pull request list the changed images without anyone
/// opening a report (GitHub, "Workflow commands for GitHub Actions": `::error
/// file=…,title=…::message`; GitHub shows at most 10 error annotations of a step).
enum GitHubAnnotations {
    /// Prints an annotation for each changed entry that failed (a rewritten golden is
    /// not one), on standard output, or on standard error when standard output holds
    /// JSON (the runner reads workflow commands on both). `file` names the golden.
    static func print(
        _ entries: [CheckEntry], command: String, file: (CheckEntry) -> String, toStandardError: Bool,
        io: CommandIO
    ) {
        guard io.environment["GITHUB_ACTIONS"] == "true" else { return }
        for entry in entries where entry.status == .changed && entry.goldenWritten == nil {
            let line = annotation(entry, command: command, file: file(entry))
            if toStandardError { io.writeErr(line) } else { io.writeOut(line) }
        }
    }

    /// `::error file=goldens/a.png,title=iconbadge compare: a.png changed::the largest
    /// of 3 regions is 12 × 8 at 30,0; 62 of 2304 pixels differ`.
    static func annotation(_ entry: CheckEntry, command: String, file: String) -> String {
        let title = "iconbadge \(command): \(Shown(entry.path)) changed"
        var message = entry.message
        if let result = entry.report?.result, let regions = result.regions, let first = regions.largest.first {
            let box = "\(first.width) × \(first.height) at \(first.x),\(first.y)"
            message =
                (regions.count == 1 ? "1 region, \(box)" : "the largest of \(regions.count) regions is \(box)")
                + "; \(result.differentPixels) of \(result.totalPixels) pixels differ"
        }
        return "::error file=\(property(file)),title=\(property(title))::\(data(message))\n"
    }

    /// A command's message: `%`, CR and LF escaped (the runner's own escaping), and
    /// every other control character as `\u{1b}` (the runner has no escape for them, and
    /// a file name from a pull request must not drive the log's terminal).
    static func data(_ text: String) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default:
                if TextEscaping.isControl(character) {
                    out += "\\u{\(String(character.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(character)
                }
            }
        }
        return out
    }

    /// A property's value: as `data`, and `:` and `,` too.
    static func property(_ text: String) -> String {
        data(text).replacingColonsAndCommas()
    }
}

extension String {
    fileprivate func replacingColonsAndCommas() -> String {
        var out = ""
        for character in unicodeScalars {
            switch character {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
