import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// iconbadge's mark on the images it writes into an app icon set: a PNG `tEXt` chunk,
/// keyword `Software`, text `iconbadge` (PNG 1.2 §11.3.4.2 lists `Software` among the
/// predefined keywords), right after `IHDR`. A later `appiconset` run that finds it
/// refuses to badge the image again: the first badge is in its pixels, and a second
/// would be drawn over it (`--in-place` twice stacked them).
///
/// The mark only ever refuses: an image that has it (even a forged one) is not
/// written; one without it is badged as any image. So a forged or stripped mark can
/// never make iconbadge overwrite something it would not have otherwise.
/// Text chunks are ancillary: decoders, Xcode and `actool` (which recompresses every
/// image into the `.car`) ignore them, and the pixels are the same.
package enum BadgedMark {
    /// The chunk's data: keyword, NUL, text (Latin-1, here ASCII).
    static let data = Array("Software".utf8) + [0] + Array("iconbadge".utf8)
    /// How much of a file is read to find the mark: it is written right after
    /// `IHDR`, and an editor that keeps text chunks keeps them before `IDAT`, behind
    /// at most a colour profile (`iCCP`: a few KiB). A mark further in is not looked for.
    static let searchedBytes = 256 << 10

    /// `png` with the mark inserted after its `IHDR` chunk; `png` unchanged when it
    /// does not start with a PNG signature and an `IHDR` chunk (never the case for
    /// iconbadge's encoder).
    package static func marking(_ png: [UInt8]) -> [UInt8] {
        // Signature (8) + IHDR: length (4), type (4), 13 data bytes, CRC (4).
        let ihdrEnd = 8 + 4 + 4 + 13 + 4
        guard png.count > ihdrEnd, png.starts(with: PNGPreflight.signature),
            png[12..<16].elementsEqual(Array("IHDR".utf8))
        else { return png }
        var chunk: [UInt8] = []
        let length = UInt32(data.count)
        chunk += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        let typed = Array("tEXt".utf8) + data
        chunk += typed
        let crc = crc32(typed)
        chunk += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return Array(png[..<ihdrEnd]) + chunk + Array(png[ihdrEnd...])
    }

    /// Whether `bytes` (a PNG's first bytes) hold the mark: a `tEXt` chunk with its
    /// exact data before the first `IDAT`. Chunks are walked by their lengths; a
    /// length that runs past `bytes` ends the walk.
    package static func isMarked(_ bytes: [UInt8]) -> Bool {
        guard bytes.starts(with: PNGPreflight.signature) else { return false }
        var offset = 8
        while offset + 8 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            let type = bytes[offset + 4..<offset + 8]
            if type.elementsEqual(Array("IDAT".utf8)) { return false }
            let start = offset + 8
            guard length <= bytes.count - start else { return false }
            if type.elementsEqual(Array("tEXt".utf8)), bytes[start..<start + length].elementsEqual(data) {
                return true
            }
            offset = start + length + 4
        }
        return false
    }

    /// Whether the file at `path` holds the mark (its first `searchedBytes`); false
    /// when it cannot be read or is not a regular file (its reader then says why).
    /// Not through a link; never blocks on a FIFO or device (opened non-blocking,
    /// then checked to be a regular file).
    package static func isMarked(path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        var bytes = [UInt8](repeating: 0, count: searchedBytes)
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return isMarked(Array(bytes[..<filled]))
    }

    /// CRC-32 (ISO 3309, as PNG's chunks use: reflected, polynomial 0xEDB88320) of a
    /// few bytes, bit by bit: the mark's chunk is 22 bytes.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
