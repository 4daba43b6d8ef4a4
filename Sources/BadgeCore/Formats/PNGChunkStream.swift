/// Checks a PNG's chunk framing as its bytes stream past, without holding them: the
/// signature, IHDR first (13 bytes, sides from 1 to 2³¹ − 1, a known colour type and
/// depth), every chunk's type four ASCII letters and its length below 2³¹ (RFC 2083
/// §3.2), image data (IDAT) no more than its IHDR's rows could take stored
/// uncompressed (`maxImageData`), and nothing after IEND. A file of the signature and
/// zeros (a sparse file) fails at its first chunk, so a copy stops within a few bytes
/// (issue 44). CRCs are not checked: the framing alone bounds what a copier writes.
public struct PNGChunkStream: Sendable {
    /// Signature bytes still to see.
    private var signatureLeft = 8
    /// The chunk header being read (length and type).
    private var header: [UInt8] = []
    /// Bytes of the current chunk (data and CRC) still to pass.
    private var remaining = 0
    /// Chunks begun.
    private var chunks = 0
    /// IHDR's data, gathered as it passes.
    private var ihdr: [UInt8] = []
    /// Whether IEND's header was read.
    private var sawEnd = false
    /// IDAT bytes so far, and the most the IHDR allows.
    private var imageData = 0
    private var maxImageData = 0
    /// Whether the stream broke a rule.
    public private(set) var failed = false

    /// A check at the start of a file.
    public init() {}

    /// Whether the stream ended where a PNG ends: IEND read whole, nothing broken.
    public var isComplete: Bool { !failed && sawEnd && remaining == 0 && header.isEmpty }

    /// Feeds the next bytes; false (and `failed` from then on) once a rule is broken.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i < bytes.count, !failed {
            if signatureLeft > 0 {
                if bytes[i] != PNGPreflight.signature[8 - signatureLeft] { failed = true }
                signatureLeft -= 1
                i += 1
            } else if chunks == 1, ihdr.count < 13 {
                ihdr.append(bytes[i])
                remaining -= 1
                i += 1
                if ihdr.count == 13 { readHeader() }
            } else if remaining > 0 {
                let step = min(remaining, bytes.count - i)
                remaining -= step
                i += step
            } else if sawEnd {
                failed = true  // bytes after IEND
            } else {
                header.append(bytes[i])
                i += 1
                if header.count == 8 { startChunk() }
            }
        }
        return !failed
    }

    /// Reads the 8-byte header just completed.
    private mutating func startChunk() {
        let length = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let type = Array(header[4..<8])
        header = []
        let isLetter = { (byte: UInt8) in (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        let isHeader = type == Array("IHDR".utf8)
        guard length < 1 << 31, type.allSatisfy(isLetter), (chunks == 0) == isHeader, !isHeader || length == 13
        else {
            failed = true
            return
        }
        chunks += 1
        remaining = length + 4
        if type == Array("IDAT".utf8) {
            imageData += length
            if imageData > maxImageData { failed = true }
        }
        if type == Array("IEND".utf8) { sawEnd = true }
    }

    /// Checks IHDR's fields and sets the IDAT bound from them.
    private mutating func readHeader() {
        func word(_ at: Int) -> Int { ihdr[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let width = word(0)
        let height = word(4)
        let depth = Int(ihdr[8])
        let channels: Int
        switch ihdr[9] {
        case 0, 3: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: channels = 0
        }
        guard (1..<(1 << 31)).contains(width), (1..<(1 << 31)).contains(height), channels > 0,
            [1, 2, 4, 8, 16].contains(depth)
        else {
            failed = true
            return
        }
        maxImageData = Self.maxImageData(width: width, height: height, bitsPerPixel: channels * depth)
    }

    /// The most IDAT bytes an image of these sides needs: `height × (⌈width × bits ÷
    /// 8⌉ + 8)` bytes of filtered rows (a filter byte a row, and Adam7's passes add at
    /// most 7 more), with deflate's stored-block overhead (5 bytes each 65,535), zlib's
    /// 6 and 64 KiB to spare; saturating, so no product overflows.
    public static func maxImageData(width: Int, height: Int, bitsPerPixel: Int) -> Int {
        let (bits, o1) = width.multipliedReportingOverflow(by: bitsPerPixel)
        let (rows, o2) = height.multipliedReportingOverflow(by: bits / 8 + 9)
        guard !o1, !o2 else { return Int.max }
        let (total, o3) = rows.addingReportingOverflow(rows / 65_535 * 5 + 5 + 6 + 65_536)
        return o3 ? Int.max : total
    }
}
