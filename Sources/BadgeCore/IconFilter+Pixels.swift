/// A filter's 3 × 3 colour matrix in exact integers: output channel i is
/// `(Σj m[i][j] · x[j]) / denominator`, rounded half up, for the input channels x =
/// (R, G, B), premultiplied 8-bit. Alpha is neither read nor written.
///
/// The integers are carried in `Double`s: every product and sum stays below 2^53
/// (each row sums to at most the denominator, at most 6.5 × 10^12, and the channels
/// are at most 255), so they are exact, and floor((2n + d) / 2d) of a correctly
/// rounded division is the exact half-up rounding of n / d: when n / d + 1/2 is not
/// a whole number it is at least 1 / 2d (about 10^-13) away from one, more than half
/// an ulp of any value below 256. A `Double` loop vectorises; an `Int64` division
/// per channel would not.
struct ColorMatrix: Equatable {
    /// Row-major: red's three weights, then green's, then blue's.
    var weights: [Double] { [rr, rg, rb, gr, gg, gb, br, bg, bb] }
    /// What the weights are counted in.
    let denominator: Double
    // Stored one by one, not in an array: the pixel loop reads them with no bounds
    // check or indirection.
    private let rr: Double, rg: Double, rb: Double
    private let gr: Double, gg: Double, gb: Double
    private let br: Double, bg: Double, bb: Double

    /// The matrix of `filter`.
    init(_ filter: IconFilter) {
        let w = [Rec709.redWeight, Rec709.greenWeight, Rec709.blueWeight]
        let unit = Rec709.weightScale  // the weights' scale, and the amounts'
        var rows = [[Int]](repeating: [0, 0, 0], count: 3)
        let denominator: Int
        switch filter {
        case .greyscale, .desaturate:
            // (1 − a)·C + a·Y: a = A / 10^4, Y = Σ w·x / 10^4, over 10^8; greyscale is a = 1.
            var a = IconFilter.Amount.full.tenThousandths
            if case .desaturate(let amount) = filter { a = amount.tenThousandths }
            for i in 0..<3 {
                for j in 0..<3 { rows[i][j] = a * w[j] + (i == j ? (unit - a) * unit : 0) }
            }
            denominator = unit * unit
        case .dim(let amount):
            // C·(1 − a), over 10^4.
            for i in 0..<3 { rows[i][i] = unit - amount.tenThousandths }
            denominator = unit
        case .tint(let color, let amount):
            // t = A·α / (10^4·255); (1 − t)·C + t·(Σ w·x / 10^4)·K / 255, over
            // 10^4·255 · 255·10^4.
            let t = amount.tenThousandths * Int(color.alpha)
            let whole = unit * 255
            let k = [Int(color.red), Int(color.green), Int(color.blue)]
            for i in 0..<3 {
                for j in 0..<3 { rows[i][j] = t * k[i] * w[j] + (i == j ? (whole - t) * whole : 0) }
            }
            denominator = whole * whole
        }
        (rr, rg, rb) = (Double(rows[0][0]), Double(rows[0][1]), Double(rows[0][2]))
        (gr, gg, gb) = (Double(rows[1][0]), Double(rows[1][1]), Double(rows[1][2]))
        (br, bg, bb) = (Double(rows[2][0]), Double(rows[2][1]), Double(rows[2][2]))
        self.denominator = Double(denominator)
    }

    /// The matrix applied to one premultiplied ARGB32 word (0xAARRGGBB), alpha kept.
    @inline(__always)
    func apply(_ pixel: UInt32) -> UInt32 {
        let r = Double((pixel >> 16) & 0xFF)
        let g = Double((pixel >> 8) & 0xFF)
        let b = Double(pixel & 0xFF)
        let red = round(rr * r + rg * g + rb * b)
        let green = round(gr * r + gg * g + gb * b)
        let blue = round(br * r + bg * g + bb * b)
        return (pixel & 0xFF00_0000) | (red << 16) | (green << 8) | blue
    }

    /// n / denominator rounded half up, clamped to 0...255 (see the type's comment).
    @inline(__always)
    private func round(_ n: Double) -> UInt32 {
        UInt32(min(255, max(0, ((2 * n + denominator) / (2 * denominator)).rounded(.down))))
    }
}

extension IconFilter {
    /// The filter applied to one premultiplied ARGB32 word (0xAARRGGBB, as Cairo
    /// keeps it in memory): alpha kept, each colour channel from the filter's
    /// matrix, exact and rounded half up (see `IconFilter`).
    public func apply(toPremultiplied pixel: UInt32) -> UInt32 {
        ColorMatrix(self).apply(pixel)
    }

    /// Applies `filters`, in order, to premultiplied ARGB32 pixels in place: `height`
    /// rows of `width` native-endian 32-bit words (0xAARRGGBB), `bytesPerRow` apart
    /// (Cairo's image surface layout). No allocation per pixel; fully transparent
    /// pixels stay 0.
    public static func apply(
        _ filters: [IconFilter], toPremultipliedARGB32 base: UnsafeMutableRawPointer, width: Int, height: Int,
        bytesPerRow: Int
    ) {
        for filter in filters {
            let matrix = ColorMatrix(filter)
            for row in 0..<height {
                let words = (base + row * bytesPerRow).bindMemory(to: UInt32.self, capacity: width)
                for column in 0..<width {
                    let pixel = words[column]
                    // Transparent black stays so under every matrix: skip the arithmetic.
                    if pixel != 0 { words[column] = matrix.apply(pixel) }
                }
            }
        }
    }
}
