import Testing

@testable import BadgeCore

/// ImageDiff on small hand-made buffers: both modes, tolerance, alpha, anti-aliasing,
/// early stop, size mismatch and the diff image's colours.
@Suite struct ImageDiffTests {
    static let black = Color.black
    static let white = Color.white
    static let grey = Color(red: 128, green: 128, blue: 128)
    static let blue = Color(red: 0, green: 0, blue: 255)

    /// A 3 × 3 image with nine different colours, some translucent.
    static func patch() -> PixelBuffer {
        var image = PixelBuffer(width: 3, height: 3, fill: .white)
        for y in 0..<3 {
            for x in 0..<3 {
                image[x, y] = Color(
                    red: UInt8(30 * x + 10), green: UInt8(70 * y + 5), blue: UInt8(20 * (x + y)),
                    alpha: UInt8(255 - 40 * x))
            }
        }
        return image
    }

    /// 8 × 5: black in x 0...2, white from x 3, with one anti-aliasing grey at (2, 2).
    static func edge() -> PixelBuffer {
        var image = PixelBuffer(width: 8, height: 5, fill: white)
        for y in 0..<5 {
            for x in 0..<3 { image[x, y] = black }
        }
        image[2, 2] = grey
        return image
    }

    /// `edge()` with the grey gone (a hard edge), (0, 2) turned white (lighter) and
    /// (6, 2) turned black (darker).
    static func edgeChanged() -> PixelBuffer {
        var image = edge()
        image[2, 2] = black
        image[0, 2] = white
        image[6, 2] = black
        return image
    }

    @Test func identicalImagesHaveNoDifference() {
        let image = Self.patch()
        for options in [DiffOptions.exact, .perceptual(threshold: 0), .perceptual()] {
            let result = ImageDiff.compare(image, image, options: options)
            #expect(result.sameSize)
            #expect(result.differentPixels == 0)
            #expect(result.antialiasedPixels == 0)
            #expect(result.maxChannelDelta == 0)
            #expect(result.totalPixels == 9)
            #expect(result.matches)
            #expect(!result.stoppedEarly)
        }
    }

    @Test func onePixelOffIsOneDifference() {
        let expected = Self.patch()
        var actual = expected
        let old = actual[1, 1]
        actual[1, 1] = Color(red: old.red + 10, green: old.green, blue: old.blue - 3, alpha: old.alpha)
        for options in [DiffOptions.exact, .perceptual(threshold: 0)] {
            let result = ImageDiff.compare(actual, expected, options: options)
            #expect(result.differentPixels == 1)
            #expect(result.maxChannelDelta == 10)
            #expect(!result.matches)
        }
    }

    @Test func alphaAloneIsADifference() {
        let expected = PixelBuffer(width: 4, height: 4, fill: .white)
        var actual = expected
        actual[2, 1] = Color(red: 255, green: 255, blue: 255, alpha: 254)
        for options in [DiffOptions.exact, .perceptual(threshold: 0)] {
            let result = ImageDiff.compare(actual, expected, options: options)
            #expect(result.differentPixels == 1)
            #expect(result.maxChannelDelta == 1)
        }
        // Fully transparent white and transparent black are different bytes too.
        let clear = PixelBuffer(width: 2, height: 1, fill: .transparent)
        var clearWhite = clear
        clearWhite[1, 0] = Color(red: 255, green: 255, blue: 255, alpha: 0)
        #expect(ImageDiff.compare(clearWhite, clear, options: .exact).differentPixels == 1)
    }

    @Test func toleranceForgivesNButNotNPlusOne() {
        let expected = Self.patch()
        var actual = expected
        actual[0, 2].green += 5
        actual[2, 0].alpha -= 4
        let forgiving = ImageDiff.compare(actual, expected, options: DiffOptions(tolerance: 5))
        #expect(forgiving.differentPixels == 0)
        #expect(forgiving.maxChannelDelta == 5)
        let strict = ImageDiff.compare(actual, expected, options: DiffOptions(tolerance: 4))
        #expect(strict.differentPixels == 1)
        #expect(strict.maxChannelDelta == 5)
        let exact = ImageDiff.compare(actual, expected, options: DiffOptions(tolerance: 0))
        #expect(exact.differentPixels == 2)
    }

    @Test func lastPixelOfAnOddRowIsCompared() {
        // Width 3 is 12 bytes a row: one 8-byte word and a 4-byte tail.
        let expected = PixelBuffer(width: 3, height: 2, fill: .black)
        var actual = expected
        actual[2, 1] = Color(red: 0, green: 0, blue: 1)
        #expect(ImageDiff.compare(actual, expected, options: .exact).differentPixels == 1)
        #expect(ImageDiff.compare(actual, expected, options: .perceptual(threshold: 0)).differentPixels == 1)
    }

    @Test func antialiasedEdgePixelIsForgivenInPerceptualMode() {
        let expected = Self.edge()
        var actual = expected
        actual[2, 2] = Self.black
        // The grey between black and white is anti-aliasing: forgiven, but reported.
        let perceptual = ImageDiff.compare(actual, expected, options: .perceptual())
        #expect(perceptual.differentPixels == 0)
        #expect(perceptual.antialiasedPixels == 1)
        #expect(perceptual.matches)
        #expect(perceptual.maxChannelDelta == 128)
        // The same in the other order: it is anti-aliased in either image.
        #expect(ImageDiff.compare(expected, actual, options: .perceptual()).antialiasedPixels == 1)
        // Counted once anti-aliasing is included, and always in the exact mode.
        let included = ImageDiff.compare(
            actual, expected, options: DiffOptions(threshold: 0.1, includeAntialiased: true))
        #expect(included.differentPixels == 1)
        #expect(included.antialiasedPixels == 0)
        #expect(ImageDiff.compare(actual, expected, options: .exact).differentPixels == 1)
    }

