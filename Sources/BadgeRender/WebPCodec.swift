import BadgeCore
internal import CWebP

/// Lossless WebP encoding through libwebp: the badged pixels exactly, for outputs
/// named `.webp` (Android launcher icons are often WebP).
enum WebPCodec {
    /// The largest side libwebp encodes (its WEBP_MAX_DIMENSION).
    static let maxSide = 16383

    /// Refuses a canvas WebP cannot hold, before anything is drawn.
    ///
    /// - Throws: `BadgeError.usage` (64): the caller chose the format; PNG holds it.
    static func checkSize(width: Int, height: Int) throws(BadgeError) {
        guard width > maxSide || height > maxSide else { return }
        throw .usage(
            "WebP holds at most \(maxSide) px a side, and this render is \(width) × \(height) px; write PNG (.png) instead"
        )
    }

    /// Encodes straight-alpha RGBA pixels as a lossless WebP, exactly: `exact` keeps
    /// the colour under fully transparent pixels as stored (libwebp otherwise changes
    /// it to compress better), so decoding gives `pixels` back. libwebp's lossless
    /// encoder is deterministic: the same pixels give the same bytes.
    ///
    /// - Throws: `BadgeError.usage` (64) for a side over 16383 px; `outOfMemory` (69)
    ///   or `internalError` (70) when libwebp fails.
    static func encode(_ pixels: PixelBuffer) throws(BadgeError) -> [UInt8] {
        try checkSize(width: pixels.width, height: pixels.height)
        var config = WebPConfig()
        var picture = WebPPicture()
        guard WebPConfigInit(&config) != 0, WebPPictureInit(&picture) != 0 else {
            throw .internalError("libwebp's version does not match its header")
        }
        config.lossless = 1
        config.exact = 1
        config.quality = 75  // for lossless: effort, not loss (libwebp's default)
        config.method = 4
        picture.use_argb = 1
        picture.width = Int32(pixels.width)
        picture.height = Int32(pixels.height)
        defer { WebPPictureFree(&picture) }
        let imported = pixels.bytes.withUnsafeBufferPointer { input in
            WebPPictureImportRGBA(&picture, input.baseAddress, Int32(pixels.width * 4))
        }
        guard imported != 0 else { throw .outOfMemory("memory to encode the WebP") }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { (pointer) -> Int32 in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(pointer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let memory = writer.mem else {
            throw .internalError("libwebp could not encode the image (error \(picture.error_code.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: memory, count: writer.size))
    }
}
