/// How two images are compared by ``ImageDiff/compare(_:_:options:)``, and how the diff
/// image is drawn.
///
/// Two modes:
/// - **exact** (`threshold == nil`, the default): a pixel differs when any of its straight
///   8-bit R, G, B or A channels differs by more than ``tolerance``;
/// - **perceptual** (`threshold` set): pixelmatch v7.1.0's method, so the same pair with the
///   same threshold gives the same count: the YIQ colour distance of Kotsarenko & Ramos
///   (2010), translucent pixels blended over a fixed background pattern, and anti-aliased
///   pixels (Vysniauskas 2009) forgiven unless ``includeAntialiased``.
public struct DiffOptions: Equatable, Sendable {
    /// pixelmatch's default threshold (v7.1.0), the usual choice for the perceptual mode.
    public static let pixelmatchDefaultThreshold = 0.1

    /// Per-channel forgiveness of the exact mode, 0-255 (values outside are clamped): a pixel
    /// differs only when some channel, alpha included, differs by more than this. 0 (the
    /// default) means every changed byte counts. The perceptual mode ignores it.
    public var tolerance: Int

    /// `nil` for the exact mode; 0...1 (values outside are clamped) for the perceptual mode,
    /// where a pixel differs when its YIQ delta exceeds 35215 × threshold² (35215 is the
    /// largest possible delta; pixelmatch v7.1.0). 0 counts every changed pixel that is not
    /// anti-aliased; pixelmatch's default is 0.1.
    public var threshold: Double?

    /// Perceptual mode: also count pixels that look anti-aliased, i.e. turn anti-aliasing
    /// detection off (pixelmatch's `includeAA`). Default false: such pixels are counted in
    /// ``DiffResult/antialiasedPixels`` instead of ``DiffResult/differentPixels``.
    public var includeAntialiased: Bool

    /// Count every differing pixel (the default). When false and no diff image is asked for,
    /// the exact mode stops at the first differing pixel (``DiffResult/stoppedEarly``): the
    /// quickest answer to "are they the same?". The perceptual mode always counts all.
    public var countAll: Bool

    /// Produce ``DiffResult/diff``, an image of the differences the size of the compared
    /// images (nothing is drawn when the sizes differ).
    public var diffImage: Bool

    /// Draw the diff image as a mask (pixelmatch's `diffMask`): only differing pixels are
    /// drawn, everything else (anti-aliased pixels too) is transparent black, instead of the
    /// faded expected image.
    public var diffMask: Bool

    /// Colour of differing pixels in the diff image; red (255, 0, 0) as in pixelmatch. Written
    /// as given, straight alpha.
    public var diffColor: Color

    /// Colour of differing pixels that are **darker in the actual image** than in the expected
    /// one (by the sign of the brightness, Y, delta); `nil` (the default) draws them in
    /// ``diffColor`` too. pixelmatch's `diffColorAlt`, with the expected image as its `img1`.
    public var alternateDarker: Color?

    /// Colour of anti-aliased differing pixels (perceptual mode, not counted); yellow
    /// (255, 255, 0) as in pixelmatch.
    public var antialiasedColor: Color

    /// How much of the expected image shows through in the diff image's other pixels, 0
    /// (white) to 1 (its full brightness); pixelmatch's `alpha`, default 0.1. See
    /// ``ImageDiff`` for the exact formula.
    public var unchangedOpacity: Double

    /// How ignored pixels (``ImageDiff/compare(_:_:options:ignoring:)``'s map) are drawn:
    /// this colour composited source-over, its alpha as coverage, onto the pixel an
    /// unchanged one would get (the expected image faded to grey), opaque:
    /// out = (c × a + v × (255 − a) + 127) / 255 per channel, in whole numbers, where v
    /// is that grey. Default (0, 128, 255) at alpha 102 (40 %): a light blue that keeps
    /// the expected image's shapes visible and is neither the red of differences nor the
    /// yellow of anti-aliasing; a faded white pixel becomes (153, 204, 255). An opaque
    /// colour draws ignored pixels flat. With ``diffMask`` they are transparent black like
    /// every pixel that is not a difference. Unused when nothing is ignored, so the diff
    /// image is then exactly what it is without a map.
    public var ignoredColor: Color

    /// Options for either mode; the defaults are the exact mode with no tolerance, counting
    /// all differing pixels, without a diff image.
    public init(
        tolerance: Int = 0, threshold: Double? = nil, includeAntialiased: Bool = false, countAll: Bool = true,
        diffImage: Bool = false, diffMask: Bool = false, diffColor: Color = Color(red: 255, green: 0, blue: 0),
        alternateDarker: Color? = nil, antialiasedColor: Color = Color(red: 255, green: 255, blue: 0),
        unchangedOpacity: Double = 0.1, ignoredColor: Color = DiffOptions.defaultIgnoredColor
    ) {
        self.tolerance = tolerance
        self.threshold = threshold
        self.includeAntialiased = includeAntialiased
        self.countAll = countAll
        self.diffImage = diffImage
        self.diffMask = diffMask
        self.diffColor = diffColor
        self.alternateDarker = alternateDarker
        self.antialiasedColor = antialiasedColor
        self.unchangedOpacity = unchangedOpacity
        self.ignoredColor = ignoredColor
    }

    /// The default ``ignoredColor``: (0, 128, 255) at alpha 102 (40 %).
    public static let defaultIgnoredColor = Color(red: 0, green: 128, blue: 255, alpha: 102)

    /// The exact mode with no tolerance, counting all differing pixels.
    public static let exact = DiffOptions()

    /// The perceptual mode with `threshold` (pixelmatch's default 0.1 unless given).
    public static func perceptual(threshold: Double = pixelmatchDefaultThreshold) -> DiffOptions {
        DiffOptions(threshold: threshold)
    }
}
