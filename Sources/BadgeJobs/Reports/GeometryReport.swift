import BadgeCore
import BadgeRender

/// The `--report` JSON: the layout in pixels, for tests and scripts that assert
/// geometry without reading pixels. Keys are stable; documented in docs/manual/geometry.md.
package enum GeometryReport {
    /// The report of `scene`, made for `request`, written to `output` (nil: none).
    package static func json(
        _ scene: Scene, request: RenderRequest, output: String?, animation: BadgeAnimation? = nil
    ) -> JSONValue {
        let still = stillJSON(scene, request: request, output: output)
        guard let animation, case .object(var members) = still else { return still }
        members.append(("animation", animationObject(scene, animation)))
        return .object(members)
    }

    /// `animation`: the timing, each frame's delay as an exact fraction of a second,
    /// and each frame's time, scale, opacity and badge rectangle (pixels, scaled about
    /// the badge's centre; null when nothing is drawn).
    static func animationObject(_ scene: Scene, _ animation: BadgeAnimation) -> JSONValue {
        func rect(_ r: Rect) -> JSONValue {
            .object([
                ("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height)),
            ])
        }
        let kind = animation.kind
        let curves: [Easing] =
            kind == .pop
            ? [animation.easing ?? .easeIn, animation.easing ?? .bounce] : [animation.easing ?? kind.defaultEasing]
        var frames: [JSONValue] = []
        for (k, state) in animation.frames.enumerated() {
            var frame: [(String, JSONValue)] = [
                ("index", .number(Double(k))), ("time", .number(animation.time(ofFrame: k))),
                ("scale", .number(state.scale)), ("opacity", .number(state.opacity)),
            ]
            if kind == .pop { frame.append(("value", .string(state.showsOldValue ? "old" : "new"))) }
            frame.append(("badgeRect", scene.animatedBadgeRect(state).map(rect) ?? .null))
            frames.append(.object(frame))
        }
        return .object([
            ("kind", .string(kind.rawValue)), ("duration", .number(animation.duration)),
            ("fps", .number(Double(animation.fps))), ("easing", .array(curves.map { .string($0.description) })),
            ("loops", animation.loops == 0 ? .string("forever") : .number(Double(animation.loops))),
            ("frameCount", .number(Double(animation.frameCount))),
            ("delays", .array(animation.delays.map { .string("\($0.numerator)/\($0.denominator)") })),
            ("frames", .array(frames)),
        ])
    }

    /// The report of the still render.
    static func stillJSON(_ scene: Scene, request: RenderRequest, output: String?) -> JSONValue {
        let first = scene.badge
        func rect(_ r: Rect) -> JSONValue {
            .object([
                ("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height)),
            ])
        }
        var members: [(String, JSONValue)] = [
            ("schema", .number(1)),
            (
                "icon",
                .object([
                    ("path", .string(request.icon.path)), ("format", .string(scene.icon.format)),
                    ("width", .number(Double(scene.icon.width))),
                    ("height", .number(Double(scene.icon.height))),
                ])
            ),
            (
                "canvas",
                .object([
                    ("width", .number(Double(scene.canvasWidth))),
                    ("height", .number(Double(scene.canvasHeight))),
                ])
            ),
            ("scale", .number(request.output.scale)),
        ]
        if !request.icon.filters.isEmpty {
            members.append(("iconFilters", .array(request.icon.filters.map { .string($0.description) })))
        }
        if let output { members.append(("output", .string(output))) }
        guard let layout = first.layout else {
            members.append(("hidden", .bool(true)))
            let reason: String
            switch first.hidden {
            case .zero: reason = "zero"
            case .tooSmall: reason = "too-small"
            default: reason = "empty"
            }
            members.append(("hiddenReason", .string(reason)))
            members.append(("platform", .string(scene.platform.rawValue)))
            if let note = smallText(first) { members.append(("smallText", note)) }
            members.append(
                ("iconRect", rect(Rect(x: 0, y: 0, width: Double(scene.icon.width), height: Double(scene.icon.height))))
            )
            members += badgesMember(scene)
            return .object(members)
        }
        members.append(("hidden", .bool(false)))
        members.append(("iconRect", rect(layout.iconRect)))
        members.append(("platform", .string(scene.platform.rawValue)))
        if let box = layout.referenceBox { members.append(("referenceBox", rect(box))) }
        if let requested = layout.requestedRect {
            var placement: [(String, JSONValue)] = [
                ("requested", rect(requested)), ("moved", .bool(layout.moved)),
                ("offsetIgnored", .bool(layout.offsetIgnored)),
            ]
            if let covered = layout.contentCovered {
                placement.append(
                    (
                        "contentCovered",
                        .object([
                            ("clamped", .number(Double(covered.clamped))), ("placed", .number(Double(covered.placed))),
                        ])
                    ))
            }
            members.append(("placement", .object(placement)))
        }
        if let note = smallText(first) { members.append(("smallText", note)) }
        if let contrast = contrast(first) { members.append(("contrast", contrast)) }
        members.append(("badge", badgeObject(first, layout)))
        members += badgesMember(scene)
        if !first.fontsUsed.isEmpty {
            members.append(
                (
                    "fonts",
                    .array(
                        first.fontsUsed.map {
                            .object([("face", .string($0.name)), ("glyphs", .number(Double($0.glyphs)))])
                        })
                ))
        }
        if !first.missingGlyphs.isEmpty {
            members.append(("missingGlyphs", .array(first.missingGlyphs.map { .string($0.codePointName) })))
        }
        return .object(members)
    }

    /// With several badges, `badges`: every badge in drawing order (the first again,
    /// as `badge`), each its own entry; nothing with one badge.
    static func badgesMember(_ scene: Scene) -> [(String, JSONValue)] {
        guard scene.badges.count > 1 else { return [] }
        // Every badge in drawing order, the first again: each its own entry.
        return [
            (
                "badges",
                .array(
                    scene.badges.map { drawn in
                        guard let layout = drawn.layout else {
                            return .object([("hidden", .bool(true)), ("hiddenReason", hiddenReason(drawn))])
                        }
                        return badgeObject(drawn, layout)
                    })
            )
        ]
    }

    /// One badge's entry: its kind, rectangle, text and shape (pixels).
    static func badgeObject(_ badge: Scene.Badge, _ layout: BadgeLayout) -> JSONValue {
        func rect(_ r: Rect) -> JSONValue {
            .object([
                ("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height)),
            ])
        }
        var members: [(String, JSONValue)] = [
            ("kind", .string(badge.label != nil ? "text" : (badge.isDot ? "dot" : "image"))),
            ("rect", rect(layout.badgeRect)),
            ("cornerRadius", .number(layout.cornerRadius)),
            ("borderWidth", .number(layout.borderWidth)),
        ]
        if let label = badge.label { members.append(("label", .string(label))) }
        if let origin = layout.textOrigin {
            members.append(("textOrigin", .object([("x", .number(origin.x)), ("y", .number(origin.y))])))
        }
        if let ink = layout.inkBounds { members.append(("inkBox", rect(ink))) }
        if let advance = badge.textAdvance { members.append(("advance", .number(advance))) }
        members.append(contentsOf: shapeMembers(badge, layout))
        return .object(members)
    }

    /// Why a badge is hidden, as the report words it.
    static func hiddenReason(_ badge: Scene.Badge) -> JSONValue {
        switch badge.hidden {
        case .zero: return .string("zero")
        case .tooSmall: return .string("too-small")
        default: return .string("empty")
        }
    }

    /// The members a ribbon, banner or shield adds: its shape, its band or parts, and
    /// the text size after shrinking (pixels).
    static func shapeMembers(_ badge: Scene.Badge, _ layout: BadgeLayout) -> [(String, JSONValue)] {
        func point(_ p: Point) -> JSONValue { .object([("x", .number(p.x)), ("y", .number(p.y))]) }
        func rect(_ r: Rect) -> JSONValue {
            .object([
                ("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height)),
            ])
        }
        var members: [(String, JSONValue)] = [("shape", .string(badge.shape.rawValue))]
        if let pixels = badge.textPixels, badge.shape != .pill {
            members.append(("textPixels", .number(pixels)))
        }
        if let band = layout.band {
            var object: [(String, JSONValue)] = [
                ("polygon", .array(band.polygon.map(point))), ("centre", point(band.centre)),
                ("angle", .number((band.angle * 180 / Double.pi * 1e9).rounded() / 1e9)),
                ("thickness", .number(band.thickness)), ("box", rect(band.box)),
            ]
            if let origin = band.textOrigin { object.append(("textOrigin", point(origin))) }
            if let room = band.textRoom { object.append(("textRoom", .number(room))) }
            if band.textOrigin != nil { object.append(("textShift", .number(band.textShift))) }
            members.append(("band", .object(object)))
        }
        if let shield = layout.shield {
            members.append(
                (
                    "parts",
                    .array([
                        .object([
                            ("label", .string(badge.label ?? "")), ("rect", rect(shield.labelRect)),
                            ("textOrigin", point(shield.labelOrigin)),
                        ]),
                        .object([
                            ("label", .string(badge.messageLabel ?? "")), ("rect", rect(shield.messageRect)),
                            ("textOrigin", point(shield.messageOrigin)),
                        ]),
                    ])
                ))
        }
        return members
    }

    /// The badge's fill against the icon around it (`BadgeVisibility`), when measured:
    /// the median ΔE_OK, the WCAG contrast ratio, whether that is close, and the ring
    /// drawn (`#RRGGBB`, or null).
    static func contrast(_ badge: Scene.Badge) -> JSONValue? {
        guard let measured = badge.contrast else { return nil }
        var ring: JSONValue = .null
        for case .lowContrast(_, _, let drawn?) in badge.notes { ring = .string(drawn.hexDescription) }
        return .object([
            ("deltaE", .number((measured.deltaE * 10000).rounded() / 10000)),
            ("wcagRatio", .number((measured.ratio * 100).rounded() / 100)),
            ("close", .bool(measured.isClose)), ("ring", ring),
        ])
    }

    /// What became of text too small to read, when it did.
    static func smallText(_ badge: Scene.Badge) -> JSONValue? {
        for case .smallText(let label, let pixels, let became) in badge.notes {
            return .object([
                ("label", .string(label)), ("pixels", .number(pixels)), ("became", .string(became.rawValue)),
            ])
        }
        return nil
    }
}