    @Test func flatAreaChangeIsNotAntialiased() {
        let result = ImageDiff.compare(Self.edgeChanged(), Self.edge(), options: .perceptual())
        #expect(result.differentPixels == 2)
        #expect(result.antialiasedPixels == 1)
        #expect(result.maxChannelDelta == 255)
    }

    @Test func differentSizesAreDifferentWithoutComparing() {
        let actual = PixelBuffer(width: 4, height: 3, fill: .white)
        let expected = PixelBuffer(width: 3, height: 4, fill: .white)
        for options in [DiffOptions(diffImage: true), DiffOptions(threshold: 0.1, diffImage: true)] {
            let result = ImageDiff.compare(actual, expected, options: options)
            #expect(!result.sameSize)
            #expect(!result.matches)
            #expect(result.differentPixels == 0)
            #expect(result.totalPixels == 0)
            #expect(result.maxChannelDelta == 0)
            #expect(result.diff == nil)
            #expect((result.width, result.height, result.expectedWidth, result.expectedHeight) == (4, 3, 3, 4))
        }
    }

    @Test func exactModeStopsAtTheFirstDifference() {
        let expected = PixelBuffer(width: 5, height: 5, fill: .white)
        var actual = expected
        actual[1, 1] = Self.black
        actual[3, 3] = Self.black
        let quick = ImageDiff.compare(actual, expected, options: DiffOptions(countAll: false))
        #expect(quick.stoppedEarly)
        #expect(quick.differentPixels == 1)
        #expect(!quick.matches)
        let all = ImageDiff.compare(actual, expected, options: DiffOptions(countAll: true))
        #expect(!all.stoppedEarly)
        #expect(all.differentPixels == 2)
        // A diff image needs every pixel, so it never stops early.
        let drawn = ImageDiff.compare(actual, expected, options: DiffOptions(countAll: false, diffImage: true))
        #expect(!drawn.stoppedEarly)
        #expect(drawn.differentPixels == 2)
        // Nothing to stop at.
        #expect(!ImageDiff.compare(expected, expected, options: DiffOptions(countAll: false)).stoppedEarly)
    }

    @Test func diffImageColours() throws {
        let options = DiffOptions(threshold: 0.1, diffImage: true, alternateDarker: Self.blue)
        let result = ImageDiff.compare(Self.edgeChanged(), Self.edge(), options: options)
        let diff = try #require(result.diff)
        #expect(diff.width == 8 && diff.height == 5)
        #expect(diff[0, 2] == Color(red: 255, green: 0, blue: 0))  // lighter in the actual image
        #expect(diff[6, 2] == Self.blue)  // darker in the actual image
        #expect(diff[2, 2] == Color(red: 255, green: 255, blue: 0))  // anti-aliased
        // Elsewhere the expected image faded: black 255 + (0 − 255) × 0.1 = 229.5 → 229,
        // white stays 255.
        #expect(diff[0, 0] == Color(red: 229, green: 229, blue: 229))
        #expect(diff[5, 4] == Self.white)
        // Without an alternate colour, darker is red too.
        let plain = ImageDiff.compare(
            Self.edgeChanged(), Self.edge(), options: DiffOptions(threshold: 0.1, diffImage: true))
        #expect(plain.diff?[6, 2] == Color(red: 255, green: 0, blue: 0))
        // The exact mode draws the same differences, with no yellow.
        let exact = ImageDiff.compare(
            Self.edgeChanged(), Self.edge(), options: DiffOptions(diffImage: true, alternateDarker: Self.blue))
        #expect(exact.differentPixels == 3)
        #expect(exact.diff?[2, 2] == Self.blue)
        #expect(exact.diff?[0, 2] == Color(red: 255, green: 0, blue: 0))
        #expect(exact.diff?[0, 0] == Color(red: 229, green: 229, blue: 229))
    }

    @Test func fadedGreyFollowsAlpha() throws {
        // 255 + (Y − 255) × 0.1 × a / 255: a translucent black is fainter, a transparent
        // pixel white; grey 128 gives 255 − 12.7 = 242.3 → 242.
        var expected = PixelBuffer(width: 3, height: 1, fill: .black)
        expected[0, 0] = Color(red: 0, green: 0, blue: 0, alpha: 128)
        expected[1, 0] = .transparent
        expected[2, 0] = Self.grey
        let diff = try #require(ImageDiff.compare(expected, expected, options: DiffOptions(diffImage: true)).diff)
        #expect(diff[0, 0] == Color(red: 242, green: 242, blue: 242))  // 255 − 25.5 × 128/255 = 242.2
        #expect(diff[1, 0] == Self.white)
        #expect(diff[2, 0] == Color(red: 242, green: 242, blue: 242))
    }

    @Test func diffMaskDrawsOnlyDifferences() throws {
        let options = DiffOptions(threshold: 0.1, diffImage: true, diffMask: true)
        let result = ImageDiff.compare(Self.edgeChanged(), Self.edge(), options: options)
        #expect(result.differentPixels == 2)
        let diff = try #require(result.diff)
        #expect(diff[0, 2] == Color(red: 255, green: 0, blue: 0))
        #expect(diff[6, 2] == Color(red: 255, green: 0, blue: 0))
        #expect(diff[2, 2] == .transparent)
        #expect(diff[0, 0] == .transparent)
    }
}
