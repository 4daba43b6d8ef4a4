/// What an attribute's value is once its references are followed: text (a literal,
/// or the value of `values*/`) and where it was written, or a resource file.
enum AndroidResolved {
    case text(String, at: (path: String, line: Int?))
    case file(AndroidResourceFile)
}

/// Numbers as written into the SVG document.
enum AndroidSVGNumber {
    /// `value` rounded to 6 decimals, shortest spelling.
    static func text(_ value: Double) -> String {
        let rounded = (value * 1e6).rounded() / 1e6
        return AndroidPathData.format(rounded == 0 ? 0 : rounded)
    }
}

extension AndroidDrawableConverter {
    /// Follows `value` of `attribute` (written at `node`) through its references:
    /// `@type/name` to the value in `values*/` or to a resource file, `@android:color/`
    /// to the framework's colour; a literal is itself.
    ///
    /// - Throws: for a theme attribute (`?attr/…`), a reference that does not
    ///   resolve, a framework resource iconbadge does not know, a chain too long.
    func resolve(_ value: String, at node: AndroidXMLNode, attribute: String) throws(AndroidDrawableProblem)
        -> AndroidResolved
    {
        var text = String(value.trimmingASCIIWhitespace())
        var place: (path: String, line: Int?) = (node.file.path, node.line)
        var seen: [String] = []
        func problem(_ reason: String) -> AndroidDrawableProblem {
            AndroidDrawableProblem(path: place.path, line: place.line, reason: reason)
        }
        while true {
            if text.hasPrefix("?") {
                throw problem(
                    "\(attribute) is the theme attribute \(text), which has a value only in a running app's theme; give a colour or @color/NAME in the drawable"
                )
            }
            guard text.hasPrefix("@") else { return .text(text, at: place) }
            if text == "@null" { return .text("@null", at: place) }
            guard let reference = AndroidReference(text) else {
                throw problem("\(attribute) is \(Quoted(text)), not a resource reference")
            }
            if seen.contains(reference.description) || seen.count >= AndroidDrawableSVG.maxReferenceDepth {
                throw problem(
                    "\(reference) refers to itself or through over \(AndroidDrawableSVG.maxReferenceDepth) values (\(seen.joined(separator: " → ")))"
                )
            }
            seen.append(reference.description)
            if reference.framework {
                if reference.type == "color", let known = AndroidColor.framework[reference.name] {
                    return .text(known, at: place)
                }
                let dynamic = reference.type == "color" && reference.name.hasPrefix("system_")
                throw problem(
                    dynamic
                        ? "\(reference) is a system colour that follows the wallpaper (Material You): it has no value outside a device; give a colour"
                        : "\(reference) is a framework resource iconbadge does not have (it knows @android:color/ \(AndroidColor.framework.keys.sorted().prefix(4).joined(separator: ", ")), …)"
                )
            }
            if let found = lookup.value(reference) {
                text = found.text
                place = (found.path, found.line)
                continue
            }
            if ["drawable", "mipmap", "color"].contains(reference.type), let file = try lookup.file(reference, density)
            {
                return .file(file)
            }
            let where_ =
                ["drawable", "mipmap"].contains(reference.type)
                ? "in res/\(reference.type)*/"
                : "in res/values*/ (the default configuration)"
                    + (reference.type == "color" ? " or res/color*/" : "")
            var skipped = ""
            if !lookup.unreadable.isEmpty {
                skipped = "; not read: " + lookup.unreadable.prefix(3).joined(separator: "; ")
            }
            throw problem("\(attribute): \(reference) is not defined \(where_)\(skipped)")
        }
    }

    /// A number: a literal or a value reference (`@dimen/x` given as a plain
    /// number, `@integer/x`), finite and at most `maxSide` in magnitude.
    func number(_ value: String, at node: AndroidXMLNode, attribute: String) throws(AndroidDrawableProblem) -> Double {
        let resolved = try resolve(value, at: node, attribute: attribute)
        guard case .text(let text, _) = resolved, let number = Double(text),
            number.isFinite, abs(number) <= AndroidPathData.maxMagnitude
        else {
            throw problem(resolved, node, "\(attribute) is \(Quoted(value)), not a number")
        }
        return number
    }

    /// A length in dp: `12dp`, `12dip`, `12sp`, `12px` (at this density), `1in` (160
    /// dp), `1mm`, `1pt`, or a reference to one. `plain` accepts a number without a
    /// unit, as pixels (a `gradientRadius`).
    func dimension(_ value: String, at node: AndroidXMLNode, attribute: String, plain: Bool = false)
        throws(AndroidDrawableProblem) -> Double
    {
        let resolved = try resolve(value, at: node, attribute: attribute)
        guard case .text(let text, _) = resolved else {
            throw problem(resolved, node, "\(attribute) is \(Quoted(value)), not a dimension")
        }
        let units: [(String, Double)] = [
            ("dip", 1), ("dp", 1), ("sp", 1), ("px", 1 / density), ("in", 160), ("mm", 160 / 25.4),
            ("pt", 160.0 / 72),
        ]
        for (unit, factor) in units where text.hasSuffix(unit) {
            if let number = Double(text.dropLast(unit.count)), number.isFinite,
                abs(number) <= AndroidDrawableSVG.maxSide
            {
                return number * factor
            }
        }
        if plain, let number = Double(text), number.isFinite, abs(number) <= AndroidDrawableSVG.maxSide {
            return number / density
        }
        throw problem(
            resolved, node,
            "\(attribute) is \(Quoted(text)), not a dimension (a number with dp, sp, px, in, mm or pt, at most \(Int(AndroidDrawableSVG.maxSide)))"
        )
    }

