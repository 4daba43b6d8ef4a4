/// The comparison engine behind golden-image checks (`compare`, `--check`): counts the
/// pixels in which an **actual** image (a fresh render) differs from an **expected** one
/// (the golden), exactly or perceptually, and draws a diff image.
///
/// Both images are straight (not premultiplied) 8-bit RGBA ``PixelBuffer``s; alpha is
/// compared like any channel, so a change of transparency alone is a difference.
///
/// - **Exact mode** (``DiffOptions/threshold`` nil): a pixel differs when some channel
///   differs by more than ``DiffOptions/tolerance``. Rows are compared as memory first and
///   only rows that differ are looked at pixel by pixel.
/// - **Perceptual mode**: pixelmatch v7.1.0's method (mapbox/pixelmatch, ISC), implemented
///   from its published description, so counts match pixelmatch's on the same pair:
///   - colour distance: the YIQ delta of Kotsarenko & Ramos, "Measuring perceived color
///     difference using YIQ NTSC transmission color space in mobile applications" (2010),
///     Y = 0.29889531 dr + 0.58662247 dg + 0.11448223 db,
///     I = 0.59597799 dr − 0.27417610 dg − 0.32180189 db,
///     Q = 0.21147017 dr − 0.52261711 dg + 0.31114694 db,
///     delta = 0.5053 Y² + 0.299 I² + 0.1957 Q²; a pixel differs when
///     delta > 35215 × threshold² (35215: the largest delta, pixelmatch);
///   - translucent pixels (either alpha < 255): each channel difference is
///     (c₁a₁ − c₂a₂ − bg·(a₁ − a₂)) / 255 with a background bg that depends on the byte
///     offset k = 4 × (y × width + x): red 48 + 159 × (k mod 2), green
///     48 + 159 × (⌊k / φ⌋ mod 2), blue 48 + 159 × (⌊k / φ²⌋ mod 2), φ = 1.618033988749895
///     (pixelmatch v7);
///   - anti-aliasing: V. Vysniauskas, "Anti-aliased pixel and intensity slope detector"
///     (2009), as pixelmatch applies it (see `isAntialiased`).
///
/// The expected image plays pixelmatch's `img1` and the actual image its `img2`; the counts
/// do not depend on the order, only the diff image's colours and background do.
///
/// **Diff image**: differing pixels in ``DiffOptions/diffColor`` (red), or in
/// ``DiffOptions/alternateDarker`` when set and the actual pixel is darker (Y of
/// expected − actual, blended as above, is positive); anti-aliased pixels in
/// ``DiffOptions/antialiasedColor`` (yellow); every other pixel the expected image faded to
/// grey, opaque: v = 255 + (Y − 255) × o × a / 255, where Y = 0.29889531 r + 0.58662247 g
/// + 0.11448223 b and a are the expected pixel's, o is ``DiffOptions/unchangedOpacity``
/// (0.1), clamped to 0...255 and truncated to an integer (pixelmatch's formula, truncated
/// as its Node.js output buffers store it). That is the expected pixel's luma blended
/// with white by its alpha, then faded towards white by o. With ``DiffOptions/diffMask``
/// those pixels (and anti-aliased ones) are transparent black instead. Ignored pixels
/// (an ``IgnoreMap``) are that faded grey tinted with ``DiffOptions/ignoredColor``.
///
/// **Ignored pixels** (an ``IgnoreMap``): skipped, never counted as different or
/// anti-aliased, counted in ``DiffResult/ignoredPixels``; ``DiffResult/totalPixels``
/// still counts every pixel. In the perceptual mode only the ignored pixel itself is
/// skipped: the anti-aliasing test of a pixel beside it still reads its values as they
/// are.
///
/// **Speed**: rows are compared 16 bytes (4 pixels) at a time with `SIMD16<UInt8>`, and
/// bands of rows (``RowBands``) run on several threads when the caller passes a runner;
/// a pixel is looked at alone only where its 4-pixel group differs. The results never
/// depend on the number of threads (``RowBands`` says why).
public enum ImageDiff {
    /// Compares `actual` (the fresh image) with `expected` (the golden) as `options` say,
    /// skipping the pixels `ignoring` marks, with the bands of rows run by `bands`.
    ///
    /// Images of different sizes are always different: the result has
    /// ``DiffResult/sameSize`` false, all counts 0 and no diff image, and no pixel is
    /// compared. Cost: one pass over both images (rows that are byte-identical are
    /// skipped 64 bytes at a time; two buffers that are one, as `ImageFile.pair` gives
    /// for files with the same bytes, are not read at all unless a diff image is drawn);
    /// memory: only the diff image, when asked for.
    ///
    /// - Parameter ignoring: pixels not compared, the size of both images (a map of
    ///   another size, when the images are of one size, is a programming error and
    ///   traps); nil or an empty map ignores nothing.
    /// - Parameter bands: how bands of rows are spread over threads; the result is the
    ///   same with any.
    public static func compare(
        _ actual: PixelBuffer, _ expected: PixelBuffer, options: DiffOptions, ignoring: IgnoreMap? = nil,
        bands: RowBands = .serial
    ) -> DiffResult {
        var result = DiffResult(
            sameSize: actual.width == expected.width && actual.height == expected.height, differentPixels: 0,
            antialiasedPixels: 0, totalPixels: 0, maxChannelDelta: 0, width: actual.width, height: actual.height,
            expectedWidth: expected.width, expectedHeight: expected.height, diff: nil, stoppedEarly: false)
        guard result.sameSize else { return result }
        let width = actual.width
        let height = actual.height
        let map = ignoring.flatMap { $0.isEmpty ? nil : $0 }
        if let map {
            precondition(map.width == width && map.height == height, "ignore map size differs from the images'")
        }
        let noFlags: [UInt8] = []
        let count = width * height * 4

        // Every pixel of the diff image is painted, so its buffer starts uninitialised,
        // except for a mask, which leaves the pixels that do not differ transparent.
        func run(into diffOut: UnsafeMutablePointer<UInt8>?) {
            actual.bytes.withUnsafeBufferPointer { actualBytes in
                expected.bytes.withUnsafeBufferPointer { expectedBytes in
                    (map?.flags ?? noFlags).withUnsafeBufferPointer { flags in
                        let frame = Frame(
                            width: width, height: height, ignored: map == nil ? nil : flags.baseAddress,
                            ignoredCount: map?.count ?? 0)
                        let whole = (actual: actualBytes.baseAddress, expected: expectedBytes.baseAddress)
                        scan(
                            frame, options: options, bands: bands, diff: diffOut.map { .whole($0) } ?? .none,
                            step: stepRows(width: width),
                            load: { rows in
                                // Only called for an image with rows, whose buffers exist.
                                let offset = rows.lowerBound * width * 4
                                return (actual: whole.actual! + offset, expected: whole.expected! + offset)
                            }, didCompare: { _ in }, into: &result)
                    }
                }
            }
        }
        if !options.diffImage {
            run(into: nil)
        } else if options.diffMask {
            var diffBytes = [UInt8](repeating: 0, count: count)
            diffBytes.withUnsafeMutableBufferPointer { run(into: $0.baseAddress) }
            result.diff = PixelBuffer(width: width, height: height, bytes: diffBytes)
        } else {
            let diffBytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                run(into: buffer.baseAddress)
                initialized = count
            }
            result.diff = PixelBuffer(width: width, height: height, bytes: diffBytes)
        }
        return result
    }
}

