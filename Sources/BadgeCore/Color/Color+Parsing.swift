extension Color {
    /// What the colour parsers accept, for error messages and help.
    public static let acceptedSyntax =
        "use #RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(), rgba(), hsl(), hsla(), transparent, or a CSS name"

    /// Parses a CSS colour: `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA` (alpha last, as in
    /// CSS Color 4 section 5.2), the 148 CSS named colours and `transparent` (any
    /// case), and the functions `rgb()`, `rgba()`, `hsl()`, `hsla()` in both the comma
    /// and the space-and-slash syntax (CSS Color 4 sections 5.1 and 7). Out-of-range
    /// channels are clamped as CSS does; results are rounded to 8 bits.
    ///
    /// - Throws: `ColorSyntaxError` naming what is wrong; the caller adds the option.
    public init(parsing text: String) throws(ColorSyntaxError) {
        let trimmed = text.trimmingASCIIWhitespace()
        let lower = trimmed.lowercased()
        if lower.hasPrefix("#") {
            self = try Color.parseHex(lower.dropFirst())
            return
        }
        if lower == "transparent" {
            self = .transparent
            return
        }
        if let rgb = Color.cssNames[lower] {
            self.init(rgb: rgb)
            return
        }
        if let open = lower.firstIndex(of: "("), lower.hasSuffix(")") {
            let name = lower[..<open].trimmingASCIIWhitespace()
            let inner = lower[lower.index(after: open)..<lower.index(before: lower.endIndex)]
            switch name {
            case "rgb", "rgba":
                self = try Color.parseRGBFunction(inner)
                return
            case "hsl", "hsla":
                self = try Color.parseHSLFunction(inner)
                return
            default:
                throw ColorSyntaxError(reason: "unknown colour function \(Shown(String(name)))()")
            }
        }
        if let suggestion = Suggestion.closest(to: lower, among: Array(Color.cssNames.keys)) {
            throw ColorSyntaxError(reason: "unknown colour name; did you mean \(suggestion)?")
        }
        throw ColorSyntaxError(reason: nil)
    }

    private static func parseHex(_ digits: Substring) throws(ColorSyntaxError) -> Color {
        var nibbles: [UInt8] = []
        for character in digits {
            guard let value = character.hexDigitValue else {
                throw ColorSyntaxError(reason: "\(Quoted(String(character))) is not a hex digit")
            }
            nibbles.append(UInt8(value))
        }
        switch nibbles.count {
        case 3, 4:
            let bytes = nibbles.map { $0 << 4 | $0 }
            return Color(
                red: bytes[0], green: bytes[1], blue: bytes[2],
                alpha: bytes.count == 4 ? bytes[3] : 255)
        case 6, 8:
            let bytes = stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
            return Color(
                red: bytes[0], green: bytes[1], blue: bytes[2],
                alpha: bytes.count == 4 ? bytes[3] : 255)
        default:
            throw ColorSyntaxError(reason: "\(nibbles.count) hex digits; a colour has 3, 4, 6 or 8")
        }
    }

    /// Splits a function's arguments into up to three components and an alpha,
    /// accepting `a, b, c[, alpha]` and `a b c[ / alpha]`.
    private static func components(_ inner: Substring, function: String) throws(ColorSyntaxError) -> (
        [Substring], Substring?
    ) {
        let body = inner.trimmingASCIIWhitespace()
        var parts: [Substring]
        var alpha: Substring?
        if body.contains(",") {
            parts = body.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingASCIIWhitespace()
            }
            if parts.count == 4 { alpha = parts.removeLast() }
        } else {
            var main = body
            if let slash = body.firstIndex(of: "/") {
                main = body[..<slash]
                alpha = body[body.index(after: slash)...].trimmingASCIIWhitespace()
            }
            parts = main.split(whereSeparator: { $0 == " " || $0 == "\t" })
        }
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }), alpha.map({ !$0.isEmpty }) ?? true
        else {
            throw ColorSyntaxError(reason: "\(function)() takes 3 components and an optional alpha")
        }
        return (parts, alpha)
    }

    private static func number(_ text: Substring, percentOf full: Double) throws(ColorSyntaxError) -> Double {
        if text.hasSuffix("%") {
            guard let value = DecimalNumber.parse(text.dropLast()) else {
                throw ColorSyntaxError(reason: "\(Quoted(String(text))) is not a number")
            }
            return value / 100 * full
        }
        guard let value = DecimalNumber.parse(text) else {
            throw ColorSyntaxError(reason: "\(Quoted(String(text))) is not a number")
        }
        return value
    }

    private static func byte(_ value: Double) -> UInt8 {
        UInt8(min(max(value, 0), 255).rounded())
    }

    private static func alphaByte(_ text: Substring?) throws(ColorSyntaxError) -> UInt8 {
        guard let text else { return 255 }
        return byte(try number(text, percentOf: 1) * 255)
    }

    private static func parseRGBFunction(_ inner: Substring) throws(ColorSyntaxError) -> Color {
        let (parts, alpha) = try components(inner, function: "rgb")
        var channels: [UInt8] = []
        for part in parts { channels.append(byte(try number(part, percentOf: 255))) }
        return Color(red: channels[0], green: channels[1], blue: channels[2], alpha: try alphaByte(alpha))
    }

    private static func parseHSLFunction(_ inner: Substring) throws(ColorSyntaxError) -> Color {
        let (parts, alpha) = try components(inner, function: "hsl")
        let hue = try angle(parts[0])
        let saturation =
            min(max(try number(parts[1].hasSuffix("%") ? parts[1].dropLast() : parts[1], percentOf: 1), 0), 100) / 100
        let lightness =
            min(max(try number(parts[2].hasSuffix("%") ? parts[2].dropLast() : parts[2], percentOf: 1), 0), 100) / 100
        // CSS Color 4, section 7.1: hslToRgb.
        func channel(_ n: Double) -> Double {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return Color(
            red: byte(channel(0) * 255), green: byte(channel(8) * 255), blue: byte(channel(4) * 255),
            alpha: try alphaByte(alpha))
    }

    /// A hue in degrees, normalised to [0, 360): a number, or deg, grad, rad, turn.
    private static func angle(_ text: Substring) throws(ColorSyntaxError) -> Double {
        let units: [(String, Double)] = [("deg", 1), ("grad", 0.9), ("rad", 180 / Double.pi), ("turn", 360)]
        var degrees: Double?
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            degrees = DecimalNumber.parse(text.dropLast(suffix.count)).map { $0 * factor }
            break
        }
        if degrees == nil, !units.contains(where: { text.hasSuffix($0.0) }) {
            degrees = DecimalNumber.parse(text)
        }
        guard let degrees else {
            throw ColorSyntaxError(reason: "\(Quoted(String(text))) is not a hue")
        }
        let normalised = degrees.truncatingRemainder(dividingBy: 360)
        return normalised < 0 ? normalised + 360 : normalised
    }
}

/// Why a colour did not parse; `reason` is nil when nothing more specific than
/// "not a colour" can be said.
public struct ColorSyntaxError: Error, Equatable, Sendable {
    /// The specific problem, if known.
    public var reason: String?

    /// The tail of an error message after the quoted value.
    public var problem: String {
        if let reason { return "is not a colour: \(reason) (\(Color.acceptedSyntax))" }
        return "is not a colour (\(Color.acceptedSyntax))"
    }
}
