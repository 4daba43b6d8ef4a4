import BadgeCore
internal import CCairo

/// Which parts of a scene a painter draws: all of it, or one layer of an output made
/// of several, such as an animated SVG's still part and its moving badge, or an
/// Android adaptive icon's badge layer (the badges without the icon,
/// `RenderRequest.Output.layers`). Chosen per painting by its caller, never changed.
struct SceneLayers: Equatable {
    /// Whether the icon is drawn.
    let icon: Bool
    /// Which badges are drawn.
    let badges: Badges

    /// Which badges of `Scene.badges` are drawn.
    enum Badges: UInt8 {
        /// Every one, in order.
        case all
        /// The first alone (the one an animation moves).
        case first
        /// Every one but the first.
        case allButFirst
        /// None: the icon alone.
        case none
    }

    /// The icon and every badge.
    static let all = SceneLayers(icon: true, badges: .all)
    /// The icon and every badge but the first: an animated SVG's still part.
    static let still = SceneLayers(icon: true, badges: .allButFirst)
    /// The first badge alone, on a transparent canvas: an animated SVG's moving part.
    static let moving = SceneLayers(icon: false, badges: .first)

    /// Whether badge `index` of a scene is drawn.
    func draws(badge index: Int) -> Bool {
        switch badges {
        case .all: return true
        case .first: return index == 0
        case .allButFirst: return index > 0
        case .none: return false
        }
    }
}

extension SceneLayers {
    /// What an output of a request holds (`RenderRequest.Output.layers`).
    init(_ layers: RenderRequest.Output.Layers) {
        switch layers {
        case .all: self = .all
        case .badges: self.init(icon: false, badges: .all)
        case .icon: self.init(icon: true, badges: .none)
        }
    }
}

/// Draws a scene onto any Cairo context (image, SVG or PDF surface): one drawing code
/// path for every output format. A function of the scene, the frame and the layers;
/// it changes nothing but the target.
enum ScenePainter {
    /// Draws the icon, then every badge in order (shape, border, text or image), the
    /// first at `frame`, the rest at rest.
    ///
    /// - Parameter vector: whether the target is an SVG or PDF surface: SVG icons
    ///   and badge images are then drawn as vectors, else as their pixels.
    /// - Parameter iconAlreadyThere: the target already holds the icon's pixels.
    /// - Throws: 65 when an SVG icon or badge image fails to render (librsvg limits);
    ///   `internalError` when the icon's pixels were drawn on in place already.
    static func paint(
        _ scene: Scene, at frame: BadgeFrameState, layers: SceneLayers = .all, into cr: OpaquePointer, vector: Bool,
        iconAlreadyThere: Bool = false
    ) throws(BadgeError) {
        if !iconAlreadyThere, layers.icon { try paintIcon(scene.icon, into: cr, vector: vector) }
        // Every badge in order; a hidden one (a count of 0) draws nothing. Only the
        // first moves; an animated SVG draws it apart from the rest.
        for (index, shown) in scene.badges.enumerated() where layers.draws(badge: index) {
            let state = index == 0 ? frame : .rest
            // A pop's first frames show the old value (built apart; none when hidden).
            var badge = shown
            if state.showsOldValue {
                guard let previous = scene.previous else { continue }
                badge = previous
            }
            guard let layout = badge.layout else { continue }
            // Fully faded, or scaled to nothing (a curve through y = 3): nothing drawn.
            guard state.opacity > 0, abs(state.scale) > 1e-9 else { continue }
            if state == .rest {
                if badge.paint.clearsUnder { clear(under: badge, into: cr) }
                try BadgePainter.paint(badge, layout, in: scene, into: cr, vector: vector)
                continue
            }
            // A frame of an animation: the badge scaled about its centre, as vectors
            // (never its pixels resampled), and faded as one layer, so that where its
            // shape and text overlap the text does not show through.
            cairo_save(cr)
            let centre = layout.band?.centre ?? layout.badgeRect.center
            cairo_translate(cr, centre.x, centre.y)
            cairo_scale(cr, state.scale, state.scale)
            cairo_translate(cr, -centre.x, -centre.y)
            if state.opacity < 1 { cairo_push_group(cr) }
            do {
                try BadgePainter.paint(badge, layout, in: scene, into: cr, vector: vector)
            } catch {
                if state.opacity < 1 { cairo_pattern_destroy(cairo_pop_group(cr)) }
                cairo_restore(cr)
                throw error
            }
            if state.opacity < 1 {
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, state.opacity)
            }
            cairo_restore(cr)
        }
    }

    /// The gap cleared around a badge that clears what is under it (points, at the
    /// badge's pixels per point): on a one-colour layer the badge would otherwise
    /// merge with the drawing it touches.
    static let clearedGap = 1.0

    /// Pixels cleared beyond `clearedGap`, whatever the density: a pixel the badge's
    /// antialiased edge touches lies within √2/2 px of its outline, and Cairo
    /// flattens curves to within 0.1 px, so at 1 pt = 1 px (mdpi) the cleared area's own
    /// antialiased edge reached such pixels and left the drawing at alpha 6–12 under
    /// the badge's faintest edge pixels. One pixel more keeps them wholly cleared.
    static let clearedMarginPixels = 1.0

    /// Clears what is drawn under a badge's footprint and `clearedGap` (plus
    /// `clearedMarginPixels`) around it (Cairo's CLEAR), so that only the badge is seen
    /// there: its cut-out text is empty, not the icon, and a thin gap parts it from the
    /// drawing.
    private static func clear(under badge: Scene.Badge, into cr: OpaquePointer) {
        guard let footprint = badge.footprint, let layout = badge.layout else { return }
        cairo_save(cr)
        if case .band(_, let clip?) = footprint {
            BadgePainter.shapePath(cr, clip)
            cairo_clip(cr)
        }
        BadgePainter.outline(cr, footprint)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_set_line_width(cr, 2 * (clearedGap * layout.scale + clearedMarginPixels))
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_fill_preserve(cr)
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// Draws the icon in its rectangle, clipped by its mask: as vectors when it is an
    /// unfiltered SVG and the target is a vector surface, else as its pixels.
    private static func paintIcon(_ icon: Scene.IconLayer, into cr: OpaquePointer, vector: Bool) throws(BadgeError) {
        let iconRect = icon.rect
        cairo_save(cr)
        defer { cairo_restore(cr) }
        switch icon.mask {
        case .none:
            break
        case .circle:
            let radius = min(iconRect.width, iconRect.height) / 2
            cairo_arc(cr, iconRect.center.x, iconRect.center.y, radius, 0, 2 * Double.pi)
            cairo_clip(cr)
        case .rounded(let points):
            BadgePainter.roundedRectangle(
                cr, iconRect, radius: min(points * icon.maskScale, min(iconRect.width, iconRect.height) / 2))
            cairo_clip(cr)
        }
        if vector, let svg = icon.vector {
            try svg.render(into: cr, rect: iconRect)
        } else {
            cairo_set_source_surface(cr, try icon.surface().surface, iconRect.x, iconRect.y)
            cairo_paint(cr)
        }
    }
}
