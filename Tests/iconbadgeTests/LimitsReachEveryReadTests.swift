import BadgeCore
import BadgeJobs
import BadgeRender
import Foundation
import TestSupport
import Testing

/// The run's limits (`--max-side`, `--max-pixels`) reach every image a command reads,
/// not only the icon: a preview's images and layers, a golden, a directory check's
/// pairs and the images merge-reports copies (issue 45). Each is lowered under an image
/// the command reads and must refuse it, exit 65, with the limit's message.
@Suite struct LimitsReachEveryReadTests {
    static let small = Paths.fixture("icons/user-trash-32x32.png")  // 32 × 32
    static let large = Paths.fixture("icons/folder-48x48.png")  // 48 × 48
    static let set = Paths.fixture("xcode/NetNewsWire/AppIcon.appiconset")
    static let bundle = Paths.fixture("xcode/App/AppIcon.icon")  // one 1024 × 1024 layer

    /// Limits with a lowered side or pixel count.
    static func limits(side: Int? = nil, pixels: Int? = nil) -> ImageLimits {
        var limits = ImageLimits()
        if let side { limits.maxSide = side }
        if let pixels { limits.maxPixels = pixels }
        return limits
    }

    @Test func previewReadsWithinItsLimitOptions() throws {
        let folder = Paths.scratch("limits-preview")
        let sheet = folder + "/sheet.png"
        let set = try runIconbadge(["preview", Self.set, "-o", sheet, "--max-side", "16"])
        #expect(set.status == 65, "\(set.stderr)")
        #expect(set.stderr.contains("px, over the 16 px side limit (raise it with --max-side, up to 32767)"))
        #expect(!FileManager.default.fileExists(atPath: sheet))
        let bundle = try runIconbadge(["preview", Self.bundle, "-o", sheet, "--max-pixels", "1000"])
        #expect(bundle.status == 65, "\(bundle.stderr)")
        #expect(
            bundle.stderr.contains(
                "envelope.png\": the image is 1024 × 1024 = 1048576 px, over the 1000 pixel limit (raise it with --max-pixels)"
            ))
        let android = try runIconbadge(
            ["preview", Paths.fixture("android/sample-app/res"), "-o", sheet, "--max-side", "100"])
        #expect(android.status == 65, "\(android.stderr)")
        // Its 144 px xxhdpi legacy icon is met first.
        #expect(android.stderr.contains("ic_launcher.png\": the image is 144 × 144 px, over the 100 px side limit"))
        #expect(!FileManager.default.fileExists(atPath: sheet))
        // A legacy icon over the limit is refused, not left off the sheet.
        let legacy = folder + "/legacy-res/mipmap-mdpi"
        try FileManager.default.createDirectory(atPath: legacy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Paths.fixture("icons/folder-48x48.png"), toPath: legacy + "/ic_launcher.png")
        let old = try runIconbadge(["preview", folder + "/legacy-res", "-o", sheet, "--max-side", "40"])
        #expect(old.status == 65, "\(old.stderr)")
        #expect(
            old.stderr.contains("ic_launcher.png\": the image is 48 × 48 px, over the 40 px side limit"),
            "\(old.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sheet))
        // The defaults draw all three.
        let drawn = try runIconbadge(["preview", Self.bundle, "-o", sheet])
        #expect(drawn.status == 0, "\(drawn.stderr)")
    }

    /// `appiconset --preview` and `android --preview` hand the run's limits to the same
    /// sheets and painter; the images they read are the ones the run read, so a lowered
    /// limit refuses the run first. The sheets and the painter themselves are checked here.
    @Test func catalogSheetsAndThePainterReadWithinTheLimitsGiven() throws {
        let set = try AppIconSet(folder: Self.set)
        #expect {
            _ = try AppIconSetPreview.sheet(title: "set", sets: [set], limits: Self.limits(side: 16))
        } throws: { error in
            guard case .overLimit(_, .imageSide(_, _, 16)) = error as? BadgeError else { return false }
            return true
        }
        let bundle = try IconComposerBundle(path: Self.bundle)
        #expect {
            _ = try IconBundlePreview.sheet(title: "icon", bundle: bundle, limits: Self.limits(pixels: 1000))
        } throws: { error in
            guard case .overLimit(let path, .imagePixels(1024, 1024, 1000)) = error as? BadgeError else { return false }
            return path.hasSuffix("/Assets/envelope.png")
        }
        // A sheet made under the defaults, painted under a lower limit: refused, nothing written.
        let sheet = try IconBundlePreview.sheet(title: "icon", bundle: bundle, limits: ImageLimits())
        let output = Paths.scratch("limits-painter") + "/sheet.png"
        #expect {
            try PreviewOutput.write(sheet, to: output, limits: Self.limits(side: 512))
        } throws: { error in
            guard case .overLimit(_, .imageSide(1024, 1024, 512)) = error as? BadgeError else { return false }
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        try PreviewOutput.write(sheet, to: output, limits: ImageLimits())
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test func aGoldenIsReadWithinTheRunsLimits() throws {
        let folder = Paths.scratch("limits-golden")
        let golden = folder + "/golden.png"
        try FileManager.default.copyItem(atPath: Self.large, toPath: golden)
        // The 32 px icon is within --max-side 40; the 48 px golden is not.
        let refused = try runIconbadge(
            [Self.small, "--value", "3", "--check", golden, "--artifacts", folder + "/artifacts", "--max-side", "40"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "golden.png\": the image is 48 × 48 px, over the 40 px side limit (raise it with --max-side, up to 32767)"
            ))
        // Under the defaults it is read, and differs in size.
        let read = try runIconbadge(
            [Self.small, "--value", "3", "--check", golden, "--artifacts", folder + "/artifacts"])
        #expect(read.status == 1, "\(read.stderr)")
        #expect(read.stdoutText.contains("sizes differ (actual 32 × 32, expected 48 × 48)"))
        // batch --check: each job's golden within the batch's limits.
        let goldens = folder + "/goldens"
        try FileManager.default.createDirectory(atPath: goldens, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.large, toPath: goldens + "/t.png")
        try Data(#"{"jobs": [{"icon": "\#(Self.small)", "value": "3", "output": "t.png"}]}"#.utf8).write(
            to: URL(fileURLWithPath: folder + "/m.json"))
        let batch = ["batch", folder + "/m.json", "--check", goldens, "--artifacts", folder + "/batch-artifacts"]
        let batchRefused = try runIconbadge(batch + ["--max-side", "40"])
        #expect(batchRefused.status == 65, "\(batchRefused.stderr)")
        #expect(
            batchRefused.stderr.contains(
                "t.png\": the image is 48 × 48 px, over the 40 px side limit (raise it with --max-side, up to 32767)"))
        #expect(try runIconbadge(batch).status == 1)
    }

    @Test func aDirectoryCheckReadsWithinItsLimits() throws {
        let folder = Paths.scratch("limits-directory")
        for side in ["actual", "expected"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Self.large, toPath: folder + "/\(side)/x.png")
        }
        let refused = try runIconbadge(
            ["compare", folder + "/actual", folder + "/expected", "--max-side", "40", "--jobs", "1"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(
            refused.stdoutText.contains(
                "error x.png: \"\(folder)/actual/x.png\": the image is 48 × 48 px, over the 40 px side limit"))
        let passed = try runIconbadge(["compare", folder + "/actual", folder + "/expected", "--jobs", "1"])
        #expect(passed.status == 0, "\(passed.stderr)")
    }

    @Test func mergeReportsCopiesImagesWithinItsLimits() throws {
        let folder = Paths.scratch("limits-merge")
        for side in ["actual", "expected"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: true)
        }
        // One changed pair: its 48 px actual image is written beside the results file.
        try FileManager.default.copyItem(atPath: Self.large, toPath: folder + "/actual/x.png")
        try FileManager.default.copyItem(atPath: Self.small, toPath: folder + "/expected/x.png")
        let shard = try runIconbadge([
            "compare", folder + "/actual", folder + "/expected", "--shard", "1/1", "--results",
            folder + "/shard/results.json", "--artifacts", folder + "/shard/artifacts",
        ])
        #expect(shard.status == 1, "\(shard.stderr)")
        let html = folder + "/report.html"
        let refused = try runIconbadge(
            ["merge-reports", folder + "/shard/results.json", "--html", html, "--max-side", "40"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "x.png.actual.png\": the image is 48 × 48 px, over the 40 px side limit (raise it with --max-side, up to 32767)"
            ))
        #expect(!FileManager.default.fileExists(atPath: html))
        #expect(!FileManager.default.fileExists(atPath: html.dropLast(5) + "-assets"))
        let pixels = try runIconbadge(
            ["merge-reports", folder + "/shard/results.json", "--html", html, "--max-pixels", "2000"])
        #expect(pixels.status == 65, "\(pixels.stderr)")
        #expect(pixels.stderr.contains("48 × 48 = 2304 px, over the 2000 pixel limit (raise it with --max-pixels)"))
        // compare's defaults: copied.
        let merged = try runIconbadge(["merge-reports", folder + "/shard/results.json", "--html", html])
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(FileManager.default.fileExists(atPath: html))
    }
}
