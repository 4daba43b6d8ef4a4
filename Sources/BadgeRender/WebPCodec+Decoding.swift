import BadgeCore
internal import CPngCodec
internal import CWebP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension WebPCodec {
    /// The size in pixels of a still WebP whose header libwebp reads, when each side is
    /// at most `maxSide` and the area at most `maxPixels`; nil for an animation, a
    /// damaged header or a size over those (the isolated child then decodes or names it).
    private static func stillSize(_ input: UnsafeBufferPointer<UInt8>, maxSide: Int, maxPixels: Int) -> (Int, Int)? {
        guard let data = input.baseAddress else { return nil }
        var features = WebPBitstreamFeatures()
        guard WebPGetFeatures(data, input.count, &features) == VP8_STATUS_OK, features.has_animation == 0 else {
            return nil
        }
        let width = Int(features.width)
        let height = Int(features.height)
        guard width > 0, height > 0, width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            return nil
        }
        return (width, height)
    }

    /// The size of a still WebP from its header (`stillSize`, within `limits`); nil
    /// where `decodeSurface` would leave it to the isolated child.
    static func stillSize(of bytes: [UInt8], limits: ImageLimits) -> (width: Int, height: Int)? {
        bytes.withUnsafeBufferPointer { input in
            stillSize(input, maxSide: min(limits.maxSide, ImageLimits.cairoMaxSide), maxPixels: limits.maxPixels)
        }
    }

    /// Decodes a still WebP to straight RGBA exactly as stored (no rounding through
    /// premultiplied alpha), what comparisons and tests read, a fully transparent pixel
    /// as (0, 0, 0, 0); nil for what `decodeSurface` leaves to the isolated child.
    static func decodeStraight(_ bytes: [UInt8], limits: ImageLimits) -> PixelBuffer? {
        bytes.withUnsafeBufferPointer { input -> PixelBuffer? in
            guard let data = input.baseAddress,
                case let (width, height)? = stillSize(input, maxSide: limits.maxSide, maxPixels: limits.maxPixels)
            else { return nil }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let decoded = pixels.withUnsafeMutableBufferPointer {
                WebPDecodeRGBAInto(data, input.count, $0.baseAddress, $0.count, Int32(width * 4)) != nil
            }
            guard decoded else { return nil }
            for index in stride(from: 0, to: pixels.count, by: 4) where pixels[index + 3] == 0 {
                pixels[index] = 0
                pixels[index + 1] = 0
                pixels[index + 2] = 0
            }
            return PixelBuffer(width: width, height: height, bytes: pixels)
        }
    }

    /// Decodes a still WebP icon with libwebp, linked into the binary, so that WebP
    /// icons need no package on the machine. Gives premultiplied native-endian ARGB32
    /// pixels (Cairo's layout), the pixels the isolated gdk-pixbuf child made of the
    /// same file: webp-pixbuf-loader decodes with libwebp's defaults into straight RGBA,
    /// and the child premultiplies each channel as `(a × c + 128) × 257 >> 16`, which
    /// is Cairo's rounding, as here (`ib_rgba_to_argb32`, the PNG decoder's). With them,
    /// the straight pixels premultiplication cannot carry (nil when none are), so that
    /// a lossless WebP icon badged into a WebP keeps every pixel the badge leaves alone
    /// exactly, as a PNG does.
    ///
    /// Returns nil, and the caller hands the file to the isolated child as before,
    /// for what this path does not take: an animation (the child shows its first frame),
    /// a damaged file, or a size over `limits` (the child then names it).
    static func decodeSurface(_ bytes: [UInt8], limits: ImageLimits) -> (
        surface: ImageSurface, lost: LostStraightPixels?
    )? {
        bytes.withUnsafeBufferPointer { input -> (surface: ImageSurface, lost: LostStraightPixels?)? in
            let side = min(limits.maxSide, ImageLimits.cairoMaxSide)
            guard let data = input.baseAddress,
                case let (width, height)? = stillSize(input, maxSide: side, maxPixels: limits.maxPixels),
                let buffer = malloc(width * height * 4)?.assumingMemoryBound(to: UInt8.self)
            else { return nil }
            let size = width * height * 4
            var lost = ib_straight_pixels(pixels: nil, count: 0)
            guard WebPDecodeRGBAInto(data, input.count, buffer, size, Int32(width * 4)) != nil,
                ib_rgba_to_argb32(buffer, UInt32(width), UInt32(height), &lost) != 0
            else {
                free(buffer)
                return nil
            }
            let kept = LostStraightPixels(adopting: lost)
            guard let surface = try? ImageSurface(adopting: buffer, width: width, height: height) else { return nil }
            surface.markDirty()
            return (surface, kept)
        }
    }
}
