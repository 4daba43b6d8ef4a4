import BadgeCore
import BadgeRender

/// The `--report` JSON: the layout in pixels, for tests and scripts that assert
/// geometry without reading pixels. Keys are stable; documented in docs/manual/geometry.md.
package enum GeometryReport {
    /// The report of `composition`, made for `request`, written to `output` (nil: none).
    package static func json(
        _ composition: Composition, request: RenderRequest, output: String?, animation: BadgeAnimation? = nil
    ) -> JSONValue {
        let still = stillJSON(composition, request: request, output: output)
        guard let animation, case .object(var members) = still else { return still }
        members.append(("animation", animationObject(composition, animation)))
        return .object(members)
    }

    /// `animation`: the timing, each frame's delay as an exact fraction of a second,
    /// and each frame's time, scale, opacity and badge rectangle (pixels, scaled about
    /// the badge's centre; null when nothing is drawn).
    static func animationObject(_ composition: Composition, _ animation: BadgeAnimation) -> JSONValue {
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
            frame.append(("badgeRect", composition.animatedBadgeRect(state).map(rect) ?? .null))
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
    static func stillJSON(_ composition: Composition, request: RenderRequest, output: String?) -> JSONValue {
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
                    ("path", .string(request.iconPath)), ("format", .string(composition.iconFormat)),
                    ("width", .number(Double(composition.iconWidth))),
                    ("height", .number(Double(composition.iconHeight))),
                ])
            ),
            (
                "canvas",
                .object([
                    ("width", .number(Double(composition.canvasWidth))),
                    ("height", .number(Double(composition.canvasHeight))),
                ])
            ),
            ("scale", .number(request.scale)),
        ]
        if !request.iconFilters.isEmpty {
            members.append(("iconFilters", .array(request.iconFilters.map { .string($0.description) })))
        }
        if let output { members.append(("output", .string(output))) }
        guard let layout = composition.layout else {
            members.append(("hidden", .bool(true)))
            let reason: String
            switch composition.hidden {
            case .zero: reason = "zero"
            case .tooSmall: reason = "too-small"
            default: reason = "empty"
            }
            members.append(("hiddenReason", .string(reason)))
            members.append(("platform", .string(composition.platform.rawValue)))
            if let note = smallText(composition) { members.append(("smallText", note)) }
            members.append(
                (
                    "iconRect",
                    rect(Rect(x: 0, y: 0, width: Double(composition.iconWidth), height: Double(composition.iconHeight)))
                ))
            members += badgesMember(composition, request: request)
            return .object(members)
        }
        members.append(("hidden", .bool(false)))
        members.append(("iconRect", rect(layout.iconRect)))
        members.append(("platform", .string(composition.platform.rawValue)))
        if let box = layout.referenceBox { members.append(("referenceBox", rect(box))) }
        if let requested = layout.requestedRect {
            members.append(
                (
                    "placement",
                    .object([
                        ("requested", rect(requested)), ("moved", .bool(layout.moved)),
                        ("offsetIgnored", .bool(layout.offsetIgnored)),
                    ])
                ))
        }
        if let note = smallText(composition) { members.append(("smallText", note)) }
        members.append(("badge", badgeObject(composition, layout, request: request)))
        members += badgesMember(composition, request: request)
        if !composition.fontsUsed.isEmpty {
            members.append(
                (
                    "fonts",
                    .array(
                        composition.fontsUsed.map {
                            .object([("face", .string($0.name)), ("glyphs", .number(Double($0.glyphs)))])
                        })
                ))
        }
        if !composition.missingGlyphs.isEmpty {
            members.append(("missingGlyphs", .array(composition.missingGlyphs.map { .string($0.codePointName) })))
        }
        return .object(members)
    }

    /// With several badges, `badges`: every badge in drawing order (the first again,
    /// as `badge`), each its own entry; nothing with one badge.
    static func badgesMember(_ composition: Composition, request: RenderRequest) -> [(String, JSONValue)] {
        guard !composition.overlays.isEmpty else { return [] }
        // Every badge in drawing order, the first again: each its own entry.
        return [
            (
                "badges",
                .array(
                    composition.badges.map { drawn in
                        guard let layout = drawn.layout else {
                            return .object([("hidden", .bool(true)), ("hiddenReason", hiddenReason(drawn))])
                        }
                        return badgeObject(drawn, layout, request: drawn.request ?? request)
                    })
            )
        ]
    }

    /// One badge's entry: its kind, rectangle, text and shape (pixels).
    static func badgeObject(_ composition: Composition, _ layout: BadgeLayout, request: RenderRequest) -> JSONValue {
        func rect(_ r: Rect) -> JSONValue {
            .object([
                ("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height)),
            ])
        }
        var badge: [(String, JSONValue)] = [
            ("kind", .string(composition.label != nil ? "text" : (composition.isDotBadge ? "dot" : "image"))),
            ("rect", rect(layout.badgeRect)),
            ("cornerRadius", .number(layout.cornerRadius)),
            ("borderWidth", .number(layout.borderWidth)),
        ]
        if let label = composition.label { badge.append(("label", .string(label))) }
        if let origin = layout.textOrigin {
            badge.append(("textOrigin", .object([("x", .number(origin.x)), ("y", .number(origin.y))])))
        }
        if let ink = layout.inkBounds { badge.append(("inkBox", rect(ink))) }
        if let advance = composition.textAdvance { badge.append(("advance", .number(advance))) }
        badge.append(contentsOf: shapeMembers(composition, layout, request: request))
        return .object(badge)
    }

    /// Why a badge is hidden, as the report words it.
    static func hiddenReason(_ composition: Composition) -> JSONValue {
        switch composition.hidden {
        case .zero: return .string("zero")
        case .tooSmall: return .string("too-small")
        default: return .string("empty")
        }
    }

    /// The members a ribbon, banner or shield adds: its shape, its band or parts, and
    /// the text size after shrinking (pixels).
    static func shapeMembers(_ composition: Composition, _ layout: BadgeLayout, request: RenderRequest) -> [(
        String, JSONValue
    )] {
        func point(_ p: Point) -> JSONValue { .object([("x", .number(p.x)), ("y", .number(p.y))]) }
        func rect(_ r: Rect) -> JSONValue {
            .object([
                ("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height)),
            ])
        }
        var members: [(String, JSONValue)] = [("shape", .string(request.style.shape.rawValue))]
        if let pixels = composition.textPixels, request.style.shape != .pill {
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
                            ("label", .string(composition.label ?? "")), ("rect", rect(shield.labelRect)),
                            ("textOrigin", point(shield.labelOrigin)),
                        ]),
                        .object([
                            ("label", .string(composition.messageLabel ?? "")), ("rect", rect(shield.messageRect)),
                            ("textOrigin", point(shield.messageOrigin)),
                        ]),
                    ])
                ))
        }
        return members
    }

    /// What became of text too small to read, when it did.
    static func smallText(_ composition: Composition) -> JSONValue? {
        for case .smallText(let label, let pixels, let became) in composition.notes {
            return .object([
                ("label", .string(label)), ("pixels", .number(pixels)), ("became", .string(became.rawValue)),
            ])
        }
        return nil
    }
}
