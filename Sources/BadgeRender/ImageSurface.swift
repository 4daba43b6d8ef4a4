import BadgeCore
internal import CCairo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// A surface over a malloc'd ARGB32 buffer of stride width × 4 (Cairo's stride
    /// for ARGB32), which it takes over and frees: no copy of a large image.
    ///
    /// - Throws: `BadgeError.internalError` when Cairo refuses the buffer (it is
    ///   then freed).
    init(adopting buffer: UnsafeMutablePointer<UInt8>, width: Int, height: Int) throws(BadgeError) {
        guard Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width))) == width * 4,
            let surface = cairo_image_surface_create_for_data(
                buffer, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
            cairo_surface_set_user_data(surface, &ImageSurface.bufferKey, buffer, { free($0) })
                == CAIRO_STATUS_SUCCESS
        else {
            free(buffer)
            throw .internalError("cannot wrap a \(width) × \(height) image")
        }
        self.surface = surface
        self.width = width
        self.height = height
    }

    /// The user-data key under which an adopted buffer is freed with its surface.
    nonisolated(unsafe) private static var bufferKey = cairo_user_data_key_t()

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
