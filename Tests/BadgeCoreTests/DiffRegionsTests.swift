import Dispatch
import Testing

@testable import BadgeCore

/// Regions of differing pixels (``DiffRegions``): the 4 px rule, boxes and counts, the
/// order, the 20 kept, against a plain flood fill; and the streamed comparison, which
/// must give what the in-memory one gives.
@Suite struct DiffRegionsTests {
    /// A `width` × `height` white image and a copy with `pixels` black.
    static func pair(width: Int, height: Int, pixels: [(Int, Int)]) -> (PixelBuffer, PixelBuffer) {
        let expected = PixelBuffer(width: width, height: height, fill: .white)
        var actual = expected
        for (x, y) in pixels { actual[x, y] = .black }
        return (actual, expected)
    }

    static func regions(width: Int, height: Int, _ pixels: [(Int, Int)]) -> DiffRegions? {
        let (actual, expected) = pair(width: width, height: height, pixels: pixels)
        return ImageDiff.compare(actual, expected, options: .exact).regions
    }

    /// A box of pixels from (x, y), `width` × `height`, all set.
    static func block(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> [(Int, Int)] {
        (y..<(y + height)).flatMap { row in (x..<(x + width)).map { ($0, row) } }
    }

    @Test func pixelsWithinFourPixelsAreOneRegion() throws {
        // 4 apart (3 unchanged between): one region; 5 apart: two. Across, down, diagonal.
        for (a, b, joined) in [
            ((10, 10), (14, 10), true), ((10, 10), (15, 10), false), ((10, 10), (10, 14), true),
            ((10, 10), (10, 15), false), ((10, 10), (14, 14), true), ((10, 10), (15, 14), false),
            ((14, 10), (10, 14), true), ((15, 10), (10, 14), false),
        ] {
            let found = try #require(Self.regions(width: 30, height: 30, [a, b]))
            #expect(found.count == (joined ? 1 : 2), "\(a) \(b)")
            if joined {
                let box = found.largest[0]
                #expect(box.x == min(a.0, b.0) && box.y == min(a.1, b.1) && box.pixels == 2)
                #expect(box.width == abs(a.0 - b.0) + 1 && box.height == abs(a.1 - b.1) + 1)
            }
        }
    }

    @Test func boxesCountsAndOrder() throws {
        // A 12 × 8 block at (30, 0), a 3 × 3 block at (0, 20), a lone pixel at (50, 50),
        // and a U whose arms meet only at the bottom (joined after both were started).
        var pixels = Self.block(30, 0, 12, 8) + Self.block(0, 20, 3, 3) + [(50, 50)]
        pixels += Self.block(10, 40, 1, 10) + Self.block(20, 40, 1, 10) + Self.block(10, 50, 11, 1)
        let found = try #require(Self.regions(width: 64, height: 64, pixels))
        #expect(found.count == 4)
        #expect(
            found.largest == [
                DiffRegion(x: 30, y: 0, width: 12, height: 8, pixels: 96),
                DiffRegion(x: 10, y: 40, width: 11, height: 11, pixels: 31),
                DiffRegion(x: 0, y: 20, width: 3, height: 3, pixels: 9),
                DiffRegion(x: 50, y: 50, width: 1, height: 1, pixels: 1),
            ])
        #expect(found.summary == "4 regions, the largest 12 × 8 at 30,0")
        #expect(try #require(Self.regions(width: 8, height: 8, [(3, 4)])).summary == "1 region, 1 × 1 at 3,4")
        #expect(Self.regions(width: 8, height: 8, []) == DiffRegions.none)
    }

    @Test func onlyTheTwentyLargestAreKeptAndAllAreCounted() throws {
        // 100 blocks of 1 to 100 pixels (a row of n pixels each), 6 px apart.
        var pixels: [(Int, Int)] = []
        for n in 1...100 {
            let y = (n - 1) * 6
            pixels += (0..<n).map { ($0, y) }
        }
        let found = try #require(Self.regions(width: 100, height: 600, pixels))
        #expect(found.count == 100)
        #expect(found.largest.count == DiffRegions.kept)
        #expect(found.largest.map(\.pixels) == Array((81...100).reversed()))
    }

