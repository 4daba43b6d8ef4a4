extension AndroidDrawableConverter {
    /// The elements a drawable file or an inline drawable may be, for messages.
    static let drawableElements = "<vector>, <shape>, <inset>, <layer-list>, <bitmap>, <color> or <selector>"

    /// An adaptive icon layer (`<foreground>`, `<background>`, `<monochrome>`): its
    /// `android:drawable`, or its one child element.
    func layerDrawable(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> AndroidDrawable {
        let attributes = try node.androidAttributes(allowed: ["drawable"])
        return try drawable(attribute: attributes["drawable"], children: node.children, at: node)
    }

    /// The drawable an element names by `android:drawable` (or `android:src`), or
    /// holds as its one child element.
    func drawable(
        attribute value: String?, children: [AndroidXMLNode], at node: AndroidXMLNode, name: String = "drawable"
    )
        throws(AndroidDrawableProblem) -> AndroidDrawable
    {
        switch (value, children.count) {
        case (let value?, 0): return try drawable(value, at: node, attribute: "android:\(name)")
        case (nil, 1):
            try count(children[0])
            return try drawable(element: children[0])
        case (nil, 0): throw node.problem("<\(node.name)> has no android:\(name) and no drawable inside")
        default:
            throw node.problem(
                value == nil
                    ? "<\(node.name)> holds \(children.count) elements; one drawable goes there"
                    : "<\(node.name)> has both android:\(name) and a drawable inside; give one")
        }
    }

    /// The drawable a value names: `@drawable/x` or `@mipmap/x` (a file, or a colour
    /// in `values*/`), `@color/x`, a colour literal, `@null`.
    func drawable(_ value: String, at node: AndroidXMLNode, attribute: String) throws(AndroidDrawableProblem)
        -> AndroidDrawable
    {
        let resolved = try resolve(value, at: node, attribute: attribute)
        switch resolved {
        case .text(let text, _):
            if text == "@null" { return .nothing }
            guard let color = AndroidColor.parse(text) else {
                throw problem(resolved, node, "\(attribute) is \(Quoted(text)), not a drawable or a colour")
            }
            return .color(color)
        case .file(let file):
            return try drawable(ofFile: file, reference: value)
        }
    }

    /// A resource file as a drawable: XML (its root element), or an image.
    ///
    /// - Throws: for a file that is neither, a nine-patch, and the XML's problems.
    func drawable(ofFile file: AndroidResourceFile, reference: String?) throws(AndroidDrawableProblem)
        -> AndroidDrawable
    {
        try follow(reference ?? file.path, at: nil, path: file.path) { () throws(AndroidDrawableProblem) in
            if Self.looksLikeXML(file.bytes) {
                let root = try parse(file)
                try count(root)
                if Self.isColorFile(file.path), root.name == "selector" {
                    return .color(try colorFromSelector(root))
                }
                return try drawable(element: root)
            }
            return .bitmap(try bitmap(file, gravity: nil, alpha: 1, tint: nil))
        }
    }

    /// The root of an XML resource file.
    func parse(_ file: AndroidResourceFile) throws(AndroidDrawableProblem) -> AndroidXMLNode {
        let source = AndroidXMLNode.File(path: file.path, bytes: file.bytes)
        do throws(XMLSyntaxError) {
            return AndroidXMLNode(root: try lookup.document(file), file: source)
        } catch {
            throw AndroidDrawableProblem(
                path: file.path, line: source.line(error.offset), reason: "not readable XML: \(error.problem)")
        }
    }

    /// Whether a resource file is in a `color*/` folder (a colour state list).
    static func isColorFile(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count >= 2 && (parts[parts.count - 2] == "color" || parts[parts.count - 2].hasPrefix("color-"))
    }

    /// Whether bytes start (after a byte order mark and white space) with `<`.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "<")
    }

    /// A drawable element, by its name.
    func drawable(element node: AndroidXMLNode) throws(AndroidDrawableProblem) -> AndroidDrawable {
        switch node.name {
        case "vector": return .vector(try vector(node))
        case "shape": return .shape(try shape(node))
        case "inset": return .inset(try inset(node))
        case "layer-list": return .layers(try layerList(node, selector: false))
        case "selector": return .layers(try layerList(node, selector: true))
        case "color":
            let attributes = try node.androidAttributes(allowed: ["color"])
            guard node.children.isEmpty else { throw node.problem("<color> holds elements; it has only android:color") }
            guard let value = attributes["color"] else { throw node.problem("<color> has no android:color") }
            return .color(try color(value, at: node, attribute: "android:color"))
        case "bitmap":
            let attributes = try node.androidAttributes(allowed: [
                "src", "gravity", "tint", "tintMode", "alpha", "antialias", "dither", "filter", "mipMap", "tileMode",
                "tileModeX", "tileModeY", "autoMirrored",
            ])
            for name in ["tileMode", "tileModeX", "tileModeY"] {
                if let mode = attributes[name], mode != "disabled" {
                    throw node.problem("android:\(name) is \(Quoted(mode)); iconbadge draws a bitmap once (disabled)")
                }
            }
            guard node.children.isEmpty else { throw node.problem("<bitmap> holds elements; it has only attributes") }
            guard let source = attributes["src"] else { throw node.problem("<bitmap> has no android:src") }
            let gravity = try attributes["gravity"].map { (text) throws(AndroidDrawableProblem) in
                try self.gravity(text, at: node)
            }
            let alpha =
                try attributes["alpha"].map { (text) throws(AndroidDrawableProblem) in
                    try number(text, at: node, attribute: "android:alpha")
                } ?? 1
            let tint = try self.tint(attributes, at: node)
            let resolved = try resolve(source, at: node, attribute: "android:src")
            guard case .file(let file) = resolved, !Self.looksLikeXML(file.bytes) else {
                throw problem(resolved, node, "android:src of a <bitmap> is \(Quoted(source)), not an image file")
            }
            return try follow(source, at: node, path: file.path) { () throws(AndroidDrawableProblem) in
                .bitmap(
                    try bitmap(
                        file, gravity: gravity ?? AndroidDrawable.Gravity("fill"), alpha: min(1, max(0, alpha)),
                        tint: tint))
            }
        case "nine-patch":
            throw node.problem("<nine-patch> stretches by its image's borders, which iconbadge does not read")
        case "adaptive-icon":
            throw node.problem("<adaptive-icon> inside a layer: a layer is a drawable, not another adaptive icon")
        default:
            throw node.problem(
                "<\(node.name)> is not a drawable iconbadge draws (it draws \(Self.drawableElements))")
        }
    }

    /// `android:gravity` flags.
    func gravity(_ text: String, at node: AndroidXMLNode) throws(AndroidDrawableProblem) -> AndroidDrawable.Gravity {
        guard let gravity = AndroidDrawable.Gravity(text) else {
            throw node.problem(
                "android:gravity is \(Quoted(text)); iconbadge knows top, bottom, left, right, start, end, center, center_vertical, center_horizontal, fill, fill_vertical and fill_horizontal"
            )
        }
        return gravity
    }

    /// An image file as a bitmap: PNG, WebP, JPEG or GIF, sized from its header
    /// (within the image limits) and its folder's density.
    func bitmap(
        _ file: AndroidResourceFile, gravity: AndroidDrawable.Gravity?, alpha: Double, tint: AndroidDrawable.Tint?
    ) throws(AndroidDrawableProblem) -> AndroidDrawable.Bitmap {
        func problem(_ reason: String) -> AndroidDrawableProblem {
            AndroidDrawableProblem(path: file.path, line: nil, reason: reason)
        }
        if file.path.hasSuffix(".9.png") {
            throw problem("is a nine-patch, which stretches by its borders; iconbadge does not read them")
        }
        let bytes = file.bytes
        let type: String
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            type = "image/png"
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            type = "image/jpeg"
        } else if bytes.starts(with: Array("GIF8".utf8)) {
            type = "image/gif"
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8)
        {
            type = "image/webp"
        } else {
            throw problem("is neither XML nor an image (PNG, WebP, JPEG or GIF)")
        }
        let url = "data:\(type);base64," + Base64.encode(bytes)
        try charge(url.utf8.count + 120, at: nil)
        // The header's size, through the same reader (and limits) as an SVG's images.
        let probe = Array(
            (AndroidDrawableSVG.svgOpen + "><image xlink:href=\"" + url + "\"/></svg>").utf8)
        let found: SVGEmbeddedImage?
        do throws(SVGEmbeddedImagesProblem) {
            found = try SVGEmbeddedImages.scan(probe, limits: limits).images.first
        } catch {
            throw problem(error.reason)
        }
        guard let image = found else { throw problem("is an image whose size cannot be read") }
        // BitmapDrawable's intrinsic size: the pixels scaled from the folder's density.
        let folderDensity = file.density ?? density
        return AndroidDrawable.Bitmap(
            bytes: bytes, type: type, width: Double(image.width) / folderDensity,
            height: Double(image.height) / folderDensity,
            gravity: gravity, alpha: alpha, tint: tint)
    }

    /// An `<inset>`: `android:inset` on every side, then each side's own.
    func inset(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> AndroidDrawable.Inset {
        let attributes = try node.androidAttributes(allowed: [
            "drawable", "inset", "insetLeft", "insetTop", "insetRight", "insetBottom", "visible",
        ])
        func side(_ name: String) throws(AndroidDrawableProblem) -> AndroidDrawable.Inset.Side {
            guard let text = attributes[name] ?? attributes["inset"] else { return .dp(0) }
            let attribute = attributes[name] == nil ? "android:inset" : "android:\(name)"
            if case .text(let value, _) = try resolve(text, at: node, attribute: attribute), value.hasSuffix("%") {
                guard let number = Double(value.dropLast()), number.isFinite, abs(number) <= 1000 else {
                    throw node.problem("\(attribute) is \(Quoted(value)), not a fraction")
                }
                return .fraction(number / 100)
            }
            return .dp(try dimension(text, at: node, attribute: attribute))
        }
        let inner = try drawable(attribute: attributes["drawable"], children: node.children, at: node)
        return AndroidDrawable.Inset(
            inner: inner, left: try side("insetLeft"), top: try side("insetTop"), right: try side("insetRight"),
            bottom: try side("insetBottom"))
    }

    /// A `<layer-list>`'s items; a `<selector>`'s first item with no state, which is
    /// what StateListDrawable shows in a launcher.
    func layerList(_ node: AndroidXMLNode, selector: Bool) throws(AndroidDrawableProblem) -> AndroidDrawable.LayerList {
        let attributes = try node.androidAttributes(
            allowed: selector
                ? [
                    "constantSize", "dither", "variablePadding", "visible", "autoMirrored", "enterFadeDuration",
                    "exitFadeDuration",
                ]
                : ["paddingMode", "opacity", "dither", "autoMirrored", "visible"])
        let nest: Bool
        switch attributes["paddingMode"] ?? "nest" {
        case "nest": nest = true
        case "stack": nest = false
        case let mode:
            throw node.problem("android:paddingMode is \(Quoted(mode)); it is nest or stack")
        }
        var items: [AndroidDrawable.LayerList.Item] = []
        for child in node.children {
            try count(child)
            guard child.name == "item" else {
                throw child.problem("<\(node.name)> holds <\(child.name)>, not <item>")
            }
            if selector {
                let states = child.element.attributes.map { child.resolve($0.name).local }.filter {
                    $0.hasPrefix("state_")
                }
                guard states.isEmpty else { continue }
                let itemAttributes = try child.androidAttributes(allowed: ["drawable"])
                let drawable = try drawable(attribute: itemAttributes["drawable"], children: child.children, at: child)
                return AndroidDrawable.LayerList(
                    items: [AndroidDrawable.LayerList.Item(drawable: drawable, insets: AndroidDrawable.Insets())],
                    nest: false)
            }
            let itemAttributes = try child.androidAttributes(allowed: [
                "drawable", "id", "left", "top", "right", "bottom", "start", "end", "width", "height", "gravity",
            ])
            func dp(_ name: String) throws(AndroidDrawableProblem) -> Double? {
                try itemAttributes[name].map { (text) throws(AndroidDrawableProblem) in
                    try dimension(text, at: child, attribute: "android:\(name)")
                }
            }
            // start and end are left and right in a left-to-right layout, and win.
            let (start, left, end, right) = (try dp("start"), try dp("left"), try dp("end"), try dp("right"))
            let insets = AndroidDrawable.Insets(
                left: start ?? left ?? 0, top: try dp("top") ?? 0, right: end ?? right ?? 0,
                bottom: try dp("bottom") ?? 0)
            let gravity = try itemAttributes["gravity"].map { (text) throws(AndroidDrawableProblem) in
                try self.gravity(text, at: child)
            }
            let drawable = try drawable(attribute: itemAttributes["drawable"], children: child.children, at: child)
            items.append(
                AndroidDrawable.LayerList.Item(
                    drawable: drawable, insets: insets, width: try dp("width"), height: try dp("height"),
                    gravity: gravity))
        }
        if selector { throw node.problem("<selector> has no <item> without a state (what a launcher shows)") }
        return AndroidDrawable.LayerList(items: items, nest: nest)
    }

    /// A `<shape>`: rectangle or oval, `<solid>` or `<gradient>`, `<stroke>`,
    /// `<corners>`, `<size>`, `<padding>`.
    func shape(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> AndroidDrawable.Shape {
        let attributes = try node.androidAttributes(allowed: ["shape", "dither", "visible", "useLevel"])
        let oval: Bool
        switch attributes["shape"] ?? "rectangle" {
        case "rectangle": oval = false
        case "oval": oval = true
        case let kind:
            throw node.problem("android:shape is \(Quoted(kind)); iconbadge draws rectangle and oval shapes")
        }
        var shape = AndroidDrawable.Shape(
            oval: oval, fill: nil, stroke: nil, radii: [0, 0, 0, 0], width: nil, height: nil,
            padding: AndroidDrawable.Insets())
        var seen: Set<String> = []
        for child in node.children {
            try count(child)
            guard seen.insert(child.name).inserted else { throw child.problem("<shape> has two <\(child.name)>") }
            guard child.children.isEmpty else { throw child.problem("<\(child.name)> holds elements") }
            func dp(_ attributes: [String: String], _ name: String) throws(AndroidDrawableProblem) -> Double? {
                try attributes[name].map { (text) throws(AndroidDrawableProblem) in
                    try dimension(text, at: child, attribute: "android:\(name)")
                }
            }
            switch child.name {
            case "solid":
                let solid = try child.androidAttributes(allowed: ["color"])
                if let value = solid["color"] {
                    shape.fill = .color(try color(value, at: child, attribute: "android:color"))
                }
            case "stroke":
                let stroke = try child.androidAttributes(allowed: ["width", "color", "dashWidth", "dashGap"])
                let width = try dp(stroke, "width") ?? 0
                let color =
                    try stroke["color"].map { (text) throws(AndroidDrawableProblem) in
                        try self.color(text, at: child, attribute: "android:color")
                    } ?? .transparent
                let dashWidth = try dp(stroke, "dashWidth") ?? 0
                let dashGap = try dp(stroke, "dashGap") ?? 0
                if width > 0 {
                    shape.stroke = AndroidDrawable.Shape.Stroke(
                        width: width, color: color, dash: dashWidth > 0 ? (dashWidth, dashGap) : nil)
                }
            case "corners":
                let corners = try child.androidAttributes(allowed: [
                    "radius", "topLeftRadius", "topRightRadius", "bottomRightRadius", "bottomLeftRadius",
                ])
                let all = try dp(corners, "radius") ?? 0
                shape.radii = [
                    try dp(corners, "topLeftRadius") ?? all, try dp(corners, "topRightRadius") ?? all,
                    try dp(corners, "bottomRightRadius") ?? all, try dp(corners, "bottomLeftRadius") ?? all,
                ].map { max(0, $0) }
            case "size":
                let size = try child.androidAttributes(allowed: ["width", "height"])
                shape.width = try dp(size, "width")
                shape.height = try dp(size, "height")
            case "padding":
                let padding = try child.androidAttributes(allowed: ["left", "top", "right", "bottom", "start", "end"])
                let (start, left) = (try dp(padding, "start"), try dp(padding, "left"))
                let (end, right) = (try dp(padding, "end"), try dp(padding, "right"))
                shape.padding = AndroidDrawable.Insets(
                    left: start ?? left ?? 0, top: try dp(padding, "top") ?? 0, right: end ?? right ?? 0,
                    bottom: try dp(padding, "bottom") ?? 0)
            case "gradient":
                shape.fill = .gradient(try shapeGradient(child))
            default:
                throw child.problem(
                    "<shape> holds <\(child.name)>; it holds <solid>, <gradient>, <stroke>, <corners>, <size> and <padding>"
                )
            }
        }
        return shape
    }

    /// A shape's `<gradient>` (GradientDrawable's, not a path's GradientColor).
    func shapeGradient(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) -> AndroidDrawable.Shape.Gradient {
        let attributes = try node.androidAttributes(allowed: [
            "type", "angle", "centerX", "centerY", "gradientRadius", "startColor", "centerColor", "endColor",
            "useLevel",
        ])
        if let level = attributes["useLevel"], level == "true" {
            throw node.problem(
                "android:useLevel=\"true\" draws the gradient by the drawable's level, which a launcher icon has none of"
            )
        }
        func colour(_ name: String) throws(AndroidDrawableProblem) -> Color? {
            try attributes[name].map { (text) throws(AndroidDrawableProblem) in
                try color(text, at: node, attribute: "android:\(name)")
            }
        }
        func fraction(_ name: String) throws(AndroidDrawableProblem) -> Double {
            guard let text = attributes[name] else { return 0.5 }
            if case .text(let value, _) = try resolve(text, at: node, attribute: "android:\(name)"),
                value.hasSuffix("%")
            {
                guard let number = Double(value.dropLast()), number.isFinite, abs(number) <= 1000 else {
                    throw node.problem("android:\(name) is \(Quoted(value)), not a fraction")
                }
                return number / 100
            }
            return try number(text, at: node, attribute: "android:\(name)")
        }
        let start = try colour("startColor") ?? .transparent
        let end = try colour("endColor") ?? .transparent
        let center = try colour("centerColor")
        let centerX = try fraction("centerX")
        let centerY = try fraction("centerY")
        var colors = [start, end]
        var positions = [0.0, 1.0]
        if let center {
            colors = [start, center, end]
            // GradientDrawable: "Since 0.5f is default value, try to take the one that isn't 0.5f".
            positions = [0, centerX != 0.5 ? centerX : centerY, 1]
        }
        var gradient = AndroidDrawable.Shape.Gradient(
            radial: false, angle: 0, centerX: centerX, centerY: centerY, radius: 0, radiusIsFraction: false,
            colors: colors, positions: positions)
        switch attributes["type"] ?? "linear" {
        case "linear":
            let angle =
                try attributes["angle"].map { (text) throws(AndroidDrawableProblem) in
                    try number(text, at: node, attribute: "android:angle")
                } ?? 0
            let whole = (Int(angle.rounded()) % 360 + 360) % 360
            guard angle == angle.rounded(), whole % 45 == 0 else {
                throw node.problem(
                    "android:angle is \(AndroidSVGNumber.text(angle)); a shape's gradient goes at a multiple of 45 degrees"
                )
            }
            gradient.angle = whole
        case "radial":
            gradient.radial = true
            guard let text = attributes["gradientRadius"] else {
                throw node.problem("a radial <gradient> needs android:gradientRadius (Android requires it)")
            }
            if case .text(let value, _) = try resolve(text, at: node, attribute: "android:gradientRadius"),
                value.hasSuffix("%") || value.hasSuffix("%p")
            {
                let digits = value.hasSuffix("%p") ? value.dropLast(2) : value.dropLast()
                guard let number = Double(digits), number.isFinite, number > 0, number <= 100_000 else {
                    throw node.problem("android:gradientRadius is \(Quoted(value)), not a fraction over 0")
                }
                gradient.radius = number / 100
                gradient.radiusIsFraction = true
            } else {
                gradient.radius = try dimension(text, at: node, attribute: "android:gradientRadius", plain: true)
            }
            guard gradient.radius > 0 else { throw node.problem("android:gradientRadius must be over 0") }
        case let type:
            throw node.problem(
                "android:type is \(Quoted(type)); iconbadge draws linear and radial gradients (SVG has no sweep gradient)"
            )
        }
        return gradient
    }
}
