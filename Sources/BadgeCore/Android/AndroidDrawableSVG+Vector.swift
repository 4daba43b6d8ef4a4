extension AndroidDrawableConverter {
    /// A `<vector>`: its size, viewport, alpha and tint, and its body in viewport
    /// coordinates.
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
        let text = attributes["tintMode"] ?? "src_in"
        guard let mode = AndroidDrawing.TintMode(rawValue: text) else {
            throw node.problem(
                "android:tintMode is \(Quoted(text)); iconbadge draws src_in (the default), src_atop and src_over")
        }
        return AndroidDrawable.Tint(color: color, mode: mode)
    }

    /// The children of a `<vector>` or `<group>`: groups and paths in order, and
    /// what follows a `<clip-path>` clipped by it (Android clips the rest of the
    /// group's drawing, `VectorDrawable`'s `VGroup`).
    func groupBody(_ children: [AndroidXMLNode]) throws(AndroidDrawableProblem) -> [AndroidDrawing.Node] {
        // The nodes of each level: a clip opens a level that the rest goes into.
        var levels: [[AndroidDrawing.Node]] = [[]]
        var clips: [(id: String, data: String)] = []
        for child in children {
            try count(child)
            switch child.name {
            case "group": levels[levels.count - 1].append(try group(child))
            case "path": if let path = try path(child) { levels[levels.count - 1].append(path) }
            case "clip-path":
                // VectorDrawableClipPath declares name and pathData; a fillType written on
                // it is ignored by Android, and so here.
                let attributes = try child.androidAttributes(allowed: ["name", "pathData", "fillType"])
                guard child.children.isEmpty else {
                    throw child.problem("<clip-path> holds elements; it has only android:pathData")
                }
                let data = try pathData(attributes["pathData"], at: child)
                let id = self.id("c")
                try charge(data.utf8.count + 80, at: child)
                clips.append((id, data))
                levels.append([])
            default:
                throw child.problem(
                    "<\(child.name)> is not a VectorDrawable element iconbadge draws (a <vector> or <group> holds <group>, <path> and <clip-path>)"
                )
            }
        }
        while let clip = clips.popLast() {
            let inner = levels.removeLast()
            levels[levels.count - 1].append(
                .group(AndroidDrawing.Group(effect: .clip(id: clip.id, data: clip.data), children: inner)))
        }
        return levels[0]
    }

    /// A `<group>`: its transform (Android's order: about the pivot, scale, then
    /// rotate, then translate) around its body.
    func group(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> AndroidDrawing.Node {
        let attributes = try node.androidAttributes(allowed: [
            "name", "rotation", "pivotX", "pivotY", "scaleX", "scaleY", "translateX", "translateY",
        ])
        func value(_ name: String, _ fallback: Double) throws(AndroidDrawableProblem) -> Double {
            try attributes[name].map { (text) throws(AndroidDrawableProblem) in
                try number(text, at: node, attribute: "android:\(name)")
            } ?? fallback
        }
        // VGroup.updateLocalMatrix: postTranslate(-pivot), postScale, postRotate,
        // postTranslate(translate + pivot) (`GroupTransform.matrix`).
        var transform = AndroidDrawing.GroupTransform()
        (transform.rotation, transform.pivotX, transform.pivotY) = (
            try value("rotation", 0), try value("pivotX", 0), try value("pivotY", 0)
        )
        (transform.scaleX, transform.scaleY) = (try value("scaleX", 1), try value("scaleY", 1))
        (transform.translateX, transform.translateY) = (try value("translateX", 0), try value("translateY", 0))
        try charge(120, at: node)
        let body = try groupBody(node.children)
        return .group(AndroidDrawing.Group(effect: .transform(transform), children: body))
    }

    /// A `<path>`: its path data filled and stroked with their paints and alphas.
    func path(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> AndroidDrawing.Node? {
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
        guard !data.isEmpty else { return nil }
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
        try charge(data.utf8.count + 200, at: node)
        var shape = AndroidDrawing.Shape(outline: .path(data))
        let evenOdd = try fillRule(attributes["fillType"], at: node) != nil
        if let fill, !fill.isInvisible, fillAlpha > 0 {
            shape.fill = fill
            shape.fillAlpha = fillAlpha
            shape.evenOdd = evenOdd
        }
        let cap = try choice(attributes["strokeLineCap"], ["butt", "round", "square"], at: node, "strokeLineCap")
        let join = try choice(attributes["strokeLineJoin"], ["miter", "round", "bevel"], at: node, "strokeLineJoin")
        let miter =
            try attributes["strokeMiterLimit"].map { (text) throws(AndroidDrawableProblem) in
                try number(text, at: node, attribute: "android:strokeMiterLimit")
            } ?? 4
        if let stroke, !stroke.isInvisible, strokeAlpha > 0, strokeWidth > 0 {
            // A limit under 1 is not one SVG reads: the default stands.
            shape.stroke = AndroidDrawing.Stroke(
                paint: stroke, alpha: strokeAlpha, width: strokeWidth, cap: AndroidDrawing.LineCap(rawValue: cap)!,
                join: AndroidDrawing.LineJoin(rawValue: join)!, miterLimit: miter >= 1 ? miter : 4)
        }
        return .shape(shape)
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
