/// An 8-bit sRGB colour with **straight** (not premultiplied) alpha.
///
/// Straight alpha is what users write (`#FF3B3080`); the renderer hands it to Cairo,
/// which premultiplies when it composites, so translucent colours blend correctly.
public struct Color: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Red, 0-255.
    public var red: UInt8
    /// Green, 0-255.
    public var green: UInt8
    /// Blue, 0-255.
    public var blue: UInt8
    /// Alpha, 0 (transparent) to 255 (opaque); straight, not premultiplied.
    public var alpha: UInt8

    /// Creates a colour from straight 8-bit channels.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Creates an opaque colour from `0xRRGGBB`.
    public init(rgb: UInt32) {
        self.init(
            red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF),
            blue: UInt8(rgb & 0xFF))
    }

    /// iOS's system red, the default badge fill (UIColor.systemRed, light mode).
    public static let systemRed = Color(rgb: 0xFF3B30)
    /// Opaque white.
    public static let white = Color(rgb: 0xFFFFFF)
    /// Opaque black.
    public static let black = Color(rgb: 0x000000)
    /// Fully transparent black.
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    /// `#RRGGBBAA`, the form every parser of this project accepts back.
    public var description: String {
        "#"
            + [red, green, blue, alpha].map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }

    /// Whether the colour draws nothing (alpha 0).
    public var isTransparent: Bool { alpha == 0 }
}
