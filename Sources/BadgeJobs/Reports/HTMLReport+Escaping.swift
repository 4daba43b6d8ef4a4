import BadgeCore

extension HTMLReport {
    /// `text` made safe for HTML text and for an attribute value between double or
    /// single quotes: `&`, `<`, `>`, `"` and `'` become character references, and every
    /// character that could hide or disguise what a person reads is written as a
    /// visible escape (`\n`, `\u{1b}`): control characters (`TextEscaping.isControl`:
    /// C0, DEL, C1, U+2028, U+2029), the bidirectional formatting characters (U+061C,
    /// U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, which could reorder a path as
    /// shown, as in "Trojan Source") and noncharacters (which HTML calls parse
    /// errors). Backslashes are kept; `shownPath` doubles them first for a raw path.
    /// No length cap: a report is read in a browser, not a terminal.
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if TextEscaping.isControl(scalar) || isBidiFormatting(scalar) || isNoncharacter(scalar) {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A raw path (a `CheckEntry.path`) as it is shown before `escape`: backslashes
    /// doubled, so a visible `\n` can only be a newline (`TextEscaping`'s rule, as the
    /// check lines on standard error show paths). Messages are left as they are, their
    /// values quoted and escaped already.
    package static func shownPath(_ path: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in path.unicodeScalars {
            if scalar == "\\" { out.append(scalar) }
            out.append(scalar)
        }
        return String(out)
    }

    /// The explicit bidirectional formatting characters (Unicode Standard Annex 9,
    /// table 1) and the Arabic letter mark.
    private static func isBidiFormatting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// U+FDD0-U+FDEF and the last two code points of every plane.
    private static func isNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE
    }
}
