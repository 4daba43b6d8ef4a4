import BadgeCore
internal import CWebP

/// An animated WebP through libwebp's WebPAnimEncoder (libwebpmux), every frame
/// lossless with `exact` (as `WebPCodec`), so decoding gives each frame's pixels
/// back; libwebp picks each frame's rectangle and blending. Single-threaded and
/// without `minimize_size`, it gives the same bytes for the same frames.
///
/// WebP counts time in whole milliseconds: frames start at the rounded exact times
/// (`BadgeAnimation.millisecondTimestamps`). libwebp merges a frame equal to the one
/// before into that one's duration, so such a file can have fewer frames than drawn.
final class AnimatedWebPEncoder {
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private let width: Int
    private let height: Int

    /// - Throws: `BadgeError.internalError` (70) when libwebp's version does not match
    ///   its headers; `outOfMemory` (69).
    init(width: Int, height: Int, loops: Int) throws(BadgeError) {
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
            throw .internalError("libwebpmux's version does not match its header")
        }
        options.anim_params.loop_count = Int32(loops)
        options.anim_params.bgcolor = 0  // transparent
        options.minimize_size = 0
        options.allow_mixed = 0
        options.verbose = 0
        config.lossless = 1
        config.exact = 1
        config.quality = 75
        config.method = 4
        config.thread_level = 0
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw .outOfMemory("memory to encode the animated WebP")
        }
        self.encoder = encoder
        self.width = width
        self.height = height
    }

    /// Adds a frame (straight RGBA, the canvas's size) starting at `timestamp` ms.
    ///
    /// - Throws: `outOfMemory` (69) or `internalError` (70) when libwebp fails.
    func add(_ pixels: PixelBuffer, timestamp: Int) throws(BadgeError) {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw .internalError("libwebp's version does not match its header")
        }
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        defer { WebPPictureFree(&picture) }
        let imported = pixels.bytes.withUnsafeBufferPointer { input in
            WebPPictureImportRGBA(&picture, input.baseAddress, Int32(width * 4))
        }
        guard imported != 0 else { throw .outOfMemory("memory to encode the animated WebP") }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
            throw failure()
        }
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// The file: the last frame ends at `end` ms.
    ///
    /// - Throws: `internalError` (70) when libwebp fails.
    func finish(end: Int) throws(BadgeError) -> [UInt8] {
        var data = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, Int32(end), nil) != 0, WebPAnimEncoderAssemble(encoder, &data) != 0,
            let bytes = data.bytes
        else { throw failure() }
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    private func failure() -> BadgeError {
        let reason = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "unknown error"
        return .internalError("libwebp could not encode the animated WebP (\(reason))")
    }
}
