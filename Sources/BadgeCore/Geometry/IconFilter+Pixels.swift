/// One filter made ready for the pixel loop: the formula of `IconFilter` in exact
/// integers, each channel rounded once, half up, as floor((2n + d) / 2d) for the
/// exact numerator n over the denominator d. Each kind has its own loop with a
/// constant divisor (which the compiler turns into a multiplication), and no
/// allocation per pixel; greyscale fits 32-bit lanes, and dim is a 256-entry table.
///
/// Bounds (so the arithmetic never wraps; `&+` and `&*` only spare the overflow
/// checks that would stop the loops from being vectorised): with channels at most
/// 255 and S = 10,000 × luma at most 2,550,000, greyscale's numerator is below
/// 2^22, desaturate's below 2^36 and tint's below 2^52.
enum PixelKernel {
    /// Y = S / 10^4.
    case greyscale
    /// (1 − a)·C + a·Y = ((10^4 − A)·10^4·C + A·S) / 10^8: `twiceOwn` = 2(10^4 − A)·10^4,
    /// `twiceLuma` = 2A.
    case desaturate(twiceOwn: UInt64, twiceLuma: UInt64)
    /// (1 − a)·C = (10^4 − A)·C / 10^4, for every C from 0 to 255.
    case dim(table: [UInt32])
    /// (1 − t)·C + t·(S / 10^4)·K / 255 with t = A·α / (10^4·255), over W² where W =
    /// 10^4·255: `twiceOwn` = 2(W − Aα)·W, and for each channel 2·Aα·K.
    case tint(twiceOwn: UInt64, red: UInt64, green: UInt64, blue: UInt64)

    /// W = 10^4 × 255: the tint's fraction t is counted in it.
    static let tintWhole: UInt64 = 2_550_000

    init(_ filter: IconFilter) {
        let unit = UInt64(Rec709.weightScale)  // 10^4: the weights' scale, and the amounts'
        switch filter {
        case .greyscale, .desaturate(.full):
            self = .greyscale
        case .desaturate(let amount):
            let a = UInt64(amount.tenThousandths)
            self = .desaturate(twiceOwn: 2 * (unit - a) * unit, twiceLuma: 2 * a)
        case .dim(let amount):
            let own = 2 * (unit - UInt64(amount.tenThousandths))
            self = .dim(table: (0..<256).map { UInt32((own * UInt64($0) + unit) / (2 * unit)) })
        case .tint(let color, let amount):
            let whole = Self.tintWhole
            let t = UInt64(amount.tenThousandths) * UInt64(color.alpha)
            self = .tint(
                twiceOwn: 2 * (whole - t) * whole, red: 2 * t * UInt64(color.red), green: 2 * t * UInt64(color.green),
                blue: 2 * t * UInt64(color.blue))
        }
    }

    /// Filters `count` premultiplied ARGB32 words (0xAARRGGBB) in place, alpha kept.
    func run(_ words: UnsafeMutablePointer<UInt32>, count: Int) {
        let r = UInt64(Rec709.redWeight), g = UInt64(Rec709.greenWeight), b = UInt64(Rec709.blueWeight)
        switch self {
        case .greyscale:
            let r = UInt32(r), g = UInt32(g), b = UInt32(b)
            for i in 0..<count {
                let p = words[i]
                let s = r &* (p >> 16 & 0xFF) &+ g &* (p >> 8 & 0xFF) &+ b &* (p & 0xFF)
                let y = (s &+ 5_000) / 10_000
                words[i] = (p & 0xFF00_0000) | y << 16 | y << 8 | y
            }
        case .desaturate(let own, let luma):
            for i in 0..<count {
                let p = words[i]
                let red = UInt64(p >> 16 & 0xFF), green = UInt64(p >> 8 & 0xFF), blue = UInt64(p & 0xFF)
                let s = luma &* (r &* red &+ g &* green &+ b &* blue) &+ 100_000_000
                let outRed = UInt32(truncatingIfNeeded: (own &* red &+ s) / 200_000_000)
                let outGreen = UInt32(truncatingIfNeeded: (own &* green &+ s) / 200_000_000)
                let outBlue = UInt32(truncatingIfNeeded: (own &* blue &+ s) / 200_000_000)
                words[i] = (p & 0xFF00_0000) | outRed << 16 | outGreen << 8 | outBlue
            }
        case .dim(let table):
            table.withUnsafeBufferPointer { table in
                for i in 0..<count {
                    let p = words[i]
                    words[i] =
                        (p & 0xFF00_0000) | table[Int(p >> 16 & 0xFF)] << 16 | table[Int(p >> 8 & 0xFF)] << 8
                        | table[Int(p & 0xFF)]
                }
            }
        case .tint(let own, let kRed, let kGreen, let kBlue):
            // d = W², 2d = 13,005,000,000,000.
            let d = Self.tintWhole * Self.tintWhole
            for i in 0..<count {
                let p = words[i]
                let red = UInt64(p >> 16 & 0xFF), green = UInt64(p >> 8 & 0xFF), blue = UInt64(p & 0xFF)
                let s = r &* red &+ g &* green &+ b &* blue
                let outRed = UInt32(truncatingIfNeeded: (own &* red &+ kRed &* s &+ d) / 13_005_000_000_000)
                let outGreen = UInt32(truncatingIfNeeded: (own &* green &+ kGreen &* s &+ d) / 13_005_000_000_000)
                let outBlue = UInt32(truncatingIfNeeded: (own &* blue &+ kBlue &* s &+ d) / 13_005_000_000_000)
                words[i] = (p & 0xFF00_0000) | outRed << 16 | outGreen << 8 | outBlue
            }
        }
    }
}

extension IconFilter {
    /// The filter applied to one premultiplied ARGB32 word (0xAARRGGBB, as Cairo
    /// keeps it in memory): alpha kept, each colour channel by the filter's formula,
    /// exact and rounded half up (see `IconFilter`). The same code as `apply(_:to…)`.
    public func apply(toPremultiplied pixel: UInt32) -> UInt32 {
        var word = pixel
        PixelKernel(self).run(&word, count: 1)
        return word
    }

    /// Applies `filters`, in order, to premultiplied ARGB32 pixels in place: `height`
    /// rows of `width` native-endian 32-bit words (0xAARRGGBB), `bytesPerRow` apart
    /// (Cairo's image surface layout). No allocation per pixel.
    public static func apply(
        _ filters: [IconFilter], toPremultipliedARGB32 base: UnsafeMutableRawPointer, width: Int, height: Int,
        bytesPerRow: Int
    ) {
        for filter in filters {
            let kernel = PixelKernel(filter)
            for row in 0..<height {
                kernel.run((base + row * bytesPerRow).bindMemory(to: UInt32.self, capacity: width), count: width)
            }
        }
    }
}
