/// The facts a PNG's header states, read without decoding.
public struct PNGHeader: Equatable, Sendable {
    /// Width (pixels), from IHDR.
    public var width: Int
    /// Height (pixels), from IHDR.
    public var height: Int
    /// Bits per sample: 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    /// PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    public var colorType: Int
    /// Whether the image is Adam7-interlaced.
    public var interlaced: Bool
}

/// Walks a PNG's chunk structure before any decoder sees it (PNG spec, ISO/IEC
/// 15948, sections 5.2-5.3 and 11.2.2), so that libpng is never asked to trust a
/// length or a size: the signature, IHDR first and well formed, the size within
/// `ImageLimits`, every chunk's length within the bytes that remain, no metadata
/// chunk over the limit, and at least one IDAT. CRCs are left to libpng.
public enum PNGPreflight {
    /// The eight-byte PNG signature.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `bytes` start with the PNG signature.
    public static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 8 && zip(bytes.prefix(8), signature).allSatisfy { $0 == $1 }
    }

    /// Checks `bytes` and returns the header.
    ///
    /// - Throws: `PNGPreflightError` with a reason fit for a one-line message.
    public static func check(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws(PNGPreflightError)
        -> PNGHeader
    {
        guard hasSignature(bytes) else {
            throw .corrupt("not a PNG file (bad signature)")
        }
        func uint32(at offset: Int) -> UInt32 {
            UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
                | UInt32(bytes[offset + 3])
        }
        func typeName(at offset: Int) -> String {
            String(decoding: bytes[offset..<offset + 4].map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
        }
        var offset = 8
        var header: PNGHeader?
        var sawIDAT = false
        while offset < bytes.count {
            let remaining = bytes.count - offset
            guard remaining >= 12 else {
                throw .corrupt("truncated chunk header at byte \(offset)")
            }
            let length = Int(uint32(at: offset))
            let type = typeName(at: offset + 4)
            guard length <= 0x7FFF_FFFF else {
                throw .corrupt("chunk \(Quoted(type)) at byte \(offset) has an invalid length \(length)")
            }
            guard length <= remaining - 12 else {
                throw .corrupt(
                    "chunk \(Quoted(type)) at byte \(offset) claims \(length) bytes but only \(remaining - 12) remain")
            }
            let isAncillary = bytes[offset + 4] & 0x20 != 0
            if header == nil {
                guard type == "IHDR", length == 13 else {
                    throw .corrupt("the first chunk is \(Quoted(type)), not a 13-byte IHDR")
                }
                header = try parseHeader(bytes, at: offset + 8, limits: limits)
            } else if type == "IDAT" {
                sawIDAT = true
            } else if type == "IEND" {
                break
            } else if isAncillary && length > limits.maxMetadataChunk {
                throw .corrupt(
                    "metadata chunk \(Quoted(type)) is \(length) bytes, over the \(limits.maxMetadataChunk)-byte limit")
            }
            offset += 12 + length
        }
        guard let header else { throw .corrupt("no IHDR chunk") }
        guard sawIDAT else { throw .corrupt("no image data (no IDAT chunk)") }
        return header
    }

    private static func parseHeader(_ bytes: UnsafeRawBufferPointer, at offset: Int, limits: ImageLimits)
        throws(PNGPreflightError) -> PNGHeader
    {
        func uint32(at offset: Int) -> Int {
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
        }
        let width = uint32(at: offset)
        let height = uint32(at: offset + 4)
        let bitDepth = Int(bytes[offset + 8])
        let colorType = Int(bytes[offset + 9])
        let interlace = Int(bytes[offset + 12])
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw .corrupt("invalid image size \(width) × \(height)")
        }
        // A switch, not a dictionary: a [Int: [Int]] costs the Swift runtime a scan of
        // every protocol conformance (Int: Hashable) at each start (callgrind, make bench).
        let depths: [Int]
        switch colorType {
        case 0: depths = [1, 2, 4, 8, 16]
        case 3: depths = [1, 2, 4, 8]
        case 2, 4, 6: depths = [8, 16]
        default: throw .corrupt("invalid colour type \(colorType)")
        }
        guard depths.contains(bitDepth) else {
            throw .corrupt("invalid bit depth \(bitDepth) for colour type \(colorType)")
        }
        guard bytes[offset + 10] == 0, bytes[offset + 11] == 0, interlace <= 1 else {
            throw .corrupt("invalid compression, filter or interlace method in IHDR")
        }
        try checkSize(width: width, height: height, limits: limits)
        return PNGHeader(
            width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: interlace == 1)
    }

    /// Checks a decoded size against `limits` (any format, not only PNG).
    ///
    /// - Throws: `PNGPreflightError.tooLarge` with the numbers and the limit.
    public static func checkSize(width: Int, height: Int, limits: ImageLimits) throws(PNGPreflightError) {
        let side = min(limits.maxSide, ImageLimits.cairoMaxSide)
        if width > side || height > side {
            throw .tooLarge(.imageSide(width: width, height: height, limit: side))
        }
        let area = width.multipliedReportingOverflow(by: height)
        if area.overflow || area.partialValue > limits.maxPixels {
            throw .tooLarge(.imagePixels(width: width, height: height, limit: limits.maxPixels))
        }
    }
}

/// Why a PNG was refused before decoding.
public enum PNGPreflightError: Error, Equatable, Sendable {
    /// The structure is broken; the reason names the chunk or byte.
    case corrupt(String)
    /// Within the format, but over a limit.
    case tooLarge(LimitExceeded)

    /// The reason, fit for a one-line message (without the option that changes a limit).
    public var reason: String {
        switch self {
        case .corrupt(let reason): return reason
        case .tooLarge(let limit): return limit.description
        }
    }
}