extension ImageDiff {
    /// The two images being compared, as raw bytes of equal size (internal to one call).
    ///
    /// `@unchecked Sendable`: the bands of one comparison read these buffers, which
    /// outlive the call, and never write them.
    struct ImagePair: @unchecked Sendable {
        /// The actual image's RGBA bytes (pixelmatch's `img2`).
        let actual: UnsafePointer<UInt8>
        /// The expected image's RGBA bytes (pixelmatch's `img1`).
        let expected: UnsafePointer<UInt8>
        /// Width (pixels).
        let width: Int
        /// Height (pixels).
        let height: Int
        /// One flag byte per pixel, non-zero where the pixel is ignored; nil when none is.
        let ignored: UnsafePointer<UInt8>?

        /// Bytes per row.
        var rowBytes: Int { width * 4 }

        /// Whether both images are one buffer (the same file's bytes, decoded once):
        /// then every row is equal without reading it.
        var isOneBuffer: Bool { actual == expected }

        /// Whether the pixel at byte offset `k` (pixel index k / 4) is ignored.
        @inline(__always)
        func isIgnored(_ k: Int) -> Bool {
            guard let ignored else { return false }
            return ignored[k >> 2] != 0
        }

        /// Whether row `y` is byte-for-byte the same in both images, compared 64 bytes at
        /// a time (four 16-byte vectors), then 16, then 4.
        func rowsEqual(_ y: Int) -> Bool {
            if isOneBuffer { return true }
            let start = y * rowBytes
            let a = UnsafeRawPointer(actual + start)
            let e = UnsafeRawPointer(expected + start)
            let count = rowBytes
            var offset = 0
            while offset + 64 <= count {
                let differs =
                    Self.xor16(a, e, offset) | Self.xor16(a, e, offset + 16) | Self.xor16(a, e, offset + 32)
                    | Self.xor16(a, e, offset + 48)
                if !Self.isZero(differs) { return false }
                offset += 64
            }
            while offset + 16 <= count {
                if !Self.isZero(Self.xor16(a, e, offset)) { return false }
                offset += 16
            }
            while offset < count {  // widths that are not a multiple of 4 leave 1 to 3 pixels
                if a.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                    != e.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                {
                    return false
                }
                offset += 4
            }
            return true
        }