    /// A dimension, or a fraction of `base` (`22%`; `22%p` of the parent, the same
    /// here), in dp.
    func dimensionOrFraction(_ value: String, base: Double, at node: AndroidXMLNode, attribute: String)
        throws(AndroidDrawableProblem) -> Double
    {
        if case .text(let text, _) = try resolve(value, at: node, attribute: attribute) {
            for suffix in ["%p", "%"] where text.hasSuffix(suffix) {
                guard let number = Double(text.dropLast(suffix.count)), number.isFinite, abs(number) <= 1000 else {
                    throw node.problem("\(attribute) is \(Quoted(text)), not a fraction")
                }
                return number / 100 * base
            }
        }
        return try dimension(value, at: node, attribute: attribute)
    }

    /// A problem at the value's own place when it came from `values*/`.
    func problem(_ resolved: AndroidResolved, _ node: AndroidXMLNode, _ reason: String) -> AndroidDrawableProblem {
        switch resolved {
        case .text(_, let place) where place.path != node.file.path || place.line != node.line:
            return AndroidDrawableProblem(path: place.path, line: place.line, reason: reason)
        case .file(let file):
            return AndroidDrawableProblem(path: file.path, line: nil, reason: reason)
        default:
            return node.problem(reason)
        }
    }

    /// A colour: a literal, a value, a framework colour, or a colour state list file
    /// (its default colour).
    ///
    /// - Throws: as `resolve`; for text that is not a colour, a gradient where only a
    ///   colour goes.
    func color(_ value: String, at node: AndroidXMLNode, attribute: String) throws(AndroidDrawableProblem) -> Color {
        let resolved = try resolve(value, at: node, attribute: attribute)
        switch resolved {
        case .text(let text, _):
            if text == "@null" { return .transparent }
            guard let color = AndroidColor.parse(text) else {
                throw problem(
                    resolved, node, "\(attribute) is \(Quoted(text)), not a colour (#RGB, #ARGB, #RRGGBB or #AARRGGBB)")
            }
            return color
        case .file(let file):
            return try colorFromFile(file)
        }
    }

    /// The default colour of a `res/color/` file (`colorFromSelector`).
    ///
    /// - Throws: for another root (a `<gradient>` where only a colour goes), no
    ///   stateless item.
    func colorFromFile(_ file: AndroidResourceFile) throws(AndroidDrawableProblem) -> Color {
        let node = try parse(file)
        return try follow(file.path, at: nil, path: file.path) { () throws(AndroidDrawableProblem) -> Color in
            try count(node)
            return try colorFromSelector(node)
        }
    }

