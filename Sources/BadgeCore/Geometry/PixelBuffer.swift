/// A decoded image as **straight** (not premultiplied) 8-bit RGBA, rows top to
/// bottom, 4 bytes per pixel, no row padding: the form images are compared in
/// (pixelmatch's form), independent of any library. Decoders store a fully
/// transparent pixel as (0, 0, 0, 0): its colour is invisible, and premultiplying
/// pipelines such as Cairo's cannot keep it.
public struct PixelBuffer: Equatable, Sendable {
    /// Width (pixels).
    public let width: Int
    /// Height (pixels).
    public let height: Int
    /// `width × height × 4` bytes: R, G, B, A per pixel.
    public var bytes: [UInt8]

    /// Wraps `bytes` (must be width × height × 4 long).
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(width >= 0 && height >= 0 && bytes.count == width * height * 4, "pixel buffer size mismatch")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// A buffer of one colour.
    public init(width: Int, height: Int, fill: Color) {
        self.width = width
        self.height = height
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: bytes.count, by: 4) {
            bytes[index] = fill.red
            bytes[index + 1] = fill.green
            bytes[index + 2] = fill.blue
            bytes[index + 3] = fill.alpha
        }
        self.bytes = bytes
    }

    /// Whether the two buffers show the same picture once premultiplied: equal
    /// sizes and, pixel by pixel, equal alpha and equal colour × alpha (rounded as
    /// Cairo rounds). What survives any premultiplied pipeline.
    public func samePremultiplied(as other: PixelBuffer) -> Bool {
        guard width == other.width, height == other.height else { return false }
        for index in stride(from: 0, to: bytes.count, by: 4) {
            let alpha = UInt32(bytes[index + 3])
            guard alpha == UInt32(other.bytes[index + 3]) else { return false }
            for channel in 0..<3 {
                let a = alpha * UInt32(bytes[index + channel]) + 0x80
                let b = alpha * UInt32(other.bytes[index + channel]) + 0x80
                guard (a + (a >> 8)) >> 8 == (b + (b >> 8)) >> 8 else { return false }
            }
        }
        return true
    }

    /// The pixel at (`x`, `y`), straight alpha.
    public subscript(x: Int, y: Int) -> Color {
        get {
            let index = (y * width + x) * 4
            return Color(red: bytes[index], green: bytes[index + 1], blue: bytes[index + 2], alpha: bytes[index + 3])
        }
        set {
            let index = (y * width + x) * 4
            bytes[index] = newValue.red
            bytes[index + 1] = newValue.green
            bytes[index + 2] = newValue.blue
            bytes[index + 3] = newValue.alpha
        }
    }
}
