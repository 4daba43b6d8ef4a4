import BadgeCore
import BadgeRender

/// An APNG as a viewer plays it (APNG 1.0, https://wiki.mozilla.org/APNG_Specification):
/// how often it plays and each frame's pixels and delay, so that tests can compare two
/// animations by what they show rather than by their bytes. Frames are composed as
/// iconbadge writes them, dispose `NONE` and blend `SOURCE`; other modes are refused.
public struct APNGAnimation: Equatable {
    public struct Frame: Equatable {
        public var pixels: PixelBuffer
        /// fcTL's delay as written, "numerator/denominator" seconds ("1/60").
        public var delay: String
    }

    public enum Failure: Error { case notAnAPNG(String) }

    /// acTL's play count (0: forever).
    public var plays: Int
    public var frames: [Frame]
    /// Every chunk in order (type and data; each CRC was checked).
    public var chunks: [(type: String, data: [UInt8])] = []
    /// The image of the IDAT chunks: what a viewer without APNG support shows.
    public var defaultImage: PixelBuffer

    public static func == (a: APNGAnimation, b: APNGAnimation) -> Bool {
        a.plays == b.plays && a.frames == b.frames && a.defaultImage == b.defaultImage
    }

    public init(png: [UInt8]) throws {
        var chunks: [(type: String, data: [UInt8])] = []
        var at = 8
        guard png.count >= 8, png.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Failure.notAnAPNG("no PNG signature")
        }
        while at + 12 <= png.count {
            let length = Int(Self.uint32(png, at))
            guard at + 12 + length <= png.count else { throw Failure.notAnAPNG("a chunk runs past the end") }
            chunks.append(
                (String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self), Array(png[(at + 8)..<(at + 8 + length)])))
            guard Self.uint32(png, at + 8 + length) == Self.crc32(Array(png[(at + 4)..<(at + 8 + length)])) else {
                throw Failure.notAnAPNG("a CRC does not match")
            }
            at += 12 + length
        }
        guard let header = chunks.first(where: { $0.type == "IHDR" })?.data,
            let control = chunks.first(where: { $0.type == "acTL" })?.data
        else { throw Failure.notAnAPNG("no IHDR or acTL") }
        plays = Int(Self.uint32(control, 4))
        let width = Int(Self.uint32(header, 0))
        let height = Int(Self.uint32(header, 4))
        var canvas = PixelBuffer(width: width, height: height, bytes: [UInt8](repeating: 0, count: width * height * 4))
        frames = []
        var index = 0
        while index < chunks.count {
            guard chunks[index].type == "fcTL" else {
                index += 1
                continue
            }
            let fc = chunks[index].data
            let (w, h, x, y) = (
                Int(Self.uint32(fc, 4)), Int(Self.uint32(fc, 8)), Int(Self.uint32(fc, 12)), Int(Self.uint32(fc, 16))
            )
            guard fc[24] == 0, fc[25] == 0, x + w <= width, y + h <= height else {
                throw Failure.notAnAPNG("a frame that is not dispose NONE, blend SOURCE inside the canvas")
            }
            // The frame's data: the IDAT chunks when the default image is frame 0, else fdAT.
            var data: [UInt8] = []
            index += 1
            while index < chunks.count, chunks[index].type == "IDAT" || chunks[index].type == "fdAT" {
                data += chunks[index].type == "IDAT" ? chunks[index].data : Array(chunks[index].data.dropFirst(4))
                index += 1
            }
            // The rectangle as a PNG of its own: IHDR with its size, the same depth and colour type.
            var subHeader = header
            subHeader.replaceSubrange(0..<8, with: Self.bigEndian(UInt32(w)) + Self.bigEndian(UInt32(h)))
            let sub =
                [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Self.chunk("IHDR", subHeader)
                + Self.chunk("IDAT", data) + Self.chunk("IEND", [])
            let part = try ImageFile.pixels(of: sub, path: "APNG frame \(frames.count)")
            for row in 0..<h {
                let to = ((y + row) * width + x) * 4
                canvas.bytes.replaceSubrange(to..<(to + w * 4), with: part.bytes[(row * w * 4)..<((row + 1) * w * 4)])
            }
            frames.append(
                Frame(pixels: canvas, delay: "\(Int(fc[20]) << 8 | Int(fc[21]))/\(Int(fc[22]) << 8 | Int(fc[23]))"))
        }
        guard !frames.isEmpty, at == png.count else { throw Failure.notAnAPNG("no frame, or bytes after the chunks") }
        self.chunks = chunks
        defaultImage = try ImageFile.pixels(of: png, path: "APNG default image")
    }

    /// The big-endian 32-bit number at `at`.
    public static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// CRC-32 (ISO 3309, as PNG uses), bit by bit: test data is small.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