    @Test func noRegionsWhenTheComparisonStoppedOrTheSizesDiffer() {
        let (actual, expected) = Self.pair(width: 8, height: 8, pixels: [(1, 1)])
        #expect(ImageDiff.compare(actual, expected, options: DiffOptions(countAll: false)).regions == nil)
        let other = PixelBuffer(width: 9, height: 8, fill: .white)
        #expect(ImageDiff.compare(actual, other, options: .exact).regions == nil)
        // The perceptual mode always counts: its regions are the counted pixels.
        let perceptual = ImageDiff.compare(actual, expected, options: .perceptual())
        #expect(perceptual.regions?.count == 1)
    }

    /// A plain flood fill over the Chebyshev-4 neighbourhood, the rule as written.
    static func floodFill(width: Int, height: Int, _ set: Set<Int>) -> [DiffRegion] {
        var seen = Set<Int>()
        var found: [DiffRegion] = []
        for start in set.sorted() where !seen.contains(start) {
            var stack = [start]
            seen.insert(start)
            var box = (minX: Int.max, minY: Int.max, maxX: -1, maxY: -1, pixels: 0)
            while let index = stack.popLast() {
                let x = index % width
                let y = index / width
                box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y), box.pixels + 1)
                for dy in -4...4 {
                    for dx in -4...4 {
                        let nx = x + dx
                        let ny = y + dy
                        guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
                        let other = ny * width + nx
                        if set.contains(other) && seen.insert(other).inserted { stack.append(other) }
                    }
                }
            }
            found.append(
                DiffRegion(
                    x: box.minX, y: box.minY, width: box.maxX - box.minX + 1, height: box.maxY - box.minY + 1,
                    pixels: box.pixels))
        }
        return found.sorted()
    }

    /// A fixed pseudo-random sequence (SplitMix64), so the test is the same every run.
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func sameRegionsAsAFloodFill() throws {
        var random = SplitMix(state: 36)
        for round in 0..<40 {
            let width = 20 + Int(random.next() % 140)
            let height = 10 + Int(random.next() % 60)
            let density = 1 + Int(random.next() % 12)  // percent
            var set = Set<Int>()
            for index in 0..<(width * height) where Int(random.next() % 100) < density { set.insert(index) }
            let pixels = set.map { ($0 % width, $0 / width) }
            let found = try #require(Self.regions(width: width, height: height, pixels))
            let expected = Self.floodFill(width: width, height: height, set)
            #expect(found.count == expected.count, "round \(round)")
            #expect(found.largest == Array(expected.prefix(DiffRegions.kept)), "round \(round)")
        }
    }

    /// 300 × 700: a gradient with translucent pixels, and changes across many steps.
    static let expected: PixelBuffer = {
        var image = PixelBuffer(width: 300, height: 700, fill: .white)
        for y in 0..<700 {
            for x in 0..<300 {
                image[x, y] = Color(
                    red: UInt8(truncatingIfNeeded: x), green: UInt8(truncatingIfNeeded: y),
                    blue: UInt8(truncatingIfNeeded: x ^ y), alpha: x < 30 ? UInt8(x * 8) : 255)
            }
        }
        return image
    }()

    static let actual: PixelBuffer = {
        var image = expected
        for y in stride(from: 0, to: 700, by: 37) {
            for x in 0..<(y % 300) where x % 7 < 3 { image[x, y] = Color(red: 255, green: 0, blue: 0) }
        }
        for y in 200..<260 { image[150 + y % 3, y] = .black }
        for x in 0..<300 { image[x, 699] = .black }
        return image
    }()

    /// The streamed comparison, with a reader that copies the rows asked for into its
    /// own window (as a decoder does): the same result as in memory, and the same diff
    /// rows, in steps of 1, 7 and 64 rows.
    @Test func streamedComparisonEqualsTheInMemoryOne() throws {
        var map = IgnoreMap(width: 300, height: 700)
        map.add(IgnoreRegion(x: 140, y: 220, width: 20, height: 10))
        let options: [DiffOptions] = [
            .exact, DiffOptions(tolerance: 10), DiffOptions(countAll: false), .perceptual(),
            DiffOptions(threshold: 0.05, includeAntialiased: true), DiffOptions(diffImage: true),
            DiffOptions(threshold: 0.1, diffImage: true), DiffOptions(threshold: 0.1, diffImage: true, diffMask: true),
        ]
        let concurrent = RowBands(workers: 4) { count, body in
            DispatchQueue.concurrentPerform(iterations: count) { body($0) }
        }
        for option in options {
            for ignoring in [nil, map] {
                let whole = ImageDiff.compare(Self.actual, Self.expected, options: option, ignoring: ignoring)
                for step in [1, 7, 64] {
                    for bands in [RowBands.serial, concurrent] {
                        var diff: [UInt8] = []
                        let windowA = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: (step + 4) * 1200)
                        let windowE = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: (step + 4) * 1200)
                        defer {
                            windowA.deallocate()
                            windowE.deallocate()
                        }
                        let streamed = ImageDiff.compare(
                            width: 300, height: 700, expectedWidth: 300, expectedHeight: 700, options: option,
                            ignoring: ignoring, bands: bands, stepRows: step,
                            load: { rows in
                                #expect(rows.count <= step + 2 * ImageDiff.contextRows)
                                let bytes = rows.lowerBound * 1200..<rows.upperBound * 1200
                                _ = windowA.update(fromContentsOf: Self.actual.bytes[bytes])
                                _ = windowE.update(fromContentsOf: Self.expected.bytes[bytes])
                                return (UnsafePointer(windowA.baseAddress!), UnsafePointer(windowE.baseAddress!))
                            },
                            didCompare: { band in
                                if let rows = band.diff {
                                    diff += UnsafeBufferPointer(start: rows, count: band.rows.count * 1200)
                                }
                            })
                        var expected = whole
                        expected.diff = nil
                        #expect(streamed == expected, "\(option), step \(step)")
                        if let drawn = whole.diff { #expect(diff == drawn.bytes, "\(option), step \(step)") }
                    }
                }
            }
        }
    }
}

