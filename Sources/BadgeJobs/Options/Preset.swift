import BadgeCore

/// Named looks for `--style`. A preset is applied first; every other option, from
/// the environment or the command line, overrides its values.
package enum Preset: String, CaseIterable {
    /// iOS's badge: #FF3B30 fill, white 12 pt bold text, an 18 pt circle or pill.
    case ios
    /// Material Design 3's badge (m3.material.io/components/badges/specs): error
    /// colour #B3261E, on-error white, large badge 16 dp tall (min width 16 dp,
    /// 4 dp horizontal padding) with 11 pt text; small badge (dot) 6 dp.
    case material3

    package func apply(to settings: inout RenderSettings) {
        switch self {
        case .ios:
            settings.style = BadgeStyle()
        case .material3:
            var style = BadgeStyle()
            style.background = Color(rgb: 0xB3261E)
            style.textColor = .white
            style.height = .fixed(16)
            style.minWidth = 16
            style.padding = Padding(horizontal: 4, vertical: 0)
            style.fontSize = 11
            style.dotSize = 6
            // A percentage height or text size keeps this preset's proportions.
            style.nominalHeight = 16
            style.nominalFontSize = 11
            settings.style = style
        }
    }
}