    /// A colour state list's default colour: a `<selector>`'s first item with no
    /// state (ColorStateList's default), its `android:alpha` applied.
    func colorFromSelector(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> Color {
        let key = "\(node.element.range.lowerBound):\(node.file.path)"
        if let known = selectorColors[key] { return known }
        let color = try firstStatelessColor(node)
        selectorColors[key] = color
        return color
    }

    /// What `colorFromSelector` answers, read from the file.
    private func firstStatelessColor(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> Color {
        guard node.name == "selector" else {
            throw node.problem("<\(node.name)> is not a colour state list (<selector>); a colour goes here")
        }
        _ = try node.androidAttributes(allowed: [])
        for item in node.children {
            try count(item)
            guard item.name == "item" else { throw node.problem("<selector> holds <\(item.name)>, not <item>") }
            let states = item.element.attributes.map { item.resolve($0.name).local }.filter { $0.hasPrefix("state_") }
            guard states.isEmpty else { continue }
            let attributes = try item.androidAttributes(allowed: ["color", "alpha"])
            guard let value = attributes["color"] else { throw item.problem("<item> has no android:color") }
            var color = try color(value, at: item, attribute: "android:color")
            if let alpha = attributes["alpha"] {
                let factor = try number(alpha, at: item, attribute: "android:alpha")
                color.alpha = UInt8((Double(color.alpha) * min(1, max(0, factor))).rounded())
            }
            return color
        }
        throw node.problem("<selector> has no <item> without a state (the colour a launcher draws)")
    }

    /// The paint of `attribute` (`android:fillColor`, `android:strokeColor`) of a
    /// path: the attribute, or an `aapt:attr` child of that name holding a
    /// `<gradient>`; nil when neither is given (nothing is painted).
    func paint(_ value: String?, inline: AndroidXMLNode?, at node: AndroidXMLNode, attribute: String)
        throws(AndroidDrawableProblem) -> AndroidDrawing.Paint?
    {
        if let inline {
            guard value == nil else {
                throw node.problem("<\(node.name)> gives \(attribute) twice: as an attribute and in <aapt:attr>")
            }
            let children = inline.children
            guard children.count == 1, let only = children.first else {
                throw inline.problem(
                    "<aapt:attr name=\"\(attribute)\"> holds \(children.count) elements; one goes there")
            }
            try count(only)
            switch only.name {
            case "gradient": return .gradient(try gradientColor(only))
            case "selector": return .color(try colorFromSelector(only))
            default: throw only.problem("<\(only.name)> in \(attribute): a <gradient> or <selector> goes there")
            }
        }
        guard let value else { return nil }
        let resolved = try resolve(value, at: node, attribute: attribute)
        if case .file(let file) = resolved {
            let root = try parse(file)
            return try follow(file.path, at: nil, path: file.path) {
                () throws(AndroidDrawableProblem) -> AndroidDrawing.Paint in
                try count(root)
                if root.name == "gradient" { return .gradient(try gradientColor(root)) }
                return .color(try colorFromSelector(root))
            }
        }
        return .color(try color(value, at: node, attribute: attribute))
    }

    /// A GradientColor (`<gradient>` as a path's paint, in `aapt:attr` or
    /// `res/color/`): linear or radial, its stops from `<item>`s or its start,
    /// centre and end colours, in the path's coordinates.
    ///
    /// - Throws: for a sweep gradient (SVG has none), a `tileMode` of `disabled`,
    ///   unknown attributes.
    func gradientColor(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> AndroidDrawing.Gradient {
        let attributes = try node.androidAttributes(allowed: [
            "type", "startX", "startY", "endX", "endY", "centerX", "centerY", "gradientRadius", "startColor",
            "centerColor", "endColor", "tileMode",
        ])
        func value(_ name: String, _ fallback: Double) throws(AndroidDrawableProblem) -> Double {
            try attributes[name].map { (text) throws(AndroidDrawableProblem) in
                try number(text, at: node, attribute: "android:\(name)")
            } ?? fallback
        }
        var stops: [(offset: Double, color: Color)] = []
        for item in node.children {
            try count(item)
            guard item.name == "item" else { throw item.problem("<gradient> holds <\(item.name)>, not <item>") }
            let itemAttributes = try item.androidAttributes(allowed: ["offset", "color"])
            guard let colorText = itemAttributes["color"] else { throw item.problem("<item> has no android:color") }
            let offset = try itemAttributes["offset"].map { (text) throws(AndroidDrawableProblem) in
                try number(text, at: item, attribute: "android:offset")
            }
            stops.append((offset ?? 0, try color(colorText, at: item, attribute: "android:color")))
        }
        if stops.isEmpty {
            let start =
                try attributes["startColor"].map { (text) throws(AndroidDrawableProblem) in
                    try color(text, at: node, attribute: "android:startColor")
                } ?? .transparent
            let end =
                try attributes["endColor"].map { (text) throws(AndroidDrawableProblem) in
                    try color(text, at: node, attribute: "android:endColor")
                } ?? .transparent
            stops.append((0, start))
            if let center = attributes["centerColor"] {
                stops.append((0.5, try color(center, at: node, attribute: "android:centerColor")))
            }
            stops.append((1, end))
        }
        let spread: AndroidDrawing.Gradient.Spread
        switch attributes["tileMode"] ?? "clamp" {
        case "clamp": spread = .pad
        case "repeat": spread = .repeat
        case "mirror": spread = .reflect
        default:
            throw node.problem(
                "android:tileMode is \(Quoted(attributes["tileMode"] ?? "")); iconbadge draws clamp, repeat and mirror")
        }
        let id = id("g")
        let kind: AndroidDrawing.Gradient.Kind
        switch attributes["type"] ?? "linear" {
        case "linear":
            kind = .linear(
                x1: try value("startX", 0), y1: try value("startY", 0), x2: try value("endX", 0),
                y2: try value("endY", 0))
        case "radial":
            let radius = try value("gradientRadius", 0)
            guard radius > 0 else { throw node.problem("a radial <gradient> needs an android:gradientRadius over 0") }
            kind = .radial(cx: try value("centerX", 0), cy: try value("centerY", 0), r: radius)
        case let type:
            throw node.problem(
                "android:type is \(Quoted(type)); iconbadge draws linear and radial gradients (SVG has no sweep gradient)"
            )
        }
        try charge(200 + 70 * stops.count, at: node)
        return AndroidDrawing.Gradient(
            id: id, kind: kind,
            stops: stops.map { AndroidDrawing.Gradient.Stop(offset: min(1, max(0, $0.offset)), color: $0.color) },
            spread: spread)
    }
}
