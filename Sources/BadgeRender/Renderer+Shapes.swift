import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ribbon, banner or shield laid out, with its shaped text: what `Renderer.compose`
/// turns into a `Composition`.
struct ShapedBadge {
    var layout: BadgeLayout?
    var hidden: HiddenReason?
    var label: String?
    var text: ShapedText?
    var message: ShapedText?
    var messageLabel: String?
    /// A shield too small to read became a dot.
    var isDot = false
}

/// Why a ribbon, banner or shield could not be laid out: its text does not fit even at
/// the minimum size (`fitting`: the em size, pixels, that would have), or another error.
enum ShapeFitError: Error {
    case textDoesNotFit(fitting: Double, BadgeError)
    case other(BadgeError)

    /// The error as reported.
    var reported: BadgeError {
        switch self {
        case .textDoesNotFit(_, let error), .other(let error): return error
        }
    }
}

extension Renderer {
    /// How many times text is shaped again at a smaller size before giving up; each
    /// try shrinks it by at least 3 %, and the size the fit asks for is usually
    /// reached in two.
    static let maxShrinkSteps = 40

    /// Lays out a ribbon, banner or shield (`request.style.shape`), shrinking its
    /// text to fit down to `request.minimumTextPixels`. A band's text is kept on the
    /// pixels `roomMask` shows whole (the platform's mask, or the icon's opaque pixels
    /// on the plain canvas).
    ///
    /// - Throws: `BadgeError.usage` for a dot or an image (these shapes hold text);
    ///   `BadgeError.badInput` (65) when the text does not fit even at the minimum
    ///   size, naming both sizes; font and layout errors as `compose`.
    func composeShape(
        _ request: RenderRequest, icon: LoadedIcon, shape: ReferenceShape, room roomMask: ShapeMask,
        style: PixelStyle, notes: inout [RenderNote]
    ) throws(BadgeError) -> ShapedBadge {
        guard case .value(let value) = request.content else {
            throw .usage("a \(request.style.shape.rawValue) holds text: give --value or --text, not --dot or --image")
        }
        var result = ShapedBadge()
        // A shield's parts follow the label rules each (--max-chars cuts each part, never
        // the bar between them).
        let pieces =
            request.style.shape == .shield
            ? RenderRequest.shieldParts(value).map { [$0.label, $0.message] } ?? [value] : [value]
        var labels: [String] = []
        for piece in pieces {
            switch request.labelRules.label(for: piece) {
            case .hidden(let reason):
                result.hidden = reason
                return result
            case .text(let label): labels.append(label)
            }
        }
        let shown = labels.joined(separator: "|")
        // Below the minimum size the small-text rule decides, as for a pill: a band
        // keeps its colour without the text (a plain corner stripe still says "beta"),
        // a shield becomes a dot.
        func fallBack(_ pixels: Double) throws(BadgeError) -> ShapedBadge? {
            var fallen = ShapedBadge()
            switch request.smallText {
            case .keep:
                return nil
            case .hide:
                notes.append(.smallText(label: shown, pixels: pixels, became: .hidden))
                fallen.hidden = .tooSmall
            case .dot where request.style.shape.isBand:
                notes.append(.smallText(label: shown, pixels: pixels, became: .bandWithoutText))
                fallen.layout = try bandLayout(
                    request, icon: icon, shape: shape, room: roomMask, style: style, text: nil)
                fallen.label = shown
            case .dot:
                notes.append(.smallText(label: shown, pixels: pixels, became: .dot))
                fallen.layout = try BadgeLayout.compute(
                    iconWidth: icon.width, iconHeight: icon.height, style: style, body: .dot, shape: shape,
                    maxSide: min(request.limits.maxSide, ImageLimits.cairoMaxSide))
                fallen.isDot = true
            }
            return fallen
        }
        var floor = request.minimumTextPixels
        if style.fontSize < request.minimumTextPixels {
            if let fallen = try fallBack(style.fontSize) { return fallen }
            floor = style.fontSize
        }
        let fitted: ShapedBadge
        do throws(ShapeFitError) {
            if request.style.shape == .shield {
                fitted = try shieldLayout(request, icon: icon, shape: shape, style: style, label: shown, floor: floor)
            } else {
                fitted = try bandFitted(
                    request, icon: icon, shape: shape, room: roomMask, style: style, label: shown, floor: floor)
            }
        } catch {
            // A catalog's set is all or nothing: text that does not fit even at the
            // minimum follows the small-text rule there, as text too small to start with.
            guard request.dropsUnfittingText, case .textDoesNotFit(let fitting, _) = error,
                let fallen = try fallBack(fitting)
            else { throw error.reported }
            return fallen
        }
        return fitted
    }

