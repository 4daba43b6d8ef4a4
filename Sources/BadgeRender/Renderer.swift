import BadgeCore

/// Composes badges onto icons: builds the `Scene` of a request with its fonts. One
/// renderer serves one thread at a time; make one per worker thread for parallel
/// work (each has its own FreeType library, so no lock is taken while rendering).
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

    /// The scene of `request`: reads the icon, applies the label rules, shapes the
    /// text and lays out every badge (`SceneBuilder`). With `cache` (a batch), decoded
    /// images are taken from it, so each file is decoded once however many jobs use
    /// it, and shared with them (read only); without, the scene owns its icon.
    ///
    /// - Throws: the icon's or a badge image's read and decode errors (65, 66), font
    ///   errors (65, 66, 69), and layout errors (64, 65) when a badge cannot fit.
    public func compose(_ request: RenderRequest, cache: IconCache? = nil) throws(BadgeError) -> Scene {
        try SceneBuilder(
            renderer: self, request: request,
            images: ImageSupply(cache: cache, limits: request.limits, drawn: request.icon.drawn)
        ).build()
    }

    /// The longest text shaped, in code points; longer cannot fit any canvas.
    public static let maxTextScalars = 1024

    /// The badge's font, its fallback files and, when allowed, fontconfig's fallbacks.
    ///
    /// - Throws: font errors (65, 66, 69).
    func fontChain(_ badge: RenderRequest.Badge) throws(BadgeError) -> FontChain {
        let primary = try primaryFace(badge.font)
        var fallbacks: [FontFace] = []
        for path in badge.fallbackFonts {
            fallbacks.append(try fonts.face(try FontData.mapping(path: path)))
        }
        var pattern: String?
        if badge.systemFallback {
            switch badge.font {
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
