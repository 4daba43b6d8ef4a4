extension AndroidDrawableConverter {
    /// A `<vector>`: its size, viewport, alpha and tint, and its body as SVG in
    /// viewport coordinates.
    ///
    /// - Throws: for a missing or out-of-range size or viewport, an unknown element
    ///   or attribute, a trim (an animation's), and the body's problems.
    func vector(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> AndroidDrawable.Vector {
        let attributes = try node.androidAttributes(allowed: [
            "name", "width", "height", "viewportWidth", "viewportHeight", "alpha", "tint", "tintMode", "autoMirrored",
            "opticalInsetLeft", "opticalInsetTop", "opticalInsetRight", "opticalInsetBottom",
        ])
        func required(_ name: String, dimension: Bool) throws(AndroidDrawableProblem) -> Double {
            guard let text = attributes[name] else {
                throw node.problem("<vector> has no android:\(name) (Android requires it)")
            }
            let value =
                dimension
                ? try self.dimension(text, at: node, attribute: "android:\(name)")
                : try number(text, at: node, attribute: "android:\(name)")
            guard value > 0, value <= AndroidDrawableSVG.maxSide else {
                throw node.problem(
                    "android:\(name) is \(AndroidSVGNumber.text(value)); it must be over 0 and at most \(Int(AndroidDrawableSVG.maxSide))"
                )
            }
            return value
        }
        let width = try required("width", dimension: true)
        let height = try required("height", dimension: true)
        let viewportWidth = try required("viewportWidth", dimension: false)
        let viewportHeight = try required("viewportHeight", dimension: false)
        let alpha =
            try attributes["alpha"].map { (text) throws(AndroidDrawableProblem) in
                try number(text, at: node, attribute: "android:alpha")
            } ?? 1
        let tint = try self.tint(attributes, at: node)
        let body = try groupBody(node.children)
        return AndroidDrawable.Vector(
            width: width, height: height, viewportWidth: viewportWidth, viewportHeight: viewportHeight,
            alpha: min(1, max(0, alpha)), tint: tint, body: body)
    }

    /// A `<vector>`'s or `<bitmap>`'s tint (`android:tint`, `android:tintMode`,
    /// src_in by default), nil without one.
    ///
    /// - Throws: for a mode other than `src_in`, `src_atop` and `src_over`.
    func tint(_ attributes: [String: String], at node: AndroidXMLNode) throws(AndroidDrawableProblem)
        -> AndroidDrawable.Tint?
    {
        guard let value = attributes["tint"] else { return nil }
        let color = try self.color(value, at: node, attribute: "android:tint")
        let mode = attributes["tintMode"] ?? "src_in"
        guard ["src_in", "src_atop", "src_over"].contains(mode) else {
            throw node.problem(
                "android:tintMode is \(Quoted(mode)); iconbadge draws src_in (the default), src_atop and src_over")
        }
        return AndroidDrawable.Tint(color: color, mode: mode)
    }

    /// The children of a `<vector>` or `<group>` as SVG: groups and paths in order,
    /// and what follows a `<clip-path>` clipped by it (Android clips the rest of the
    /// group's drawing, `VectorDrawable`'s `VGroup`).
    func groupBody(_ children: [AndroidXMLNode]) throws(AndroidDrawableProblem) -> String {
        var out = ""
        var clips = 0
        for child in children {
            try count(child)
            switch child.name {
            case "group": out += try group(child)
            case "path": out += try path(child)
            case "clip-path":
                // VectorDrawableClipPath declares name and pathData; a fillType written on
                // it is ignored by Android, and so here.
                let attributes = try child.androidAttributes(allowed: ["name", "pathData", "fillType"])
                guard child.children.isEmpty else {
                    throw child.problem("<clip-path> holds elements; it has only android:pathData")
                }
                let data = try pathData(attributes["pathData"], at: child)
                let id = self.id("c")
                try define("<clipPath id=\"\(id)\"><path d=\"\(data)\"/></clipPath>", at: child)
                out += "<g clip-path=\"url(#\(id))\">\n"
                clips += 1
            default:
                throw child.problem(
                    "<\(child.name)> is not a VectorDrawable element iconbadge draws (a <vector> or <group> holds <group>, <path> and <clip-path>)"
                )
            }
            try checkSize(definedBytes + out.utf8.count, at: child)
        }
        return out + String(repeating: "</g>\n", count: clips)
    }

    /// A `<group>`: its transform (Android's order: about the pivot, scale, then
    /// rotate, then translate) around its body.
    func group(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> String {
        let attributes = try node.androidAttributes(allowed: [
            "name", "rotation", "pivotX", "pivotY", "scaleX", "scaleY", "translateX", "translateY",
        ])
        func value(_ name: String, _ fallback: Double) throws(AndroidDrawableProblem) -> Double {
            try attributes[name].map { (text) throws(AndroidDrawableProblem) in
                try number(text, at: node, attribute: "android:\(name)")
            } ?? fallback
        }
        let (rotation, pivotX, pivotY) = (try value("rotation", 0), try value("pivotX", 0), try value("pivotY", 0))
        let (scaleX, scaleY) = (try value("scaleX", 1), try value("scaleY", 1))
        let (translateX, translateY) = (try value("translateX", 0), try value("translateY", 0))
        let n = AndroidSVGNumber.text
        // VGroup.updateLocalMatrix: postTranslate(-pivot), postScale, postRotate,
        // postTranslate(translate + pivot); SVG applies the list right to left.
        var parts: [String] = []
        if translateX + pivotX != 0 || translateY + pivotY != 0 {
            parts.append("translate(\(n(translateX + pivotX)) \(n(translateY + pivotY)))")
        }
        if rotation != 0 { parts.append("rotate(\(n(rotation)))") }
        if scaleX != 1 || scaleY != 1 { parts.append("scale(\(n(scaleX)) \(n(scaleY)))") }
        if pivotX != 0 || pivotY != 0 { parts.append("translate(\(n(-pivotX)) \(n(-pivotY)))") }
        let body = try groupBody(node.children)
        return parts.isEmpty ? "<g>\n\(body)</g>\n" : "<g transform=\"\(parts.joined(separator: " "))\">\n\(body)</g>\n"
    }

    /// A `<path>`: its path data filled and stroked with their paints and alphas.
    func path(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> String {
        let attributes = try node.androidAttributes(allowed: [
            "name", "pathData", "fillColor", "fillAlpha", "fillType", "strokeColor", "strokeAlpha", "strokeWidth",
            "strokeLineCap", "strokeLineJoin", "strokeMiterLimit", "trimPathStart", "trimPathEnd", "trimPathOffset",
        ])
        // Paints given inline: <aapt:attr name="android:fillColor"><gradient …/></aapt:attr>.
        var inline: [String: AndroidXMLNode] = [:]
        for child in node.children {
            try count(child)
            guard child.qualifiedName.uri == AndroidXMLNode.aapt, child.qualifiedName.local == "attr" else {
                throw child.problem("<path> holds <\(child.name)>; only <aapt:attr> goes inside a <path>")
            }
            let name = child.element.attribute("name").map(XMLText.decoded) ?? ""
            let (uri, local) = child.resolve(name)
            guard child.element.attributes.allSatisfy({ $0.name == "name" || $0.name.hasPrefix("xmlns") }),
                uri == AndroidXMLNode.android, local == "fillColor" || local == "strokeColor"
            else {
                throw child.problem(
                    "<aapt:attr name=\"\(name)\"> is not one iconbadge draws (android:fillColor or android:strokeColor)"
                )
            }
            guard attributes[local] == nil, inline[local] == nil else {
                throw child.problem("<path> gives android:\(local) twice")
            }
            inline[local] = child
        }
        for (name, neutral) in [("trimPathStart", 0.0), ("trimPathEnd", 1.0), ("trimPathOffset", 0.0)] {
            if let text = attributes[name], try number(text, at: node, attribute: "android:\(name)") != neutral {
                throw node.problem(
                    "android:\(name) trims the path (an animation's effect); iconbadge draws only whole paths, so give it as \(AndroidSVGNumber.text(neutral)) or leave it out"
                )
            }
        }
        let data = try pathData(attributes["pathData"], at: node)
        guard !data.isEmpty else { return "" }
        func unit(_ name: String, _ fallback: Double) throws(AndroidDrawableProblem) -> Double {
            let value =
                try attributes[name].map { (text) throws(AndroidDrawableProblem) in
                    try number(text, at: node, attribute: "android:\(name)")
                } ?? fallback
            return min(1, max(0, value))
        }
        let fill = try paint(
            attributes["fillColor"], inline: inline["fillColor"], at: node, attribute: "android:fillColor")
        let stroke = try paint(
            attributes["strokeColor"], inline: inline["strokeColor"], at: node, attribute: "android:strokeColor")
        let fillAlpha = try unit("fillAlpha", 1)
        let strokeAlpha = try unit("strokeAlpha", 1)
        let strokeWidth =
            try attributes["strokeWidth"].map { (text) throws(AndroidDrawableProblem) in
                try number(text, at: node, attribute: "android:strokeWidth")
            } ?? 0
        var svg = "<path d=\"\(data)\""
        if let fill, !fill.isInvisible, fillAlpha > 0 {
            svg += fill.svg("fill", alpha: fillAlpha)
            if let rule = try fillRule(attributes["fillType"], at: node) { svg += " fill-rule=\"\(rule)\"" }
        } else {
            _ = try fillRule(attributes["fillType"], at: node)
            svg += " fill=\"none\""
        }
        let cap = try choice(attributes["strokeLineCap"], ["butt", "round", "square"], at: node, "strokeLineCap")
        let join = try choice(attributes["strokeLineJoin"], ["miter", "round", "bevel"], at: node, "strokeLineJoin")
        let miter =
            try attributes["strokeMiterLimit"].map { (text) throws(AndroidDrawableProblem) in
                try number(text, at: node, attribute: "android:strokeMiterLimit")
            } ?? 4
        if let stroke, !stroke.isInvisible, strokeAlpha > 0, strokeWidth > 0 {
            svg += stroke.svg("stroke", alpha: strokeAlpha) + " stroke-width=\"\(AndroidSVGNumber.text(strokeWidth))\""
            if cap != "butt" { svg += " stroke-linecap=\"\(cap)\"" }
            if join != "miter" { svg += " stroke-linejoin=\"\(join)\"" }
            if miter != 4, miter >= 1 { svg += " stroke-miterlimit=\"\(AndroidSVGNumber.text(miter))\"" }
        }
        return svg + "/>\n"
    }

    /// `android:pathData` (or the string it refers to) as SVG path data; "" when
    /// absent or empty (Android draws nothing).
    func pathData(_ value: String?, at node: AndroidXMLNode) throws(AndroidDrawableProblem) -> String {
        guard let value else { return "" }
        let resolved = try resolve(value, at: node, attribute: "android:pathData")
        guard case .text(var text, let place) = resolved else {
            throw problem(resolved, node, "android:pathData refers to a file, not a string")
        }
        // A string resource may be quoted ("M0 0…").
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        do throws(AndroidPathData.Problem) {
            return try AndroidPathData.svg(text)
        } catch {
            throw AndroidDrawableProblem(
                path: place.path, line: place.line,
                reason: "android:pathData \(error.reason) (at character \(error.offset + 1))")
        }
    }

    /// SVG's `fill-rule` for `android:fillType`: nil for nonZero (both defaults).
    func fillRule(_ value: String?, at node: AndroidXMLNode) throws(AndroidDrawableProblem) -> String? {
        switch value {
        case nil, "nonZero": return nil
        case "evenOdd": return "evenodd"
        case let other?: throw node.problem("android:fillType is \(Quoted(other)); it is nonZero or evenOdd")
        }
    }

    /// One of `choices` (the first when absent).
    func choice(_ value: String?, _ choices: [String], at node: AndroidXMLNode, _ name: String)
        throws(AndroidDrawableProblem) -> String
    {
        guard let value else { return choices[0] }
        guard choices.contains(value) else {
            throw node.problem("android:\(name) is \(Quoted(value)); it is \(choices.joined(separator: ", "))")
        }
        return value
    }
}
