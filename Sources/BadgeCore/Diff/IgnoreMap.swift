/// Which pixels of an image pair a comparison skips: one flag per pixel, the union of
/// ``IgnoreRegion`` rectangles (`--ignore`) and a mask image (`--mask`), the size of
/// the expected image.
///
/// ``ImageDiff/compare(_:_:options:ignoring:)`` never counts an ignored pixel as
/// different or anti-aliased and counts the map's pixels in
/// ``DiffResult/ignoredPixels``.
///
/// **Mask rule** (``maskIgnores(_:)``): the mask is composited over black and a pixel is
/// ignored where the result's luma is below 128, with Rec. 709 (ITU-R BT.709) weights on
/// the 8-bit values: 0.2126 R + 0.7152 G + 0.0722 B, times alpha / 255. So black and
/// transparent areas of the mask are ignored, white areas compared. Computed in whole
/// numbers, (2126 R + 7152 G + 722 B) × A < 128 × 10000 × 255, so the rule has no
/// rounding.
public struct IgnoreMap: Equatable, Sendable {
    /// Width (pixels).
    public let width: Int
    /// Height (pixels).
    public let height: Int
    /// One byte per pixel, rows top to bottom: 1 where ignored, 0 where compared.
    public private(set) var flags: [UInt8]
    /// How many pixels are ignored (flags set).
    public private(set) var count: Int

    /// A map of `width` × `height` pixels with nothing ignored.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative map size")
        self.width = width
        self.height = height
        flags = [UInt8](repeating: 0, count: width * height)
        count = 0
    }

    /// A map of `width` × `height` pixels (the expected image's size) ignoring
    /// `regions` and, with `mask`, the mask's ignored pixels.
    ///
    /// - Parameter maskPath: the mask's path, for the message only.
    /// - Throws: `BadgeError.badInput` (65) naming both sizes when the mask is not
    ///   `width` × `height`.
    public init(
        width: Int, height: Int, regions: [IgnoreRegion], mask: PixelBuffer? = nil, maskPath: String = "mask"
    ) throws(BadgeError) {
        self.init(width: width, height: height)
        for region in regions { add(region) }
        if let mask { try add(mask: mask, path: maskPath) }
    }

    /// Whether the pixel at (`x`, `y`) is ignored.
    public subscript(x: Int, y: Int) -> Bool { flags[y * width + x] != 0 }

    /// Whether no pixel is ignored.
    public var isEmpty: Bool { count == 0 }

    /// Ignores the pixels `region` covers here (its percentages resolved against this
    /// map's size; see ``IgnoreRegion`` for the rounding and clipping).
    public mutating func add(_ region: IgnoreRegion) {
        guard let rect = region.pixelRect(width: width, height: height) else { return }
        for y in rect.y..<(rect.y + rect.height) {
            let row = y * width
            for x in rect.x..<(rect.x + rect.width) where flags[row + x] == 0 {
                flags[row + x] = 1
                count += 1
            }
        }
    }

    /// Ignores the pixels `mask` marks (``maskIgnores(_:)``: dark or transparent).
    ///
    /// - Parameter path: the mask's path, for the message only.
    /// - Throws: `BadgeError.badInput` (65) naming both sizes when `mask` is not this
    ///   map's size (the expected image's).
    public mutating func add(mask: PixelBuffer, path: String) throws(BadgeError) {
        guard mask.width == width, mask.height == height else {
            throw .badInput(
                path: path,
                reason:
                    "the mask is \(mask.width) × \(mask.height) pixels and the expected image \(width) × \(height); make the mask the expected image's size"
            )
        }
        mask.bytes.withUnsafeBufferPointer { bytes in
            for index in 0..<(width * height) where flags[index] == 0 {
                let k = index * 4
                if Self.maskIgnores(red: bytes[k], green: bytes[k + 1], blue: bytes[k + 2], alpha: bytes[k + 3]) {
                    flags[index] = 1
                    count += 1
                }
            }
        }
    }

    /// Whether a mask pixel of this colour (straight alpha) ignores the pixel under it:
    /// composited over black, its Rec. 709 luma is below 128.
    public static func maskIgnores(_ color: Color) -> Bool {
        maskIgnores(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }

    /// The mask rule on straight 8-bit channels, in whole numbers (`Rec709`):
    /// (2126 R + 7152 G + 722 B) × A < 128 × 10000 × 255.
    @inline(__always)
    static func maskIgnores(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) -> Bool {
        let luma = Rec709.scaledLuma(red: Int(red), green: Int(green), blue: Int(blue))
        return luma * Int(alpha) < 128 * Rec709.weightScale * 255
    }
}
