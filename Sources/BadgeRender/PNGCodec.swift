import BadgeCore
internal import CLibPng
internal import CPngCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// PNG decoding and encoding through libpng (Sources/CPngCodec), in Cairo's
/// premultiplied ARGB32 layout.
enum PNGCodec {
    /// Decodes PNG bytes that passed `PNGPreflight` into a new surface, with the
    /// straight pixels premultiplication loses (nil when none are).
    ///
    /// - Throws: `BadgeError.badInput` (65) with libpng's reason when the data is
    ///   corrupt, never Cairo's "out of memory" for a bad file; `outOfMemory` (69)
    ///   when this process cannot get the memory.
    static func decode(_ bytes: [UInt8], header: PNGHeader, path: String) throws(BadgeError) -> (
        surface: ImageSurface, lost: LostStraightPixels?, color: ColorChunks
    ) {
        // Cairo's ARGB32 rows (width × 4 bytes) and `height` bytes more, so that the
        // decoder can inflate inside this buffer (ib_png_decode_argb32).
        let stride = header.width * 4
        let (size, overflow) = stride.multipliedReportingOverflow(by: header.height)
        guard !overflow, let buffer = malloc(size + header.height)?.assumingMemoryBound(to: UInt8.self) else {
            throw .outOfMemory("a \(header.width) × \(header.height) image (\((size >> 20)) MiB)")
        }
        let surface = try ImageSurface(adopting: buffer, width: header.width, height: header.height)
        var message = [CChar](repeating: 0, count: 256)
        var lost = ib_straight_pixels(pixels: nil, count: 0)
        var color = ib_png_color()
        let status = bytes.withUnsafeBufferPointer { input in
            ib_png_decode_argb32(
                input.baseAddress, input.count, UInt32(header.width), UInt32(header.height), buffer, stride,
                size + header.height, &lost, &color, &message, message.count)
        }
        let chunks = ColorChunks(adopting: &color)
        surface.markDirty()
        guard status == Int32(IB_PNG_OK) else {
            let reason = String(nulTerminated: message)
            if status == Int32(IB_PNG_NO_MEMORY) {
                throw .outOfMemory("memory to decode \(Quoted(path)) (\(reason))")
            }
            throw .badInput(path: path, reason: "corrupt PNG: \(reason)")
        }
        return (surface, LostStraightPixels(adopting: lost), chunks)
    }

    /// Decodes PNG bytes that passed `PNGPreflight` to straight RGBA, exactly as
    /// stored (no rounding through premultiplied alpha): what comparisons read. A fully
    /// transparent pixel is (0, 0, 0, 0) unless `keepTransparentColor`, which keeps the
    /// colour the file stores under alpha 0.
    ///
    /// - Throws: as `decode(_:header:path:)`.
    static func decodeStraight(
        _ bytes: [UInt8], header: PNGHeader, path: String, keepTransparentColor: Bool = false
    ) throws(BadgeError) -> PixelBuffer {
        let count = header.width * header.height * 4
        var message = [CChar](repeating: 0, count: 256)
        var status = Int32(IB_PNG_OK)
        // Uninitialised (every byte is written, or the array is dropped), with `height`
        // bytes more so that the decoder can inflate in place (ib_png_decode_rgba).
        let pixels = [UInt8](unsafeUninitializedCapacity: count + header.height) { output, initialized in
            status = bytes.withUnsafeBufferPointer { input in
                ib_png_decode_rgba(
                    input.baseAddress, input.count, UInt32(header.width), UInt32(header.height), output.baseAddress,
                    output.count, keepTransparentColor ? 1 : 0, &message, message.count)
            }
            initialized = status == Int32(IB_PNG_OK) ? count : 0
        }
        guard status == Int32(IB_PNG_OK) else {
            let reason = String(nulTerminated: message)
            if status == Int32(IB_PNG_NO_MEMORY) { throw .outOfMemory("memory to decode \(Quoted(path)) (\(reason))") }
            throw .badInput(path: path, reason: "corrupt PNG: \(reason)")
        }
        return PixelBuffer(width: header.width, height: header.height, bytes: pixels)
    }

    /// Encodes `surface` as PNG bytes with `compression`, writing an icon's lost
    /// straight pixels back where `restore` places them and the canvas still holds
    /// them. `threads` (0: one per available CPU) changes the speed only, never the
    /// bytes.
    ///
    /// - Throws: `BadgeError.outOfMemory` (69) when libpng runs out of memory,
    ///   `internalError` (70) for any other libpng failure.
    /// With `color`, the icon's colour chunks are written too.
    static func encode(
        _ surface: ImageSurface, compression: PNGCompression, restore: StraightRestore? = nil,
        color: ColorChunks? = nil, threads: Int = 0
    ) throws(BadgeError) -> [UInt8] {
        let data = surface.data
        return try StraightRestore.with(restore) { (restore) throws(BadgeError) -> [UInt8] in
            guard let color, color.describesColor else {
                return try encoded(compression, threads: threads) { settings, output, size, message in
                    ib_png_encode_argb32(
                        data, UInt32(surface.width), UInt32(surface.height), surface.stride, restore, nil, settings,
                        &output, &size, message, 256)
                }
            }
            return try color.withC { (chunks) throws(BadgeError) -> [UInt8] in
                try encoded(compression, threads: threads) { settings, output, size, message in
                    ib_png_encode_argb32(
                        data, UInt32(surface.width), UInt32(surface.height), surface.stride, restore, chunks,
                        settings, &output, &size, message, 256)
                }
            }
        }
    }

