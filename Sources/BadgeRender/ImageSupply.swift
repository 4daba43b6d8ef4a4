import BadgeCore

/// Where a scene's builder gets its decoded images, decided by whoever asks for the
/// scene: from the files, once each through a batch's `IconCache`, or from bytes
/// handed over (standard input, the SVG documents the parent checked); decoded in an
/// isolated child or, inside the isolated vector render, here (`DecodeSite`).
///
/// Made by `Renderer.compose` (a render or a batch job) or `IsolatedRenderer` (its
/// child), used by one `SceneBuilder`, never changed.
struct ImageSupply {
    /// Where untrusted images are decoded.
    let site: DecodeSite
    /// The batch's shared decoded images; nil: every image is this scene's alone.
    let cache: IconCache?
    /// Bytes of inputs that cannot be read again or must not change, by path.
    let files: [String: [UInt8]]
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
        if let bytes = files[path] {
            var icon = try IconLoader.decode(bytes, path: path, limits: limits, sizing: sizing, site: site)
            if path == "-" { icon.standardInput = bytes }
            return (icon, true)
        }
        if let cache { return (try cache.icon(path, sizing: sizing, limits: limits), false) }
        return (try IconLoader.load(path, limits: limits, sizing: sizing, site: site), true)
    }

    /// A badge image before layout (`IconLoader.badgeImage`): a raster at its natural
    /// size × `scale` (through the cache in a batch), an SVG probed for its size.
    ///
    /// - Throws: as `image`.
    func badgeImage(_ path: String, scale: Double, naturalSize: Bool) throws(BadgeError) -> BadgeImageSource {
        try IconLoader.badgeImage(
            path, bytes: files[path], limits: limits, scale: scale, naturalSize: naturalSize, site: site,
            raster: cache == nil ? nil : { (sizing) throws(BadgeError) in try image(path, sizing: sizing).image })
    }

    /// An SVG badge image rendered at the size the layout gives it (`width` ×
    /// `height` pixels): through the cache in a batch, so each size is rendered once.
    ///
    /// - Throws: as `image`.
    func svgBadge(_ document: [UInt8], path: String, width: Int, height: Int) throws(BadgeError) -> LoadedIcon {
        if site == .isolated, let cache, files[path] == nil {
            var drawn = ImageSizing()
            drawn.size = (width, height)
            return try cache.icon(path, sizing: drawn, limits: limits)
        }
        return try IconLoader.decodeSVGBadge(
            document, path: path, width: width, height: height, limits: limits, site: site)
    }
}
