import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
}

extension SceneBuilder {
    /// Lays out a ribbon, banner or shield (`asked.style.shape`), shrinking its text
    /// to fit down to `asked.minimumTextPixels`. A band's text is kept on the pixels
    /// `roomMask` shows whole (the platform's mask, or the icon's opaque pixels on the
    /// plain canvas).
    ///
    /// - Throws: `RenderProblem.shapeHoldsText` (64) for a dot or an image;
    ///   `RenderProblem.bandTextDoesNotFit` or `.shieldDoesNotFit` (65) when the text
    ///   does not fit even at the minimum size, with both sizes; font and layout
    ///   errors as `build()`.
    func shaped(
        _ asked: RenderRequest.Badge, icon: LoadedIcon, shape: ReferenceShape, room roomMask: ShapeMask,
        style: PixelStyle, avoiding content: ContentShape?, notes: inout [RenderNote]
    ) throws(BadgeError) -> LaidOutBadge {
        guard case .value(let value) = asked.content else { throw .render(.shapeHoldsText(asked.style.shape)) }
        var result = LaidOutBadge()
        // A shield's parts follow the label rules each (--max-chars cuts each part, never
        // the bar between them).
        let pieces =
            asked.style.shape == .shield
            ? RenderRequest.shieldParts(value).map { [$0.label, $0.message] } ?? [value] : [value]
        var labels: [String] = []
        for piece in pieces {
            switch asked.labelRules.label(for: piece) {
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
        func fallBack(_ pixels: Double) throws(BadgeError) -> LaidOutBadge? {
            var fallen = LaidOutBadge()
            switch asked.smallText {
            case .keep:
                return nil
            case .hide:
                notes.append(.smallText(label: shown, pixels: pixels, became: .hidden))
                fallen.hidden = .tooSmall
            case .dot where asked.style.shape.isBand:
                notes.append(.smallText(label: shown, pixels: pixels, became: .bandWithoutText))
                fallen.layout = try bandLayout(icon: icon, shape: shape, room: roomMask, style: style, text: nil)
                fallen.label = shown
            case .dot:
                notes.append(.smallText(label: shown, pixels: pixels, became: .dot))
                // A dot that stands in for text is sized to be seen.
                var dotStyle = style
                dotStyle.dotSize = BadgeVisibility.dotDiameter(
                    styleDot: style.dotSize, boxSide: min(shape.box.width, shape.box.height),
                    minimum: asked.minimumDotPixels)
                fallen.layout = try BadgeLayout.compute(
                    iconWidth: icon.width, iconHeight: icon.height, style: dotStyle, body: .dot, shape: shape,
                    maxSide: min(request.limits.maxSide, ImageLimits.cairoMaxSide), content: content)
                fallen.isDot = true
            }
            return fallen
        }
        var floor = asked.minimumTextPixels
        if style.fontSize < asked.minimumTextPixels {
            if let fallen = try fallBack(style.fontSize) { return fallen }
            floor = style.fontSize
        }
        let fitted: LaidOutBadge
        do throws(ShapeFitError) {
            if asked.style.shape == .shield {
                fitted = try shieldLayout(
                    asked, icon: icon, shape: shape, style: style, label: shown, floor: floor, avoiding: content)
            } else {
                fitted = try bandFitted(
                    asked, icon: icon, shape: shape, room: roomMask, style: style, label: shown, floor: floor)
            }
        } catch {
            // A catalog's set is all or nothing: text that does not fit even at the
            // minimum follows the small-text rule there, as text too small to start with.
            guard request.output.dropsUnfittingText, case .textDoesNotFit(let fitting, _) = error,
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
        _ asked: RenderRequest.Badge, icon: LoadedIcon, shape: ReferenceShape, room roomMask: ShapeMask,
        style: PixelStyle, label shown: String, floor: Double
    ) throws(ShapeFitError) -> LaidOutBadge {
        let chain: FontChain
        do throws(BadgeError) { chain = try renderer.fontChain(asked) } catch { throw .other(error) }
        var pixels = style.fontSize
        var steps = 0
        while true {
            let text: ShapedText
            var layout: BadgeLayout
            do throws(BadgeError) {
                // A ribbon's text runs along a diagonal, where whole pixels of its own
                // frame are no pixels of the canvas: its glyphs keep exact positions.
                text = try renderer.shapeChecked(
                    shown, chain: chain, pixels: pixels, unit: style.unit, badge: asked,
                    exactPositions: asked.style.shape == .ribbon)
                layout = try bandLayout(icon: icon, shape: shape, room: roomMask, style: style, text: text)
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
                return LaidOutBadge(layout: layout, label: shown, text: text)
            }
            let fit = min(room / max(needed, 1e-9), across / max(box.height, 1e-9))
            // Whole 1/64 px, at least 3 % smaller each step; the minimum size is tried
            // last, so the error speaks of it.
            let next = max(floor, (pixels * min(0.97, fit) * 64).rounded(.down) / 64)
            steps += 1
            guard next < pixels, steps < Renderer.maxShrinkSteps else {
                throw .textDoesNotFit(
                    fitting: pixels * fit,
                    .render(
                        .bandTextDoesNotFit(
                            RenderProblem.BandText(
                                text: shown, shape: style.shape, pixels: pixels, floor: floor,
                                floorIsMinimum: floor == asked.minimumTextPixels, needed: needed,
                                textHeight: box.height, room: room, across: across))))
            }
            pixels = next
        }
    }

    /// The layout of a band holding `text` (nil: none): `badgeRect` is the band's
    /// bounds on the canvas, and the text is centred on the band's centre.
    private func bandLayout(
        icon: LoadedIcon, shape: ReferenceShape, room: ShapeMask, style: PixelStyle, text: ShapedText?
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
            throw .render(
                .bandTooThick(shape: style.shape, thickness: thickness, across: min(box.width, box.height)))
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
        _ asked: RenderRequest.Badge, icon: LoadedIcon, shape: ReferenceShape, style: PixelStyle,
        label: String, floor: Double, avoiding content: ContentShape?
    ) throws(ShapeFitError) -> LaidOutBadge {
        guard let parts = RenderRequest.shieldParts(label) else {
            throw .other(
                .badInput(
                    path: "",
                    reason: "the shield's text \(Quoted(label)) has no \"|\": give LABEL|MESSAGE, e.g. 1.4.2|beta"))
        }
        let chain: FontChain
        do throws(BadgeError) { chain = try renderer.fontChain(asked) } catch { throw .other(error) }
        var pixels = style.fontSize
        var steps = 0
        while true {
            let left: ShapedText
            let right: ShapedText
            do throws(BadgeError) {
                left = try renderer.shapeChecked(
                    parts.label, chain: chain, pixels: pixels, unit: style.unit, badge: asked)
                right = try renderer.shapeChecked(
                    parts.message, chain: chain, pixels: pixels, unit: style.unit, badge: asked)
            } catch {
                throw .other(error)
            }
            do throws(BadgeError) {
                let layout = try BadgeLayout.compute(
                    iconWidth: icon.width, iconHeight: icon.height, style: style,
                    body: .shield(label: left.metrics, message: right.metrics), shape: shape,
                    maxSide: min(request.limits.maxSide, ImageLimits.cairoMaxSide), content: content)
                return LaidOutBadge(
                    layout: layout, hidden: nil, label: parts.label, text: left, message: right,
                    messageLabel: parts.message)
            } catch {
                // Too wide for the shape, or the text too tall for the parts: smaller text.
                switch error {
                case .render(.badgeOutsideShape, _), .overLimit(_, .badgeLargerThanIcon), .overLimit(_, .textInk): break
                default: throw .other(error)
                }
                let next = max(floor, (pixels * 0.97 * 64).rounded(.down) / 64)
                steps += 1
                guard next < pixels, steps < Renderer.maxShrinkSteps * 4 else {
                    let width = left.metrics.advance + right.metrics.advance + 4 * style.paddingX
                    throw .textDoesNotFit(
                        fitting: pixels * shape.box.width / max(width, 1),
                        .render(
                            .shieldDoesNotFit(
                                RenderProblem.Shield(
                                    text: label, platform: shape.platform, shapeWidth: shape.box.width,
                                    pixels: pixels, floor: floor, floorIsMinimum: floor == asked.minimumTextPixels,
                                    width: width))))
                }
                pixels = next
            }
        }
    }

}

extension Renderer {
    /// `text` shaped at `pixels` (em size) with the badge's fonts and features.
    ///
    /// - Throws: `BadgeError.overLimit` (65) for a size over `maxTextPixels` or text
    ///   over `maxTextScalars` code points; fontconfig's problem when a fallback needed
    ///   it; `BadgeError.unavailable` (69) for a code point no font has, with
    ///   `strictGlyphs`.
    func shapeChecked(
        _ text: String, chain: FontChain, pixels: Double, unit: Double, badge: RenderRequest.Badge,
        exactPositions: Bool = false
    ) throws(BadgeError) -> ShapedText {
        guard pixels > 0, pixels <= Renderer.maxTextPixels else {
            throw .overLimit(
                path: "",
                .textPixels(points: pixels / unit, scale: unit, pixels: pixels, limit: Renderer.maxTextPixels))
        }
        guard text.unicodeScalars.count <= Renderer.maxTextScalars else {
            throw .overLimit(
                path: "", .textLength(codePoints: text.unicodeScalars.count, limit: Renderer.maxTextScalars))
        }
        let shaped = TextShaper.shape(
            text, chain: chain, pixelSize: pixels, features: badge.fontFeatures, exactPositions: exactPositions)
        // fontconfig was needed for a fallback and cannot be used (FONTCONFIG_FILE).
        if let problem = chain.fontconfigProblem { throw problem }
        if badge.strictGlyphs, !shaped.missing.isEmpty {
            throw .unavailable(
                resource: "glyphs",
                reason:
                    "no font has \(shaped.missing.map { $0.codePointName }.joined(separator: " ")) (tried: \(shaped.fontsTried.map { Shown($0).description }.joined(separator: ", ")))"
            )
        }
        return shaped
    }
}
