import BadgeCore
import BadgeRender

/// Finds the largest `--relative-size` at which every image of a catalog run that
/// failed for a badge too large for its shape fits: the figure the catalog commands'
/// size advice gives (`SizeAdvice.relativeSize`).
///
/// The probe builds each failed image's scene again (layout only, nothing painted)
/// with the badge height at a smaller percentage of the reference box, by bisection
/// on whole hundredths: a badge that fits at a height fits at every smaller one
/// (placement only ever has more room), so the answer is exact to 0.01.
package enum RelativeSizeProbe {
    /// Whether `error` says the badge is too large for its icon's shape or canvas:
    /// what a smaller relative size fixes.
    package static func isTooLarge(_ error: BadgeError) -> Bool {
        switch error {
        case .render(.badgeOutsideShape, _), .render(.bandTooThick, _), .overLimit(_, .badgeLargerThanIcon):
            return true
        default:
            return false
        }
    }

    /// The largest relative size below `current` (a fraction, such as 0.3), in whole
    /// hundredths, at which every request of `failed` builds; nil when even 0.01 does
    /// not. Only the badges whose height is a percentage (the relative size) change.
    package static func largestFitting(_ failed: [RenderRequest], below current: Double) -> Double? {
        guard !failed.isEmpty, let renderer = try? Renderer() else { return nil }
        let cache = IconCache()
        func fits(_ hundredths: Int) -> Bool {
            failed.allSatisfy { request in
                (try? renderer.compose(request.withRelativeHeight(percent: Double(hundredths)), cache: cache)) != nil
            }
        }
        var high = Int((current * 100).rounded(.up)) - 1
        guard high >= 1 else { return nil }
        if fits(high) { return Double(high) / 100 }
        var low = 0  // 0 stands for "none fits".
        // Invariant: high does not fit; low fits (or is 0).
        while high - low > 1 {
            let middle = (low + high) / 2
            if fits(middle) { low = middle } else { high = middle }
        }
        return low == 0 ? nil : Double(low) / 100
    }
}

extension RenderRequest {
    /// The same request with every badge whose height is a percentage of the
    /// reference box (a catalog's relative size) at `percent` instead.
    func withRelativeHeight(percent: Double) -> RenderRequest {
        let changed = badges.map { badge -> RenderRequest.Badge in
            guard case .fixed(.percent) = badge.style.height else { return badge }
            var style = badge.style
            style.height = .fixed(.percent(percent))
            return RenderRequest.Badge(
                content: badge.content, labelRules: badge.labelRules, style: style, font: badge.font,
                fontFeatures: badge.fontFeatures, fallbackFonts: badge.fallbackFonts,
                systemFallback: badge.systemFallback, strictGlyphs: badge.strictGlyphs, smallText: badge.smallText,
                minimumTextPixels: badge.minimumTextPixels, minimumDotPixels: badge.minimumDotPixels, ring: badge.ring)
        }
        return RenderRequest(
            icon: icon, badge: changed[0], moreBadges: Array(changed.dropFirst()), output: output, limits: limits,
            animation: animation)
    }
}
