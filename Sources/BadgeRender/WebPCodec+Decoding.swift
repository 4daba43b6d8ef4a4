import BadgeCore
internal import CWebP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension WebPCodec {
    /// Decodes a still WebP icon with libwebp, linked into the binary, so that WebP
    /// icons need no package on the machine. Gives premultiplied native-endian ARGB32
    /// pixels (Cairo's layout), the pixels the isolated gdk-pixbuf child made of the
    /// same file: webp-pixbuf-loader decodes with libwebp's defaults into straight RGBA,
    /// and the child premultiplies each channel as `(a × c + 128) × 257 >> 16`, as here.
    ///
    /// Returns nil, and the caller hands the file to the isolated child as before,
    /// for what this path does not take: an animation (the child shows its first frame),
    /// a damaged file, or a size over `limits` (the child then names it).
    static func decodeSurface(_ bytes: [UInt8], limits: ImageLimits) -> ImageSurface? {
        bytes.withUnsafeBufferPointer { input -> ImageSurface? in
            guard let data = input.baseAddress else { return nil }
            var features = WebPBitstreamFeatures()
            guard WebPGetFeatures(data, input.count, &features) == VP8_STATUS_OK, features.has_animation == 0
            else { return nil }
            let width = Int(features.width)
            let height = Int(features.height)
            let side = min(limits.maxSide, ImageLimits.cairoMaxSide)
            guard width > 0, height > 0, width <= side, height <= side, width * height <= limits.maxPixels,
                let buffer = malloc(width * height * 4)?.assumingMemoryBound(to: UInt8.self)
            else { return nil }
            let size = width * height * 4
            guard WebPDecodeRGBAInto(data, input.count, buffer, size, Int32(width * 4)) != nil else {
                free(buffer)
                return nil
            }
            premultiplyIntoARGB32(buffer, count: width * height)
            let surface = try? ImageSurface(adopting: buffer, width: width, height: height)
            surface?.markDirty()
            return surface
        }
    }

    /// Straight RGBA bytes into premultiplied native-endian ARGB32 words, in place.
    private static func premultiplyIntoARGB32(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        pixels.withMemoryRebound(to: UInt32.self, capacity: count) { words in
            for index in 0..<count {
                let byte = pixels + index * 4
                let alpha = UInt32(byte[3])
                var red = UInt32(byte[0])
                var green = UInt32(byte[1])
                var blue = UInt32(byte[2])
                if alpha != 0xFF {
                    red = premultiply(alpha, red)
                    green = premultiply(alpha, green)
                    blue = premultiply(alpha, blue)
                }
                words[index] = alpha << 24 | red << 16 | green << 8 | blue
            }
        }
    }

    /// `alpha × color / 255`, rounded, as the isolated child computes it (loaders.c).
    @inline(__always)
    private static func premultiply(_ alpha: UInt32, _ color: UInt32) -> UInt32 {
        let product = alpha * color + 0x80
        return (product + (product >> 8)) >> 8
    }
}
