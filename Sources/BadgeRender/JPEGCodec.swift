import BadgeCore
internal import CJpegCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// JPEG decoding in this process with libjpeg-turbo (Sources/CJpegCodec), for the
/// files it reads cleanly: the same pixels as the isolated gdk-pixbuf child, without
/// its process (about 40 of the 50 ms a 1000 × 667 JPEG took). Every other file (damaged,
/// CMYK, 12-bit, over a limit, more than `maxScans` progressive scans) returns nil, and
/// the caller decodes it in the isolated child as before, which gives its own errors.
enum JPEGCodec {
    /// Progressive scans read here at most; libjpeg's own progressive scripts write
    /// 6 (grey) to 10 (colour), and the work of a file grows with its scans
    /// (libjpeg-turbo's advice for untrusted files is a scan limit). More go to the
    /// isolated child, under its time limit.
    static let maxScans: Int32 = 32

    /// `bytes` as straight RGBA (alpha 255), or nil when declined.
    static func decodeStraight(_ bytes: [UInt8], limits: ImageLimits) -> PixelBuffer? {
        bytes.withUnsafeBufferPointer { input -> PixelBuffer? in
            guard let (reader, width, height) = open(input, limits: limits) else { return nil }
            defer { ib_jpeg_close(reader) }
            let count = width * height * 4
            var status = Int32(IB_JPEG_DECLINED)
            // Uninitialised: every byte is written, or the array is dropped.
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
                status = ib_jpeg_read(reader, output.baseAddress, Int32(IB_JPEG_RGBA), maxScans)
                initialized = status == Int32(IB_JPEG_OK) ? count : 0
            }
            guard status == Int32(IB_JPEG_OK) else { return nil }
            return PixelBuffer(width: width, height: height, bytes: pixels)
        }
    }

    /// `bytes` as an opaque ARGB32 surface, or nil when declined.
    static func decodeSurface(_ bytes: [UInt8], limits: ImageLimits) -> ImageSurface? {
        bytes.withUnsafeBufferPointer { input -> ImageSurface? in
            guard let (reader, width, height) = open(input, limits: limits) else { return nil }
            defer { ib_jpeg_close(reader) }
            guard let buffer = malloc(width * height * 4)?.assumingMemoryBound(to: UInt8.self) else { return nil }
            guard ib_jpeg_read(reader, buffer, Int32(IB_JPEG_ARGB32), maxScans) == Int32(IB_JPEG_OK) else {
                free(buffer)
                return nil
            }
            let surface = try? ImageSurface(adopting: buffer, width: width, height: height)
            surface?.markDirty()
            return surface
        }
    }

    private static func open(_ input: UnsafeBufferPointer<UInt8>, limits: ImageLimits) -> (
        OpaquePointer, Int, Int
    )? {
        var width: UInt32 = 0
        var height: UInt32 = 0
        let side = UInt32(min(limits.maxSide, ImageLimits.cairoMaxSide))
        guard
            let reader = ib_jpeg_open(
                input.baseAddress, input.count, side, UInt64(max(0, limits.maxPixels)), &width, &height)
        else { return nil }
        return (reader, Int(width), Int(height))
    }
}
