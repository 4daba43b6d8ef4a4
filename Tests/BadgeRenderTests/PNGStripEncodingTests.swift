import BadgeCore
import Testing

@testable import BadgeRender

/// Large PNGs are compressed in parallel strips (png_strips.c). The stream must be
/// one valid zlib stream, the pixels exact, and the bytes independent of the number
/// of threads, so that a golden written on a 2-core machine matches a 64-core one.
@Suite struct PNGStripEncodingTests {
    /// 1100 × 1000 straight RGBA (4.4 MB: four strips), gradients, noise and
    /// translucent and clear pixels, from a fixed linear congruential generator.
    static let image: PixelBuffer = {
        let width = 1100, height = 1000
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        var state: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_103_515_245 &+ 12345
                let i = (y * width + x) * 4
                let noise = UInt8(truncatingIfNeeded: state >> 24)
                let alpha: UInt8 = x < 100 ? 0 : (x < 200 ? UInt8(truncatingIfNeeded: x) : 255)
                bytes[i] = alpha == 0 ? 0 : UInt8(truncatingIfNeeded: x)
                bytes[i + 1] = alpha == 0 ? 0 : UInt8(truncatingIfNeeded: y)
                bytes[i + 2] = alpha == 0 ? 0 : (y % 7 == 0 ? noise : UInt8(truncatingIfNeeded: x ^ y))
                bytes[i + 3] = alpha
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }()

    static func chunks(_ png: [UInt8]) -> [(type: String, data: ArraySlice<UInt8>, crcMatches: Bool)] {
        var result: [(String, ArraySlice<UInt8>, Bool)] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            let data = png[offset + 8..<offset + 8 + length]
            let stored = png[offset + 8 + length..<offset + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            result.append((type, data, crc32(png[offset + 4..<offset + 8 + length]) == stored))
            offset += 12 + length
        }
        return result
    }

