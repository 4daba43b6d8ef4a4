import BadgeCore
internal import CLibPng
internal import CPngCodec

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An image handed out a few rows at a time to a streamed comparison
/// (`ImageDiff.compare(width:height:…load:didCompare:)`): straight 8-bit RGBA,
/// `width × 4` bytes a row, in a window of rows that only moves down.
///
/// Two kinds: a PNG decoded as the rows are asked for (`open(_:path:…)` picks it for a
/// non-interlaced PNG), so that at most the window is in memory; and an image decoded
/// whole (every other format), whose rows are copied into the window.
public final class RowSource {
    /// Width (pixels).
    public let width: Int
    /// Height (pixels).
    public let height: Int
    /// Whether a pixel may be translucent (false: no alpha channel and no tRNS, so a
    /// copy may be written as RGB).
    public let hasAlpha: Bool
    /// Rows the window holds.
    let capacity: Int
    /// The window: `capacity` rows from row `first`; rows `first..<end` are loaded.
    private let window: UnsafeMutablePointer<UInt8>
    private var first = 0
    private var end = 0
    private let decoder: Decoder

    /// Where rows come from.
    private enum Decoder {
        /// libpng's sequential reader over a copy of the file's bytes it reads from.
        case png(OpaquePointer, bytes: UnsafeMutableBufferPointer<UInt8>, path: String)
        /// An image decoded whole.
        case whole(PixelBuffer)
    }

    /// The images worth streaming: those whose decoded pixels take at least this many
    /// bytes (16 MiB, 2048 × 2048). Below it a comparison decodes both images whole,
    /// which is faster (libdeflate inflates a PNG in one call) and costs little.
    public static let streamingBytes = 16 << 20

    /// Opens `bytes` (an image file that came from `path`, used in messages) for
    /// reading rows: a non-interlaced PNG is decoded as rows are asked for, anything
    /// else whole now. `rows` is the most rows asked for at once.
    ///
    /// - Throws: 65 when the bytes are not an image iconbadge reads, are corrupt or
    ///   over a limit; 69 when memory runs out.
    public static func open(
        _ bytes: [UInt8], path: String, limits: ImageLimits, keepTransparentColor: Bool, rows: Int
    ) throws(BadgeError) -> RowSource {
        if let header = try IconLoader.pngHeader(bytes, path: path, limits: limits), !header.interlaced {
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
            _ = copy.initialize(from: bytes)
            var reader: OpaquePointer?
            var hasAlpha: Int32 = 1
            var message = [CChar](repeating: 0, count: 256)
            let status = ib_png_rows_open(
                copy.baseAddress, bytes.count, UInt32(header.width), UInt32(header.height),
                keepTransparentColor ? 1 : 0, &reader, &hasAlpha, &message, message.count)
            guard status == Int32(IB_PNG_OK), let reader else {
                copy.deallocate()
                let reason = String(nulTerminated: message)
                if status == Int32(IB_PNG_NO_MEMORY) {
                    throw .outOfMemory("memory to decode \(Quoted(path)) (\(reason))")
                }
                throw .badInput(path: path, reason: "corrupt PNG: \(reason)")
            }
            return RowSource(
                width: header.width, height: header.height, hasAlpha: hasAlpha != 0, rows: rows,
                decoder: .png(reader, bytes: copy, path: path))
        }
        let pixels = try ImageFile.pixels(
            of: bytes, path: path, limits: limits, keepTransparentColor: keepTransparentColor)
        var opaque = true
        for index in stride(from: 3, to: pixels.bytes.count, by: 4) where pixels.bytes[index] != 255 {
            opaque = false
            break
        }
        return RowSource(
            width: pixels.width, height: pixels.height, hasAlpha: !opaque, rows: rows, decoder: .whole(pixels))
    }

    private init(width: Int, height: Int, hasAlpha: Bool, rows: Int, decoder: Decoder) {
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        capacity = max(1, min(rows, height))
        window = .allocate(capacity: capacity * width * 4)
        self.decoder = decoder
    }

    deinit {
        window.deallocate()
        if case .png(let reader, let bytes, _) = decoder {
            ib_png_rows_close(reader)
            bytes.deallocate()
        }
    }

