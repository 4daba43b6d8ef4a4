import BadgeCore
import BadgeRender

/// Which option sizes the badge in the command in use: the advice given for a badge
/// too large for its icon names it (worded by the command line).
package enum SizeAdvice: Equatable, Sendable {
    /// A render's own options, `--height` or `--dot-size`.
    case heightOrDotSize
    /// A catalog command's `--height`, given explicitly.
    case height
    /// A catalog command's `--dot-size`, for a dot.
    case dotSize
    /// A catalog command's `--relative-size`, with the largest value (hundredths)
    /// at which every image of the run fits; nil when none was found.
    case relativeSize(largest: Double?)
}

/// The rules of a catalog's size and badge that hold for every kind: the size it
/// shrinks to, the advice for a badge too large, and a hidden badge writing nothing.
package enum CatalogSizing {
    /// Whether any badge of `settings` was given a height (`--height`, or
    /// `ICONBADGE_HEIGHT`): the relative size does not size it.
    static func givesHeight(_ settings: RenderSettings) -> Bool {
        settings.heightGiven || settings.moreBadges.contains(where: \.heightGiven)
    }

    /// The smallest relative size a run shrinks to by itself: half the default 0.3.
    /// A label that needs less is no longer the marker the default was chosen for, and
    /// a badge that small is rather a mistake; the error then names the figure.
    package static let smallestShrunkSize = 0.15

    /// The relative size a run at the default size shrinks to: when every image that
    /// failed did so only for a badge too large for its shape or canvas, the largest
    /// relative size below `relativeSize` at which all of them fit
    /// (`RelativeSizeProbe`), and the number of images that failed; nil when nothing
    /// failed, something failed otherwise, or only a size under `smallestShrunkSize`
    /// fits.
    package static func shrunkSize(_ outcomes: [JobOutcome], jobs: [RenderJob], relativeSize: Double) -> (
        Double, Int
    )? {
        var failed: [RenderRequest] = []
        for (outcome, job) in zip(outcomes, jobs) {
            guard case .failure(let error) = outcome.result else { continue }
            guard RelativeSizeProbe.isTooLarge(error) else { return nil }
            failed.append(job.request)
        }
        guard !failed.isEmpty, let smaller = RelativeSizeProbe.largestFitting(failed, below: relativeSize),
            smaller >= smallestShrunkSize
        else { return nil }
        return (smaller, failed.count)
    }

    /// The option that sizes the badge in a catalog command, for the advice of a badge
    /// too large for its shape: `--dot-size` for a dot, `--height` when that was given,
    /// else `--relative-size` with the largest value at which every image that failed
    /// for its size fits (`RelativeSizeProbe`). Probed only when some job failed so.
    package static func advice(
        _ outcomes: [JobOutcome], jobs: [RenderJob], settings: RenderSettings, relativeSize: Double
    ) -> SizeAdvice {
        if settings.dot { return .dotSize }
        // A height given to any badge (`--and … --height 30%`) is what to change: the
        // relative size does not size that badge.
        if givesHeight(settings), !settings.relativeSizeGiven { return .height }
        var failed: [RenderRequest] = []
        for (outcome, job) in zip(outcomes, jobs) {
            if case .failure(let error) = outcome.result, RelativeSizeProbe.isTooLarge(error) {
                failed.append(job.request)
            }
        }
        guard !failed.isEmpty else { return .relativeSize(largest: nil) }
        return .relativeSize(largest: RelativeSizeProbe.largestFitting(failed, below: relativeSize))
    }

    /// Whether there is a badge to draw: false, with one note, for a hidden badge (a
    /// value of 0 without --show-zero, or an empty value), for which nothing is
    /// written: a build whose label variable is empty must not re-encode every icon
    /// and report success as if it had badged them.
    ///
    /// - Throws: 64 for `--overflow expand` (images must keep their slots' sizes), and
    ///   for a hidden badge with `failIfHidden` (`--fail-if-hidden`).
    package static func isShown(_ render: RenderSettings, failIfHidden: Bool, messages: any CatalogMessages)
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
            messages.note("the badge is hidden: \(why); nothing written (--fail-if-hidden makes this an error)")
            return false
        }
        return true
    }
}
