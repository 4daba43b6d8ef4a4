/// Android drawables read into drawings (`AndroidDrawing`), which BadgeRender draws
/// natively (`AndroidDrawingPainter`) and which also write themselves as SVG
/// documents (`layer` and `file` return those): a VectorDrawable (`<vector>`, its `<group>` transforms, `<path>` fills and
/// strokes with their alphas, `<clip-path>`, gradients in `aapt:attr` or
/// `res/color/`), `<shape>` (rectangle and oval: solid, gradient, corners, stroke),
/// `<inset>`, `<bitmap>` and plain images (PNG, WebP, JPEG, GIF: embedded as
/// `data:` URLs), `<color>`, and a `<layer-list>` of any of these, each drawn into
/// its bounds as Android's drawables draw into theirs.
///
/// Colours, strings and dimensions given as `@color/NAME` and the like resolve
/// through an `AndroidResourceLookup` (the app's `values*/` files); `?attr/` theme
/// references are refused, since they have a value only in a running app's theme.
///
/// The drawable XML may come from a pull request. It has been read by `XMLScanner`
/// (no DOCTYPE, so no entity expansion; bounded depth and size); here every element
/// and attribute must be one the converter knows (anything else is refused, naming
/// it with its file and line), every number is finite and bounded, path data is read
/// and written again (`AndroidPathData`), at most `maxElements` elements and
/// `maxReferenceDepth` nested references are followed, and the document is at most
/// the SVG size limit (a drawing is counted as its SVG document would be, as it is
/// built). No text of the input reaches the drawing or the SVG but numbers and
/// colours iconbadge writes itself, and image bytes (as base64 in the SVG).
///
/// Sources: developer.android.com "Drawable resources" and "VectorDrawable"; the
/// framework's `VectorDrawable`, `GradientDrawable`, `LayerDrawable`,
/// `InsetDrawable`, `BitmapDrawable` and `GradientColor` (Android 10, as Debian's
/// android-framework-res), whose rules are cited where they are followed.
public enum AndroidDrawableSVG {
    /// The most XML elements one document draws, across the files it refers to:
    /// 20,000, a hundred times a detailed launcher icon's.
    public static let maxElements = 20_000
    /// The most references followed inside each other (a layer list of an inset of
    /// a vector…; a colour naming a colour): 12.
    public static let maxReferenceDepth = 12
    /// The largest viewport or drawable side (dp or viewport units): 100,000.
    public static let maxSide = 100_000.0

    /// The SVG document of one layer of an adaptive icon (`<foreground>`,
    /// `<background>` or `<monochrome>`: its `android:drawable`, or its one child
    /// element), drawn into a `width` × `height` dp box, for a screen of `density`
    /// pixels per dp (which bitmaps are chosen, what `px` means). The document's
    /// user unit is the dp; its intrinsic size is `width` × `height`.
    ///
    /// - Parameters:
    ///   - layer: the layer element, from the adaptive icon XML `document` at `path`.
    ///   - limits: the SVG size limit bounds the document, the image limits its
    ///     embedded bitmaps.
    /// - Throws: `AndroidDrawableProblem` naming the file, line and what cannot be
    ///   drawn: an unknown element or attribute, a reference that does not resolve,
    ///   a theme attribute, a file that is neither XML nor an image, a limit passed.
    public static func layer(
        _ layer: XMLElement, of document: [UInt8], path: String, width: Double, height: Double, density: Double,
        lookup: AndroidResourceLookup, limits: ImageLimits
    ) throws(AndroidDrawableProblem) -> [UInt8] {
        try layerDrawing(
            layer, of: document, path: path, width: width, height: height, density: density, lookup: lookup,
            limits: limits
        ).svg(maxBytes: limits.maxSVGBytes, path: path)
    }

    /// One layer of an adaptive icon as a drawing (what `layer` writes as SVG), for
    /// BadgeRender to draw natively: the same conversion, checks and limits (the
    /// drawing is bounded as its SVG document would be, by the SVG size limit).
    ///
    /// - Throws: as `layer`.
    public static func layerDrawing(
        _ layer: XMLElement, of document: [UInt8], path: String, width: Double, height: Double, density: Double,
        lookup: AndroidResourceLookup, limits: ImageLimits
    ) throws(AndroidDrawableProblem) -> AndroidDrawing {
        let converter = AndroidDrawableConverter(lookup: lookup, density: density, limits: limits)
        let file = AndroidXMLNode.File(path: path, bytes: document)
        let node = try converter.node(of: layer, in: file)
        let drawable = try converter.layerDrawable(node)
        return try converter.drawing(drawable, width: width, height: height)
    }

