import BadgeCore

/// Composes badges onto icons. One renderer serves one thread at a time; make one
/// per worker thread for parallel work (each has its own FreeType library, so no
/// lock is taken while rendering).
public final class Renderer {
    let fonts: FontContext

    /// The largest text size accepted (pixels per em); larger cannot fit any
    /// canvas iconbadge accepts and would only make FreeType allocate.
    public static let maxTextPixels = 4096.0

    /// Makes a renderer.
    ///
    /// - Throws: `BadgeError.internalError` when FreeType cannot start.
    public init() throws(BadgeError) {
        fonts = try FontContext.checkOut()
    }

    deinit { FontContext.checkIn(fonts) }

    /// Reads the icon, applies the label rules, shapes the text and lays out the badge.
    ///
    /// - Throws: the icon's or the badge image's read and decode errors (65, 66),
    ///   font errors (65, 66, 69), and layout errors (65) when the badge cannot fit.
    public func compose(_ request: RenderRequest) throws(BadgeError) -> Composition {
        try compose(request, cache: nil)
    }

    /// As `compose(_:)`, taking decoded images from `cache` (batch), so each file is
    /// decoded once however many jobs use it.
    public func compose(_ request: RenderRequest, cache: IconCache?) throws(BadgeError)
        -> Composition
    {
        try compose(request, cache: cache, site: .isolated, files: [:])
    }

    /// Composes with images decoded at `site`; `files` holds the bytes of inputs
    /// that cannot be read again (standard input) or must not change (the SVG
    /// documents the parent checked), by path (the isolated vector render's child).
    /// `iconPixels`, when given, is the icon itself (a filtered SVG icon's pixels,
    /// which the parent sends that child).
    func compose(
        _ request: RenderRequest, cache: IconCache?, site: DecodeSite, files: [String: [UInt8]],
        iconPixels: ImageSurface? = nil
    ) throws(BadgeError) -> Composition {
        var sizing = ImageSizing(scale: request.scale)
        if let size = request.iconSize { sizing.size = (Int(size.width), Int(size.height)) }
        sizing.rasterScale = request.iconRasterScale
        func load(_ path: String, _ sizing: ImageSizing) throws(BadgeError) -> LoadedIcon {
            if let bytes = files[path] {
                var icon = try IconLoader.decode(bytes, path: path, limits: request.limits, sizing: sizing, site: site)
                if path == "-" { icon.standardInput = bytes }
                return icon
            }
            if let cache { return try cache.icon(path, sizing: sizing, limits: request.limits) }
            return try IconLoader.load(path, limits: request.limits, sizing: sizing, site: site)
        }
        let icon: LoadedIcon
        if let iconPixels {
            icon = LoadedIcon(surface: iconPixels, svg: nil, format: "svg")
        } else {
            icon = try load(request.iconPath, sizing)
        }
        // One badge of the render on the loaded icon: its badge image, then its layout.
        func badge(_ request: RenderRequest) throws(BadgeError) -> Composition {
            var badgeImage: BadgeImageSource?
            if case .image(let path) = request.content {
                badgeImage = try IconLoader.badgeImage(
                    path, bytes: files[path], limits: request.limits, scale: request.scale,
                    naturalSize: request.style.imageSize == nil, site: site,
                    raster: cache == nil ? nil : { (sizing) throws(BadgeError) in try load(path, sizing) })
            }
            // An SVG badge is rendered at the size the layout gives it (never at its
            // intrinsic size, then scaled).
            return try compose(request, icon: icon, badgeImage: badgeImage) {
                (path, document, width, height) throws(BadgeError) in
                if site == .isolated, let cache, files[path] == nil {
                    var drawn = ImageSizing()
                    drawn.size = (width, height)
                    return try cache.icon(path, sizing: drawn, limits: request.limits)
                }
                return try IconLoader.decodeSVGBadge(
                    document, path: path, width: width, height: height, limits: request.limits, site: site)
            }
        }
        let composition = try badge(request)
        if !request.moreBadges.isEmpty {
            guard request.moreBadges.count < RenderRequest.maxBadges else {
                throw .usage(
                    "\(request.moreBadges.count + 1) badges on one icon; at most \(RenderRequest.maxBadges) are drawn")
            }
            guard ([request] + request.moreBadges).allSatisfy({ $0.style.overflow != .expand }) else {
                throw .usage(
                    "--overflow expand grows the canvas for one badge; with several badges use clamp or clip")
            }
            for extra in request.moreBadges {
                var drawn = request.overlay(extra)
                // The icon's shape, found once for the first badge.
                drawn.contentShape = drawn.contentShape ?? composition.contentShape
                let overlay: Composition
                do throws(BadgeError) {
                    overlay = try badge(drawn)
                } catch {
                    throw error.forBadge(composition.overlays.count + 2)
                }
                overlay.request = drawn
                overlay.site = site
                composition.overlays.append(overlay)
            }
        }
        composition.frameState = request.frame
        composition.layers = request.layers
        if let old = request.previousContent {
            var previous = request.overlay(request)
            previous.content = old
            previous.contentShape = previous.contentShape ?? composition.contentShape
            composition.previous = try badge(previous)
        }
        composition.ownsIcon = cache == nil
        composition.request = request
        composition.site = site
        return composition
    }

