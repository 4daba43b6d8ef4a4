/// A colour filter applied to the icon's pixels before the badge is drawn
/// (`--icon-filter`); the badge itself is never filtered. Several filters apply in
/// the order given, each one's 8-bit output the next one's input, as a chain of CSS
/// filter functions.
///
/// Every filter is a 3 × 3 colour matrix (W3C Filter Effects Module Level 1,
/// `feColorMatrix`, with no offset column) on the colour channels, applied to
/// **premultiplied** 8-bit values (Cairo ARGB32). A matrix without offsets is
/// linear, so M·(αC) = α·(M·C): applying it to premultiplied values is the same as
/// applying it to straight values and premultiplying, without the rounding of an
/// un-premultiply. Alpha is never changed, and every result lies between 0 and the
/// pixel's alpha (each output is a mix of the pixel's channels with weights from 0
/// to 1 summing to at most 1), so it stays a valid premultiplied pixel. Each channel
/// is computed exactly in integers and rounded once, half up (`PixelKernel`).
///
/// Values are the 8-bit channels as stored: sRGB-encoded, as CSS filter functions
/// (which the W3C spec has operate in sRGB, not linearRGB). Luma is Rec. 709's
/// (`Rec709`).
public enum IconFilter: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Every channel becomes the pixel's Rec. 709 luma Y = 0.2126 R + 0.7152 G +
    /// 0.0722 B: `desaturate` by 1, the W3C `grayscale(1)` matrix. Spelt
    /// `greyscale` or `grayscale`.
    case greyscale
    /// Part of the way to greyscale: out = (1 − a)·C + a·Y for each channel C, which
    /// is the W3C Filter Effects `grayscale(a)` matrix (section "grayscale",
    /// https://www.w3.org/TR/filter-effects-1/#grayscaleEquivalent): row R is
    /// (0.2126 + 0.7874(1 − a), 0.7152 − 0.7152(1 − a), 0.0722 − 0.0722(1 − a)), and so
    /// on. 0 changes nothing, 1 is `greyscale`.
    case desaturate(Amount)
    /// Darker: each channel × (1 − a), the W3C Filter Effects `brightness(1 − a)`
    /// (https://www.w3.org/TR/filter-effects-1/#brightnessEquivalent, a linear
    /// `feComponentTransfer` of slope 1 − a). 0 changes nothing, 1 is black (alpha kept).
    case dim(Amount)
    /// The icon's luma in a colour, mixed with the icon: out = (1 − t)·C + t·Y·K/255
    /// for each channel C and the tint's channel K, where t = a × (the tint's alpha /
    /// 255). Y·K/255 is the W3C Compositing and Blending Level 1 `multiply` blend
    /// (B = Cb × Cs) of the colour over the greyscale icon, and the mix by t is that
    /// layer composited at opacity t, as a translucent tint colour would be. With a =
    /// 1 and an opaque colour the icon is a monochrome of the colour (white stays the
    /// colour, black stays black), as iOS 18 tints a tinted app icon.
    case tint(Color, Amount)

    /// How much of a filter applies: 0 (none) to 1 (all), counted in whole
    /// ten-thousandths so that every amount has one exact integer formula. A value
    /// with more digits (0.33333) is rounded half up to four decimals (0.3333).
    public struct Amount: Equatable, Hashable, Sendable, CustomStringConvertible {
        /// Ten-thousandths: 0 to `scale`.
        public let tenThousandths: Int
        /// What `tenThousandths` is counted in: 10,000 is an amount of 1.
        public static let scale = 10_000
        /// An amount of 1: the whole effect.
        public static let full = Amount(tenThousandths: scale)

        /// An amount of `tenThousandths` / 10,000, clamped to 0...10,000.
        public init(tenThousandths: Int) {
            self.tenThousandths = min(Self.scale, max(0, tenThousandths))
        }

        /// An amount of `tenThousandths` / 10,000, or nil outside 0...10,000.
        public init?(tenThousandths: Int?) {
            guard let tenThousandths, (0...Self.scale).contains(tenThousandths) else { return nil }
            self.tenThousandths = tenThousandths
        }

        /// `value` (0 to 1), rounded half up to four decimals (of its binary double),
        /// clamped. The parser rounds the digits as written instead.
        public init(_ value: Double) {
            let scaled = value * Double(Self.scale)
            self.init(tenThousandths: scaled.isFinite ? Int((scaled + 0.5).rounded(.down)) : 0)
        }

        /// The amount as a decimal (0 to 1).
        public var value: Double { Double(tenThousandths) / Double(Self.scale) }

        /// The shortest decimal with this value: `0`, `0.3`, `0.0125`, `1`.
        public var description: String {
            if tenThousandths == Self.scale { return "1" }
            if tenThousandths == 0 { return "0" }
            var digits = String(tenThousandths)
            digits = String(repeating: "0", count: 4 - digits.count) + digits
            while digits.last == "0" { digits.removeLast() }
            return "0." + digits
        }
    }

    /// The canonical spelling, which `parse` reads back to the same filter:
    /// `greyscale`, `desaturate:0.5`, `dim:0.3`, `tint:#007AFFFF:1` (the colour as
    /// `#RRGGBBAA`, the amount always written). The `--report` JSON lists these.
    public var description: String {
        switch self {
        case .greyscale: return "greyscale"
        case .desaturate(let amount): return "desaturate:\(amount)"
        case .dim(let amount): return "dim:\(amount)"
        case .tint(let color, let amount): return "tint:\(color):\(amount)"
        }
    }

    /// The same filter with its tint colour changed by `convert` (into an icon's own
    /// colour space, as the badge's colours are); other filters have no colour.
    public func mappingColor(_ convert: (Color) -> Color) -> IconFilter {
        guard case .tint(let color, let amount) = self else { return self }
        return .tint(convert(color), amount)
    }
}
