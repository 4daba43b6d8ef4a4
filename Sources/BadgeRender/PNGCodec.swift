import BadgeCore
internal import CLibPng
internal import CPngCodec

/// PNG decoding and encoding through libpng (Sources/CPngCodec), in Cairo's
/// premultiplied ARGB32 layout.
enum PNGCodec {
    /// Decodes PNG bytes that passed `PNGPreflight` into a new surface.
    ///
    /// - Throws: `BadgeError.badInput` (65) with libpng's reason when the data is
    ///   corrupt; never Cairo's "out of memory" for a bad file.
    static func decode(_ bytes: [UInt8], header: PNGHeader, path: String) throws(BadgeError) -> ImageSurface {
        let surface = try ImageSurface(width: header.width, height: header.height)
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { input in
            ib_png_decode_argb32(
                input.baseAddress, input.count, UInt32(header.width), UInt32(header.height), surface.data,
                surface.stride, &message, message.count)
        }
        surface.markDirty()
        guard status == Int32(IB_PNG_OK) else {
            let reason = String(nulTerminated: message)
            if status == Int32(IB_PNG_NO_MEMORY) {
                throw .internalError("PNG decoder: \(reason)")
            }
            throw .badInput(path: path, reason: "corrupt PNG: \(reason)")
        }
        return surface
    }

    /// Decodes PNG bytes that passed `PNGPreflight` to straight RGBA, exactly as
    /// stored (no rounding through premultiplied alpha): what comparisons read.
    ///
    /// - Throws: as `decode(_:header:path:)`.
    static func decodeStraight(_ bytes: [UInt8], header: PNGHeader, path: String) throws(BadgeError) -> PixelBuffer {
        var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                ib_png_decode_rgba(
                    input.baseAddress, input.count, UInt32(header.width), UInt32(header.height), output.baseAddress,
                    &message, message.count)
            }
        }
        guard status == Int32(IB_PNG_OK) else {
            let reason = String(nulTerminated: message)
            if status == Int32(IB_PNG_NO_MEMORY) { throw .internalError("PNG decoder: \(reason)") }
            throw .badInput(path: path, reason: "corrupt PNG: \(reason)")
        }
        return PixelBuffer(width: header.width, height: header.height, bytes: pixels)
    }

    /// Encodes `surface` as PNG bytes with `compression`.
    ///
    /// - Throws: `BadgeError.internalError` when libpng fails (out of memory).
    static func encode(_ surface: ImageSurface, compression: PNGCompression) throws(BadgeError) -> [UInt8] {
        var settings = ib_png_default_settings()
        settings.compression_level = Int32(compression.zlibLevel)
        settings.strategy = compression.zlibStrategy
        settings.filters = Int32(PNG_FILTER_PAETH)
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = ib_png_encode_argb32(
            surface.data, UInt32(surface.width), UInt32(surface.height), surface.stride, settings, &output,
            &size, &message, message.count)
        guard status == Int32(IB_PNG_OK), let output else {
            throw .internalError("PNG encoder: \(String(nulTerminated: message))")
        }
        defer { ib_png_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

/// The PNG encoder's speed/size trade; the pixels are the same in every mode.
///
/// Chosen by measurement (`make bench`; 1024 × 1024 badge renders, libpng 1.6.39,
/// zlib 1.2.13), against Cairo's settings (level 6, default strategy, adaptive
/// filtering over all five filters): the Paeth filter alone with zlib's FILTERED
/// strategy at level 6 encodes about twice as fast as Cairo and gives files about
/// 2 % smaller; adaptive filtering mostly ends up choosing Paeth on icons anyway.
public enum PNGCompression: String, CaseIterable, Sendable {
    /// Paeth, zlib RLE strategy: about 4 × faster than Cairo, files about 20 % larger.
    case fast
    /// Paeth, zlib level 6, FILTERED: about 2 × faster than Cairo, files a little smaller.
    case `default`
    /// Paeth, zlib level 9, FILTERED: the smallest files (about 11 % under Cairo's), slowest.
    case best

    var zlibLevel: Int {
        switch self {
        case .fast: return 6
        case .default: return 6
        case .best: return 9
        }
    }

    var zlibStrategy: Int32 {
        switch self {
        case .fast: return Int32(IB_ZLIB_RLE)
        case .default, .best: return Int32(IB_ZLIB_FILTERED)
        }
    }
}
