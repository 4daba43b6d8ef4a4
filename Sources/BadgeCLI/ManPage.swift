import BadgeCore
import BadgeJobs

/// `iconbadge.1`, written by the tool itself from the command and option tables
/// (`iconbadge --generate-manpage`, `make man`), in man(7) macros. No date, so the
/// page is the same for the same version.
enum ManPage {
    static func roff() -> String {
        var out = ".TH ICONBADGE 1 \"\" \"iconbadge \(Version.tool)\" \"User Commands\"\n"
        out += ".SH NAME\niconbadge \\- draw notification badges onto icons\n"
        out += ".SH SYNOPSIS\n"
        for command in BadgeCLI.commands {
            out += ".PP\n" + text(command.usage) + "\n"
        }
        out += ".SH DESCRIPTION\n"
        out +=
            text(
                "iconbadge draws a notification badge (a count such as 3 or 99+, a label such as NEW, a dot, or a small image) onto an icon and writes PNG, WebP, SVG or PDF. The same inputs give the same bytes; the default font is compiled in. It compares images for golden checks, renders batches in parallel and badges Xcode app icon sets."
            ) + "\n"
        for command in BadgeCLI.commands {
            out += ".SH \"\(command.name.uppercased()) COMMAND\"\n"
            out += description(command.description)
            var groups: [String] = []
            for option in command.options where !groups.contains(option.group) { groups.append(option.group) }
            for group in groups {
                out += ".SS \(text(group))\n"
                for option in command.options where option.group == group {
                    out += ".TP\n" + synopsis(option) + "\n" + text(describe(option)) + "\n"
                }
            }
            if !command.notes.isEmpty { out += ".PP\n" + text(command.notes.replacingNewlines()) + "\n" }
            out += ".SS Examples\n"
            for (what, line) in command.examples {
                out += ".PP\n" + text(what.capitalisedFirst() + ":") + "\n.RS\n.nf\n" + text(line) + "\n.fi\n.RE\n"
            }
            if !command.manual.isEmpty {
                let files = command.manual.map { "\(Manual.installedFolder)/\($0)" }
                out += ".PP\n" + text("The manual: " + files.joined(separator: ", ") + " (see FILES).") + "\n"
            }
        }
        out += ".SH \"EXIT STATUS\"\n"
        let codes: [(ExitCode, String)] = [
            (.success, "success (also --help, --version, a hidden badge)"),
            (.different, "compare or --check: the images differ"),
            (.usage, "usage error: unknown option, bad value, missing argument"),
            (.dataError, "bad input data: corrupt or unsupported image, bad manifest, over a limit"),
            (.noInput, "input missing or unreadable"),
            (
                .unavailable,
                "a needed resource is unavailable (font family, glyph with --strict-glyphs, memory under ulimit -v)"
            ),
            (.software, "internal error"),
            (.cannotCreate, "output cannot be created"),
            (.ioError, "I/O error while writing"),
            (.interrupted, "interrupted by SIGINT (143 for SIGTERM); unfinished outputs removed"),
        ]
        for (code, meaning) in codes { out += ".TP\n.B \(code.rawValue)\n" + text(meaning) + "\n" }
        out += ".SH ENVIRONMENT\n.TP\n.B ICONBADGE_*\n"
        out +=
            text(
                RenderCommand.environmentNote.replacingNewlines()
            ) + "\n"
        out +=
            ".TP\n.B SOURCE_DATE_EPOCH\n" + text("The creation date recorded in PDF output; without it, none.") + "\n"
        out += ".SH FILES\n.PP\n"
        out +=
            text(
                "The manual, one Markdown page a topic, is installed in \(Manual.installedFolder)/ under the prefix iconbadge is installed in (/usr/\(Manual.installedFolder)/ for the Debian package, /usr/local/\(Manual.installedFolder)/ for make install and the tarball's instructions); it is \(Manual.sourceFolder)/ in the source. README.md there is its table of contents."
            ) + "\n"
        for page in Manual.pages {
            out +=
                ".TP\n.I " + text(Manual.installedFolder + "/" + page.file) + "\n"
                + text(page.title + ": " + page.topic) + "\n"
        }
        out += ".SH \"SEE ALSO\"\n.BR fc\\-list (1),\n.BR convert (1)\n"
        return out
    }

    /// A command's description: a paragraph for each block between blank lines, its
    /// lines joined, and lines indented by two spaces (a sample of output) kept as they
    /// are, in a preformatted block.
    static func description(_ value: String) -> String {
        var out = ""
        var running: [String] = []
        var sample: [String] = []
        func flush() {
            if !running.isEmpty { out += ".PP\n" + text(running.joined(separator: " ")) + "\n" }
            if !sample.isEmpty { out += ".RS\n.nf\n" + sample.map(text).joined(separator: "\n") + "\n.fi\n.RE\n" }
            running = []
            sample = []
        }
        for line in value.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.allSatisfy({ $0 == " " }) {
                flush()
            } else if line.hasPrefix("  ") {
                if !running.isEmpty && sample.isEmpty {
                    out += ".PP\n" + text(running.joined(separator: " ")) + "\n"
                    running = []
                }
                sample.append(String(line.dropFirst(2)))
            } else {
                if !sample.isEmpty { flush() }
                running.append(line)
            }
        }
        flush()
        return out
    }

    private static func synopsis(_ option: OptionInfo) -> String {
        var parts: [String] = []
        if let short = option.short { parts.append("\\fB\\-\(short)\\fR, ") }
        parts.append("\\fB\\-\\-" + escape(option.name) + "\\fR")
        if case .value(let placeholder) = option.kind { parts.append(" \\fI" + escape(placeholder) + "\\fR") }
        if option.kind == .flag, case .choices(let words, _) = option.completion {
            parts.append(" [\\fI" + escape(words.joined(separator: "|")) + "\\fR]")
        }
        return parts.joined()
    }

    private static func describe(_ option: OptionInfo) -> String {
        var line = option.help
        var extras: [String] = []
        if case .choices(let choices, exhaustive: true) = option.completion {
            extras.append("one of: " + choices.joined(separator: ", "))
        }
        if let value = option.defaultText { extras.append("default: \(value)") }
        if option.repeatable { extras.append("repeatable") }
        if !extras.isEmpty { line += " (" + extras.joined(separator: "; ") + ")" }
        return line
    }

    /// Running text: escaped, and protected where a line would start with a
    /// control character.
    private static func text(_ value: String) -> String {
        let escaped = escape(value)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// roff escapes: backslash, hyphens as real minus signs in options, and every
    /// non-ASCII character as groff's `\[u00E9]` form, so the page needs no preconv.
    private static func escape(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default:
                if scalar.isASCII {
                    out.unicodeScalars.append(scalar)
                } else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        return out
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" ? " " : $0 })
    }

    fileprivate func capitalisedFirst() -> String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
