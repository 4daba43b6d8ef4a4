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
    /// is kept. Other formats (JPEG, WebP, GIF, SVG, …) come through a premultiplied
    /// surface, which cannot hold a colour under alpha 0: theirs stays (0, 0, 0, 0).
    ///
    /// - Throws: 66 when the file is missing or not a regular file; 65 when it is
    ///   not a supported image, is corrupt, or is over a limit.
    public static func pixels(
        at path: String, limits: ImageLimits = ImageLimits(), keepTransparentColor: Bool = false
    ) throws(BadgeError) -> PixelBuffer {
        let bytes = try InputFile.bytes(at: path, limit: limits.maxRasterBytes, what: "image file")
        return try pixels(of: bytes, path: path, limits: limits, keepTransparentColor: keepTransparentColor)
    }

    /// Decodes image bytes that came from `path` (used only in messages);
    /// `keepTransparentColor` as for `pixels(at:limits:keepTransparentColor:)`.
    ///
    /// - Throws: 65 when they are not a supported image, are corrupt, or are over a limit.
    public static func pixels(
        of bytes: [UInt8], path: String, limits: ImageLimits = ImageLimits(), keepTransparentColor: Bool = false
    ) throws(BadgeError) -> PixelBuffer {
        // A PNG is read straight, exactly as stored; other formats come through the
        // premultiplied surface their decoder fills.
        if let header = try IconLoader.pngHeader(bytes, path: path, limits: limits) {
            return try PNGCodec.decodeStraight(
                bytes, header: header, path: path, keepTransparentColor: keepTransparentColor)
        }
        return try IconLoader.decode(bytes, path: path, limits: limits).pixels().pixelBuffer()
    }
}

extension ImageFile {
    /// The colour chunks (and bit depth) of the PNG at `path`; nil for another format.
    ///
    /// - Throws: as `pixels(at:limits:)`.
    public static func colorChunks(at path: String, limits: ImageLimits = ImageLimits()) throws(BadgeError)
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
