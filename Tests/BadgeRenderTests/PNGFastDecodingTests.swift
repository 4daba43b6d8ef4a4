import BadgeCore
import Testing

@testable import BadgeRender

/// The whole-buffer path of PNG decoding (png_fast.c): libdeflate inflates the joined
/// IDAT data of 8-bit grey, grey + alpha, RGB and RGBA files, and anything it would not
/// read exactly as libpng does is left to libpng, with libpng's message. The files are
/// made here: rows filtered by a filter written here (PNG specification, section 9),
/// wrapped in stored deflate blocks (RFC 1951, 3.2.4), so every byte is known.
@Suite struct PNGFastDecodingTests {
    // MARK: - Making PNGs

    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(PNGStripEncodingTests.crc32(body[...])))
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    /// A zlib stream (RFC 1950) of stored blocks holding `data`; `header` is its two
    /// first bytes (0x78 0x01: a 32 KiB window).
    static func zlibStored(_ data: [UInt8], header: [UInt8] = [0x78, 0x01]) -> [UInt8] {
        var out = header
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length == data.count ? 1 : 0
            out += [
                final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF),
            ]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        return out + be32(Int(adler32(data)))
    }

    /// Rows of `channels` 8-bit samples, filtered with type y mod 5 (None, Sub, Up,
    /// Average, Paeth in turn).
    static func filtered(_ rows: [[UInt8]], channels: Int) -> [UInt8] {
        var out: [UInt8] = []
        for (y, row) in rows.enumerated() {
            let type = y % 5
            out.append(UInt8(type))
            for i in 0..<row.count {
                let a = i >= channels ? Int(row[i - channels]) : 0
                let b = y > 0 ? Int(rows[y - 1][i]) : 0
                let c = y > 0 && i >= channels ? Int(rows[y - 1][i - channels]) : 0
                let predictor: Int
                switch type {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                default:
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                }
                out.append(UInt8(truncatingIfNeeded: Int(row[i]) - predictor))
            }
        }
        return out
    }

    /// Samples from a fixed linear congruential generator, with runs, so that every
    /// filter meets both noise and flat areas; alpha (the last channel of 2 and 4)
    /// is 0 in places.
    static func rows(width: Int, height: Int, channels: Int) -> [[UInt8]] {
        var state: UInt32 = 2024
        return (0..<height).map { y in
            (0..<width * channels).map { i in
                state = state &* 1_103_515_245 &+ 12345
                if (i / channels + y) % 9 < 3 { return UInt8(truncatingIfNeeded: y * 7) }
                let value = UInt8(truncatingIfNeeded: state >> 24)
                return (channels == 2 || channels == 4) && i % channels == channels - 1 && value < 40 ? 0 : value
            }
        }
    }

    /// The straight RGBA the decoder must give for `rows` (grey expanded, alpha 255
    /// where there is none, a transparent pixel as 0, 0, 0, 0).
    static func expected(_ rows: [[UInt8]], channels: Int) -> [UInt8] {
        rows.flatMap { row in
            stride(from: 0, to: row.count, by: channels).flatMap { i -> [UInt8] in
                let pixel: [UInt8]
                switch channels {
                case 1: pixel = [row[i], row[i], row[i], 255]
                case 2: pixel = [row[i], row[i], row[i], row[i + 1]]
                case 3: pixel = [row[i], row[i + 1], row[i + 2], 255]
                default: pixel = Array(row[i..<i + 4])
                }
                return pixel[3] == 0 ? [0, 0, 0, 0] : pixel
            }
        }
    }

    static let colorTypes = [1: 0, 2: 4, 3: 2, 4: 6]

    /// A PNG of `idat` (the zlib stream, cut into `pieces` IDAT chunks) and whatever
    /// chunks come after it.
    static func png(
        width: Int, height: Int, channels: Int, idat: [UInt8], pieces: Int = 1, after: [UInt8] = chunk("IEND", [])
    ) -> [UInt8] {
        var out =
            PNGPreflight.signature
            + chunk("IHDR", be32(width) + be32(height) + [8, UInt8(colorTypes[channels]!), 0, 0, 0])
        let size = (idat.count + pieces - 1) / pieces
        for start in stride(from: 0, to: idat.count, by: max(1, size)) {
            out += chunk("IDAT", Array(idat[start..<min(idat.count, start + size)]))
        }
        return out + after
    }

    static func decode(_ png: [UInt8]) throws(BadgeError) -> PixelBuffer {
        try ImageFile.pixels(of: png, path: "made.png")
    }

    /// The error message of decoding `png`, or nil when it decodes.
    static func failure(_ png: [UInt8]) -> String? {
        do {
            _ = try decode(png)
            return nil
        } catch {
            #expect(error.exitCode == .dataError, "\(error.message)")
            return error.message
        }
    }

    // MARK: - Pixels

    /// Every filter type, every pixel size, widths around the 16-byte steps of the
    /// SSE2 code: the pixels are the ones filtered in.
    @Test(arguments: [1, 2, 3, 4])
    func everyFilterAndPixelSizeGivesBackItsPixels(channels: Int) throws {
        for width in [1, 2, 5, 6, 17, 33, 100] {
            let rows = Self.rows(width: width, height: 11, channels: channels)
            let png = Self.png(
                width: width, height: 11, channels: channels,
                idat: Self.zlibStored(Self.filtered(rows, channels: channels)))
            let pixels = try Self.decode(png)
            #expect(pixels.bytes == Self.expected(rows, channels: channels), "\(channels) channels, \(width) px")
        }
    }

    /// The premultiplied form (icons) from the same path: each pixel is the straight
    /// one premultiplied with Cairo's rounding.
    @Test func premultipliedFormMatchesTheStraightOne() throws {
        let rows = Self.rows(width: 37, height: 9, channels: 4)
        let png = Self.png(width: 37, height: 9, channels: 4, idat: Self.zlibStored(Self.filtered(rows, channels: 4)))
        let header = try png.withUnsafeBytes { (bytes) throws(PNGPreflightError) in
            try PNGPreflight.check(bytes, limits: ImageLimits())
        }
        let decoded = try PNGCodec.decode(png, header: header, path: "made.png")
        let straight = try Self.decode(png)
        let surface = decoded.surface
        for y in 0..<9 {
            for x in 0..<37 {
                let word = UnsafeRawPointer(surface.data + y * surface.stride + x * 4).loadUnaligned(as: UInt32.self)
                let pixel = straight[x, y]
                func premultiplied(_ c: UInt8) -> UInt32 {
                    let t = UInt32(pixel.alpha) * UInt32(c) + 0x80
                    return (t + (t >> 8)) >> 8
                }
                let expected =
                    UInt32(pixel.alpha) << 24 | premultiplied(pixel.red) << 16 | premultiplied(pixel.green) << 8
                    | premultiplied(pixel.blue)
                #expect(word == expected, "(\(x), \(y))")
            }
        }
    }

    @Test func manyIDATChunksAreOneStream() throws {
        let rows = Self.rows(width: 40, height: 30, channels: 4)
        let stream = Self.zlibStored(Self.filtered(rows, channels: 4))
        let whole = try Self.decode(Self.png(width: 40, height: 30, channels: 4, idat: stream))
        let split = try Self.decode(Self.png(width: 40, height: 30, channels: 4, idat: stream, pieces: 97))
        #expect(whole.bytes == Self.expected(rows, channels: 4))
        #expect(split == whole)
    }

    /// Bytes after the zlib stream, in the last IDAT or an IDAT of their own: libpng
    /// only warns ("Extra compressed data"), so the image decodes.
    @Test func bytesAfterTheZlibStreamAreIgnored() throws {
        let rows = Self.rows(width: 20, height: 10, channels: 3)
        let stream = Self.zlibStored(Self.filtered(rows, channels: 3))
        let garbage: [UInt8] = Array("trailing garbage".utf8)
        let inLast = try Self.decode(Self.png(width: 20, height: 10, channels: 3, idat: stream + garbage))
        let own = try Self.decode(
            Self.png(
                width: 20, height: 10, channels: 3, idat: stream,
                after: Self.chunk("IDAT", garbage) + Self.chunk("IEND", [])))
        #expect(inLast.bytes == Self.expected(rows, channels: 3))
        #expect(own == inLast)
    }

    /// A stream that inflates to more than the image: a little more decodes, as libpng
    /// only warns ("Too much image data"); but libpng inflates all of it to check the
    /// stream's end (a 3 MB file of zeros took 11 s), so over 64 KiB of image data read
    /// after the last row is refused.
    @Test func imageDataLongAfterTheLastRowIsRefused() throws {
        let rows = Self.rows(width: 20, height: 10, channels: 4)
        let data = Self.filtered(rows, channels: 4)
        let little = try Self.decode(
            Self.png(
                width: 20, height: 10, channels: 4, idat: Self.zlibStored(data + [UInt8](repeating: 0, count: 1000))))
        #expect(little.bytes == Self.expected(rows, channels: 4))
        let much = Self.png(
            width: 20, height: 10, channels: 4, idat: Self.zlibStored(data + [UInt8](repeating: 0, count: 200_000)))
        #expect(
            Self.failure(much)?.contains(
                "corrupt PNG: more image data after the last row than any image leaves (over 64 KiB)") == true,
            "\(Self.failure(much) ?? "decoded")")
    }

    /// A window too small for the image (here 256 bytes): zlib would refuse a distance
    /// beyond it and libdeflate would not, so libpng decodes it; stored blocks have
    /// no distances, so it decodes.
    @Test func aWindowSmallerThanTheImageIsLeftToLibpng() throws {
        let rows = Self.rows(width: 30, height: 20, channels: 4)
        let stream = Self.zlibStored(Self.filtered(rows, channels: 4), header: [0x08, 0x1D])
        #expect((0x08 << 8 | 0x1D) % 31 == 0)
        #expect(
            try Self.decode(Self.png(width: 30, height: 20, channels: 4, idat: stream)).bytes
                == Self.expected(rows, channels: 4))
    }

    // MARK: - Errors, as libpng gives them

    @Test func truncatedImageDataIsRefused() {
        let rows = Self.rows(width: 20, height: 10, channels: 4)
        let stream = Self.zlibStored(Self.filtered(rows, channels: 4))
        // The stream cut in its stored data: libpng runs out of image data.
        let png = Self.png(width: 20, height: 10, channels: 4, idat: Array(stream.prefix(stream.count / 2)))
        #expect(Self.failure(png)?.contains("corrupt PNG: Not enough image data") == true)
    }

    @Test func aBadIDATChecksumIsRefused() {
        let rows = Self.rows(width: 20, height: 10, channels: 4)
        var png = Self.png(width: 20, height: 10, channels: 4, idat: Self.zlibStored(Self.filtered(rows, channels: 4)))
        png[png.count - 13] ^= 0x01  // the IDAT chunk's CRC, just before IEND's 12 bytes
        #expect(Self.failure(png)?.contains("corrupt PNG: IDAT: CRC error") == true)
    }

    @Test func aBadAdlerChecksumIsRefused() {
        let rows = Self.rows(width: 20, height: 10, channels: 4)
        var stream = Self.zlibStored(Self.filtered(rows, channels: 4))
        stream[stream.count - 1] ^= 0x01
        let png = Self.png(width: 20, height: 10, channels: 4, idat: stream)
        #expect(Self.failure(png)?.contains("corrupt PNG: IDAT: incorrect data check") == true)
    }

    @Test func anUnknownFilterTypeIsRefused() {
        let rows = Self.rows(width: 20, height: 10, channels: 4)
        var data = Self.filtered(rows, channels: 4)
        data[3 * (20 * 4 + 1)] = 5  // row 3's filter byte
        let png = Self.png(width: 20, height: 10, channels: 4, idat: Self.zlibStored(data))
        #expect(Self.failure(png)?.contains("corrupt PNG: bad adaptive filter value") == true)
    }

    @Test func aMissingIENDIsRefused() {
        let rows = Self.rows(width: 20, height: 10, channels: 4)
        let png = Self.png(
            width: 20, height: 10, channels: 4, idat: Self.zlibStored(Self.filtered(rows, channels: 4)), after: [])
        #expect(Self.failure(png)?.contains("corrupt PNG: file is truncated") == true)
    }
}
