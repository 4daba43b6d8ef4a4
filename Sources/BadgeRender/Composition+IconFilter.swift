import BadgeCore
internal import CCairo

extension Composition {
    /// The icon's pixels as they are drawn: the decoded pixels, or with
    /// `iconFilters` those pixels filtered, made once. A composition that owns its
    /// icon (`ownsIcon`: no `IconCache`) filters the decoded pixels in place, so a
    /// render holds no second copy; an icon shared through the cache is copied
    /// first, never changed.
    ///
    /// - Throws: `BadgeError.outOfMemory` when the copy cannot be made;
    ///   `internalError` for an SVG that was only sized (never drawn as pixels).
    func iconPixelsToDraw() throws(BadgeError) -> ImageSurface {
        let pixels = try icon.pixels()
        guard !iconFilters.isEmpty else { return pixels }
        if let filteredIcon { return filteredIcon }
        let target = ownsIcon ? pixels : try pixels.copy()
        target.apply(iconFilters)
        filteredIcon = target
        return target
    }
}

extension ImageSurface {
    /// A new surface with the same pixels.
    ///
    /// - Throws: `BadgeError.outOfMemory` when Cairo cannot allocate it.
    func copy() throws(BadgeError) -> ImageSurface {
        let copy = try ImageSurface(width: width, height: height)
        let source = data
        let target = copy.data
        for row in 0..<height {
            (target + row * copy.stride).update(from: source + row * stride, count: width * 4)
        }
        copy.markDirty()
        return copy
    }

    /// Applies `filters`, in order, to the pixels in place (`IconFilter.apply`).
    func apply(_ filters: [IconFilter]) {
        guard !filters.isEmpty else { return }
        IconFilter.apply(filters, toPremultipliedARGB32: data, width: width, height: height, bytesPerRow: stride)
        markDirty()
    }
}
