import BadgeCore
internal import CCairo
internal import CPngCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An owned Cairo ARGB32 image surface: premultiplied alpha, native-endian 32-bit
/// words (0xAARRGGBB), `stride` bytes per row. Destroyed with its owner.
///
/// `@unchecked Sendable`: a decoded icon shared by batch workers is only read (Cairo
/// lets several contexts read one image surface as a source at once); it is drawn on
/// only by a scene that owns it alone (`IconPixels.owned`).
final class ImageSurface: @unchecked Sendable {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    /// A new transparent surface of `width` × `height` pixels.
    ///
    /// - Throws: `BadgeError.outOfMemory` (69) when Cairo cannot allocate it,
    ///   `internalError` (70) for any other Cairo status.
    init(width: Int, height: Int) throws(BadgeError) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .outOfMemory("a \(width) × \(height) image")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            if status == CAIRO_STATUS_NO_MEMORY {
                throw .outOfMemory("a \(width) × \(height) image (\((width * height * 4) >> 20) MiB)")
            }
            throw .internalError("cannot make a \(width) × \(height) image: Cairo status \(status.rawValue)")
        }
        self.surface = surface
        self.width = width
        self.height = height
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

    /// The user-data key under which an adopted buffer is freed with its surface; only
    /// its address is used (Cairo's user-data keys), so `nonisolated(unsafe)` is safe.
    nonisolated(unsafe) private static var bufferKey = cairo_user_data_key_t()

    deinit { cairo_surface_destroy(surface) }

    var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    /// The pixel bytes, after flushing pending drawing; call `markDirty` after
    /// writing them.
    var data: UnsafeMutablePointer<UInt8> {
        cairo_surface_flush(surface)
        return cairo_image_surface_get_data(surface)
    }

    func markDirty() { cairo_surface_mark_dirty(surface) }

    /// The pixels as straight-alpha RGBA, un-premultiplied with Cairo's rounding as
    /// the PNG encoder does, an icon's lost straight pixels restored per `restore`.
    func pixelBuffer(restore: StraightRestore? = nil) -> PixelBuffer {
        let base = data
        let rowBytes = stride
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer { out in
            // Never throws: the closure does not.
            try? StraightRestore.with(restore) { (restore) throws(BadgeError) in
                ib_argb32_to_rgba(base, UInt32(width), UInt32(height), rowBytes, restore, out.baseAddress)
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }
}