extension DiffRegionsTests {
    /// An image of several steps (2000 × 1100: steps of 512 rows), compared in memory:
    /// every count equals one made pixel by pixel here, in each step.
    @Test func inMemoryComparisonOfSeveralStepsCountsEveryPixelOnce() throws {
        #expect(ImageDiff.stepRows(width: 2000) == 512)
        var expected = PixelBuffer(width: 2000, height: 1100, fill: .white)
        for y in stride(from: 0, to: 1100, by: 3) { expected[y % 2000, y] = .black }
        var actual = expected
        // Changes in each step, none in rows 1024 and later.
        for (x, y) in [(5, 5), (1999, 511), (0, 512), (700, 800), (1500, 1023)] {
            actual[x, y] = Color(red: 9, green: 9, blue: 9)
        }
        var counted = 0
        for index in stride(from: 0, to: actual.bytes.count, by: 4)
        where actual.bytes[index..<(index + 4)] != expected.bytes[index..<(index + 4)] {
            counted += 1
        }
        #expect(counted == 5)
        for options in [
            DiffOptions.exact, DiffOptions(threshold: 0, includeAntialiased: true), DiffOptions(diffImage: true),
        ] {
            let result = ImageDiff.compare(actual, expected, options: options)
            #expect(result.differentPixels == 5, "\(options)")
            #expect(result.regions?.count == 5, "\(options)")
        }
        // The diff image's last rows are the faded expected image, not another step's.
        let diff = try #require(ImageDiff.compare(actual, expected, options: DiffOptions(diffImage: true)).diff)
        #expect(diff[1500, 1023] == Color(red: 255, green: 0, blue: 0))
        #expect(diff[0, 1099] == Color(red: 255, green: 255, blue: 255))
    }
}
