/// Strict decimal number parsing for every numeric value a user types.
///
/// Swift's `Double(String)` also accepts `nan`, `inf`, `infinity` and hex floats
/// (`0x1p3`), and turns `1e400` into infinity; none of those is a size. This
/// accepts only `[+-]digits[.digits][e[+-]digits]` (digits on at least one side of
/// the point) whose value is finite.
public enum DecimalNumber {
    /// The finite value of `text`, or nil when it is not a plain decimal number.
    public static func parse(_ text: Substring) -> Double? {
        var index = text.startIndex
        func digits() -> Int {
            var count = 0
            while index < text.endIndex, let ascii = text[index].asciiValue, ascii >= 48, ascii <= 57 {
                count += 1
                index = text.index(after: index)
            }
            return count
        }
        if index < text.endIndex, text[index] == "+" || text[index] == "-" {
            index = text.index(after: index)
        }
        var mantissaDigits = digits()
        if index < text.endIndex, text[index] == "." {
            index = text.index(after: index)
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return nil }
        if index < text.endIndex, text[index] == "e" || text[index] == "E" {
            index = text.index(after: index)
            if index < text.endIndex, text[index] == "+" || text[index] == "-" {
                index = text.index(after: index)
            }
            guard digits() > 0 else { return nil }
        }
        guard index == text.endIndex, let value = Double(text), value.isFinite else {
            return nil
        }
        // Underflow: "1e-400" is not zero, but a Double cannot tell it from zero.
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        if value == 0, mantissa.contains(where: { $0 >= "1" && $0 <= "9" }) { return nil }
        return value
    }

    /// The finite value of `text`, or nil when it is not a plain decimal number.
    public static func parse(_ text: String) -> Double? { parse(text[...]) }

    /// A whole number in `range`, or nil: decimal digits with an optional sign,
    /// no fraction, no exponent, no overflow.
    public static func parseInteger(_ text: String, in range: ClosedRange<Int>) -> Int? {
        var body = Substring(text)
        var negative = false
        if let first = body.first, first == "+" || first == "-" {
            negative = first == "-"
            body = body.dropFirst()
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let magnitude = Int(body) else { return nil }
        let value = negative ? -magnitude : magnitude
        return range.contains(value) ? value : nil
    }
}
