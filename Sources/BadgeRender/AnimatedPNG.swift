import BadgeCore

#if canImport(Glibc)
    import Glibc
#endif

/// Writes an animated PNG (APNG 1.0, https://wiki.mozilla.org/APNG_Specification):
/// the default image, which a viewer without APNG support shows, is the static render
/// and is not a frame (no fcTL before its IDAT); the frames follow as fcTL + fdAT.
///
/// Frame 0 covers the canvas (the specification requires it); every later frame is
/// the smallest rectangle holding the pixels that changed since the frame before,
/// with dispose `NONE` and blend `SOURCE`, so the canvas after frame k is exactly
/// frame k's pixels, alpha included, and unchanged pixels cost nothing. A frame equal
/// to the one before is a 1 × 1 rectangle, so the file keeps one frame per rendered
/// frame. Every image is 8-bit RGBA (colour type 6): all frames share one IHDR.
struct AnimatedPNGWriter {
    private(set) var bytes: [UInt8] = []
    private var sequence: UInt32 = 0
    private var previous: PixelBuffer?
    private let width: Int
    private let height: Int
    private let compression: PNGCompression
    private let threads: Int

    /// Starts the file from `defaultImage`'s PNG bytes (IHDR, colour chunks, IDAT),
    /// with acTL for `frameCount` frames played `loops` times (0: forever).
    ///
    /// - Throws: `BadgeError.internalError` when the bytes are not the encoder's PNG.
    init(
        defaultImage png: [UInt8], width: Int, height: Int, frameCount: Int, loops: Int,
        compression: PNGCompression, threads: Int
    ) throws(BadgeError) {
        self.width = width
        self.height = height
        self.compression = compression
        self.threads = threads
        bytes.reserveCapacity(png.count * 2)
        bytes += png.prefix(8)
        for chunk in try Self.chunks(png) where chunk.type != "IEND" {
            bytes += png[chunk.start..<chunk.end]
            if chunk.type == "IHDR" {
                var control: [UInt8] = []
                control.appendBigEndian(UInt32(frameCount))
                control.appendBigEndian(UInt32(loops))
                append(chunk: "acTL", control)
            }
        }
    }

    /// Adds a frame: `pixels` (straight RGBA, the canvas's size) shown for `delay`
    /// seconds (numerator / denominator, each below 65536).
    ///
    /// - Throws: the PNG encoder's errors (69, 70).
    mutating func append(frame pixels: PixelBuffer, delay: (numerator: Int, denominator: Int)) throws(BadgeError) {
        precondition(pixels.width == width && pixels.height == height, "frame size")
        let rect: (x: Int, y: Int, width: Int, height: Int)
        if let previous {
            rect = Self.changedRect(previous, pixels) ?? (0, 0, 1, 1)
        } else {
            rect = (0, 0, width, height)
        }
        let part = rect.width == width && rect.height == height ? pixels : Self.crop(pixels, rect)
        let png = try PNGCodec.encodeWithAlpha(part, color: nil, compression: compression, threads: threads)
        var control: [UInt8] = []
        control.appendBigEndian(sequence)
        control.appendBigEndian(UInt32(rect.width))
        control.appendBigEndian(UInt32(rect.height))
        control.appendBigEndian(UInt32(rect.x))
        control.appendBigEndian(UInt32(rect.y))
        control.appendBigEndian(UInt16(delay.numerator))
        control.appendBigEndian(UInt16(delay.denominator))
        control += [0, 0]  // dispose_op NONE, blend_op SOURCE
        append(chunk: "fcTL", control)
        sequence += 1
        for chunk in try Self.chunks(png) where chunk.type == "IDAT" {
            var data: [UInt8] = []
            data.reserveCapacity(chunk.end - chunk.start - 8)
            data.appendBigEndian(sequence)
            data += png[(chunk.start + 8)..<(chunk.end - 4)]
            append(chunk: "fdAT", data)
            sequence += 1
        }
        previous = pixels
    }

    /// The file, ended with IEND.
    mutating func finish() -> [UInt8] {
        append(chunk: "IEND", [])
        return bytes
    }

    private mutating func append(chunk type: String, _ data: [UInt8]) {
        bytes.appendBigEndian(UInt32(data.count))
        let start = bytes.count
        bytes += Array(type.utf8)
        bytes += data
        bytes.appendBigEndian(PNGCodec.crc32(bytes[start...]))
    }

    /// The chunks of a PNG the encoder wrote: type and byte range (length to CRC).
    private static func chunks(_ png: [UInt8]) throws(BadgeError) -> [(type: String, start: Int, end: Int)] {
        var list: [(String, Int, Int)] = []
        var at = 8
        while at + 12 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let end = at + 12 + length
            guard end <= png.count else { break }
            list.append((String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self), at, end))
            at = end
        }
        guard at == png.count, list.first?.0 == "IHDR", list.last?.0 == "IEND" else {
            throw .internalError("the PNG encoder's output could not be split into chunks")
        }
        return list
    }

    /// The smallest rectangle holding every pixel that differs, or nil when none does.
    static func changedRect(_ a: PixelBuffer, _ b: PixelBuffer) -> (x: Int, y: Int, width: Int, height: Int)? {
        let rowBytes = a.width * 4
        var top = -1
        var bottom = -1
        var left = a.width
        var right = -1
        a.bytes.withUnsafeBytes { pa in
            b.bytes.withUnsafeBytes { pb in
                // Pixels as 32-bit words: one comparison a pixel.
                let wa = pa.bindMemory(to: UInt32.self)
                let wb = pb.bindMemory(to: UInt32.self)
                for y in 0..<a.height {
                    let row = y * rowBytes
                    guard memcmp(pa.baseAddress! + row, pb.baseAddress! + row, rowBytes) != 0 else { continue }
                    if top < 0 { top = y }
                    bottom = y
                    let first = y * a.width
                    var x = 0
                    while x < left, wa[first + x] == wb[first + x] { x += 1 }
                    left = min(left, x)
                    x = a.width - 1
                    while x > right, wa[first + x] == wb[first + x] { x -= 1 }
                    right = max(right, x)
                }
            }
        }
        guard top >= 0 else { return nil }
        return (left, top, right - left + 1, bottom - top + 1)
    }

    /// The pixels of `rect` in `pixels`.
    static func crop(_ pixels: PixelBuffer, _ rect: (x: Int, y: Int, width: Int, height: Int)) -> PixelBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rect.width * rect.height * 4)
        for y in rect.y..<(rect.y + rect.height) {
            let start = (y * pixels.width + rect.x) * 4
            bytes += pixels.bytes[start..<(start + rect.width * 4)]
        }
        return PixelBuffer(width: rect.width, height: rect.height, bytes: bytes)
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ])
    }

    mutating func appendBigEndian(_ value: UInt16) {
        append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xFF)])
    }
}
