import BadgeCore
import BadgeJobs
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Large pairs are compared step by step from their files: the memory of a pair stays
/// under two decoded images (README, "Memory"), and the streamed diff, report images and
/// counts are the in-memory comparison's.
@Suite struct LargeCompareTests {
    /// A 4096 × 4096 picture (64 MiB of RGBA): stripes and a gradient, so that it
    /// compresses like a screenshot, not like noise; `changed` adds three boxes.
    static func picture(changed: Bool) -> PixelBuffer {
        let side = 4096
        var bytes = [UInt8](repeating: 255, count: side * side * 4)
        bytes.withUnsafeMutableBufferPointer { out in
            for y in 0..<side {
                let band = (y / 64) % 2 == 0
                for x in 0..<side {
                    let k = (y * side + x) * 4
                    out[k] = band ? UInt8(x >> 4) : 240
                    out[k + 1] = band ? 200 : UInt8(y >> 4)
                    out[k + 2] = (x / 16 + y / 16) % 7 == 0 ? 40 : 230
                }
            }
            guard changed else { return }
            for (x0, y0, w, h) in [(100, 100, 300, 40), (2000, 3000, 12, 8), (4000, 4080, 96, 16)] {
                for y in y0..<(y0 + h) {
                    for x in x0..<(x0 + w) { out[(y * side + x) * 4] = 3 }
                }
            }
        }
        return PixelBuffer(width: side, height: side, bytes: bytes)
    }

    @Test func aLargePairWithAReportStaysUnderTwoDecodedImages() throws {
        let folder = Paths.scratch("large-compare")
        let fm = FileManager.default
        let actual = Self.picture(changed: true)
        let expected = Self.picture(changed: false)
        for (side, pixels) in [("a", actual), ("e", expected)] {
            try fm.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: true)
            try Data(try ImageFile.pngData(of: pixels, compression: .fast)).write(
                to: URL(fileURLWithPath: folder + "/" + side + "/page.png"))
        }
        let run = try runMeasured([
            "compare", folder + "/a", folder + "/e", "--html", folder + "/r/report.html", "--artifacts",
            folder + "/art", "--jobs", "1",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        let decoded = 4096 * 4096 * 4 / 1024
        #expect(run.peakKiB < 2 * decoded, "peak \(run.peakKiB) KiB, one image \(decoded) KiB")
        // What was written step by step is what the in-memory comparison makes.
        let whole = try Comparer.compare(
            actual, expected, settings: CompareSettings(), counting: true, diffImage: true, limits: ImageLimits())
        #expect(whole.report.result.differentPixels == 300 * 40 + 12 * 8 + 96 * 16)
        #expect(whole.report.result.regions?.count == 3)
        #expect(try ImageFile.pixels(at: folder + "/art/page.png.diff.png") == whole.diff)
        #expect(try ImageFile.pixels(at: folder + "/art/page.png.actual.png") == actual)
        #expect(try ImageFile.pixels(at: folder + "/r/report-assets/00001-expected.png") == expected)
        let json = try runIconbadge(["compare", folder + "/a/page.png", folder + "/e/page.png", "--json"])
        let report = try JSONParser().parse(json.stdoutText)
        #expect(report == whole.report.json)
    }
}
