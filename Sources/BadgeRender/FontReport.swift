import BadgeCore

/// What `iconbadge fonts` prints: where a font choice resolves and its fallback
/// chain, so a CI machine's font set can be checked in one line.
public enum FontReport {
    /// The lines describing `pattern` (nil: the bundled default), at most `limit`
    /// fallbacks (0: all); `more` words the line for the fallbacks left out, given
    /// how many (the command line says how to show them).
    ///
    /// - Throws: `BadgeError.unavailable` (69) when the family is not installed.
    public static func lines(pattern: String?, limit: Int, more: (Int) -> String) throws(BadgeError) -> [String] {
        var lines: [String] = []
        let fallbackPattern: String
        if let pattern {
            let font = try FontConfig.resolve(pattern)
            lines.append(
                "\(Shown(pattern)): \(Shown(font.family)) \(Shown(font.style)) -> \(Shown(font.path))#\(font.index)")
            fallbackPattern = pattern
        } else {
            lines.append("default: DejaVu Sans Bold -> bundled (compiled into iconbadge)")
            fallbackPattern = "sans-serif:weight=bold"
        }
        let chain = try FontConfig.fallbacks(for: fallbackPattern)
        let shown = limit > 0 ? Array(chain.prefix(limit)) : chain
        lines.append("fallback for \(Quoted(fallbackPattern)) (fontconfig, best first, \(chain.count) fonts):")
        for (index, font) in shown.enumerated() {
            lines.append(
                "  \(index + 1). \(Shown(font.family)) \(Shown(font.style)) -> \(Shown(font.path))#\(font.index)")
        }
        if shown.count < chain.count { lines.append(more(chain.count - shown.count)) }
        if let emoji = try FontConfig.fallbacks(for: "emoji").first {
            lines.append("emoji: \(Shown(emoji.family)) \(Shown(emoji.style)) -> \(Shown(emoji.path))#\(emoji.index)")
        }
        return lines
    }
}
