import BadgeCore
import BadgeJobs

/// Words errors for the command line: the core's structured reasons (which limit,
/// which numbers) get the option that changes them here, and only here.
enum ErrorWording {
    /// The one-line message of `error` (without `iconbadge: error: `).
    static func message(_ error: BadgeError) -> String {
        guard case .overLimit(_, let limit) = error else { return error.message }
        return error.message + fix(for: limit)
    }

    /// What to change, with its punctuation: ` (raise it with --max-side, ...)` or
    /// `; use a smaller --scale`.
    static func fix(for limit: LimitExceeded) -> String {
        switch limit {
        case .imageSide: return " (raise it with --max-side, up to \(ImageLimits.cairoMaxSide))"
        case .imagePixels: return " (raise it with --max-pixels)"
        case .renderSide, .decoderMemory: return "; use a smaller --scale or --size"
        case .badgeSide: return "; use a smaller --font-size, --height or --scale"
        case .badgeLargerThanIcon:
            return "; use a smaller --font-size, --height or --scale, or --overflow clip|expand"
        case .expandedCanvas: return " (raise it with --max-side, or use a smaller --offset)"
        case .textPixels: return "; use a smaller --font-size or --scale"
        case .textLength: return ""
        case .textInk: return "; use a smaller --font-size, or a larger --height or --padding"
        }
    }
}