    /// The SVG document of a drawable file (XML or an image) drawn into a `width` ×
    /// `height` dp box, as `layer` draws a layer.
    ///
    /// - Throws: as `layer`.
    public static func file(
        _ bytes: [UInt8], path: String, width: Double, height: Double, density: Double,
        lookup: AndroidResourceLookup, limits: ImageLimits
    ) throws(AndroidDrawableProblem) -> [UInt8] {
        try fileDrawing(
            bytes, path: path, width: width, height: height, density: density, lookup: lookup, limits: limits
        ).svg(maxBytes: limits.maxSVGBytes, path: path)
    }

    /// A drawable file as a drawing, as `layerDrawing` makes a layer's.
    ///
    /// - Throws: as `layer`.
    public static func fileDrawing(
        _ bytes: [UInt8], path: String, width: Double, height: Double, density: Double,
        lookup: AndroidResourceLookup, limits: ImageLimits
    ) throws(AndroidDrawableProblem) -> AndroidDrawing {
        let converter = AndroidDrawableConverter(lookup: lookup, density: density, limits: limits)
        let drawable = try converter.drawable(
            ofFile: AndroidResourceFile(path: path, bytes: bytes, density: nil), reference: nil)
        return try converter.drawing(drawable, width: width, height: height)
    }

    /// The colour of a layer that is a plain colour (`android:drawable="@color/x"`,
    /// a colour literal, or a `<color>` element), nil for any other drawable: an
    /// adaptive icon's background is often one, and is then filtered as a colour.
    ///
    /// The resources it reads are bounded by `limits`, as `layer`'s are.
    ///
    /// - Throws: as `layer`, for a colour reference that does not resolve.
    public static func layerColor(
        _ layer: XMLElement, of document: [UInt8], path: String, lookup: AndroidResourceLookup, limits: ImageLimits
    ) throws(AndroidDrawableProblem) -> Color? {
        let converter = AndroidDrawableConverter(lookup: lookup, density: 1, limits: limits)
        let file = AndroidXMLNode.File(path: path, bytes: document)
        let node = try converter.node(of: layer, in: file)
        let attributes = try node.androidAttributes(allowed: ["drawable"])
        if let value = attributes["drawable"] {
            guard node.children.isEmpty else {
                throw node.problem("<\(node.name)> has both android:drawable and a child element; give one")
            }
            let resolved = try converter.resolve(value, at: node, attribute: "android:drawable")
            if case .text(let text, _) = resolved, let color = AndroidColor.parse(text) { return color }
            if case .file(let file) = resolved, AndroidDrawableConverter.isColorFile(file.path) {
                return try converter.colorFromFile(file)
            }
            return nil
        }
        if let child = node.children.first, node.children.count == 1, child.name == "color" {
            if case .color(let color) = try converter.drawable(element: child) { return color }
        }
        return nil
    }

    /// The document's namespaces and header.
    static let svgOpen =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\""
}

/// The state of one conversion: the ids given to gradients, clip paths and tints,
/// the elements counted, the size of the SVG document the drawing makes (bounded
/// as it is written), the references being followed. Made for one document, used
/// by one thread.
final class AndroidDrawableConverter {
    let lookup: AndroidResourceLookup
    /// Pixels per dp of the screen drawn for.
    let density: Double
    /// The limits: `maxSVGBytes` bounds the document, the others its embedded bitmaps.
    let limits: ImageLimits
    /// The largest document written (bytes).
    var maxBytes: Int { limits.maxSVGBytes }
    /// About the bytes of SVG the drawing so far makes (its path data and images
    /// exactly, a generous allowance for the markup around them).
    var definedBytes = 0
    private var nextID = 0
    private var elements = 0
    /// The references being followed, outermost first (for cycles and depth).
    var following: [String] = []
    /// The colours of the colour state lists read so far, by file and offset: a
    /// `@color/` file that many paths are filled with is read once, its items
    /// counted once against `maxElements`.
    var selectorColors: [String: Color] = [:]

