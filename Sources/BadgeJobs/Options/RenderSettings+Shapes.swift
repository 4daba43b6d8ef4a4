import BadgeCore
import BadgeRender

extension RenderSettings {
    /// A ribbon's default thickness: 16 % of the shape's shorter side.
    package static let ribbonThickness = 16.0
    /// A banner's default thickness: 18 %.
    package static let bannerThickness = 18.0
    /// A shield's default height: 20 %, about fastlane's shield on an app icon.
    package static let shieldHeight = 20.0

    /// The defaults and checks of `--shape ribbon|banner|shield`: they hold text as
    /// written (a build number is not a count), and are sized relative to the icon
    /// unless `--height` is given; a banner and a shield go to the bottom unless
    /// `--anchor` is given.
    ///
    /// - Throws: `BadgeError.usage` or `invalidValue` (64) for a dot or an image, an
    ///   anchor the shape cannot use, options a band ignores, or a shield without two
    ///   non-empty parts.
    func applyShapeRules(to style: inout BadgeStyle, labelRules: inout LabelRules) throws(BadgeError) {
        let shape = style.shape
        let defaults = BadgeStyle()
        for (used, option, owner) in [
            (
                given.isOwn("ribbon-distance", fallback: style.ribbonDistance != defaults.ribbonDistance),
                "--ribbon-distance", BadgeShape.ribbon
            ),
            (given.isOwn("banner-ends", fallback: style.bandEnds != defaults.bandEnds), "--banner-ends", .banner),
            (
                given.isOwn("label-background", fallback: style.labelBackground != defaults.labelBackground),
                "--label-background", .shield
            ),
        ] where used && shape != owner {
            throw .usage("\(option) goes with --shape \(owner.rawValue) (the shape is \(shape.rawValue))")
        }
        if style.avoidsContent {
            // Given for this badge, a combination that cannot move is refused; shared
            // (a variable, a manifest's defaults), it is off for such a badge.
            let explicit = given.isOwn("avoid-content", fallback: true)
            if shape.isBand {
                guard !explicit else {
                    throw .usage(
                        "--avoid-content moves a pill, dot, image or shield; a \(shape.rawValue) stays on its \(shape == .ribbon ? "corner" : "edge")"
                    )
                }
                style.avoidsContent = false
            } else if style.overflow != .clamp {
                guard !explicit else {
                    throw .usage(
                        "--avoid-content moves a clamped badge; it does not go with --overflow \(style.overflow.rawValue)"
                    )
                }
                style.avoidsContent = false
            }
        }
        guard shape != .pill else { return }
        guard !dot, image == nil else {
            throw .usage("--shape \(shape.rawValue) holds text: give --value or --text, not --dot or --image")
        }
        labelRules.verbatim = true
        if !given.isOwn("height", fallback: given.contains("height")) {
            let percent: Double
            switch shape {
            case .ribbon: percent = Self.ribbonThickness
            case .banner: percent = Self.bannerThickness
            default: percent = Self.shieldHeight
            }
            style.height = .fixed(.percent(percent))
        }
        switch shape {
        case .pill:
            break
        case .ribbon:
            let corners: [Anchor] = [.topLeft, .topRight, .bottomLeft, .bottomRight]
            // A shared anchor (ICONBADGE_ANCHOR, a manifest's defaults, batch's flags)
            // applies when it is a corner; else it is the pills' and a ribbon keeps its own.
            if !given.isOwn("anchor", fallback: true), !corners.contains(style.anchor) {
                style.anchor = defaults.anchor
            }
            guard corners.contains(style.anchor) else {
                throw .invalidValue(
                    option: "--anchor", value: style.anchor.rawValue,
                    problem:
                        "is not a corner: a ribbon goes across top-left, top-right, bottom-left or bottom-right"
                        + suggestion(style.anchor.rawValue, among: corners))
            }
        case .banner:
            if !given.contains("anchor")
                || (!given.isOwn("anchor", fallback: true) && style.anchor != .top && style.anchor != .bottom)
            {
                style.anchor = .bottom
            }
            guard style.anchor == .top || style.anchor == .bottom else {
                throw .invalidValue(
                    option: "--anchor", value: style.anchor.rawValue,
                    problem: "is not an edge: a banner runs along the top or the bottom"
                        + suggestion(style.anchor.rawValue, among: [.top, .bottom]))
            }
        case .shield:
            if !given.contains("anchor") { style.anchor = .bottom }
            if !given.contains("badge-anchor") { style.badgeAnchor = .bottom }
            let shown = value ?? text ?? ""
            let option = value != nil ? "--value" : "--text"
            guard let parts = RenderRequest.shieldParts(shown) else {
                throw .invalidValue(
                    option: option, value: shown,
                    problem: "is not a shield's two parts: give LABEL|MESSAGE, e.g. \"1.4.2|beta\"")
            }
            // Spaces and invisible format characters (U+200B) alone are no text.
            func blank(_ part: String) -> Bool {
                part.unicodeScalars.allSatisfy {
                    $0.properties.isWhitespace || $0.properties.generalCategory == .format
                }
            }
            guard !blank(parts.label), !blank(parts.message) else {
                throw .invalidValue(
                    option: option, value: shown,
                    problem: "has an empty \(blank(parts.label) ? "label" : "message"): both sides of | need text")
            }
        }
        if shape.isBand {
            // Refused when given for this badge; a shared value (the environment, a
            // manifest's defaults) is the pills' and is left alone.
            let ignored: [(Bool, String)] = [
                (given.isOwn("badge-anchor", fallback: given.contains("badge-anchor")), "--badge-anchor"),
                (given.isOwn("offset", fallback: style.offset != .zero), "--offset"),
                (given.isOwn("overflow", fallback: style.overflow != .clamp), "--overflow"),
                (given.isOwn("radius", fallback: style.radius != nil), "--radius"),
                (given.isOwn("min-width", fallback: style.minWidth != 0), "--min-width"),
            ]
            if let (_, option) = ignored.first(where: { $0.0 }) {
                throw .usage(
                    "\(option) does not apply to a \(shape.rawValue): it is placed by --anchor\(shape == .ribbon ? " and --ribbon-distance" : "") and sized by --height"
                )
            }
        }
    }

    /// "; did you mean X?" when `text` is close to one of `anchors`.
    private func suggestion(_ text: String, among anchors: [Anchor]) -> String {
        // The nearest allowed anchor to the one given, by the anchors' positions.
        guard let given = Anchor(rawValue: text) else { return "" }
        let nearest = anchors.min {
            let a = (abs($0.unit.x - given.unit.x) + abs($0.unit.y - given.unit.y))
            let b = (abs($1.unit.x - given.unit.x) + abs($1.unit.y - given.unit.y))
            return a < b
        }
        return nearest.map { "; did you mean \($0.rawValue)?" } ?? ""
    }
}
