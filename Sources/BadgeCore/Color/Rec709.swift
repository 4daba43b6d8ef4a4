/// Luma by Rec. ITU-R BT.709-6, item 3.2: Y = 0.2126 R + 0.7152 G + 0.0722 B, on 8-bit
/// values as they are stored (gamma-encoded sRGB, as CSS filter functions use them:
/// W3C Filter Effects Module Level 1 has filter functions operate in sRGB, not
/// linearRGB). The one luma of the project: `Color.greyscale`, the greyscale badge
/// of a tinted app icon and every `IconFilter` use these weights.
///
/// The weights are kept as whole ten-thousandths (2126 + 7152 + 722 = 10000, the
/// four decimals the standard and the W3C `grayscale()` matrix write), so luma is
/// computed exactly and rounded once, half up, never by floating-point chance.
/// Since the weights sum to 1, the luma of premultiplied values is the
/// premultiplied luma: Y(αR, αG, αB) = α·Y(R, G, B).
public enum Rec709 {
    /// The red weight, in ten-thousandths (0.2126).
    public static let redWeight = 2126
    /// The green weight, in ten-thousandths (0.7152).
    public static let greenWeight = 7152
    /// The blue weight, in ten-thousandths (0.0722).
    public static let blueWeight = 722
    /// What the weights are counted in: 10,000ths, and their sum.
    public static let weightScale = 10_000

    /// 10,000 × Y of 8-bit channels, exactly (0 to 2,550,000).
    @inlinable
    public static func scaledLuma(red: Int, green: Int, blue: Int) -> Int {
        redWeight * red + greenWeight * green + blueWeight * blue
    }

    /// Y of 8-bit channels (straight or premultiplied), rounded half up to 8 bits.
    @inlinable
    public static func luma(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let scaled = scaledLuma(red: Int(red), green: Int(green), blue: Int(blue))
        return UInt8((scaled + weightScale / 2) / weightScale)
    }
}