    /// Encodes straight RGBA pixels as PNG bytes with `compression`, exactly.
    /// `threads` (0: one a core) changes the speed only, never the bytes.
    ///
    /// - Throws: `BadgeError.outOfMemory` (69) when libpng runs out of memory,
    ///   `internalError` (70) for any other libpng failure.
    static func encode(_ pixels: PixelBuffer, compression: PNGCompression, threads: Int = 0) throws(BadgeError)
        -> [UInt8]
    {
        try pixels.bytes.withUnsafeBufferPointer { (input) throws(BadgeError) -> [UInt8] in
            try encoded(compression, threads: threads) { settings, output, size, message in
                ib_png_encode_rgba(
                    input.baseAddress, UInt32(pixels.width), UInt32(pixels.height), settings, &output, &size,
                    message, 256)
            }
        }
    }

    /// Encodes straight RGBA pixels as an RGBA PNG (colour type 6) even when every
    /// pixel is opaque, with `color`'s chunks when given: the default image and the
    /// frames of an animated PNG, which share one IHDR.
    ///
    /// - Throws: as `encode(_:compression:threads:)`.
    static func encodeWithAlpha(
        _ pixels: PixelBuffer, color: ColorChunks?, compression: PNGCompression, threads: Int = 0
    ) throws(BadgeError) -> [UInt8] {
        try pixels.bytes.withUnsafeBufferPointer { (input) throws(BadgeError) -> [UInt8] in
            func run(_ chunks: UnsafePointer<ib_png_color>?) throws(BadgeError) -> [UInt8] {
                try encoded(compression, threads: threads) { settings, output, size, message in
                    ib_png_encode_rgba_alpha(
                        input.baseAddress, UInt32(pixels.width), UInt32(pixels.height), chunks, settings, &output,
                        &size, message, 256)
                }
            }
            guard let color, color.describesColor else { return try run(nil) }
            return try color.withC { (chunks) throws(BadgeError) -> [UInt8] in try run(chunks) }
        }
    }

    /// The CRC-32 PNG chunks end with, of `bytes` (zlib's).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { ib_crc32(0, $0.baseAddress, $0.count) }
    }

    /// Runs one of the C encoders with `compression`'s settings and takes its buffer.
    private static func encoded(
        _ compression: PNGCompression, threads: Int = 0,
        _ encoder: (ib_png_settings, inout UnsafeMutablePointer<UInt8>?, inout Int, UnsafeMutablePointer<CChar>) ->
            Int32
    ) throws(BadgeError) -> [UInt8] {
        var settings = ib_png_default_settings()
        settings.compression_level = Int32(compression.level)
        settings.strategy = compression.zlibStrategy
        settings.deflater = compression.deflater
        settings.filters = Int32(PNG_FILTER_PAETH)
        settings.threads = Int32(clamping: threads)
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { encoder(settings, &output, &size, $0.baseAddress!) }
        guard status == Int32(IB_PNG_OK), let output else {
            if status == Int32(IB_PNG_NO_MEMORY) { throw .outOfMemory("memory to encode the PNG") }
            throw .internalError("PNG encoder: \(String(nulTerminated: message))")
        }
        defer { ib_png_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

/// The PNG encoder's speed/size trade; the pixels are the same in every mode.
///
/// Chosen by measurement (`make bench`; 1024 × 1024 badge renders, libpng 1.6.39,
/// zlib 1.2.13, libdeflate 1.14), against Cairo's settings (level 6, default strategy,
/// adaptive filtering over all five filters): the Paeth filter alone encodes about
/// twice as fast as Cairo with files a little smaller; adaptive filtering mostly ends
/// up choosing Paeth on icons anyway. Images over about 2 MiB are compressed in 1 MiB
/// strips on every core (png_strips.c): one ordinary zlib stream, and the same bytes
/// whatever the number of cores.
///
/// `default` is libdeflate at its level 7: on 15 renders and screenshots of 180 to
/// 3446 × 8192 px it compressed 1.5 to 3 times faster than zlib's level 6 FILTERED
/// (the setting before it), with files from 3.6 % smaller to 4.2 % larger (the 1024 px
/// bench render: 1.1 % smaller); its level 6 was up to 10 % larger, its level 8 as slow
/// as zlib. `fast` stays zlib's RLE strategy, which libdeflate's fast levels (1 to 4)
/// did not beat for speed and lost to by 8 to 15 % in size; `best` stays zlib's level 9
/// (libdeflate's level 9 was larger, its level 11 smaller but 3.5 times slower).
public enum PNGCompression: String, CaseIterable, Sendable {
    /// Paeth, zlib RLE strategy: about 4 × faster than Cairo, files about 20 % larger.
    case fast
    /// Paeth, libdeflate level 7: about 2.5 × faster than Cairo, files a little smaller.
    case `default`
    /// Paeth, zlib level 9, FILTERED: the smallest files (about 11 % under Cairo's), slowest.
    case best

    /// Which compressor writes the image data (png_codec.h's IB_DEFLATE_*).
    var deflater: Int32 {
        switch self {
        case .fast, .best: return Int32(IB_DEFLATE_ZLIB)
        case .default: return Int32(IB_DEFLATE_LIBDEFLATE)
        }
    }

    /// The compressor's level: zlib's 0-9 or libdeflate's 1-12.
    var level: Int {
        switch self {
        case .fast: return 6
        case .default: return 7
        case .best: return 9
        }
    }

    /// zlib's strategy (unused by libdeflate).
    var zlibStrategy: Int32 {
        switch self {
        case .fast: return Int32(IB_ZLIB_RLE)
        case .default, .best: return Int32(IB_ZLIB_FILTERED)
        }
    }
}
