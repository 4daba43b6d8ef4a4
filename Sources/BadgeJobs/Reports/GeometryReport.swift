import BadgeCore
import BadgeRender

/// The `--report` JSON: the layout in pixels, for tests and scripts that assert
/// geometry without reading pixels. Keys are stable; documented in the README.
package enum GeometryReport {
    /// The report of `composition`, made for `request`, written to `output` (nil: none).
    package static func json(_ composition: Composition, request: RenderRequest, output: String?) -> JSONValue {
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
        members.append(("badge", .object(badge)))
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
