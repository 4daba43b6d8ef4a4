import Testing

@testable import BadgeCore

/// Ignore regions and masks in the comparison engine: which pixels a rectangle covers
/// (pixels, percent, rounding, clipping), the mask rule, their union, the counts of both
/// modes, the early stop and the diff image.
@Suite struct IgnoreRegionTests {
    static let black = Color.black
    static let white = Color.white

    func rect(_ region: IgnoreRegion, _ width: Int, _ height: Int) -> PixelRect? {
        region.pixelRect(width: width, height: height)
    }

    // MARK: - Rectangles

    @Test func wholePixelRectangleCoversExactlyItsPixels() {
        #expect(
            rect(IgnoreRegion(x: 2, y: 1, width: 3, height: 2), 10, 10) == PixelRect(x: 2, y: 1, width: 3, height: 2))
        var map = IgnoreMap(width: 10, height: 10)
        map.add(IgnoreRegion(x: 2, y: 1, width: 3, height: 2))
        #expect(map.count == 6)
        #expect(map[2, 1] && map[4, 2])
        #expect(!map[1, 1] && !map[5, 1] && !map[2, 0] && !map[2, 3])
    }

    @Test func fractionalEdgesWidenToEveryTouchedPixel() {
        // x0 = ⌊1.5⌋ = 1, x1 = ⌈1.5 + 2⌉ = 4; y0 = ⌊0.25⌋ = 0, y1 = ⌈0.25 + 0.5⌉ = 1.
        let region = IgnoreRegion(x: .pixels(1.5), y: .pixels(0.25), width: .pixels(2), height: .pixels(0.5))
        #expect(rect(region, 10, 10) == PixelRect(x: 1, y: 0, width: 3, height: 1))
    }

    @Test func percentagesResolveAgainstWidthAndHeight() {
        // 12.5 % of 48 is 6; 50 % of a height of 20 is 10; 25 % of 48 is 12, of 20 is 5.
        let region = IgnoreRegion(x: .percent(12.5), y: .percent(50), width: .percent(25), height: .percent(25))
        #expect(rect(region, 48, 20) == PixelRect(x: 6, y: 10, width: 12, height: 5))
        // 10 % of 25 is 2.5: columns 2 (partly covered) up to ⌈5⌉ = 5.
        let half = IgnoreRegion(x: .percent(10), y: .pixels(0), width: .percent(10), height: .pixels(1))
        #expect(rect(half, 25, 4) == PixelRect(x: 2, y: 0, width: 3, height: 1))
    }

    @Test func binaryNoiseOnAWholePixelDoesNotAddAColumn() {
        // 10 % of 30 is exactly 3 (10 × 30 / 100, not 0.1 × 30 = 3.0000000000000004);
        // 33.3 % of 1000 is 333.0000000000000x in binary, an edge within 10⁻⁶ of 333.
        #expect(
            rect(IgnoreRegion(x: .percent(10), y: .pixels(0), width: .percent(10), height: .pixels(1)), 30, 1)
                == PixelRect(x: 3, y: 0, width: 3, height: 1))
        #expect(
            rect(IgnoreRegion(x: .pixels(0), y: .pixels(0), width: .percent(33.3), height: .pixels(1)), 1000, 1)
                == PixelRect(x: 0, y: 0, width: 333, height: 1))
        #expect(
            rect(IgnoreRegion(x: .percent(33.3), y: .pixels(0), width: .pixels(1), height: .pixels(1)), 1000, 1)
                == PixelRect(x: 333, y: 0, width: 1, height: 1))
    }

    @Test func rectanglesAreClippedToTheImage() {
        #expect(
            rect(IgnoreRegion(x: 8, y: 3, width: 10, height: 10), 10, 5) == PixelRect(x: 8, y: 3, width: 2, height: 2))
        #expect(
            rect(IgnoreRegion(x: .percent(50), y: .pixels(0), width: .percent(100), height: .percent(100)), 10, 5)
                == PixelRect(x: 5, y: 0, width: 5, height: 5))
        // Wholly outside: nothing.
        #expect(rect(IgnoreRegion(x: 10, y: 0, width: 3, height: 3), 10, 5) == nil)
        #expect(rect(IgnoreRegion(x: 0, y: 7, width: 3, height: 3), 10, 5) == nil)
        var map = IgnoreMap(width: 10, height: 5)
        map.add(IgnoreRegion(x: 10, y: 0, width: 3, height: 3))
        #expect(map.isEmpty)
        map.add(IgnoreRegion(x: 8, y: 3, width: 10, height: 10))
        #expect(map.count == 4)
    }

    // MARK: - Mask rule and union

    @Test func maskRuleIsRec709LumaOverBlackBelow128() {
        #expect(!IgnoreMap.maskIgnores(Self.white))
        #expect(IgnoreMap.maskIgnores(Self.black))
        #expect(IgnoreMap.maskIgnores(Color(red: 255, green: 255, blue: 255, alpha: 0)))  // transparent white
        #expect(IgnoreMap.maskIgnores(.transparent))
        #expect(!IgnoreMap.maskIgnores(Color(red: 128, green: 128, blue: 128)))  // 128 is not below 128
        #expect(IgnoreMap.maskIgnores(Color(red: 127, green: 127, blue: 127)))
        // White at alpha 128 is luma 128 over black (compared), at alpha 127 luma 127.
        #expect(!IgnoreMap.maskIgnores(Color(red: 255, green: 255, blue: 255, alpha: 128)))
        #expect(IgnoreMap.maskIgnores(Color(red: 255, green: 255, blue: 255, alpha: 127)))
        // Rec. 709 weights: green 0.7152 × 255 = 182 (compared), red 54 and blue 18 (ignored).
        #expect(!IgnoreMap.maskIgnores(Color(red: 0, green: 255, blue: 0)))
        #expect(IgnoreMap.maskIgnores(Color(red: 255, green: 0, blue: 0)))
        #expect(IgnoreMap.maskIgnores(Color(red: 0, green: 0, blue: 255)))
        // Red + blue = 72.5: still ignored; with green 80 (57.2 more) compared.
        #expect(IgnoreMap.maskIgnores(Color(red: 255, green: 0, blue: 255)))
        #expect(!IgnoreMap.maskIgnores(Color(red: 255, green: 80, blue: 255)))
    }

    @Test func regionsAndMaskCombineAsAUnion() throws {
        // Mask: white, with a black 2 × 2 block at (0, 0) and a transparent pixel at (5, 3).
        var mask = PixelBuffer(width: 6, height: 4, fill: Self.white)
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] { mask[x, y] = Self.black }
        mask[5, 3] = .transparent
        // The rectangle overlaps the black block by one column.
        let map = try IgnoreMap(
            width: 6, height: 4, regions: [IgnoreRegion(x: 1, y: 0, width: 2, height: 2)], mask: mask)
        // Rectangle 4 pixels, mask 5, overlap 2 (column 1): 7.
        #expect(map.count == 7)
        for (x, y) in [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (5, 3)] { #expect(map[x, y], "(\(x), \(y))") }
        #expect(!map[3, 0] && !map[0, 2] && !map[4, 3])
    }

    @Test func maskOfAnotherSizeIsBadInputNamingBothSizes() {
        let mask = PixelBuffer(width: 5, height: 4, fill: Self.white)
        #expect {
            try IgnoreMap(width: 6, height: 4, regions: [], mask: mask, maskPath: "m.png")
        } throws: { error in
            guard let error = error as? BadgeError else { return false }
            return error.exitCode == .dataError && error.message.contains("\"m.png\"")
                && error.message.contains("5 × 4") && error.message.contains("6 × 4")
        }
    }

    // MARK: - Counts

    /// 6 × 4 white, actual with black pixels at (1, 1), (4, 1) and (4, 2).
    static func pair() -> (actual: PixelBuffer, expected: PixelBuffer) {
        let expected = PixelBuffer(width: 6, height: 4, fill: white)
        var actual = expected
        actual[1, 1] = black
        actual[4, 1] = black
        actual[4, 2] = Color(red: 250, green: 250, blue: 250)
        return (actual, expected)
    }

    @Test func exactModeNeverCountsIgnoredPixels() throws {
        let (actual, expected) = Self.pair()
        let plain = ImageDiff.compare(actual, expected, options: .exact)
        #expect(plain.differentPixels == 3 && plain.maxChannelDelta == 255 && plain.ignoredPixels == 0)
        // Ignore the right half (x 3...5): (4, 1) and (4, 2) drop out.
        let map = try IgnoreMap(
            width: 6, height: 4,
            regions: [IgnoreRegion(x: .percent(50), y: .pixels(0), width: .percent(50), height: .percent(100))])
        let ignored = ImageDiff.compare(actual, expected, options: .exact, ignoring: map)
        #expect(ignored.differentPixels == 1)
        #expect(ignored.ignoredPixels == 12)
        #expect(ignored.totalPixels == 24)  // all pixels, ignored ones included
        // Ignore (1, 1) too: what is left differs by 0, and the largest delta covers only
        // compared pixels.
        var both = map
        both.add(IgnoreRegion(x: 1, y: 1, width: 1, height: 1))
        let none = ImageDiff.compare(actual, expected, options: .exact, ignoring: both)
        #expect(none.differentPixels == 0 && none.matches)
        #expect(none.maxChannelDelta == 0)
        #expect(none.ignoredPixels == 13)
        // Only (4, 2) compared: 5 is its delta.
        let one = try IgnoreMap(
            width: 6, height: 4,
            regions: [IgnoreRegion(x: 0, y: 0, width: 6, height: 2), IgnoreRegion(x: 0, y: 2, width: 4, height: 2)])
        let small = ImageDiff.compare(actual, expected, options: .exact, ignoring: one)
        #expect(small.differentPixels == 1 && small.maxChannelDelta == 5)
        // An empty map is no map.
        #expect(ImageDiff.compare(actual, expected, options: .exact, ignoring: IgnoreMap(width: 6, height: 4)) == plain)
    }

    @Test func perceptualModeSkipsIgnoredPixelsButNotTheirValues() throws {
        // ImageDiffTests' edge: (0, 2) and (6, 2) differ, (2, 2) is anti-aliased.
        let actual = ImageDiffTests.edgeChanged()
        let expected = ImageDiffTests.edge()
        let plain = ImageDiff.compare(actual, expected, options: .perceptual())
        #expect(plain.differentPixels == 2 && plain.antialiasedPixels == 1)
        // Ignoring the anti-aliased pixel: it is not counted as anti-aliased either.
        let aa = ImageDiff.compare(
            actual, expected, options: .perceptual(),
            ignoring: try IgnoreMap(width: 8, height: 5, regions: [IgnoreRegion(x: 2, y: 2, width: 1, height: 1)]))
        #expect(aa.differentPixels == 2 && aa.antialiasedPixels == 0 && aa.ignoredPixels == 1)
        // Ignoring (0, 2), a changed neighbour of the anti-aliased pixel: (2, 2) is still
        // found anti-aliased, its test reading (0, 2)'s column as it is.
        let neighbour = ImageDiff.compare(
            actual, expected, options: .perceptual(),
            ignoring: try IgnoreMap(width: 8, height: 5, regions: [IgnoreRegion(x: 0, y: 0, width: 2, height: 5)]))
        #expect(neighbour.differentPixels == 1 && neighbour.antialiasedPixels == 1)
        #expect(neighbour.ignoredPixels == 10)
        #expect(neighbour.totalPixels == 40)
    }

    @Test func earlyStopSkipsIgnoredDifferences() throws {
        let (actual, expected) = Self.pair()
        let quick = DiffOptions(countAll: false)
        // (1, 1), the first difference, is ignored: the stop comes at (4, 1).
        let first = try IgnoreMap(width: 6, height: 4, regions: [IgnoreRegion(x: 1, y: 1, width: 1, height: 1)])
        let stopped = ImageDiff.compare(actual, expected, options: quick, ignoring: first)
        #expect(stopped.stoppedEarly && stopped.differentPixels == 1 && !stopped.matches)
        #expect(stopped.ignoredPixels == 1)
        // Every difference ignored: no stop, a match.
        let all = try IgnoreMap(
            width: 6, height: 4,
            regions: [IgnoreRegion(x: 1, y: 1, width: 1, height: 1), IgnoreRegion(x: 4, y: 1, width: 1, height: 2)])
        let none = ImageDiff.compare(actual, expected, options: quick, ignoring: all)
        #expect(!none.stoppedEarly && none.matches && none.differentPixels == 0)
    }

    // MARK: - Diff image

    @Test func ignoredPixelsAreTintedInTheDiffImage() throws {
        let (actual, expected) = Self.pair()
        var darkExpected = expected
        darkExpected[0, 3] = Self.black
        var darkActual = actual
        darkActual[0, 3] = Self.black
        let map = try IgnoreMap(
            width: 6, height: 4,
            regions: [IgnoreRegion(x: 4, y: 1, width: 1, height: 1), IgnoreRegion(x: 0, y: 3, width: 2, height: 1)])
        for options in [DiffOptions(diffImage: true), DiffOptions(threshold: 0.1, diffImage: true)] {
            let result = ImageDiff.compare(darkActual, darkExpected, options: options, ignoring: map)
            let diff = try #require(result.diff)
            // (0, 128, 255) at alpha 102 over faded white 255: (153, 204.6, 255) → (153, 204, 255).
            #expect(diff[4, 1] == Color(red: 153, green: 204, blue: 255), "a differing pixel, ignored: not red")
            #expect(diff[1, 3] == Color(red: 153, green: 204, blue: 255))
            // Over faded black 229: ((0 × 102 + 229 × 153 + 127) / 255, …) = (137, 189, 239).
            #expect(diff[0, 3] == Color(red: 137, green: 189, blue: 239))
            // Not ignored: red where different, the faded grey elsewhere.
            #expect(diff[1, 1] == Color(red: 255, green: 0, blue: 0))
            #expect(diff[0, 0] == Self.white)
        }
        // The colour is an option; opaque draws flat. A mask leaves ignored pixels transparent.
        let flat = ImageDiff.compare(
            actual, expected, options: DiffOptions(diffImage: true, ignoredColor: Color(rgb: 0x0080FF)), ignoring: map)
        #expect(flat.diff?[4, 1] == Color(rgb: 0x0080FF))
        let masked = ImageDiff.compare(
            actual, expected, options: DiffOptions(diffImage: true, diffMask: true), ignoring: map)
        #expect(masked.diff?[4, 1] == .transparent)
        #expect(masked.diff?[1, 1] == Color(red: 255, green: 0, blue: 0))
    }

    @Test func diffImageBytesAreUnchangedWhenNothingIsIgnored() throws {
        let actual = ImageDiffTests.edgeChanged()
        let expected = ImageDiffTests.edge()
        for options in [DiffOptions(diffImage: true), DiffOptions(threshold: 0.1, diffImage: true)] {
            let plain = try #require(ImageDiff.compare(actual, expected, options: options).diff)
            let empty = ImageDiff.compare(actual, expected, options: options, ignoring: IgnoreMap(width: 8, height: 5))
            #expect(empty.diff == plain)
            // A region outside the image ignores nothing either.
            let outside = ImageDiff.compare(
                actual, expected, options: options,
                ignoring: try IgnoreMap(width: 8, height: 5, regions: [IgnoreRegion(x: 8, y: 0, width: 4, height: 4)]))
            #expect(outside.diff == plain && outside.ignoredPixels == 0)
            // With a region, every pixel outside it is the same bytes as without one.
            let some = try #require(
                ImageDiff.compare(
                    actual, expected, options: options,
                    ignoring: try IgnoreMap(
                        width: 8, height: 5, regions: [IgnoreRegion(x: 5, y: 1, width: 2, height: 2)])
                ).diff)
            for y in 0..<5 {
                for x in 0..<8 where !(5...6).contains(x) || !(1...2).contains(y) {
                    #expect(some[x, y] == plain[x, y], "(\(x), \(y))")
                }
            }
            #expect(some[6, 2] != plain[6, 2])
        }
    }

    // MARK: - Stored colour under alpha 0

    /// 8 × 5: black column 0, column 1 black / grey / white / grey / black, the centre
    /// (2, 2) grey (white in the actual image), everything else transparent with a
    /// different colour stored under each pixel (or none, `hidden` false).
    static func transparentEdge(centre: Color, hidden: Bool) -> PixelBuffer {
        var image = PixelBuffer(width: 8, height: 5, fill: .transparent)
        let grey = Color(red: 128, green: 128, blue: 128)
        for y in 0..<5 {
            image[0, y] = black
            for x in 2..<8 where hidden {
                image[x, y] = Color(red: UInt8(30 * x), green: UInt8(40 * y), blue: 7, alpha: 0)
            }
        }
        for (y, color) in [black, grey, white, grey, black].enumerated() { image[1, y] = color }
        image[2, 2] = centre
        return image
    }

    /// pixelmatch's sibling test compares raw 32-bit values: the transparent pixel that
    /// is the centre's darkest neighbour has three equal neighbours when transparent
    /// pixels are all (0, 0, 0, 0), none when each stores its own colour. So the
    /// changed centre is anti-aliased in the first case and a difference in the second;
    /// its own colour delta is the same in both. pixelmatch v7.1.0's index.js, run on
    /// the same arrays, counts the same (0 and 1 at threshold 0.1).
    @Test func storedColourUnderAlphaZeroChangesTheSiblingTest() {
        let grey = Color(red: 128, green: 128, blue: 128)
        let cleared = ImageDiff.compare(
            Self.transparentEdge(centre: Self.white, hidden: false), Self.transparentEdge(centre: grey, hidden: false),
            options: .perceptual())
        #expect(cleared.differentPixels == 0 && cleared.antialiasedPixels == 1)
        let stored = ImageDiff.compare(
            Self.transparentEdge(centre: Self.white, hidden: true), Self.transparentEdge(centre: grey, hidden: true),
            options: .perceptual())
        #expect(stored.differentPixels == 1 && stored.antialiasedPixels == 0)
        // A hidden colour that changes is no colour delta in the perceptual mode (alpha
        // blends it away), but a difference in the exact mode.
        let hiddenOnly = Self.transparentEdge(centre: grey, hidden: true)
        let clearedOnly = Self.transparentEdge(centre: grey, hidden: false)
        #expect(ImageDiff.compare(hiddenOnly, clearedOnly, options: .perceptual(threshold: 0)).differentPixels == 0)
        #expect(ImageDiff.compare(hiddenOnly, clearedOnly, options: .exact).differentPixels == 29)
    }
}
