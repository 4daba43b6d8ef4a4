import BadgeCore

/// Where a scene's builder gets its decoded images, decided by whoever asks for the
/// scene: from the files, or once each through a batch's `IconCache`.
///
/// Made by `Renderer.compose` (a render or a batch job), used by one `SceneBuilder`,
/// never changed.
struct ImageSupply {
    /// The batch's shared decoded images; nil: every image is this scene's alone.
    let cache: IconCache?
    /// Bounds on every image.
    let limits: ImageLimits
    /// Images drawn in memory, by the path they stand for (`RenderRequest.Icon.drawn`).
    var drawn: [String: DrawnImage] = [:]

    /// The image at `path` with `sizing`, and whether the scene holds its pixels
    /// alone (not shared through the cache).
    ///
    /// - Throws: the image's read and decode errors (65, 66, 69).
    func image(_ path: String, sizing: ImageSizing) throws(BadgeError) -> (image: LoadedIcon, owned: Bool) {
        if let image = drawn[path] {
            return (try IconLoader.drawn(image, path: path, limits: limits, sizing: sizing), true)
        }
        if let cache { return (try cache.icon(path, sizing: sizing, limits: limits), false) }
        return (try IconLoader.load(path, limits: limits, sizing: sizing), true)
    }

    /// A badge image before layout (`IconLoader.badgeImage`): a raster at its natural
    /// size × `scale` (through the cache in a batch), an SVG probed for its size.
    ///
    /// - Throws: as `image`.
    func badgeImage(_ path: String, scale: Double, naturalSize: Bool) throws(BadgeError) -> BadgeImageSource {
        try IconLoader.badgeImage(
            path, limits: limits, scale: scale, naturalSize: naturalSize,
            raster: cache == nil ? nil : { (sizing) throws(BadgeError) in try image(path, sizing: sizing).image })
    }

    /// An SVG badge image rendered at the size the layout gives it (`width` ×
    /// `height` pixels): through the cache in a batch, so each size is rendered once.
    ///
    /// - Throws: as `image`.
    func svgBadge(_ document: [UInt8], path: String, width: Int, height: Int) throws(BadgeError) -> LoadedIcon {
        if let cache {
            var drawn = ImageSizing()
            drawn.size = (width, height)
            return try cache.icon(path, sizing: drawn, limits: limits)
        }
        return try IconLoader.decodeSVGBadge(document, path: path, width: width, height: height, limits: limits)
    }
}
