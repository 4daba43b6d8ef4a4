/// The one escaping rule for text iconbadge prints for people (stderr lines, check
/// lines, summaries): control characters (C0, DEL, C1), backslashes and, when quoted,
/// double quotes are written as escapes, so a hostile path or label can neither
/// break a line (a forged `::error::` CI annotation) nor drive the terminal (ESC,
/// CSI); at most `maxShown` Unicode scalars are shown, the rest counted.
///
/// Machine-readable outputs escape by their own grammar with no length cap, since
/// their values must round-trip: JSON (`JSONValue.serialized`), JUnit XML
/// (`JUnitReport.escape`).
public enum TextEscaping {
    /// The longest value shown, in Unicode scalars; longer values end in `…` and the
    /// count, so a hostile megabyte never reaches the terminal.
    public static let maxShown = 200

    /// `raw`, escaped, between double quotes when `quoted`.
    public static func escape(_ raw: String, quoted: Bool) -> String {
        var out = quoted ? "\"" : ""
        var shown = 0
        for scalar in raw.unicodeScalars {
            shown += 1
            if shown > maxShown { return out + (quoted ? "…\"" : "…") + cutCount(raw) }
            switch scalar {
            case "\"": out += quoted ? "\\\"" : "\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if isControl(scalar) {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted ? out + "\"" : out
    }

    /// What follows a cut value's `…`: its length, so the reader knows what was left out.
    private static func cutCount(_ raw: String) -> String { " (\(raw.unicodeScalars.count) characters)" }

    /// A line read from an untrusted file that its writer had escaped already (a
    /// results file's `message`, which `merge-reports` prints): made one line by
    /// `oneLine`, then cut to `maxShown` scalars as `escape` cuts a value, so a
    /// hostile 5 MB message prints as 200 characters and its length (issue 44).
    /// Backslashes and quotes are kept, as the writer escaped the values inside.
    /// The cut never splits an escape (`\\`, `\"`, `\n`, `\u{1b}`): one that would
    /// straddle the 200th scalar is left out whole, so what is shown still reads back.
    public static func shownLine(_ line: String) -> String {
        let one = oneLine(line)
        let scalars = Array(one.unicodeScalars)
        guard scalars.count > maxShown else { return one }
        var end = 0
        while end < scalars.count {
            let next = end + escapeLength(scalars, at: end)
            if next > maxShown { break }
            end = next
        }
        var out = String.UnicodeScalarView(scalars[..<end])
        out.append("…")
        return String(out) + cutCount(one)
    }

    /// How many scalars the character or escape at `index` spans: 1 for a plain
    /// scalar, 2 for `\` and a character, through the `}` of a `\u{…}` (at most 12).
    private static func escapeLength(_ scalars: [Unicode.Scalar], at index: Int) -> Int {
        guard scalars[index] == "\\", index + 1 < scalars.count else { return 1 }
        guard scalars[index + 1] == "u", index + 2 < scalars.count, scalars[index + 2] == "{" else { return 2 }
        for length in 4...12 where index + length - 1 < scalars.count && scalars[index + length - 1] == "}" {
            return length
        }
        return 2
    }

    /// Whether `scalar` is a control character a terminal or CI log acts on: C0, DEL,
    /// C1 (NEL, CSI), the Unicode line and paragraph separators, and the format
    /// characters that reorder or hide the text around them ("Trojan Source",
    /// CVE-2021-42574): the bidirectional embeddings, overrides, isolates and marks
    /// (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), the zero-width space
    /// U+200B and the byte-order mark U+FEFF. The zero-width joiners U+200C and U+200D
    /// are kept: emoji sequences and Indic scripts need them.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200B
            || value == 0x200E || value == 0x200F || value == 0x061C || value == 0xFEFF
    }

    /// `line` with each run of CR and LF (and the spaces around it) made one space, and
    /// every other control character written as an escape (`\u{1b}`); backslashes and
    /// quotes are kept, as the values inside are escaped already (`Quoted`).
    ///
    /// The last defence for a line printed on standard error: a library's multi-line
    /// message becomes one line, and a value that reached a message unquoted can still
    /// neither forge a CI annotation nor drive the terminal.
    public static func oneLine(_ line: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in line.unicodeScalars {
            if scalar == "\n" || scalar == "\r" {
                pendingSpace = true
                continue
            }
            if pendingSpace {
                if scalar == " " { continue }  // the indentation of the next line
                while out.last == " " { out.removeLast() }
                if !out.isEmpty { out.append(" ") }
                pendingSpace = false
            }
            if isControl(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        while out.last == " " { out.removeLast() }
        return String(out)
    }
}

/// A value quoted for a one-line message: `"text"`, escaped by `TextEscaping`.
public struct Quoted: CustomStringConvertible, Sendable {
    /// The raw value, as the user gave it.
    public let raw: String

    /// Wraps `raw` for quoting.
    public init(_ raw: String) { self.raw = raw }

    /// The longest value shown, in Unicode scalars (`TextEscaping.maxShown`).
    public static var maxShown: Int { TextEscaping.maxShown }

    /// `raw` between double quotes, escaped, at most `maxShown` scalars of it.
    public var description: String { TextEscaping.escape(raw, quoted: true) }
}

/// A path or label shown bare in a line (`check: goldens/a.png: same`), escaped by
/// `TextEscaping` without quotes.
public struct Shown: CustomStringConvertible, Sendable {
    /// The raw value.
    public let raw: String

    /// Wraps `raw` for showing.
    public init(_ raw: String) { self.raw = raw }

    /// `raw`, escaped, at most `TextEscaping.maxShown` scalars of it.
    public var description: String { TextEscaping.escape(raw, quoted: false) }
}
