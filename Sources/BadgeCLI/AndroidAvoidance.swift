import BadgeCore
import BadgeJobs
import BadgeSystem

/// What `--avoid-content` did on the adaptive icons' layers, from the xxxhdpi
/// renders' reports: one line per icon, how many of each layer's opaque pixels the
/// badge covers, and how many where clamp puts it; and a line when it moved no
/// legacy icon's badge.
enum AndroidAvoidance {
    static func lines(_ overlay: AndroidOverlay, outcomes: [JobOutcome]) -> [String] {
        var icons: [(icon: String, parts: [String])] = []
        for (icon, layer, index) in overlay.avoidance where index < outcomes.count {
            guard case .success(let done) = outcomes[index].result,
                let covered = done.report?["placement"]?["contentCovered"],
                case .number(let clamped)? = covered["clamped"], case .number(let placed)? = covered["placed"]
            else { continue }
            let part = "\(Int(placed)) px of the \(layer) (\(Int(clamped)) where clamp puts it)"
            if let last = icons.indices.last, icons[last].icon == icon {
                icons[last].parts.append(part)
            } else {
                icons.append((icon, [part]))
            }
        }
        var lines = icons.map {
            "\($0.icon): --avoid-content: the badge covers \($0.parts.joined(separator: ", ")) at xxxhdpi"
        }
        if let line = legacyLine(overlay, outcomes: outcomes) { lines.append(line) }
        return lines
    }

    /// The note for legacy icons on which `--avoid-content` moved no badge (a
    /// full-bleed square icon is covered alike everywhere): where the badge covers
    /// as much as where clamp puts it, it stays there, so the images are what they
    /// are without the option. Nil when it moved one, or there are none.
    static func legacyLine(_ overlay: AndroidOverlay, outcomes: [JobOutcome]) -> String? {
        guard !overlay.legacyAvoidance.isEmpty else { return nil }
        for index in overlay.legacyAvoidance where index < outcomes.count {
            guard case .success(let done) = outcomes[index].result else { return nil }
            // No coverage reported: the badge was not searched for (hidden, too large).
            guard let covered = done.report?["placement"]?["contentCovered"] else { continue }
            guard case .number(let clamped)? = covered["clamped"], case .number(let placed)? = covered["placed"],
                placed == clamped
            else { return nil }
        }
        let count = overlay.legacyAvoidance.count
        let which = overlay.adaptiveCount > 0 ? "the legacy icons" : "these icons"
        return
            "--avoid-content changed nothing on \(which) (\(count) image\(count == 1 ? "" : "s")): no other place covers less of them than where the badge goes without it"
    }
}
