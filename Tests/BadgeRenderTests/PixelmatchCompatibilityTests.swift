import BadgeCore
import BadgeRender
import TestSupport
import Testing

/// The perceptual mode counts what pixelmatch v7.1.0 counts: one case per row of
/// `Fixtures/corpus/pixelmatch/EXPECTED.md`, on pixelmatch's own fixtures, with the
/// counts its test suite asserts (anti-aliasing detection on).
@Suite struct PixelmatchCompatibilityTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let first: String
        let second: String
        let threshold: Double
        let mask: Bool
        let mismatched: Int

        init(_ first: String, _ second: String, threshold: Double, mask: Bool = false, mismatched: Int) {
            self.first = first
            self.second = second
            self.threshold = threshold
            self.mask = mask
            self.mismatched = mismatched
        }

        var testDescription: String {
            "\(first) vs \(second), threshold \(threshold)\(mask ? ", diff mask" : ""): \(mismatched)"
        }
    }

    static let rows: [Row] = [
        Row("1a", "1b", threshold: 0.05, mismatched: 143),
        Row("1a", "1b", threshold: 0.1, mismatched: 106),
        Row("1a", "1b", threshold: 0.05, mask: true, mismatched: 143),
        Row("1a", "1a", threshold: 0, mismatched: 0),
        Row("2a", "2b", threshold: 0.05, mismatched: 12437),
        Row("3a", "3b", threshold: 0.05, mismatched: 212),
        Row("4a", "4b", threshold: 0.05, mismatched: 36049),
        Row("5a", "5b", threshold: 0.05, mismatched: 6),
        Row("6a", "6b", threshold: 0.05, mismatched: 51),
        Row("6a", "6a", threshold: 0, mismatched: 0),
        Row("7a", "7b", threshold: 0.1, mismatched: 2448),
        Row("8a", "5b", threshold: 0.05, mismatched: 32896),
    ]

    /// One of pixelmatch's fixtures (`1a`), from the test corpus.
    static func image(_ name: String) throws -> PixelBuffer {
        try ImageFile.pixels(at: try Corpus.path("pixelmatch/\(name).png"))
    }

    @Test(arguments: rows) func countsWhatPixelmatchCounts(_ row: Row) throws {
        let expected = try Self.image(row.first)
        let actual = try Self.image(row.second)
        // Counted alone, and with the diff image drawn (plain, or as a mask for that row).
        let counted = ImageDiff.compare(actual, expected, options: DiffOptions(threshold: row.threshold))
        #expect(counted.sameSize)
        #expect(counted.differentPixels == row.mismatched)
        let drawn = ImageDiff.compare(
            actual, expected, options: DiffOptions(threshold: row.threshold, diffImage: true, diffMask: row.mask))
        #expect(drawn.differentPixels == row.mismatched)
        let diff = try #require(drawn.diff)
        var red = 0
        for index in stride(from: 0, to: diff.bytes.count, by: 4)
        where diff.bytes[index] == 255 && diff.bytes[index + 1] == 0 && diff.bytes[index + 2] == 0 {
            red += 1
        }
        #expect(red == row.mismatched)
        // pixelmatch's counts do not depend on which image comes first.
        #expect(
            ImageDiff.compare(expected, actual, options: DiffOptions(threshold: row.threshold)).differentPixels
                == row.mismatched)
    }
}