    /// A band holding `label`, its text shrunk until it fits (down to `floor` pixels).
    ///
    /// - Throws: `ShapeFitError.textDoesNotFit` when it does not fit at `floor`;
    ///   layout and font errors as `BadgeError`.
    private func bandFitted(
        _ request: RenderRequest, icon: LoadedIcon, shape: ReferenceShape, room roomMask: ShapeMask,
        style: PixelStyle, label shown: String, floor: Double
    ) throws(ShapeFitError) -> ShapedBadge {
        let chain: FontChain
        do throws(BadgeError) { chain = try fontChain(request) } catch { throw .other(error) }
        var pixels = style.fontSize
        var steps = 0
        while true {
            let text: ShapedText
            var layout: BadgeLayout
            do throws(BadgeError) {
                text = try shapeChecked(shown, chain: chain, pixels: pixels, unit: style.unit, request: request)
                layout = try bandLayout(request, icon: icon, shape: shape, room: roomMask, style: style, text: text)
            } catch {
                throw .other(error)
            }
            let band = layout.band!
            let box = text.metrics.centringBox
            let needed = box.width + 2 * style.paddingX
            let across = band.thickness - 2 * min(style.borderWidth, band.thickness / 2)
            // Centred when it fits so; a banner's text may move toward the icon's
            // centre, where a rounded or round shape is wider, before it shrinks.
            var room = 0.0
            var shift = 0.0
            for candidate in band.shifts(slack: (across - box.height) / 2, edge: style.anchor) {
                let here = band.room(forTextHeight: box.height, mask: roomMask, shift: candidate)
                if here > room + 1e-9 {
                    room = here
                    shift = candidate
                }
                if needed <= here { break }
            }
            if needed <= room, box.height <= across {
                layout.band!.textRoom = room
                layout.band!.textShift = shift
                layout.band!.textOrigin!.y += shift
                layout.inkBounds = layout.inkBounds?.offsetBy(
                    dx: -sin(band.angle) * shift, dy: cos(band.angle) * shift)
                return ShapedBadge(layout: layout, label: shown, text: text)
            }
            let fit = min(room / max(needed, 1e-9), across / max(box.height, 1e-9))
            // Whole 1/64 px, at least 3 % smaller each step; the minimum size is tried
            // last, so the error speaks of it.
            let next = max(floor, (pixels * min(0.97, fit) * 64).rounded(.down) / 64)
            steps += 1
            guard next < pixels, steps < Renderer.maxShrinkSteps else {
                let hint =
                    across <= 0
                    ? "the border (--border-width) fills the band: make it thinner"
                    : room < 1
                        ? "the band's middle is not on the shape: place it elsewhere (--anchor\(style.shape == .ribbon ? ", --ribbon-distance" : "")) or give the icon's shape (--platform)"
                        : "shorten the text, widen the band (--height)"
                throw .textDoesNotFit(
                    fitting: pixels * fit,
                    BadgeError.badInput(
                        path: "",
                        reason:
                            "the text \(Quoted(shown)) does not fit the \(style.shape.rawValue) even at \(Self.pixelText(pixels)) px (\(floor == request.minimumTextPixels ? "--min-text-px \(Self.pixelText(floor))" : "its own size, under --min-text-px")): it needs \(Self.pixelText(needed)) px of length with its padding and \(Self.pixelText(box.height)) px across, and the band holds \(Self.pixelText(room)) × \(Self.pixelText(across)) px; \(hint), or lower --min-text-px"
                    ))
            }
            pixels = next
        }
    }

