/// A value quoted for a one-line message: `"text"` with control characters,
/// quotes and backslashes escaped, so a hostile value cannot break the line or
/// the terminal.
public struct Quoted: CustomStringConvertible, Sendable {
    /// The raw value, as the user gave it.
    public let raw: String

    /// Wraps `raw` for quoting.
    public init(_ raw: String) { self.raw = raw }

    /// The longest value shown, in Unicode scalars; longer values end in `…` and the
    /// count, so a hostile megabyte never reaches the terminal.
    public static let maxShown = 200

    /// `raw` between double quotes, escaped, at most `maxShown` scalars of it.
    public var description: String {
        var out = "\""
        var shown = 0
        for scalar in raw.unicodeScalars {
            shown += 1
            if shown > Quoted.maxShown {
                out += "…\" (\(raw.unicodeScalars.count) characters)"
                return out
            }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F
                    || (0x80...0x9F).contains(scalar.value)
                {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
