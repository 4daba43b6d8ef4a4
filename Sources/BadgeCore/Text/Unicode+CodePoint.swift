extension Unicode.Scalar {
    /// The code point in `U+` notation (at least four hex digits, `U+00E9`), as the
    /// Unicode Standard writes it; used in every message about glyphs.
    public var codePointName: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
