import BadgeCore

/// Turns a `RenderRequest` into a `Scene`, deciding everything once: it decodes the
/// icon (`ImageSupply`), finds its colour conversion and, when needed, its opaque
/// pixels, places the platform's shape, applies the label rules, shapes each badge's
/// text and lays it out (ribbons, banners and shields in `SceneBuilder+Shapes.swift`),
/// and filters the icon's pixels. Nothing is set on the scene afterwards.
///
/// Made for one build by `Renderer.compose`; its own working state (the icon's opaque pixels, found at most once) lives in
/// `build()`.
struct SceneBuilder {
    /// The renderer whose fonts shape the text (one per thread).
    let renderer: Renderer
    /// What to build.
    let request: RenderRequest
    /// Where the images come from.
    let images: ImageSupply

    /// The scene of the request.
    ///
    /// - Throws: the icon's or a badge image's read and decode errors (65, 66), font
    ///   errors (65, 66, 69), layout errors (64, 65) when a badge cannot fit, naming
    ///   which badge of several; 64 for more than `RenderRequest.maxBadges` badges or
    ///   expand placement with several.
    func build() throws(BadgeError) -> Scene {
        var sizing = ImageSizing(scale: request.output.scale)
        if let size = request.icon.size { sizing.size = (Int(size.width), Int(size.height)) }
        sizing.rasterScale = request.icon.rasterScale
        let (icon, owned) = try images.image(request.icon.path, sizing: sizing)
        let platform = request.icon.platform
        var notes: [RenderNote] = []
        if platform.expectsSquare, icon.width != icon.height {
            notes.append(.notSquare(platform: platform, width: icon.width, height: icon.height))
        }
        var conversion: ColorConversion?
        if let chunks = icon.color {
            if chunks.bitDepth == 16 { notes.append(.sixteenBit) }
            switch ColorConversion.make(chunks) {
            case .none: break
            case .convert(let made): conversion = made
            case .unsupported(let reason): notes.append(.colorNotConverted(reason: reason))
            }
        }
        // The icon's opaque pixels, found once for every badge that needs them.
        var contentShape: ContentShape?
        func opaquePixels() throws(BadgeError) -> ContentShape {
            if let contentShape { return contentShape }
            let found = ContentShape(alphaOf: icon.surface)
            contentShape = found
            return found
        }
        let shape = platform.shape(
            width: icon.width, height: icon.height, content: platform.needsContent ? try opaquePixels() : nil)
        // A tint colour is sRGB like the badges' colours: into the icon's space too.
        let filters =
            conversion.map { conversion in request.icon.filters.map { $0.mappingColor(conversion.convert) } }
            ?? request.icon.filters
        // The icon's pixels as drawn: filtered before the badges are measured against them.
        let drawn = try pixelsDrawn(icon, owned: owned, filters: filters)
        let measured = try measuredPixels(drawn, icon: icon)
        // Only the first badge moves: expand makes room for its largest frame alone.
        func badge(_ asked: RenderRequest.Badge, room: Double = 1) throws(BadgeError) -> Scene.Badge {
            try self.contrasted(asked, measured: measured) { (ring) throws(BadgeError) in
                try self.badge(
                    asked, icon: icon, shape: shape, room: room, conversion: conversion, opaquePixels: opaquePixels,
                    ring: ring)
            }
        }
        var badges = [try badge(request.badge, room: request.animation.room)]
        let more = request.badges.dropFirst()
        if !more.isEmpty {
            guard request.badges.count <= RenderRequest.maxBadges else {
                throw .usage("\(request.badges.count) badges on one icon; at most \(RenderRequest.maxBadges) are drawn")
            }
            guard request.badges.allSatisfy({ $0.style.overflow != .expand }) else {
                throw .render(.expandWithSeveralBadges)
            }
            for (number, extra) in zip(2..., more) {
                do throws(BadgeError) {
                    badges.append(try badge(extra))
                } catch {
                    throw error.forBadge(number)
                }
            }
        }
        let previous = try request.animation.previousContent.map { (old) throws(BadgeError) in
            try badge(request.badge.showing(old))
        }
        let layout = badges[0].layout
        let natural = Rect(x: 0, y: 0, width: Double(icon.width), height: Double(icon.height))
        // A rounded mask's radius is in points, at the first badge's pixels per point.
        let side = min(shape.box.width, shape.box.height)
        let unit = request.badge.style.pixels(scale: request.output.scale, side: side).unit
        return Scene(
            canvasWidth: layout?.canvasWidth ?? icon.width, canvasHeight: layout?.canvasHeight ?? icon.height,
            icon: Scene.IconLayer(
                decoded: icon, pixels: drawn,
                rect: layout?.iconRect ?? natural, mask: request.icon.mask, maskScale: unit, filters: filters),
            colorConversion: conversion, badges: badges, previous: previous, frame: request.animation.frame,
            platform: platform, notes: notes, stillLayers: SceneLayers(request.output.layers))
    }

