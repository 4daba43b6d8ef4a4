import BadgeCore
import BadgeSystem

/// Reading any image iconbadge accepts as plain pixels (for `compare`, `--check`
/// and tests).
public enum ImageFile {
    /// Decodes the image at `path` (or standard input for `-`) to straight RGBA; a
    /// PNG's samples exactly as stored (8-bit, 16-bit scaled to 8).
    ///
    /// A fully transparent pixel is (0, 0, 0, 0) whatever colour the file stores under
    /// it, unless `keepTransparentColor` (`--stored-color`): then a PNG's stored colour
    /// is kept. A JPEG and a still WebP are read straight, exactly as stored; other
    /// formats (GIF, SVG, …) come through a premultiplied surface. Under alpha 0 every
    /// format but PNG gives (0, 0, 0, 0).
    ///
    /// - Throws: 66 when the file is missing or not a regular file; 65 when it is
    ///   not a supported image, is corrupt, or is over a limit.
    public static func pixels(
        at path: String, limits: ImageLimits, keepTransparentColor: Bool = false
    ) throws(BadgeError) -> PixelBuffer {
        let bytes = try InputFile.bytes(at: path, limit: limits.maxRasterBytes, what: "image file")
        return try pixels(of: bytes, path: path, limits: limits, keepTransparentColor: keepTransparentColor)
    }

    /// Decodes image bytes that came from `path` (used only in messages);
    /// `keepTransparentColor` as for `pixels(at:limits:keepTransparentColor:)`.
    ///
    /// - Throws: 65 when they are not a supported image, are corrupt, or are over a limit.
    public static func pixels(
        of bytes: [UInt8], path: String, limits: ImageLimits, keepTransparentColor: Bool = false
    ) throws(BadgeError) -> PixelBuffer {
        // A PNG is read straight, exactly as stored; other formats come through the
        // premultiplied surface their decoder fills.
        if let header = try IconLoader.pngHeader(bytes, path: path, limits: limits) {
            return try PNGCodec.decodeStraight(
                bytes, header: header, path: path, keepTransparentColor: keepTransparentColor)
        }
        // A JPEG that libjpeg-turbo reads cleanly goes straight to RGBA (JPEGCodec).
        if ImageFormat.sniff(bytes) == .jpeg, let pixels = JPEGCodec.decodeStraight(bytes, limits: limits) {
            return pixels
        }
        // A still WebP too (WebPCodec): a lossless one is read exactly as stored.
        if ImageFormat.sniff(bytes) == .webp, let pixels = WebPCodec.decodeStraight(bytes, limits: limits) {
            return pixels
        }
        return try IconLoader.decode(bytes, path: path, limits: limits).surface.pixelBuffer()
    }
}

extension ImageFile {
    /// The size (pixels) of the image at `path`, from its header when it is a PNG
    /// (after `PNGPreflight`'s structure checks) or a still WebP (libwebp's header
    /// read, within `limits`); any other image, or a WebP whose header does not
    /// answer, is decoded to learn it (`pixels(at:limits:)`, whose errors it gives).
    ///
    /// - Throws: 66 when the file is missing or not a regular file; 65 when it is
    ///   corrupt as far as it is read or over a limit.
    public static func size(at path: String, limits: ImageLimits) throws(BadgeError) -> (width: Int, height: Int) {
        let bytes = try InputFile.bytes(at: path, limit: limits.maxRasterBytes, what: "image file")
        if let header = try IconLoader.pngHeader(bytes, path: path, limits: limits) {
            return (header.width, header.height)
        }
        if ImageFormat.sniff(bytes) == .webp, let size = WebPCodec.stillSize(of: bytes, limits: limits) {
            return size
        }
        let pixels = try pixels(of: bytes, path: path, limits: limits)
        return (pixels.width, pixels.height)
    }

    /// The header of PNG bytes (after the structure checks every PNG passes), or nil
    /// when they are not a PNG.
    ///
    /// - Throws: 65 when the PNG is corrupt or over a limit.
    public static func pngHeader(of bytes: [UInt8], path: String, limits: ImageLimits) throws(BadgeError)
        -> PNGHeader?
    {
        try IconLoader.pngHeader(bytes, path: path, limits: limits)
    }

    /// Decodes the two images a comparison needs, as `pixels(at:limits:keepTransparentColor:)`
    /// each: files with the same bytes are decoded once (an unchanged render against
    /// its golden, the common case of a check, costs one decode, not two), and two
    /// different files are decoded at the same time on two threads.
    ///
    /// A file is still decoded when the bytes match, so a corrupt or over-limit image
    /// is refused, never called equal to itself, and the report keeps its sizes.
    ///
    /// - Throws: as `pixels(at:limits:keepTransparentColor:)`; when both fail, the
    ///   first file's error (the same one a sequential read would give).
    public static func pair(
        _ first: String, _ second: String, limits: ImageLimits, keepTransparentColor: Bool = false
    ) throws(BadgeError) -> (PixelBuffer, PixelBuffer) {
        let firstBytes = try InputFile.bytes(at: first, limit: limits.maxRasterBytes, what: "image file")
        let secondBytes = try InputFile.bytes(at: second, limit: limits.maxRasterBytes, what: "image file")
        if firstBytes == secondBytes {
            let pixels = try pixels(
                of: firstBytes, path: first, limits: limits, keepTransparentColor: keepTransparentColor)
            return (pixels, pixels)
        }
        let inputs = [(firstBytes, first), (secondBytes, second)]
        let decoded = ParallelMap.map(count: 2, workers: 2) { index -> Result<PixelBuffer, BadgeError> in
            let (bytes, path) = inputs[index]
            do throws(BadgeError) {
                return .success(
                    try pixels(of: bytes, path: path, limits: limits, keepTransparentColor: keepTransparentColor))
            } catch {
                return .failure(error)
            }
        }
        return (try decoded[0].get(), try decoded[1].get())
    }

    /// The colour chunks (and bit depth) of the PNG at `path`; nil for another format.
    ///
    /// - Throws: as `pixels(at:limits:)`.
    public static func colorChunks(at path: String, limits: ImageLimits) throws(BadgeError)
        -> ColorChunks?
    {
        let bytes = try InputFile.bytes(at: path, limit: limits.maxRasterBytes, what: "image file")
        guard let header = try IconLoader.pngHeader(bytes, path: path, limits: limits) else { return nil }
        return try PNGCodec.decode(bytes, header: header, path: path).color
    }

    /// Encodes straight-alpha RGBA pixels as PNG (8-bit RGB when all opaque, RGBA
    /// otherwise) with the same settings as every render, exactly: decoding the
    /// result gives `pixels` back (fully transparent pixels as 0, 0, 0, 0).
    ///
    /// - Throws: `BadgeError.outOfMemory` (69) when libpng runs out of memory.
    public static func pngData(of pixels: PixelBuffer, compression: PNGCompression = .default) throws(BadgeError)
        -> [UInt8]
    {
        try PNGCodec.encode(pixels, compression: compression)
    }
}
