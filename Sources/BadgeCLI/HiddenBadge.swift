import BadgeCore
import BadgeJobs

/// The rules the catalog commands (`appiconset`, `android`) share before they
/// render: a set's images keep their sizes, and a hidden badge writes nothing.
enum HiddenBadge {
    /// Whether there is a badge to draw: false, with one note, for a hidden badge (a
    /// value of 0 without --show-zero, or an empty value), for which nothing is
    /// written: a build whose label variable is empty must not re-encode every icon
    /// and report success as if it had badged them.
    ///
    /// - Throws: 64 for `--overflow expand` (images must keep their slots' sizes), and
    ///   for a hidden badge with `--fail-if-hidden`.
    static func isShown(_ render: RenderSettings, failIfHidden: Bool, command: String, io: CommandIO)
        throws(BadgeError) -> Bool
    {
        guard render.style.overflow != .expand else {
            throw .usage(
                "--overflow expand grows each image past its slot's size, which breaks the set; use clamp (the default) or clip"
            )
        }
        func hidden(_ badge: RenderSettings) -> HiddenReason? {
            var rules = badge.labelRules
            // Ribbons, banners and shields show their text as written.
            rules.verbatim = badge.text != nil || badge.style.shape != .pill
            guard let value = badge.shownValue, case .hidden(let reason) = rules.label(for: value) else { return nil }
            return reason
        }
        // Hidden only when every badge of several is.
        if let reason = hidden(render), render.moreBadges.allSatisfy({ hidden($0) != nil }) {
            let why = reason == .zero ? "the value is 0 (--show-zero draws it)" : "the value is empty"
            if failIfHidden {
                throw .usage("--fail-if-hidden: the badge is hidden: \(why); nothing written")
            }
            io.note("\(command): the badge is hidden: \(why); nothing written (--fail-if-hidden makes this an error)")
            return false
        }
        return true
    }
}