    /// The icon's pixels as drawn, with who holds them: the decoded pixels, or with
    /// `filters` those pixels filtered, in place when the scene holds them alone
    /// (no second copy), else on a copy (the cache's are never changed).
    ///
    /// - Throws: `BadgeError.outOfMemory` when the copy cannot be made.
    private func pixelsDrawn(_ icon: LoadedIcon, owned: Bool, filters: [IconFilter]) throws(BadgeError)
        -> IconPixels
    {
        let decoded = icon.surface
        guard !filters.isEmpty else { return owned ? .owned(OwnedSurface(decoded)) : .shared(decoded) }
        let target = owned ? decoded : try decoded.copy()
        target.apply(filters)
        return owned ? .owned(OwnedSurface(target)) : .shared(target)
    }
}

extension SceneBuilder {
    /// One badge of the scene on the loaded icon: its badge image, the label rules,
    /// its text shaped and its layout; its colours converted into the icon's colour
    /// space. `room` is the largest scale it is drawn at (an animation's).
    ///
    /// - Throws: the badge image's errors, font and layout errors.
    private func badge(
        _ asked: RenderRequest.Badge, icon: LoadedIcon, shape: ReferenceShape, room: Double,
        conversion: ColorConversion?, opaquePixels: () throws(BadgeError) -> ContentShape, ring: Ring?
    ) throws(BadgeError) -> Scene.Badge {
        // The image first: its errors come before the layout's.
        var imageSource: BadgeImageSource?
        if case .image(let path) = asked.content {
            imageSource = try images.badgeImage(
                path, scale: request.output.scale, naturalSize: asked.style.imageSize == nil)
        }
        let side = min(shape.box.width, shape.box.height)
        var style = asked.style.pixels(scale: request.output.scale, side: side)
        style.roomScale = room
        if asked.minimumDotPixels > 0, style.dotSize < asked.minimumDotPixels {
            style.dotSize = asked.minimumDotPixels
        }
        // A ring is a border of its own colour, inside the badge's bounds.
        if let ring { style.borderWidth = ring.width }
        let colors = conversion.map { $0.convert } ?? { $0 }
        let paint = Scene.Badge.Paint(
            background: colors(asked.style.background), textColor: colors(asked.style.textColor),
            borderColor: colors(ring?.color ?? asked.style.borderColor),
            labelBackground: colors(asked.style.labelBackground),
            greyscale: request.output.greyscaleBadges, knocksOutText: request.output.knockoutText,
            clearsUnder: request.output.clearsUnderBadges)
        var notes: [RenderNote] = []
        // What --avoid-content avoids: the icon's opaque pixels, found once.
        let avoided = style.avoidsContent && style.overflow == .clamp ? try opaquePixels() : nil
        func made(_ laid: LaidOutBadge, image: LoadedIcon? = nil, band: Scene.Badge.BandCut? = nil) -> Scene.Badge {
            Scene.Badge(
                layout: laid.layout, hidden: laid.hidden, label: laid.label, messageLabel: laid.messageLabel,
                isDot: laid.isDot, shape: asked.style.shape, notes: notes, paint: paint, text: laid.text,
                message: laid.message, image: image, band: band)
        }
        if asked.style.shape != .pill {
            // On the plain canvas a band follows the icon's alpha: its text is kept on
            // the icon's opaque pixels too.
            var room = shape
            if request.icon.platform == .canvas, asked.style.shape.isBand {
                let opaque = try opaquePixels()
                let full = (0..<icon.height).allSatisfy { opaque.spans(row: $0) == [0..<icon.width] }
                if !full { room.mask = opaque.mask(within: nil, width: icon.width, height: icon.height) }
            }
            let laid = try shaped(
                asked, icon: icon, shape: shape, room: room.mask, style: style, avoiding: avoided, notes: &notes)
            return made(
                laid,
                band: laid.layout?.band == nil
                    ? nil
                    : Scene.Badge.BandCut(
                        clip: Self.bandClip(shape),
                        followsIconAlpha: [.canvas, .content, .androidLegacy].contains(request.icon.platform)))
        }
        func layout(_ body: BadgeBody) throws(BadgeError) -> BadgeLayout {
            try BadgeLayout.compute(
                iconWidth: icon.width, iconHeight: icon.height, style: style, body: body, shape: shape,
                maxSide: min(request.limits.maxSide, ImageLimits.cairoMaxSide),
                content: avoided)
        }
        switch asked.content {
        case .dot:
            return made(LaidOutBadge(layout: try layout(.dot), isDot: true))
        case .image:
            switch imageSource {
            case .ready(let image)?:
                return made(
                    LaidOutBadge(layout: try layout(.image(width: image.width, height: image.height))), image: image)
            case .svg(let document, let path, let natural)?:
                // Without a natural size the layout uses the explicit image size. An SVG
                // badge is rendered at the size the layout gives it (never at its
                // intrinsic size, then scaled).
                let placed = try layout(.image(width: natural?.width ?? 1, height: natural?.height ?? 1))
                let image = try images.svgBadge(
                    document, path: path, width: Int(placed.badgeRect.width), height: Int(placed.badgeRect.height))
                return made(LaidOutBadge(layout: placed), image: image)
            case nil:
                throw .internalError("badge image not loaded")
            }
        case .value(let value):
            switch asked.labelRules.label(for: value) {
            case .hidden(let reason):
                return made(LaidOutBadge(hidden: reason))
            case .text(let label):
                let pixelSize = style.fontSize
                guard pixelSize > 0, pixelSize <= Renderer.maxTextPixels else {
                    throw .overLimit(
                        path: "",
                        .textPixels(
                            points: pixelSize / style.unit, scale: style.unit, pixels: pixelSize,
                            limit: Renderer.maxTextPixels))
                }
                if pixelSize < asked.minimumTextPixels {
                    // Too small to read: a dot, nothing, or the text anyway.
                    switch asked.smallText {
                    case .dot:
                        notes.append(.smallText(label: label, pixels: pixelSize, became: .dot))
                        // A dot that stands in for text is sized to be seen.
                        style.dotSize = BadgeVisibility.dotDiameter(
                            styleDot: style.dotSize, boxSide: side, minimum: asked.minimumDotPixels)
                        return made(LaidOutBadge(layout: try layout(.dot), isDot: true))
                    case .hide:
                        notes.append(.smallText(label: label, pixels: pixelSize, became: .hidden))
                        return made(LaidOutBadge(hidden: .tooSmall))
                    case .keep:
                        break
                    }
                }
                let text = try renderer.shapeChecked(
                    label, chain: try renderer.fontChain(asked), pixels: pixelSize, unit: style.unit, badge: asked)
                return made(LaidOutBadge(layout: try layout(.text(text.metrics)), label: label, text: text))
            }
        }
    }
}

extension SceneBuilder {
    /// What a ribbon or banner is cut to: the platform's mask (nil: the canvas). An
    /// adaptive icon's layer is cut to the 72 dp square a launcher shows instead of
    /// the 66 dp safe zone: each device's mask (circle, squircle, rounded square)
    /// cuts it again where that mask ends, so the band runs to the edge of what is
    /// seen under every mask and its ends never float inside it. Its text stays in the
    /// safe zone (the room it is fitted to is the safe zone's).
    static func bandClip(_ shape: ReferenceShape) -> ShapeMask? {
        if shape.platform == .androidAdaptive {
            return ShapeMask(.rectangle(shape.box), width: shape.mask.width, height: shape.mask.height)
        }
        return shape.isCanvasRectangle ? nil : shape.mask
    }
}

/// A badge laid out, with its shaped text: what the builder makes a `Scene.Badge` of.
/// The builder's working value, filled in as a ribbon's text shrinks to fit.
struct LaidOutBadge {
    var layout: BadgeLayout?
    var hidden: HiddenReason?
    var label: String?
    var text: ShapedText?
    var message: ShapedText?
    var messageLabel: String?
    /// Drawn as a dot (asked for, or text too small to read).
    var isDot = false
}
