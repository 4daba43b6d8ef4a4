import BadgeCore

extension ContentShape {
    /// The opaque pixels (alpha at least 128 of 255) of a decoded icon, by row.
    init(alphaOf surface: ImageSurface) {
        let base = surface.data
        let stride = surface.stride
        self.init(width: surface.width, height: surface.height)
        for y in 0..<surface.height {
            var start: Int?
            let row = UnsafeRawPointer(base + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<surface.width {
                // ARGB32 words: alpha in the top byte, whatever the byte order.
                let opaque = row[x] >> 24 >= 128
                if opaque, start == nil { start = x }
                if !opaque, let first = start {
                    set(row: y, from: first, to: x)
                    start = nil
                }
            }
            if let first = start { set(row: y, from: first, to: surface.width) }
        }
    }
}
