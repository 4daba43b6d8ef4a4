import Dispatch
import Testing

@testable import BadgeCore

/// ImageDiff's bands of rows (``RowBands``): the same counts, largest channel difference,
/// early stop and diff image whatever order or threads the bands run in.
@Suite struct ImageDiffBandsTests {
    /// 700 × 1200 (840,000 pixels: 13 bands of 93 rows), a gradient with translucent
    /// and clear pixels.
    static let expected: PixelBuffer = {
        var image = PixelBuffer(width: 700, height: 1200, fill: .white)
        for y in 0..<1200 {
            for x in 0..<700 {
                let alpha: UInt8 = x < 20 ? 0 : (x < 60 ? UInt8(x * 4) : 255)
                image[x, y] = Color(
                    red: UInt8(truncatingIfNeeded: x), green: UInt8(truncatingIfNeeded: y),
                    blue: UInt8(truncatingIfNeeded: x ^ y), alpha: alpha)
            }
        }
        return image
    }()

    /// `expected` with: every pixel of row 10 off by 8 in green (band 0, under a
    /// tolerance of 10), a pixel off by 50 at (300, 500) (band 5), a block off by 200
    /// around (100, 1000) (band 10) and anti-aliasing-like edges in band 12.
    static let actual: PixelBuffer = {
        var image = expected
        for x in 0..<700 {
            var pixel = image[x, 10]
            pixel.green = pixel.green &+ 8
            image[x, 10] = pixel
        }
        var pixel = image[300, 500]
        pixel.red = pixel.red &+ 50
        image[300, 500] = pixel
        for y in 995..<1005 {
            for x in 95..<105 {
                var changed = image[x, y]
                changed.blue = changed.blue &+ 200
                image[x, y] = changed
            }
        }
        for y in 1150..<1190 { image[400 + (y % 3), y] = .black }
        return image
    }()

    /// Runs the bands in reverse order, on the calling thread.
    static let reversed = RowBands(workers: 4) { count, body in
        for band in (0..<count).reversed() { body(band) }
    }

    /// Runs the bands on Dispatch's threads, all at once.
    static let concurrent = RowBands(workers: 8) { count, body in
        DispatchQueue.concurrentPerform(iterations: count) { body($0) }
    }

    static let options: [DiffOptions] = [
        .exact, DiffOptions(tolerance: 10), DiffOptions(countAll: false), DiffOptions(tolerance: 10, countAll: false),
        .perceptual(), .perceptual(threshold: 0), DiffOptions(threshold: 0.1, includeAntialiased: true),
        DiffOptions(diffImage: true), DiffOptions(threshold: 0.1, diffImage: true),
        DiffOptions(threshold: 0.1, diffImage: true, diffMask: true),
    ]

    @Test func bandsChangeNothing() throws {
        #expect(RowBands.bandRows(width: 700) == 93)
        var map = IgnoreMap(width: 700, height: 1200)
        map.add(IgnoreRegion(x: 90, y: 990, width: 8, height: 8))
        for options in Self.options {
            for ignoring in [nil, map] {
                let serial = ImageDiff.compare(Self.actual, Self.expected, options: options, ignoring: ignoring)
                for bands in [Self.reversed, Self.concurrent] {
                    let other = ImageDiff.compare(
                        Self.actual, Self.expected, options: options, ignoring: ignoring, bands: bands)
                    #expect(other == serial, "\(options)")
                }
            }
        }
    }

    /// Stopping at the first difference in raster order: band 5's pixel, with the
    /// largest difference of the pixels before it (band 0's 8 and its own 50), not
    /// band 10's 200, even when band 10 runs first.
    @Test func earlyStopIsTheFirstDifferenceInRasterOrder() {
        let options = DiffOptions(tolerance: 10, countAll: false)
        for bands in [RowBands.serial, Self.reversed, Self.concurrent] {
            let result = ImageDiff.compare(Self.actual, Self.expected, options: options, bands: bands)
            #expect(result.stoppedEarly)
            #expect(result.differentPixels == 1)
            #expect(result.maxChannelDelta == 50)
        }
        // Counting instead: (300, 500), the 10 × 10 block and the 40 black pixels, and
        // the largest difference anywhere, computed here pixel by pixel.
        let counted = ImageDiff.compare(
            Self.actual, Self.expected, options: DiffOptions(tolerance: 10), bands: Self.concurrent)
        #expect(counted.differentPixels == 1 + 100 + 40)
        let largest = zip(Self.actual.bytes, Self.expected.bytes).map { abs(Int($0) - Int($1)) }.max()
        #expect(counted.maxChannelDelta == largest)
    }

    /// Both images one buffer (the same file decoded once): equal without reading,
    /// and the diff image is still the faded expected image.
    @Test func oneBufferIsEqualAndStillDrawn() {
        let image = Self.expected
        let alone = ImageDiff.compare(image, image, options: DiffOptions(diffImage: true))
        let copy = PixelBuffer(width: image.width, height: image.height, bytes: Array(image.bytes))
        let copied = ImageDiff.compare(image, copy, options: DiffOptions(diffImage: true))
        #expect(alone.matches && alone.maxChannelDelta == 0)
        #expect(alone == copied)
    }
}