    /// Makes `rows` readable and returns the address of row `rows.lowerBound`; valid
    /// until the next call. Ranges only move down (neither bound below the last's)
    /// and hold at most the capacity given to `open`.
    ///
    /// - Throws: 65 when the PNG turns out corrupt on the way (libpng's reason).
    public func load(_ rows: Range<Int>) throws(BadgeError) -> UnsafePointer<UInt8> {
        precondition(rows.lowerBound >= first && rows.upperBound >= end, "rows are read top to bottom")
        precondition(rows.count <= capacity && rows.upperBound <= height, "more rows than the window holds")
        let rowBytes = width * 4
        if rows.lowerBound > first {
            // Keep the rows still wanted (the context of the last step), at the front.
            let kept = max(0, end - rows.lowerBound)
            if kept > 0 { memmove(window, window + (rows.lowerBound - first) * rowBytes, kept * rowBytes) }
            first = rows.lowerBound
            end = max(end, first)
        }
        if rows.upperBound > end {
            let target = window + (end - first) * rowBytes
            let count = rows.upperBound - end
            switch decoder {
            case .png(let reader, _, let path):
                var message = [CChar](repeating: 0, count: 256)
                let status = ib_png_rows_read(reader, target, UInt32(count), &message, message.count)
                guard status == Int32(IB_PNG_OK) else {
                    throw .badInput(path: path, reason: "corrupt PNG: \(String(nulTerminated: message))")
                }
            case .whole(let pixels):
                pixels.bytes.withUnsafeBufferPointer { source in
                    target.update(from: source.baseAddress! + end * rowBytes, count: count * rowBytes)
                }
            }
            end = rows.upperBound
        }
        return UnsafePointer(window)
    }
}

/// A PNG written a few rows at a time (a streamed comparison's diff image and report
/// images): straight RGBA rows in, PNG bytes out, with the settings of `.fast`
/// compression (Paeth, zlib's RLE strategy), held compressed in memory until written.
public final class PNGRowWriter {
    private var writer: OpaquePointer?
    /// Width (pixels).
    public let width: Int

    /// Starts a `width` × `height` PNG, RGB when `opaque` (every alpha byte is 255;
    /// they are dropped), else RGBA.
    ///
    /// - Throws: 69 when memory runs out.
    public init(width: Int, height: Int, opaque: Bool) throws(BadgeError) {
        self.width = width
        var settings = ib_png_default_settings()
        settings.compression_level = Int32(PNGCompression.fast.level)
        settings.strategy = PNGCompression.fast.zlibStrategy
        settings.filters = Int32(PNG_FILTER_PAETH)
        var message = [CChar](repeating: 0, count: 256)
        var made: OpaquePointer?
        let status = ib_png_row_writer_open(
            UInt32(width), UInt32(height), opaque ? 1 : 0, settings, &made, &message, message.count)
        guard status == Int32(IB_PNG_OK), let made else {
            throw .outOfMemory("memory to encode a PNG (\(String(nulTerminated: message)))")
        }
        writer = made
    }

    deinit { if let writer { ib_png_row_writer_free(writer) } }

    /// Writes the next `count` rows from `rows` (`width × 4` bytes a row).
    ///
    /// - Throws: 69 when memory runs out, 70 when more rows are written than the image has.
    public func write(_ rows: UnsafePointer<UInt8>, count: Int) throws(BadgeError) {
        guard let writer else { throw .internalError("PNG writer used after it finished") }
        var message = [CChar](repeating: 0, count: 256)
        let status = ib_png_row_writer_rows(writer, rows, UInt32(count), &message, message.count)
        guard status == Int32(IB_PNG_OK) else {
            if status == Int32(IB_PNG_NO_MEMORY) { throw .outOfMemory("memory to encode a PNG") }
            throw .internalError("PNG writer: \(String(nulTerminated: message))")
        }
    }

    /// The PNG's bytes, once every row is written.
    ///
    /// - Throws: 70 when rows are missing, 69 when memory runs out.
    public func finish() throws(BadgeError) -> [UInt8] {
        guard let writer else { throw .internalError("PNG writer finished twice") }
        self.writer = nil
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = ib_png_row_writer_finish(writer, &output, &size, &message, message.count)
        guard status == Int32(IB_PNG_OK), let output else {
            if status == Int32(IB_PNG_NO_MEMORY) { throw .outOfMemory("memory to encode a PNG") }
            throw .internalError("PNG writer: \(String(nulTerminated: message))")
        }
        defer { ib_png_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
