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
        var sizing = ImageSizing(scale: request.scale)
        if let size = request.iconSize { sizing.size = (Int(size.width), Int(size.height)) }
        sizing.rasterScale = request.iconRasterScale
        func load(_ path: String, _ sizing: ImageSizing) throws(BadgeError) -> LoadedIcon {
            if let cache { return try cache.icon(path, sizing: sizing, limits: request.limits) }
            return try IconLoader.load(path, limits: request.limits, sizing: sizing)
        }
        let icon = try load(request.iconPath, sizing)
        var badgeImage: LoadedIcon?
        if case .image(let path) = request.content { badgeImage = try load(path, ImageSizing(scale: request.scale)) }
        let composition = try compose(request, icon: icon, badgeImage: badgeImage)
        composition.ownsIcon = cache == nil
        return composition
    }

    func compose(_ request: RenderRequest, icon: LoadedIcon, badgeImage: LoadedIcon?) throws(BadgeError) -> Composition
    {
        let shape = request.platform.shape(
            width: icon.width, height: icon.height,
            content: request.platform.needsContent ? ContentShape(alphaOf: icon.surface) : nil)
        var notes: [RenderNote] = []
        if request.platform.expectsSquare, icon.width != icon.height {
            notes.append(.notSquare(platform: request.platform, width: icon.width, height: icon.height))
        }
        let side = min(shape.box.width, shape.box.height)
        var style = request.style.pixels(scale: request.scale, side: side)
        if request.minimumDotPixels > 0, style.dotSize < request.minimumDotPixels {
            style.dotSize = request.minimumDotPixels
        }
        func finish(body: BadgeBody, label: String?, text: ShapedText?, image: LoadedIcon?) throws(BadgeError)
            -> Composition
        {
            let layout = try BadgeLayout.compute(
                iconWidth: icon.width, iconHeight: icon.height, style: style, body: body, shape: shape,
                maxSide: min(request.limits.maxSide, ImageLimits.cairoMaxSide))
            let composition = Composition(
                icon: icon, layout: layout, hidden: nil, label: label, style: request.style, iconMask: request.iconMask,
                scale: style.unit, text: text, badgeImage: image, isDot: body == .dot)
            composition.notes = notes
            composition.platform = request.platform
            return composition
        }
        switch request.content {
        case .dot:
            return try finish(body: .dot, label: nil, text: nil, image: nil)
        case .image:
            guard let image = badgeImage else { throw .internalError("badge image not loaded") }
            return try finish(
                body: .image(width: image.width, height: image.height), label: nil, text: nil, image: image)
        case .value(let value):
            switch request.labelRules.label(for: value) {
            case .hidden(let reason):
                let composition = Composition(
                    icon: icon, layout: nil, hidden: reason, label: nil, style: request.style,
                    iconMask: request.iconMask, scale: style.unit, text: nil, badgeImage: nil, isDot: false)
                composition.notes = notes
                composition.platform = request.platform
                return composition
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
                        return try finish(body: .dot, label: nil, text: nil, image: nil)
                    case .hide:
                        notes.append(.smallText(label: label, pixels: pixelSize, became: .hidden))
                        let composition = Composition(
                            icon: icon, layout: nil, hidden: .tooSmall, label: nil, style: request.style,
                            iconMask: request.iconMask, scale: style.unit, text: nil, badgeImage: nil, isDot: false)
                        composition.notes = notes
                        composition.platform = request.platform
                        return composition
                    case .keep:
                        break
                    }
                }
                let scalarCount = label.unicodeScalars.count
                guard scalarCount <= Renderer.maxTextScalars else {
                    throw .overLimit(path: "", .textLength(codePoints: scalarCount, limit: Renderer.maxTextScalars))
                }
                let chain = try fontChain(request)
                let text = TextShaper.shape(label, chain: chain, pixelSize: pixelSize, features: request.fontFeatures)
                if request.strictGlyphs, !text.missing.isEmpty {
                    throw .unavailable(
                        resource: "glyphs",
                        reason:
                            "no font has \(text.missing.map(\.codePointName).joined(separator: " ")) (tried: \(text.fontsTried.joined(separator: ", ")))"
                    )
                }
                return try finish(body: .text(text.metrics), label: label, text: text, image: nil)
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
