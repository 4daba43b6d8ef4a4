extension StringProtocol {
    /// The text without leading and trailing ASCII spaces, tabs and line breaks
    /// (Foundation-free, so the core stays free of Foundation's start-up cost).
    public func trimmingASCIIWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}
