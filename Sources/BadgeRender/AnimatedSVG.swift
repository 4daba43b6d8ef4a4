import BadgeCore

/// Builds an animated SVG from the static SVGs of its layers: the still part (icon
/// and every badge but the first) and the moving badge (and, in a `pop`, the old
/// value), each Cairo's drawing with its ids renumbered apart (`ib…s1`, `ib…m1`,
/// `ib…o1`, after a hash of the document, as its class and keyframe names), and
/// CSS `@keyframes` that carry the animation's timing functions, so the file stays
/// resolution-independent and a browser computes the same curve (CSS Easing Functions
/// Level 1) as the raster frames.
///
/// - Scale is a CSS `transform` about the badge's centre (`transform-box: view-box`,
///   so `transform-origin` is in the canvas's pixels); opacity fades the badge as one
///   group, as the raster frames do.
/// - `pop`: the old value's layer fades out over the first half with its curve, the
///   new value's layer is hidden until the half (`step-end`), then bounces.
/// - `@media (prefers-reduced-motion: reduce)` stops the animation and shows its last
///   frame at once: the badge at rest, or none after `fade-out`.
/// - Loops: `animation-iteration-count` (`infinite` for forever); a loop lasts the
///   duration (the raster files show their last frame 1/fps more).
enum AnimatedSVG {
    static func document(
        width: Int, height: Int, still: String, moving: String, old: String?, centre: Point,
        animation: BadgeAnimation
    ) -> String {
        // Names of this document's own (a hash of its layers and timing), so that two
        // animated SVGs placed inline in one HTML page do not restyle each other.
        let name =
            "ib"
            + ContentHash.fnv1a64(
                Array(
                    (still + moving + (old ?? "") + animation.kind.rawValue + "\(animation.duration)"
                        + (animation.easing?.css ?? "") + "\(animation.loops)").utf8)
            ).prefix(8)
        let count = animation.loops == 0 ? "infinite" : "\(animation.loops)"
        let duration = "\(Easing.shortest(animation.duration))s"
        let origin = "\(Easing.shortest(centre.x))px \(Easing.shortest(centre.y))px"
        let kind = animation.kind
        let curve = (animation.easing ?? kind.defaultEasing).css
        let oldCurve = (animation.easing ?? .easeIn).css
        var keyframes: String
        var restState: String
        switch kind {
        case .bounce:
            keyframes = "@keyframes \(name)-moving{0%{transform:scale(1.5)}100%{transform:scale(1)}}"
            restState = ""
        case .fadeOut:
            keyframes = "@keyframes \(name)-moving{0%{opacity:1}100%{opacity:0}}"
            restState = ".\(name)-moving{opacity:0}"
        case .fadeIn:
            keyframes = "@keyframes \(name)-moving{0%{opacity:0}100%{opacity:1}}"
            restState = ""
        case .pop:
            keyframes =
                "@keyframes \(name)-moving{0%{opacity:0;transform:scale(1.5);animation-timing-function:step-end}"
                + "50%{opacity:1;transform:scale(1.5);animation-timing-function:\(curve)}"
                + "100%{opacity:1;transform:scale(1)}}\n"
                + "@keyframes \(name)-old{0%{opacity:1;animation-timing-function:\(oldCurve)}50%{opacity:0}100%{opacity:0}}"
            restState = ".\(name)-old{opacity:0}"
        }
        // A pop's phases carry their own curves in the keyframes: linear across.
        let timing = kind == .pop ? "linear" : curve
        var style = ".\(name)-moving,.\(name)-old{transform-box:view-box;transform-origin:\(origin)}\n"
        style += ".\(name)-moving{animation:\(name)-moving \(duration) \(timing) 0s \(count) both}\n"
        if old != nil { style += ".\(name)-old{animation:\(name)-old \(duration) linear 0s \(count) both}\n" }
        style += keyframes + "\n"
        style += "@media (prefers-reduced-motion:reduce){.\(name)-moving,.\(name)-old{animation:none}\(restState)}\n"
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""
        svg += " width=\"\(width)px\" height=\"\(height)px\" viewBox=\"0 0 \(width) \(height)\" version=\"1.1\">\n"
        svg += "<style>\n\(style)</style>\n"
        svg += "<g class=\"\(name)-still\">\n\(body(still, prefix: "\(name)s"))</g>\n"
        if let old { svg += "<g class=\"\(name)-old\">\n\(body(old, prefix: "\(name)o"))</g>\n" }
        svg += "<g class=\"\(name)-moving\">\n\(body(moving, prefix: "\(name)m"))</g>\n"
        svg += "</svg>\n"
        return svg
    }

    /// What is inside a Cairo SVG's root element, its ids renamed with `prefix`.
    static func body(_ svg: String, prefix: String) -> String {
        let renamed = SVGIdentifiers.renumber(svg, prefix: prefix)
        guard let root = renamed.firstRange(of: "<svg"), let open = renamed[root.upperBound...].firstIndex(of: ">"),
            let close = renamed.ranges(of: "</svg>").last, open < close.lowerBound
        else { return "" }
        var inner = String(renamed[renamed.index(after: open)..<close.lowerBound])
        if !inner.hasSuffix("\n") { inner += "\n" }
        return inner
    }
}

extension Easing {
    /// The curve as CSS: its name, or `cubic-bezier(x1,y1,x2,y2)`.
    var css: String { description.replacing(", ", with: ",") }
}
