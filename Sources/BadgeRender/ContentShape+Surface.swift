import BadgeCore

extension ContentShape {
    /// The opaque pixels (alpha at least 128 of 255) of a decoded icon, by row.
    init(alphaOf surface: ImageSurface) {
        let base = surface.data
        let stride = surface.stride
        var rows: [[Range<Int>]] = []
        rows.reserveCapacity(surface.height)
        for y in 0..<surface.height {
            var spans: [Range<Int>] = []
            var start: Int?
            let row = UnsafeRawPointer(base + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<surface.width {
                // ARGB32 words: alpha in the top byte, whatever the byte order.
                let opaque = row[x] >> 24 >= 128
                if opaque, start == nil { start = x }
                if !opaque, let first = start {
                    spans.append(first..<x)
                    start = nil
                }
            }
            if let first = start { spans.append(first..<surface.width) }
            rows.append(spans)
        }
        self.init(rows: rows)
    }
}
