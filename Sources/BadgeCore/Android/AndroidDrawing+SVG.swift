extension AndroidDrawing {
    /// The drawing as an SVG 1.1 document of `width` × `height` user units (dp):
    /// viewports as nested `<svg>` (`preserveAspectRatio="none"`, hidden overflow),
    /// groups as `<g>`, clips as `<clipPath>`, tints as `<filter>`s, gradients in
    /// user space, images as `data:` URLs. Only numbers, colours and path data
    /// iconbadge writes itself, and base64, reach it.
    ///
    /// - Throws: `AndroidDrawableProblem` (naming `path`) when the document would be
    ///   over `maxBytes`.
    public func svg(maxBytes: Int, path: String) throws(AndroidDrawableProblem) -> [UInt8] {
        var writer = SVGWriter()
        var body = ""
        for node in nodes { writer.write(node, into: &body) }
        let w = AndroidPathData.format(width)
        let h = AndroidPathData.format(height)
        var text = AndroidDrawableSVG.svgOpen + " width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\">\n"
        // Definitions in the order the converter named them (g1, c2, t3…).
        let defs = writer.defs.sorted { $0.key < $1.key }.map(\.value)
        if !defs.isEmpty { text += "<defs>\n" + defs.joined(separator: "\n") + "\n</defs>\n" }
        text += body + "</svg>\n"
        guard text.utf8.count <= maxBytes else {
            throw AndroidDrawableProblem(
                path: path, line: nil, reason: "makes an SVG document over the \(maxBytes)-byte limit for an SVG")
        }
        return Array(text.utf8)
    }

    /// Writes nodes as SVG, collecting the definitions they use.
    private struct SVGWriter {
        /// Definitions by the number of their id.
        var defs: [Int: String] = [:]

        mutating func define(_ id: String, _ text: @autoclosure () -> String) {
            let number = Int(id.drop(while: { !$0.isNumber })) ?? 0
            if defs[number] == nil { defs[number] = text() }
        }

        mutating func write(_ node: Node, into out: inout String) {
            let n = AndroidSVGNumber.text
            switch node {
            case .viewport(let viewport):
                let r = viewport.rect
                out +=
                    "<svg x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" viewBox=\"0 0 \(n(viewport.viewportWidth)) \(n(viewport.viewportHeight))\" preserveAspectRatio=\"none\" overflow=\"hidden\">\n"
                for child in viewport.children { write(child, into: &out) }
                out += "</svg>\n"
            case .group(let group):
                switch group.effect {
                case .none:
                    out += "<g>\n"
                case .transform(let t):
                    // The list SVG applies right to left: VGroup's order.
                    var parts: [String] = []
                    if t.translateX + t.pivotX != 0 || t.translateY + t.pivotY != 0 {
                        parts.append("translate(\(n(t.translateX + t.pivotX)) \(n(t.translateY + t.pivotY)))")
                    }
                    if t.rotation != 0 { parts.append("rotate(\(n(t.rotation)))") }
                    if t.scaleX != 1 || t.scaleY != 1 { parts.append("scale(\(n(t.scaleX)) \(n(t.scaleY)))") }
                    if t.pivotX != 0 || t.pivotY != 0 { parts.append("translate(\(n(-t.pivotX)) \(n(-t.pivotY)))") }
                    out += parts.isEmpty ? "<g>\n" : "<g transform=\"\(parts.joined(separator: " "))\">\n"
                case .clip(let id, let data):
                    define(id, "<clipPath id=\"\(id)\"><path d=\"\(data)\"/></clipPath>")
                    out += "<g clip-path=\"url(#\(id))\">\n"
                case .opacity(let opacity):
                    out += "<g opacity=\"\(n(opacity))\">\n"
                case .tint(let id, let color, let mode, let region):
                    let hex = String(color.description.dropLast(2)).lowercased()
                    let operation: String
                    switch mode {
                    case .srcAtop: operation = "<feComposite in=\"tint\" in2=\"SourceGraphic\" operator=\"atop\"/>"
                    case .srcOver: operation = "<feComposite in=\"tint\" in2=\"SourceGraphic\" operator=\"over\"/>"
                    case .srcIn: operation = "<feComposite in=\"tint\" in2=\"SourceGraphic\" operator=\"in\"/>"
                    }
                    define(
                        id,
                        "<filter id=\"\(id)\" filterUnits=\"userSpaceOnUse\" x=\"\(n(region.x))\" y=\"\(n(region.y))\" width=\"\(n(region.width))\" height=\"\(n(region.height))\" color-interpolation-filters=\"sRGB\"><feFlood flood-color=\"\(hex)\" flood-opacity=\"\(n(Double(color.alpha) / 255))\" result=\"tint\"/>\(operation)</filter>"
                    )
                    out += "<g filter=\"url(#\(id))\">\n"
                }
                for child in group.children { write(child, into: &out) }
                out += "</g>\n"
            case .shape(let shape):
                write(shape, into: &out)
            case .image(let image):
                let r = image.rect
                out +=
                    "<image x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" preserveAspectRatio=\"none\" xlink:href=\"data:\(image.type);base64,\(Base64.encode(image.bytes))\"/>\n"
            }
        }

        mutating func write(_ shape: Shape, into out: inout String) {
            let n = AndroidSVGNumber.text
            switch shape.outline {
            case .path(let data):
                out += "<path d=\"\(data)\""
            case .rect(let r, let radius):
                out += "<rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\""
                if radius > 0 { out += " rx=\"\(n(radius))\" ry=\"\(n(radius))\"" }
            case .ellipse(let r):
                out +=
                    "<ellipse cx=\"\(n(r.center.x))\" cy=\"\(n(r.center.y))\" rx=\"\(n(r.width / 2))\" ry=\"\(n(r.height / 2))\""
            }
            if let fill = shape.fill {
                out += paint(fill, "fill", alpha: shape.fillAlpha)
                if shape.evenOdd { out += " fill-rule=\"evenodd\"" }
            } else {
                out += " fill=\"none\""
            }
            if let stroke = shape.stroke {
                out += paint(stroke.paint, "stroke", alpha: stroke.alpha) + " stroke-width=\"\(n(stroke.width))\""
                if let dash = stroke.dash { out += " stroke-dasharray=\"\(dash.map(n).joined(separator: " "))\"" }
                if stroke.cap != .butt { out += " stroke-linecap=\"\(stroke.cap.rawValue)\"" }
                if stroke.join != .miter { out += " stroke-linejoin=\"\(stroke.join.rawValue)\"" }
                if stroke.miterLimit != 4 { out += " stroke-miterlimit=\"\(n(stroke.miterLimit))\"" }
            }
            out += "/>\n"
        }

        /// The SVG paint and its opacity (`fill` or `stroke` and `-opacity`) at
        /// `alpha` (0 to 1), defining a gradient it uses.
        mutating func paint(_ paint: Paint, _ property: String, alpha: Double) -> String {
            let n = AndroidSVGNumber.text
            switch paint {
            case .color(let color):
                let hex = String(color.description.dropLast(2)).lowercased()
                let opacity = Double(color.alpha) / 255 * alpha
                return " \(property)=\"\(hex)\"" + (opacity < 1 ? " \(property)-opacity=\"\(n(opacity))\"" : "")
            case .gradient(let gradient):
                define(gradient.id, Self.gradient(gradient))
                return " \(property)=\"url(#\(gradient.id))\""
                    + (alpha < 1 ? " \(property)-opacity=\"\(n(alpha))\"" : "")
            }
        }

        static func gradient(_ gradient: Gradient) -> String {
            let n = AndroidSVGNumber.text
            let id = gradient.id
            let spread = gradient.spread.map { " spreadMethod=\"\($0.rawValue)\"" } ?? ""
            let stops = gradient.stops.map { stop in
                let hex = String(stop.color.description.dropLast(2)).lowercased()
                let opacity = Double(stop.color.alpha) / 255
                return "<stop offset=\"\(n(min(1, max(0, stop.offset))))\" stop-color=\"\(hex)\""
                    + (opacity < 1 ? " stop-opacity=\"\(n(opacity))\"" : "") + "/>"
            }.joined()
            switch gradient.kind {
            case .linear(let x1, let y1, let x2, let y2):
                return
                    "<linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(n(x1))\" y1=\"\(n(y1))\" x2=\"\(n(x2))\" y2=\"\(n(y2))\"\(spread)>\(stops)</linearGradient>"
            case .radial(let cx, let cy, let r):
                return
                    "<radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"\(n(cx))\" cy=\"\(n(cy))\" fx=\"\(n(cx))\" fy=\"\(n(cy))\" r=\"\(n(r))\"\(spread)>\(stops)</radialGradient>"
            }
        }
    }
}