    func compose(
        _ request: RenderRequest, icon: LoadedIcon, badgeImage: BadgeImageSource?,
        renderSVGBadge: (String, [UInt8], Int, Int) throws(BadgeError) -> LoadedIcon
    ) throws(BadgeError) -> Composition {
        var content: ContentShape?
        if request.platform.needsContent {
            if let known = request.contentShape {
                content = known
            } else {
                content = ContentShape(alphaOf: try icon.pixels())
            }
        }
        let shape = request.platform.shape(width: icon.width, height: icon.height, content: content)
        var notes: [RenderNote] = []
        if request.platform.expectsSquare, icon.width != icon.height {
            notes.append(.notSquare(platform: request.platform, width: icon.width, height: icon.height))
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
        var paintStyle = request.style
        var iconFilters = request.iconFilters
        if let conversion {
            paintStyle.background = conversion.convert(paintStyle.background)
            paintStyle.textColor = conversion.convert(paintStyle.textColor)
            paintStyle.borderColor = conversion.convert(paintStyle.borderColor)
            paintStyle.labelBackground = conversion.convert(paintStyle.labelBackground)
            // A tint colour is sRGB like the badge's: into the icon's space too.
            iconFilters = iconFilters.map { $0.mappingColor(conversion.convert) }
        }
        let side = min(shape.box.width, shape.box.height)
        var style = request.style.pixels(scale: request.scale, side: side)
        style.roomScale = request.animationRoom
        if request.minimumDotPixels > 0, style.dotSize < request.minimumDotPixels {
            style.dotSize = request.minimumDotPixels
        }
        func layout(_ body: BadgeBody) throws(BadgeError) -> BadgeLayout {
            try BadgeLayout.compute(
                iconWidth: icon.width, iconHeight: icon.height, style: style, body: body, shape: shape,
                maxSide: min(request.limits.maxSide, ImageLimits.cairoMaxSide))
        }
        func make(
            _ layout: BadgeLayout?, hidden: HiddenReason? = nil, label: String? = nil, text: ShapedText? = nil,
            image: LoadedIcon? = nil, isDot: Bool = false, message: ShapedText? = nil
        ) -> Composition {
            let composition = Composition(
                icon: icon, layout: layout, hidden: hidden, label: label, style: paintStyle,
                iconMask: request.iconMask, scale: style.unit, text: text, badgeImage: image, isDot: isDot,
                message: message)
            composition.notes = notes
            composition.platform = request.platform
            composition.greyscaleBadge = request.greyscaleBadge
            composition.iconFilters = iconFilters
            composition.knockoutText = request.knockoutText
            composition.colorConversion = conversion
            composition.contentShape = content
            return composition
        }
        if request.style.shape != .pill {
            // On the plain canvas a band follows the icon's alpha: its text is kept on
            // the icon's opaque pixels too.
            var room = shape
            var opaque: ContentShape?
            if request.platform == .canvas, request.style.shape.isBand {
                // Known already inside the isolated vector render, which has no pixels.
                if let known = content ?? request.contentShape {
                    opaque = known
                } else {
                    opaque = ContentShape(alphaOf: try icon.pixels())
                }
                let full = opaque!.rows.allSatisfy { $0 == [0..<icon.width] }
                if !full { room.mask = opaque!.mask(within: nil, width: icon.width, height: icon.height) }
            }
            let shaped = try composeShape(
                request, icon: icon, shape: shape, room: room.mask, style: style, notes: &notes)
            let composition = make(
                shaped.layout, hidden: shaped.hidden, label: shaped.label, text: shaped.text, isDot: shaped.isDot,
                message: shaped.message)
            composition.messageLabel = shaped.messageLabel
            if let opaque { composition.contentShape = opaque }
            composition.bandClip = shaped.layout?.band != nil && !shape.isCanvasRectangle ? shape.mask : nil
            composition.bandFollowsAlpha = [.canvas, .content, .androidLegacy].contains(request.platform)
            return composition
        }
        switch request.content {
        case .dot:
            return make(try layout(.dot), isDot: true)
        case .image:
            switch badgeImage {
            case .ready(let image):
                return make(try layout(.image(width: image.width, height: image.height)), image: image)
            case .svg(let document, let path, let natural):
                // Without a natural size the layout uses the explicit image size. An SVG
                // badge is rendered at the size the layout gives it.
                let placed = try layout(.image(width: natural?.width ?? 1, height: natural?.height ?? 1))
                let image = try renderSVGBadge(
                    path, document, Int(placed.badgeRect.width), Int(placed.badgeRect.height))
                return make(placed, image: image)
            case nil:
                throw .internalError("badge image not loaded")
            }
        case .value(let value):
            switch request.labelRules.label(for: value) {
            case .hidden(let reason):
                return make(nil, hidden: reason)
            case .text(let label):
                let pixelSize = style.fontSize
                guard pixelSize > 0, pixelSize <= Renderer.maxTextPixels else {
                    throw .overLimit(
                        path: "",
                        .textPixels(
                            points: pixelSize / style.unit, scale: style.unit, pixels: pixelSize,
                            limit: Renderer.maxTextPixels))
                }
                if pixelSize < request.minimumTextPixels {
                    // Too small to read: a dot, nothing, or the text anyway.
                    switch request.smallText {
                    case .dot:
                        notes.append(.smallText(label: label, pixels: pixelSize, became: .dot))
                        return make(try layout(.dot), isDot: true)
                    case .hide:
                        notes.append(.smallText(label: label, pixels: pixelSize, became: .hidden))
                        return make(nil, hidden: .tooSmall)
                    case .keep:
                        break
                    }
                }
                let text = try shapeChecked(
                    label, chain: try fontChain(request), pixels: pixelSize, unit: style.unit, request: request)
                return make(try layout(.text(text.metrics)), label: label, text: text)
            }
        }
    }

    /// The longest text shaped, in code points; longer cannot fit any canvas.
    public static let maxTextScalars = 1024

    func fontChain(_ request: RenderRequest) throws(BadgeError) -> FontChain {
        let primary = try primaryFace(request.font)
        var fallbacks: [FontFace] = []
        for path in request.fallbackFonts {
            fallbacks.append(try fonts.face(try FontData.mapping(path: path)))
        }
        var pattern: String?
        if request.systemFallback {
            switch request.font {
            case .bundled(.bold): pattern = "sans-serif:weight=bold"
            case .bundled(.regular): pattern = "sans-serif"
            case .family(let family): pattern = family
            case .file: pattern = "sans-serif"
            }
        }
        return FontChain(primary: primary, fallbacks: fallbacks, systemPattern: pattern, context: fonts)
    }

    func primaryFace(_ choice: FontChoice) throws(BadgeError) -> FontFace {
        switch choice {
        case .bundled(.bold): return try fonts.face(.bundledBold)
        case .bundled(.regular): return try fonts.face(.bundledRegular)
        case .file(let path, let index):
            return try fonts.face(try FontData.mapping(path: path), index: index)
        case .family(let pattern):
            let font = try FontConfig.resolve(pattern)
            return try fonts.face(try FontData.mapping(path: font.path), index: font.index)
        }
    }
}
