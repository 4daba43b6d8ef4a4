/// What ``ImageDiff/compare(_:_:options:)`` found: the counts, the largest channel change
/// and, when asked for, the diff image.
public struct DiffResult: Equatable, Sendable {
    /// Whether the two images have the same width and height. When false nothing else was
    /// compared (all counts are 0) and the images are different.
    public var sameSize: Bool

    /// Pixels that differ: beyond ``DiffOptions/tolerance`` in the exact mode, beyond the
    /// threshold and not anti-aliased (unless included) in the perceptual mode. 0 when the
    /// sizes differ.
    public var differentPixels: Int

    /// Perceptual mode: pixels beyond the threshold that look anti-aliased in either image
    /// (Vysniauskas 2009), so not counted in ``differentPixels``. Always 0 in the exact mode
    /// and with ``DiffOptions/includeAntialiased``.
    public var antialiasedPixels: Int

    /// All pixels of the image, width × height, ignored ones included (a ratio budget
    /// such as Playwright's `maxDiffPixelRatio` divides by all pixels); 0 when the sizes
    /// differ.
    public var totalPixels: Int

    /// Pixels the ignore map covers (``IgnoreMap/count``), whether or not they differ:
    /// never compared, never in ``differentPixels``, ``antialiasedPixels`` or
    /// ``maxChannelDelta``. 0 without a map and when the sizes differ; not cut short by
    /// an early stop.
    public var ignoredPixels: Int

    /// The largest absolute difference of one straight 8-bit channel (R, G, B or A) between
    /// the two images, 0-255, in either mode. 0 when the sizes differ; when ``stoppedEarly``
    /// it covers only the pixels up to the first difference, so it is a lower bound.
    public var maxChannelDelta: Int

    /// Width of the actual image (pixels).
    public var width: Int
    /// Height of the actual image (pixels).
    public var height: Int
    /// Width of the expected image (pixels).
    public var expectedWidth: Int
    /// Height of the expected image (pixels).
    public var expectedHeight: Int

    /// The diff image (straight RGBA, the size of both images) when
    /// ``DiffOptions/diffImage`` was set and the sizes match; otherwise nil.
    public var diff: PixelBuffer?

    /// Whether the exact mode stopped at the first differing pixel (``DiffOptions/countAll``
    /// false): ``differentPixels`` is then 1 and means "at least one".
    public var stoppedEarly: Bool

    /// Where the counted pixels differ (``DiffRegions``: regions of differing pixels
    /// within 4 px of each other, the 20 largest kept): empty when none differ; nil
    /// when the sizes differ or the exact mode stopped at the first difference.
    public var regions: DiffRegions?

    /// Creates a result; ``ImageDiff`` is what normally makes one.
    public init(
        sameSize: Bool, differentPixels: Int, antialiasedPixels: Int, totalPixels: Int, maxChannelDelta: Int,
        width: Int, height: Int, expectedWidth: Int, expectedHeight: Int, diff: PixelBuffer?, stoppedEarly: Bool,
        ignoredPixels: Int = 0, regions: DiffRegions? = nil
    ) {
        self.sameSize = sameSize
        self.differentPixels = differentPixels
        self.antialiasedPixels = antialiasedPixels
        self.totalPixels = totalPixels
        self.maxChannelDelta = maxChannelDelta
        self.width = width
        self.height = height
        self.expectedWidth = expectedWidth
        self.expectedHeight = expectedHeight
        self.diff = diff
        self.stoppedEarly = stoppedEarly
        self.ignoredPixels = ignoredPixels
        self.regions = regions
    }

    /// Whether the images count as the same: same size and no differing pixel (anti-aliased
    /// pixels, when not included, do not make them differ).
    public var matches: Bool { sameSize && differentPixels == 0 }
}
