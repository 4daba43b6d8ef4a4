#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Color {
    /// `#RRGGBB` for an opaque colour, `#RRGGBBAA` otherwise: how messages show it.
    public var hexDescription: String { alpha == 255 ? String(description.dropLast(2)) : description }

    /// A channel's linear-light value (0...1) by the sRGB transfer function (IEC
    /// 61966-2-1: x / 12.92 up to 0.04045, else ((x + 0.055) / 1.055)^2.4), as
    /// WCAG 2 and OKLab use it.
    static func linear(_ channel: UInt8) -> Double {
        let x = Double(channel) / 255
        return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
    }

    /// The colour in OKLab (Björn Ottosson, "A perceptual color space for image
    /// processing", 2020; CSS Color 4 § 9.2): L (0 black to 1 white), a and b (about
    /// ±0.4), alpha ignored. The matrices are Ottosson's, from linear sRGB.
    public var oklab: (l: Double, a: Double, b: Double) {
        let r = Color.linear(red)
        let g = Color.linear(green)
        let b = Color.linear(blue)
        let l = cbrt(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * b)
        let m = cbrt(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b)
        let s = cbrt(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b)
        return (
            0.210_454_255_3 * l + 0.793_617_785_0 * m - 0.004_072_046_8 * s,
            1.977_998_495_1 * l - 2.428_592_205_0 * m + 0.450_593_709_9 * s,
            0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766_0 * s
        )
    }

    /// The colour difference ΔE_OK: the Euclidean distance of two colours in OKLab
    /// (CSS Color 4 § 13.2, `deltaEOK`), alpha ignored. 0 for the same colour, about
    /// 0.02 just noticeable (CSS Color 4's gamut mapping uses that JND), 1 between
    /// black and white.
    public func deltaEOK(_ other: Color) -> Double {
        let x = oklab
        let y = other.oklab
        let dl = x.l - y.l
        let da = x.a - y.a
        let db = x.b - y.b
        return (dl * dl + da * da + db * db).squareRoot()
    }

    /// The relative luminance of WCAG 2.x (0 black to 1 white): 0.2126 R + 0.7152 G +
    /// 0.0722 B on linear-light channels, alpha ignored.
    public var relativeLuminance: Double {
        0.2126 * Color.linear(red) + 0.7152 * Color.linear(green) + 0.0722 * Color.linear(blue)
    }

    /// The WCAG 2.x contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05) with L1
    /// the lighter: 1 for the same luminance, 21 for black on white.
    public func contrastRatio(_ other: Color) -> Double {
        let a = relativeLuminance
        let b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}