        /// The 16 bytes at `offset` of `a` and `e`, XORed: zero where they are equal.
        /// (Tests of a whole vector are written with these 64-bit lanes: `==` on a
        /// `SIMD16<UInt8>` compiles to a loop over its lanes, and `any` to a call.)
        @inline(__always)
        static func xor16(_ a: UnsafeRawPointer, _ e: UnsafeRawPointer, _ offset: Int) -> SIMD2<UInt64> {
            a.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self)
                ^ e.loadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self)
        }

        /// Whether every bit of `vector` is 0.
        @inline(__always)
        static func isZero(_ vector: SIMD2<UInt64>) -> Bool { vector[0] | vector[1] == 0 }

        /// Whether the 16 bytes (4 pixels) at byte offset `k` are the same in both images.
        @inline(__always)
        func groupEqual(at k: Int) -> Bool {
            Self.isZero(Self.xor16(UnsafeRawPointer(actual), UnsafeRawPointer(expected), k))
        }

        /// The 16 bytes (4 pixels) at byte offset `k` of the actual and the expected image.
        @inline(__always)
        func group(at k: Int) -> (actual: SIMD16<UInt8>, expected: SIMD16<UInt8>) {
            (
                UnsafeRawPointer(actual + k).loadUnaligned(as: SIMD16<UInt8>.self),
                UnsafeRawPointer(expected + k).loadUnaligned(as: SIMD16<UInt8>.self)
            )
        }

        /// The largest absolute channel difference (alpha included) of the pixel at byte offset `k`.
        @inline(__always)
        func maxChannelDelta(at k: Int) -> Int {
            let dr = abs(Int(actual[k]) - Int(expected[k]))
            let dg = abs(Int(actual[k + 1]) - Int(expected[k + 1]))
            let db = abs(Int(actual[k + 2]) - Int(expected[k + 2]))
            let da = abs(Int(actual[k + 3]) - Int(expected[k + 3]))
            return max(max(dr, dg), max(db, da))
        }
    }

    /// What one band of rows found; combined in band order by the modes.
    struct BandOutcome {
        /// Differing pixels (at most 1 when the band stopped at its first).
        var different = 0
        /// Anti-aliased pixels (perceptual mode).
        var antialiased = 0
        /// The largest channel difference: of the whole band, or up to and including
        /// its first differing pixel when it stopped there.
        var maxDelta = 0
        /// Whether the band stopped at a differing pixel (exact mode, early stop).
        var stopped = false
    }

    /// One slot per band, each written by the one thread that ran the band and read
    /// after all have returned (``RowBands`` joins them), so no lock is needed (hence
    /// `@unchecked Sendable`).
    final class BandOutcomes: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<BandOutcome>

        init(count: Int) {
            slots = .allocate(capacity: max(1, count))
            slots.initialize(repeating: BandOutcome())
        }

        deinit { slots.deallocate() }

        subscript(band: Int) -> BandOutcome {
            get { slots[band] }
            set { slots[band] = newValue }
        }
    }

    /// Draws the diff image (when there is one): colours at differing pixels, the faded
    /// expected image (or, as a mask, nothing) elsewhere. Each band paints its own rows
    /// with its own copy (the copy's one-pixel memory of the last grey is its own).
    ///
    /// `@unchecked Sendable`: bands write disjoint rows of `output`.
    struct DiffPainter: @unchecked Sendable {
        /// Where to draw, or nil when no diff image was asked for.
        let output: UnsafeMutablePointer<UInt8>?
        /// The expected image's RGBA bytes, faded into the background.
        let expected: UnsafePointer<UInt8>
        /// The options' colours and background rule.
        let diffColor: Color
        let darkerColor: Color
        let antialiasedColor: Color
        let mask: Bool
        let opacity: Double
        let ignoredColor: Color
        /// The last expected pixel faded (its RGBA word) and its grey: screenshots and
        /// icons repeat pixels in runs, and the grey depends on the pixel alone.
        private var lastPixel: UInt32 = 0
        private var lastGrey: UInt8 = 0
        private var hasLast = false

        init(output: UnsafeMutablePointer<UInt8>?, expected: UnsafePointer<UInt8>, options: DiffOptions) {
            self.output = output
            self.expected = expected
            diffColor = options.diffColor
            darkerColor = options.alternateDarker ?? options.diffColor
            antialiasedColor = options.antialiasedColor
            mask = options.diffMask
            opacity = options.unchangedOpacity
            ignoredColor = options.ignoredColor
        }

        /// Whether anything is drawn at all.
        var drawing: Bool { output != nil }

        /// A differing pixel at byte offset `k`; `actualDarker` picks the alternate colour.
        @inline(__always)
        func different(_ k: Int, actualDarker: Bool) {
            paint(k, actualDarker ? darkerColor : diffColor)
        }

        /// An anti-aliased pixel at byte offset `k` (not drawn in a mask).
        @inline(__always)
        func antialiased(_ k: Int) {
            if !mask { paint(k, antialiasedColor) }
        }

        /// A pixel that does not differ, at byte offset `k`: the expected pixel faded to grey
        /// (nothing in a mask, which starts transparent).
        @inline(__always)
        mutating func unchanged(_ k: Int) {
            guard let output, !mask else { return }
            let grey = UInt32(fadedGrey(k))
            let word = grey | grey << 8 | grey << 16 | 0xFF00_0000
            UnsafeMutableRawPointer(output + k).storeBytes(of: word.littleEndian, as: UInt32.self)
        }

        /// The 4 pixels from byte offset `k` on, none differing.
        @inline(__always)
        mutating func unchangedGroup(_ k: Int) {
            guard drawing, !mask else { return }
            unchanged(k)
            unchanged(k + 4)
            unchanged(k + 8)
            unchanged(k + 12)
        }

        /// An ignored pixel at byte offset `k`: ``DiffOptions/ignoredColor`` composited
        /// over the faded grey (nothing in a mask).
        @inline(__always)
        mutating func ignored(_ k: Int) {
            guard let output, !mask else { return }
            let grey = Int(fadedGrey(k))
            let a = Int(ignoredColor.alpha)
            @inline(__always) func over(_ c: UInt8) -> UInt8 { UInt8((Int(c) * a + grey * (255 - a) + 127) / 255) }
            output[k] = over(ignoredColor.red)
            output[k + 1] = over(ignoredColor.green)
            output[k + 2] = over(ignoredColor.blue)
            output[k + 3] = 255
        }

        /// The expected pixel at byte offset `k` faded to grey (pixelmatch's formula),
        /// remembered for the next pixel.
        @inline(__always)
        private mutating func fadedGrey(_ k: Int) -> UInt8 {
            let pixel = UnsafeRawPointer(expected + k).loadUnaligned(as: UInt32.self)
            if hasLast && pixel == lastPixel { return lastGrey }
            let luma =
                Double(expected[k]) * 0.29889531 + Double(expected[k + 1]) * 0.58662247 + Double(expected[k + 2])
                * 0.11448223
            let value = 255 + (luma - 255) * opacity * Double(expected[k + 3]) / 255
            let grey = UInt8(min(max(value, 0), 255))  // truncates, as a Uint8Array store does
            lastPixel = pixel
            lastGrey = grey
            hasLast = true
            return grey
        }

        /// Every pixel of row `y` of `images` unchanged, or ignored where the map says so.
        mutating func unchangedRow(_ y: Int, of images: ImagePair) {
            guard drawing, !mask else { return }
            let start = y * images.width * 4
            let end = start + images.width * 4
            if images.ignored == nil {
                for k in stride(from: start, to: end, by: 4) { unchanged(k) }
                return
            }
            for k in stride(from: start, to: end, by: 4) {
                if images.isIgnored(k) { ignored(k) } else { unchanged(k) }
            }
        }

        @inline(__always)
        private func paint(_ k: Int, _ color: Color) {
            guard let output else { return }
            output[k] = color.red
            output[k + 1] = color.green
            output[k + 2] = color.blue
            output[k + 3] = color.alpha
        }
    }
}
