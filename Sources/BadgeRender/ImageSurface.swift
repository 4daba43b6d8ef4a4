import BadgeCore
internal import CCairo

/// An owned Cairo ARGB32 image surface: premultiplied alpha, native-endian 32-bit
/// words (0xAARRGGBB), `stride` bytes per row. Destroyed with its owner.
final class ImageSurface {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    /// A new transparent surface of `width` × `height` pixels.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo cannot allocate it.
    init(width: Int, height: Int) throws(BadgeError) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            throw .internalError("cannot allocate a \(width) × \(height) image")
        }
        self.surface = surface
        self.width = width
        self.height = height
    }

    /// A surface holding `pixels`, premultiplied with Cairo's rounding.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo cannot allocate it.
    convenience init(pixels: PixelBuffer) throws(BadgeError) {
        try self.init(width: pixels.width, height: pixels.height)
        let base = data
        let rowBytes = stride
        pixels.bytes.withUnsafeBufferPointer { input in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(base + y * rowBytes)
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    let a = UInt32(input[index + 3])
                    var r = UInt32(input[index])
                    var g = UInt32(input[index + 1])
                    var b = UInt32(input[index + 2])
                    if a != 255 {
                        r = Self.multiply(a, r)
                        g = Self.multiply(a, g)
                        b = Self.multiply(a, b)
                    }
                    row.storeBytes(of: a << 24 | r << 16 | g << 8 | b, toByteOffset: x * 4, as: UInt32.self)
                }
            }
        }
        markDirty()
    }

    /// A surface holding a copy of premultiplied ARGB32 pixels with stride width × 4.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo cannot allocate it.
    convenience init(argb: UnsafePointer<UInt8>, width: Int, height: Int) throws(BadgeError) {
        try self.init(width: width, height: height)
        let base = data
        let rowBytes = stride
        for y in 0..<height {
            (base + y * rowBytes).update(from: argb + y * width * 4, count: width * 4)
        }
        markDirty()
    }

    /// Cairo's premultiplication rounding (cairo-png.c `multiply_alpha`).
    static func multiply(_ alpha: UInt32, _ color: UInt32) -> UInt32 {
        let temp = alpha * color + 0x80
        return (temp + (temp >> 8)) >> 8
    }

    deinit { cairo_surface_destroy(surface) }

    var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    /// The pixel bytes, after flushing pending drawing; call `markDirty` after
    /// writing them.
    var data: UnsafeMutablePointer<UInt8> {
        cairo_surface_flush(surface)
        return cairo_image_surface_get_data(surface)
    }

    func markDirty() { cairo_surface_mark_dirty(surface) }

    /// The pixels as straight-alpha RGBA, un-premultiplied with Cairo's rounding.
    func pixelBuffer() -> PixelBuffer {
        let base = data
        let rowBytes = stride
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = UnsafeRawPointer(base + y * rowBytes)
                for x in 0..<width {
                    let word = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    let a = word >> 24
                    var r = (word >> 16) & 0xFF
                    var g = (word >> 8) & 0xFF
                    var b = word & 0xFF
                    if a == 0 {
                        r = 0
                        g = 0
                        b = 0
                    } else if a != 0xFF {
                        r = (r * 255 + a / 2) / a
                        g = (g * 255 + a / 2) / a
                        b = (b * 255 + a / 2) / a
                    }
                    let index = (y * width + x) * 4
                    out[index] = UInt8(r)
                    out[index + 1] = UInt8(g)
                    out[index + 2] = UInt8(b)
                    out[index + 3] = UInt8(a)
                }
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }
}
