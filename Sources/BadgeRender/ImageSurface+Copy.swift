import BadgeCore

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

    /// A new surface holding `bytes`: premultiplied ARGB32 words, `width` × 4 bytes a
    /// row (as `bytes` gives them).
    ///
    /// - Throws: `BadgeError.outOfMemory` when Cairo cannot allocate it.
    convenience init(width: Int, height: Int, bytes: [UInt8]) throws(BadgeError) {
        precondition(bytes.count == width * height * 4, "ARGB32 bytes of the size")
        try self.init(width: width, height: height)
        let target = data
        bytes.withUnsafeBytes { source in
            for row in 0..<height {
                (target + row * stride).update(
                    from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * width * 4, count: width * 4)
            }
        }
        markDirty()
    }

    /// The premultiplied ARGB32 words as bytes, `width` × 4 a row (no padding).
    var bytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        let source = data
        bytes.withUnsafeMutableBytes { target in
            for row in 0..<height {
                (target.baseAddress! + row * width * 4).copyMemory(from: source + row * stride, byteCount: width * 4)
            }
        }
        return bytes
    }

    /// Applies `filters`, in order, to the pixels in place (`IconFilter.apply`).
    func apply(_ filters: [IconFilter]) {
        guard !filters.isEmpty else { return }
        IconFilter.apply(filters, toPremultipliedARGB32: data, width: width, height: height, bytesPerRow: stride)
        markDirty()
    }
}