    init(lookup: AndroidResourceLookup, density: Double, limits: ImageLimits) {
        self.lookup = lookup
        self.density = density
        self.limits = limits
    }

    /// A fresh id: `g1`, `c2`…
    func id(_ kind: String) -> String {
        nextID += 1
        return "\(kind)\(nextID)"
    }

    /// Counts `bytes` more of the document, so a drawing is bounded while it is
    /// built, whether it is drawn natively or written as SVG.
    ///
    /// - Throws: when the document would pass `maxBytes`.
    func charge(_ bytes: Int, at node: AndroidXMLNode?) throws(AndroidDrawableProblem) {
        definedBytes += bytes
        try checkSize(definedBytes, at: node)
    }

    func checkSize(_ bytes: Int, at node: AndroidXMLNode?) throws(AndroidDrawableProblem) {
        guard bytes <= maxBytes else {
            let reason = "makes an SVG document over the \(maxBytes)-byte limit for an SVG"
            throw node?.problem(reason)
                ?? AndroidDrawableProblem(path: following.last ?? "", line: nil, reason: reason)
        }
    }

    /// Counts an element against `maxElements`.
    func count(_ node: AndroidXMLNode) throws(AndroidDrawableProblem) {
        elements += 1
        guard elements <= AndroidDrawableSVG.maxElements else {
            throw node.problem(
                "the drawable has over \(AndroidDrawableSVG.maxElements) elements (with the files it refers to)")
        }
    }

    /// The node of `element` of `file`, with the namespaces its document declares
    /// above it.
    func node(of element: XMLElement, in file: AndroidXMLNode.File) throws(AndroidDrawableProblem) -> AndroidXMLNode {
        let root: XMLElement
        do throws(XMLSyntaxError) {
            root = try lookup.document(AndroidResourceFile(path: file.path, bytes: file.bytes, density: nil))
        } catch {
            throw AndroidDrawableProblem(
                path: file.path, line: file.line(error.offset), reason: "not readable XML: \(error.problem)")
        }
        // The element's ancestors, for their namespace declarations.
        var chain: [XMLElement] = []
        func find(_ current: XMLElement) -> Bool {
            chain.append(current)
            if current.range == element.range { return true }
            for child in current.children where child.range.contains(element.range.lowerBound) {
                if find(child) { return true }
            }
            chain.removeLast()
            return false
        }
        guard find(root) else {
            return AndroidXMLNode(root: element, file: file)
        }
        var node = AndroidXMLNode(root: chain[0], file: file)
        for ancestor in chain.dropFirst() {
            node = AndroidXMLNode(element: ancestor, file: file, inherited: node.namespaces)
        }
        return node
    }

    /// The drawing of `drawable` in a `width` × `height` box.
    func drawing(_ drawable: AndroidDrawable, width: Double, height: Double) throws(AndroidDrawableProblem)
        -> AndroidDrawing
    {
        let nodes = try emit(drawable, in: Rect(x: 0, y: 0, width: width, height: height))
        return AndroidDrawing(width: width, height: height, nodes: nodes)
    }

    /// Follows `reference` once more, refusing a cycle or a chain over
    /// `maxReferenceDepth`.
    func follow<T>(
        _ reference: String, at node: AndroidXMLNode?, path: String,
        _ body: () throws(AndroidDrawableProblem) -> T
    ) throws(AndroidDrawableProblem) -> T {
        func problem(_ reason: String) -> AndroidDrawableProblem {
            node?.problem(reason) ?? AndroidDrawableProblem(path: path, line: nil, reason: reason)
        }
        if following.contains(reference) {
            throw problem("\(reference) refers to itself (\((following + [reference]).joined(separator: " → ")))")
        }
        guard following.count < AndroidDrawableSVG.maxReferenceDepth else {
            throw problem(
                "\(reference) is reached through over \(AndroidDrawableSVG.maxReferenceDepth) references in a row")
        }
        following.append(reference)
        defer { following.removeLast() }
        return try body()
    }
}
