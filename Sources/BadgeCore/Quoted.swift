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
            if shown > maxShown {
                out += quoted ? "…\"" : "…"
                return out + " (\(raw.unicodeScalars.count) characters)"
            }
            switch scalar {
            case "\"": out += quoted ? "\\\"" : "\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted ? out + "\"" : out
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