    /// The layout of a band holding `text` (nil: none): `badgeRect` is the band's
    /// bounds on the canvas, and the text is centred on the band's centre.
    private func bandLayout(
        _ request: RenderRequest, icon: LoadedIcon, shape: ReferenceShape, room: ShapeMask, style: PixelStyle,
        text: ShapedText?
    ) throws(BadgeError) -> BadgeLayout {
        // The box of what is seen: the platform's mask, or the icon's opaque pixels.
        let box = room.bounds
        let thickness: Double
        if let height = style.height {
            thickness = height
        } else {
            thickness = max(text?.metrics.lineHeight ?? style.fontSize, style.minHeight) + 2 * style.paddingY
        }
        guard thickness.isFinite, thickness > 0, thickness <= min(box.width, box.height) else {
            // Like a badge larger than its icon: this icon's data, 65.
            throw .badInput(
                path: "",
                reason:
                    "the \(style.shape.rawValue) would be \(Self.pixelText(thickness)) px wide on a shape \(Self.pixelText(min(box.width, box.height))) px across; give a smaller --height"
            )
        }
        var band: BandLayout
        if style.shape == .ribbon {
            band = BandLayout.ribbon(
                corner: style.anchor, box: box, thickness: thickness,
                distance: style.ribbonDistance ?? BandLayout.defaultDistance(corner: style.anchor, box: box, mask: room)
            )
        } else {
            band = BandLayout.banner(
                edge: style.anchor, box: box, thickness: thickness, ends: style.bandEnds, mask: room)
        }
        let canvas = Rect(x: 0, y: 0, width: Double(icon.width), height: Double(icon.height))
        var inkBounds: Rect?
        if let text {
            let centring = text.metrics.centringBox
            let origin = Point(x: -(centring.minX + centring.maxX) / 2, y: -(centring.minY + centring.maxY) / 2)
            band.textSize = text.pixelSize
            band.textOrigin = origin
            if let ink = text.metrics.inkBounds?.offsetBy(dx: origin.x, dy: origin.y) {
                // The rotated ink's bounding box on the canvas.
                let c = cos(band.angle)
                let s = sin(band.angle)
                let corners = [
                    Point(x: ink.minX, y: ink.minY), Point(x: ink.maxX, y: ink.minY),
                    Point(x: ink.maxX, y: ink.maxY), Point(x: ink.minX, y: ink.maxY),
                ].map { Point(x: band.centre.x + $0.x * c - $0.y * s, y: band.centre.y + $0.x * s + $0.y * c) }
                let xs = corners.map { $0.x }
                let ys = corners.map { $0.y }
                inkBounds = Rect(
                    x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            }
        }
        var layout = BadgeLayout(
            canvasWidth: icon.width, canvasHeight: icon.height, iconRect: canvas,
            badgeRect: band.bounds(within: canvas), cornerRadius: 0,
            borderWidth: min(max(0, style.borderWidth), thickness / 2), textOrigin: nil, inkBounds: inkBounds,
            scale: style.unit)
        layout.referenceBox = shape.box
        layout.band = band
        return layout
    }

    /// A shield: `label` split at its first `|` into the two parts, laid out like a
    /// pill (anchor, offset, clamp), the text shrunk until the shield fits the shape.
    private func shieldLayout(
        _ request: RenderRequest, icon: LoadedIcon, shape: ReferenceShape, style: PixelStyle,
        label: String, floor: Double
    ) throws(ShapeFitError) -> ShapedBadge {
        guard let parts = RenderRequest.shieldParts(label) else {
            throw .other(
                .badInput(
                    path: "",
                    reason: "the shield's text \(Quoted(label)) has no \"|\": give LABEL|MESSAGE, e.g. 1.4.2|beta"))
        }
        let chain: FontChain
        do throws(BadgeError) { chain = try fontChain(request) } catch { throw .other(error) }
        var pixels = style.fontSize
        var steps = 0
        while true {
            let left: ShapedText
            let right: ShapedText
            do throws(BadgeError) {
                left = try shapeChecked(parts.label, chain: chain, pixels: pixels, unit: style.unit, request: request)
                right = try shapeChecked(
                    parts.message, chain: chain, pixels: pixels, unit: style.unit, request: request)
            } catch {
                throw .other(error)
            }
            do throws(BadgeError) {
                let layout = try BadgeLayout.compute(
                    iconWidth: icon.width, iconHeight: icon.height, style: style,
                    body: .shield(label: left.metrics, message: right.metrics), shape: shape,
                    maxSide: min(request.limits.maxSide, ImageLimits.cairoMaxSide))
                return ShapedBadge(
                    layout: layout, hidden: nil, label: parts.label, text: left, message: right,
                    messageLabel: parts.message)
            } catch {
                // Too wide for the shape, or the text too tall for the parts: smaller text.
                switch error {
                case .usage, .overLimit(_, .badgeLargerThanIcon), .overLimit(_, .textInk): break
                default: throw .other(error)
                }
                let next = max(floor, (pixels * 0.97 * 64).rounded(.down) / 64)
                steps += 1
                guard next < pixels, steps < Renderer.maxShrinkSteps * 4 else {
                    let width = left.metrics.advance + right.metrics.advance + 4 * style.paddingX
                    throw .textDoesNotFit(
                        fitting: pixels * shape.box.width / max(width, 1),
                        .badInput(
                            path: "",
                            reason:
                                "the shield \(Quoted(label)) does not fit the \(shape.platform.rawValue) shape (\(Self.pixelText(shape.box.width)) px wide) even at \(Self.pixelText(pixels)) px (\(floor == request.minimumTextPixels ? "--min-text-px \(Self.pixelText(floor))" : "its own size, under --min-text-px")): its text makes it \(Self.pixelText(width)) px wide; shorten the text, or lower --padding or --min-text-px"
                        ))
                }
                pixels = next
            }
        }
    }

    /// `text` shaped at `pixels` (em size) with the request's fonts and features.
    ///
    /// - Throws: `BadgeError.overLimit` (65) for a size over `maxTextPixels` or text
    ///   over `maxTextScalars` code points; fontconfig's problem when a fallback needed
    ///   it; `BadgeError.unavailable` (69) for a code point no font has, with
    ///   `strictGlyphs`.
    func shapeChecked(_ text: String, chain: FontChain, pixels: Double, unit: Double, request: RenderRequest)
        throws(BadgeError) -> ShapedText
    {
        guard pixels > 0, pixels <= Renderer.maxTextPixels else {
            throw .overLimit(
                path: "",
                .textPixels(points: pixels / unit, scale: unit, pixels: pixels, limit: Renderer.maxTextPixels))
        }
        guard text.unicodeScalars.count <= Renderer.maxTextScalars else {
            throw .overLimit(
                path: "", .textLength(codePoints: text.unicodeScalars.count, limit: Renderer.maxTextScalars))
        }
        let shaped = TextShaper.shape(text, chain: chain, pixelSize: pixels, features: request.fontFeatures)
        // fontconfig was needed for a fallback and cannot be used (FONTCONFIG_FILE).
        if let problem = chain.fontconfigProblem { throw problem }
        if request.strictGlyphs, !shaped.missing.isEmpty {
            throw .unavailable(
                resource: "glyphs",
                reason:
                    "no font has \(shaped.missing.map { $0.codePointName }.joined(separator: " ")) (tried: \(shaped.fontsTried.map { Shown($0).description }.joined(separator: ", ")))"
            )
        }
        return shaped
    }

    /// A size for messages: at most two decimals.
    static func pixelText(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension RenderRequest {
    /// A shield's text split at its first `|`: `1.4.2|beta` (or `1.4.2 | beta`) is the
    /// label `1.4.2` and the message `beta`; nil without a `|`.
    public static func shieldParts(_ text: String) -> (label: String, message: String)? {
        guard let bar = text.firstIndex(of: "|") else { return nil }
        // Spaces around the bar are the writer's, not the shield's: `1.4.2 | beta`.
        return (
            String(text[..<bar].trimmingASCIIWhitespace()),
            String(text[text.index(after: bar)...].trimmingASCIIWhitespace())
        )
    }
}