    /// CRC-32 as PNG uses it (ISO 3309, polynomial 0xEDB88320).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The filtered data the stream must hold: each row's filter byte 4 (Paeth) and
    /// the Paeth differences (PNG specification, section 9.4), computed here anew, of
    /// the RGBA samples or, with `channels` 3, the RGB ones (an opaque image's).
    static func adler32OfPaethRows(_ image: PixelBuffer, channels: Int = 4) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        func add(_ byte: UInt8) {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let samples =
            channels == 4
            ? image.bytes : image.bytes.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        let line = image.width * channels
        samples.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                add(4)
                for i in 0..<line {
                    let raw = Int(pixels[y * line + i])
                    let left = i >= channels ? Int(pixels[y * line + i - channels]) : 0
                    let up = y > 0 ? Int(pixels[(y - 1) * line + i]) : 0
                    let upLeft = (y > 0 && i >= channels) ? Int(pixels[(y - 1) * line + i - channels]) : 0
                    let p = left + up - upLeft
                    let (pa, pb, pc) = (abs(p - left), abs(p - up), abs(p - upLeft))
                    let predictor = (pa <= pb && pa <= pc) ? left : (pb <= pc ? up : upLeft)
                    add(UInt8(truncatingIfNeeded: raw - predictor))
                }
            }
        }
        return b << 16 | a
    }

    @Test func sameBytesWhateverTheThreadCount() throws {
        let one = try PNGCodec.encode(Self.image, compression: .default, threads: 1)
        for threads in [2, 3, 16] {
            #expect(try PNGCodec.encode(Self.image, compression: .default, threads: threads) == one)
        }
    }

    @Test(arguments: PNGCompression.allCases)
    func pixelsSurviveEveryMode(_ compression: PNGCompression) throws {
        let png = try PNGCodec.encode(Self.image, compression: compression)
        let header = try png.withUnsafeBytes { (bytes) throws(PNGPreflightError) in
            try PNGPreflight.check(bytes, limits: ImageLimits())
        }
        let decoded = try PNGCodec.decodeStraight(png, header: header, path: "strips.png")
        #expect(decoded == Self.image)
    }

    /// Chunk CRCs, the zlib header (RFC 1950: deflate, 32 KiB window, FCHECK) and
    /// the Adler-32 trailer over all strips, against a Paeth filter written here.
    @Test func oneValidZlibStream() throws {
        let png = try PNGCodec.encode(Self.image, compression: .best)
        let chunks = Self.chunks(png)
        #expect(chunks.map { $0.type }.first == "IHDR")
        #expect(chunks.map { $0.type }.last == "IEND")
        #expect(chunks.allSatisfy { $0.crcMatches })
        let stream = chunks.filter { $0.type == "IDAT" }.flatMap { $0.data }
        #expect(stream[0] == 0x78)
        #expect((Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0)
        #expect(stream[1] >> 6 == 3)  // FLEVEL 3: level 9
        let trailer = stream.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        #expect(trailer == Self.adler32OfPaethRows(Self.image))
    }

    /// The default mode's strips, each compressed alone by libdeflate and joined (every
    /// final block but the last made to continue): one zlib stream holding every row,
    /// with the Adler-32 of all of them, that zlib itself inflates. An opaque image is
    /// written as RGB; a tRNS chunk before its IDAT (a red of 1 that no pixel has)
    /// sends it to libpng's own reading, through zlib, instead of libdeflate's. Run on
    /// the test image made opaque (libdeflate's compressed blocks) and on noise (its
    /// stored blocks).
    @Test(arguments: [false, true])
    func defaultStripsAreOneStreamThatZlibReads(noise: Bool) throws {
        var bytes = Self.image.bytes
        var state: UInt32 = 99
        for i in stride(from: 0, to: bytes.count, by: 4) {
            if noise {
                for c in 0..<3 {
                    state = state &* 1_103_515_245 &+ 12345
                    bytes[i + c] = UInt8(truncatingIfNeeded: state >> 24)
                }
            }
            bytes[i] &= 0xFE  // even reds: none is the tRNS colour
            bytes[i + 3] = 255
        }
        let opaque = PixelBuffer(width: Self.image.width, height: Self.image.height, bytes: bytes)
        let png = try PNGCodec.encode(opaque, compression: .default)
        let chunks = Self.chunks(png)
        #expect(chunks.allSatisfy { $0.crcMatches })
        #expect(chunks.filter { $0.type == "IDAT" }.count >= 3)
        let stream = chunks.filter { $0.type == "IDAT" }.flatMap { $0.data }
        #expect(stream.prefix(2).elementsEqual([0x78, 0x9C]))
        #expect(
            stream.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } == Self.adler32OfPaethRows(opaque, channels: 3))
        // IHDR is bytes 8..<33; the tRNS chunk goes right after it.
        let body: [UInt8] = Array("tRNS".utf8) + [0, 1, 0, 0, 0, 0]
        let crc = Self.crc32(body[...])
        let tRNS = [0, 0, 0, 6] + body + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        let keyed = Array(png[0..<33]) + tRNS + Array(png[33...])
        let header = try keyed.withUnsafeBytes { (bytes) throws(PNGPreflightError) in
            try PNGPreflight.check(bytes, limits: ImageLimits())
        }
        #expect(header.colorType == 2)
        #expect(try PNGCodec.decodeStraight(keyed, header: header, path: "keyed.png") == opaque)
    }

    /// The zlib header says what zlib itself would (RFC 1950): FLEVEL 0 for the RLE
    /// strategy, 2 for level 6 (and libdeflate's level 7, the default's), 3 for level
    /// 9; a small image gets a small window, as libpng gives it (10 × 10 RGBA: 410
    /// filtered bytes, a 1 KiB window; libdeflate's distances never exceed the data).
    @Test func zlibHeaderAsZlibWritesIt() throws {
        func header(_ image: PixelBuffer, _ compression: PNGCompression) throws -> [UInt8] {
            let chunks = Self.chunks(try PNGCodec.encode(image, compression: compression))
            return Array(chunks.filter { $0.type == "IDAT" }.flatMap { $0.data }.prefix(2))
        }
        #expect(try header(Self.image, .fast) == [0x78, 0x01])
        #expect(try header(Self.image, .default) == [0x78, 0x9C])
        #expect(try header(Self.image, .best) == [0x78, 0xDA])
        let small = PixelBuffer(width: 10, height: 10, bytes: Array(Self.image.bytes.prefix(400)))
        #expect(try header(small, .default) == [0x28, 0x91])
        let png = try PNGCodec.encode(small, compression: .default)
        let decoded = try PNGCodec.decodeStraight(
            png,
            header: try png.withUnsafeBytes { (bytes) throws(PNGPreflightError) in
                try PNGPreflight.check(bytes, limits: ImageLimits())
            }, path: "small.png")
        #expect(decoded == small)
    }
}
