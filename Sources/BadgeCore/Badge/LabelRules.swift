/// The rules that turn a badge value into the text drawn, or hide the badge.
///
/// A value of ASCII digits only is a **count**: `0` hides the badge unless
/// `showZero` (seeds 000, 001, 003), a count over `maxCount` becomes
/// `"\(maxCount)\(maxSuffix)"` (`99+`; seed 003 clamps to `99` with an empty suffix),
/// and leading zeros are dropped. Anything else (`NEW`, `β`, `+99`, `-1`, `v1.2`) is
/// text and drawn as given. An empty value hides the badge (seed 001).
public struct LabelRules: Equatable, Sendable {
    /// Counts above this become `maxCount` + `maxSuffix`; 0 means no limit.
    public var maxCount: Int
    /// Appended to a clamped count (default `+`).
    public var maxSuffix: String
    /// Draw the badge for a count of zero instead of hiding it.
    public var showZero: Bool
    /// Longest text in grapheme clusters (user-perceived characters); longer text
    /// keeps `maxCharacters - 1` clusters and ends in `…`. Nil means no limit.
    public var maxCharacters: Int?
    /// Text as given, never a count (`--text`): a build number `1234` or `0042` is
    /// drawn as written, not clamped to `99+` nor stripped of zeros, and `0` is drawn.
    /// Only an empty value hides the badge.
    public var verbatim = false

    /// The iOS defaults: max 99, suffix `+`, zero hidden, no length limit.
    public init(maxCount: Int = 99, maxSuffix: String = "+", showZero: Bool = false, maxCharacters: Int? = nil) {
        self.maxCount = maxCount
        self.maxSuffix = maxSuffix
        self.showZero = showZero
        self.maxCharacters = maxCharacters
    }

    /// Decides what `value` shows.
    public func label(for value: String) -> LabelDecision {
        if value.isEmpty { return .hidden(.empty) }
        var text = value
        if !verbatim, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            let digits = value.drop(while: { $0 == "0" })
            if digits.isEmpty {
                if !showZero { return .hidden(.zero) }
                text = "0"
            } else if maxCount > 0, exceeds(digits, maxCount) {
                text = "\(maxCount)\(maxSuffix)"
            } else {
                text = String(digits)
            }
        }
        if let limit = maxCharacters, limit > 0, text.count > limit {
            // No space before the ellipsis: "BETA 2024" at 6 is "BETA…", not "BETA …".
            var kept = String(text.prefix(limit - 1))
            while kept.last?.isWhitespace == true { kept.removeLast() }
            text = kept + "…"
        }
        return .text(text)
    }

    /// Whether the decimal `digits` (no leading zeros) exceed `limit`, without
    /// converting numbers too long for an `Int`.
    private func exceeds(_ digits: Substring, _ limit: Int) -> Bool {
        let limitDigits = String(limit)
        if digits.count != limitDigits.count { return digits.count > limitDigits.count }
        return digits > Substring(limitDigits)
    }
}

/// What a badge value shows.
public enum LabelDecision: Equatable, Sendable {
    /// The badge is not drawn; the output is the icon alone.
    case hidden(HiddenReason)
    /// The badge shows this text.
    case text(String)
}

/// Why a badge is hidden.
public enum HiddenReason: Equatable, Sendable {
    /// A count of zero without `--show-zero`.
    case zero
    /// An empty value.
    case empty
    /// The text would be smaller than is legible and the small-text rule hides it.
    case tooSmall
}
