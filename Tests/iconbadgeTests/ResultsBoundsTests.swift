import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem
import Foundation
import TestSupport
import Testing

/// Issue 44: `merge-reports` and a sharded check under attack. Each hostile results
/// file is made small inside the test (sparse files for the large ones); each run must
/// give its exit code and one line, write nothing on failure, and stay within a bound
/// the code enforces (bytes copied, a budget of values, peak memory).
@Suite struct ResultsBoundsTests {
    let fm = FileManager.default

    /// A folder holding `s/results.json` (one changed 48 × 48 image, with its report's
    /// assets) and the document as a dictionary, to be made hostile.
    func baseResults() throws -> (folder: String, document: [String: Any]) {
        let folder = Paths.scratch("results-bounds")
        for (side, value) in [("a", "1"), ("e", "2")] {
            try fm.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: true)
            let run = try runIconbadge([
                Paths.fixture("icons/folder-48x48.png"), "--value", value, "-o", folder + "/\(side)/x.png",
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let run = try runIconbadge(
            ["compare", "a", "e", "--shard", "1/1", "--html", "s/report.html", "--results", "s/results.json"],
            in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/s/results.json"))
        let document = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (folder, document)
    }

    /// Writes `document` as `name/results.json` in `folder` and returns its path there.
    func write(_ document: [String: Any], _ name: String, in folder: String) throws -> String {
        try fm.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
        let data = try JSONSerialization.data(withJSONObject: document)
        try data.write(to: URL(fileURLWithPath: folder + "/" + name + "/results.json"))
        return name + "/results.json"
    }

    /// The first item, changed by `change`.
    func changingItem(_ document: [String: Any], _ change: (inout [String: Any]) -> Void) -> [String: Any] {
        var document = document
        var items = document["items"] as! [[String: Any]]
        change(&items[0])
        document["items"] = items
        return document
    }

    /// Merges `file` with a report and a JUnit file into `m/`.
    func merge(_ file: String, in folder: String) throws -> RunResult {
        try runIconbadge(
            ["merge-reports", file, "--html", "m/report.html", "--junit", "m/junit.xml"], in: folder)
    }

    /// Item 1: a region at x = 10¹³ trapped (SIGILL) in the page's percent arithmetic.
    @Test func aRegionFarOutsideItsImageIsRefusedNotACrash() throws {
        let (folder, document) = try baseResults()
        let hostile = changingItem(document) { item in
            var comparison = item["comparison"] as! [String: Any]
            var regions = comparison["regions"] as! [[String: Any]]
            regions[0]["x"] = 10_000_000_000_000
            comparison["regions"] = regions
            item["comparison"] = comparison
        }
        let run = try merge(try write(hostile, "s", in: folder), in: folder)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("is not inside the 48 × 48 image"), "\(run.stderr)")
        #expect(!fm.fileExists(atPath: folder + "/m"), "nothing written")
    }

    /// Item 1, the arithmetic itself: any `Int` a file can hold gives a percent, exactly.
    @Test func percentNeverTraps() {
        #expect(HTMLReport.percent(10_000_000_000_000, of: 48) == "100.0000")
        #expect(HTMLReport.percent(Int.max, of: Int.max) == "100.0000")
        #expect(HTMLReport.percent(Int.max / 2, of: Int.max) == "50.0000")
        #expect(HTMLReport.percent(-5, of: 10) == "0.0000")
        #expect(HTMLReport.percent(1, of: 10_000) == "0.0100")
        #expect(HTMLReport.percent(35, of: 48) == "72.9167")
        #expect(HTMLReport.percent(3, of: 0) == "0.0000")
    }

    /// The bytes a folder's files hold, below it.
    func bytes(below folder: String) -> Int {
        guard let walk = fm.enumerator(atPath: folder) else { return 0 }
        var total = 0
        for case let name as String in walk {
            let attributes = try? fm.attributesOfItem(atPath: folder + "/" + name)
            if attributes?[.type] as? FileAttributeType == .typeRegular {
                total += (attributes?[.size] as? Int) ?? 0
            }
        }
        return total
    }

    /// A sparse file of `size` bytes beginning with a PNG signature and a well-formed
    /// IHDR (64 × 64 RGBA), then zeros.
    func sparsePNG(_ path: String, size: UInt64) throws {
        var head: [UInt8] = PNGPreflight.signature + [0, 0, 0, 13] + Array("IHDR".utf8)
        head += [0, 0, 0, 64, 0, 0, 0, 64, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        fm.createFile(atPath: path, contents: Data(head))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
    }

    /// Item 7: a 500 MiB sparse "PNG" was read whole (508 MiB peak) and copied whole.
    @Test func aHugeSparseImageIsNeitherReadWholeNorCopied() throws {
        let (folder, document) = try baseResults()
        try sparsePNG(folder + "/s/report-assets/00001-actual.png", size: 500 << 20)
        _ = try write(document, "s", in: folder)
        let run = try runMeasured([
            "merge-reports", folder + "/s/results.json", "--html", folder + "/m/report.html",
        ])
        #expect(run.status == 1, "the run's own code: \(run.stderr)")
        #expect(run.stderr.contains("artifacts missing"), "\(run.stderr)")
        #expect(run.peakKiB < 64 << 10, "peak \(run.peakKiB) KiB")
        #expect(!fm.fileExists(atPath: folder + "/m/report-assets/00001-actual.png"))
        #expect(bytes(below: folder + "/m") < 1 << 20, "\(bytes(below: folder + "/m")) bytes written")
    }

    /// Item 8: items naming one file were copied once each (8 × 32 MiB); now each file
    /// is copied once for the whole run, known by its identity.
    @Test func oneFileNamedByManyItemsIsCopiedOnce() throws {
        let (folder, document) = try baseResults()
        let image = "report-assets/00001-actual.png"
        let size = (try fm.attributesOfItem(atPath: folder + "/s/" + image)[.size] as! Int)
        try fm.linkItem(atPath: folder + "/s/" + image, toPath: folder + "/s/hard-link.png")
        var hostile = document
        let item = (document["items"] as! [[String: Any]])[0]
        hostile["total"] = 8
        hostile["items"] = (0..<8).map { index -> [String: Any] in
            var copy = item
            copy["index"] = index
            copy["path"] = "x\(index).png"
            copy["name"] = "x\(index).png"
            let name = index.isMultiple(of: 2) ? image : "hard-link.png"
            copy["images"] = ["actual": name, "expected": name, "diff": name]
            return copy
        }
        let run = try merge(try write(hostile, "s", in: folder), in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        let assets = try fm.contentsOfDirectory(atPath: folder + "/m/report-assets").filter { $0.hasSuffix(".png") }
        #expect(assets == ["00001-actual.png"], "\(assets)")
        #expect(bytes(below: folder + "/m/report-assets") < size + 100, "one copy")
        let page = try String(contentsOfFile: folder + "/m/report.html", encoding: .utf8)
        // Every row shows the one copy; no row names an asset of its own.
        #expect(page.components(separatedBy: "src=\"report-assets/00001-actual.png\"").count - 1 >= 8)
        #expect(!page.contains("src=\"report-assets/00002-"), "rows point at the one copy")
    }

    /// Item 8's budget: the images copied for one run stop at `budget` bytes, with 65,
    /// and the staged assets are removed.
    @Test func theCopiedBytesOfARunHaveABudget() throws {
        let (folder, document) = try baseResults()
        _ = document
        let results = try RunResults.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/s/results.json"))), path: "s/results.json")
        func staged(_ name: String) throws -> StagedFolder {
            try StagedFolder.beside(OutputLocation(commandLine: folder + "/" + name))
        }
        var merged = try ReportMerge.merge([("\(folder)/s/results.json", results)])
        let whole = try staged("whole-assets")
        defer { whole.discard() }
        let copied = try ReportMerge.copyImages(&merged, into: whole, limits: ImageLimits())
        #expect(copied > 2000 && copied < 10_000, "three small PNGs: \(copied) bytes")
        let short = try staged("short-assets")
        defer { short.discard() }
        var again = try ReportMerge.merge([("\(folder)/s/results.json", results)])
        do {
            try ReportMerge.copyImages(&again, into: short, limits: ImageLimits(), budget: copied - 1)
            Issue.record("copied past the budget")
        } catch {
            #expect(error.exitCode == .dataError)
            #expect(error.message.contains("add up to more than \(copied - 1) bytes"), "\(error.message)")
        }
    }

    /// Item 9: 32 MiB of `0,` in a member the reader ignores peaked at 431 MiB; now the
    /// reader stops at its budget of values (here 1 MiB of them).
    @Test func anIgnoredMemberOfManyValuesStopsAtTheBudget() throws {
        let (folder, document) = try baseResults()
        _ = try write(document, "s", in: folder)
        var text = try String(contentsOfFile: folder + "/s/results.json", encoding: .utf8)
        text.removeLast()  // "}"
        text += ",\"junk\":[" + String(repeating: "0,", count: 512 << 10) + "0]}"
        try text.write(toFile: folder + "/s/results.json", atomically: true, encoding: .utf8)
        let run = try merge("s/results.json", in: folder)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("more than \(RunResults.maxOtherValues) values"), "\(run.stderr)")
        #expect(!fm.fileExists(atPath: folder + "/m"), "nothing written")
    }

    /// Item 9's budget for a realistic run (the limits page), here 3,000 changed items of
    /// about 1 KB, their images shown, with a page and JUnit file.
    @Test func aRunOfManyItemsStaysWithinItsBudget() throws {
        let (folder, document) = try baseResults()
        var many = document
        let item = (document["items"] as! [[String: Any]])[0]
        let count = 3_000
        many["total"] = count
        many["items"] = (0..<count).map { index -> [String: Any] in
            var copy = item
            copy["index"] = index
            copy["path"] = "screens/dir/image-\(index).png"
            copy["name"] = copy["path"]
            return copy
        }
        let file = try write(many, "s", in: folder)
        let size = try fm.attributesOfItem(atPath: folder + "/" + file)[.size] as! Int
        let run = try runMeasured([
            "merge-reports", folder + "/" + file, "--html", folder + "/m/report.html", "--junit",
            folder + "/m/junit.xml", "--quiet",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        // The limits page: 16 MiB + 3.5 bytes a byte of results + 8 KiB an item whose
        // images are shown (its rows of the page, held as text and as bytes to write).
        let budget = (16 << 20) + size * 7 / 2 + count * (8 << 10)
        #expect(run.peakKiB << 10 < budget, "peak \(run.peakKiB) KiB for \(size) bytes of results")
    }

    /// Item 9's file budget: results files past `RunResults.maxBytes` together are
    /// refused from their size, before a byte is read (a sparse file here).
    @Test func resultsFilesHaveOneBudgetOfBytes() throws {
        let folder = Paths.scratch("results-bytes")
        fm.createFile(atPath: folder + "/big.json", contents: Data("{".utf8))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/big.json"))
        try handle.truncate(atOffset: UInt64(RunResults.maxBytes) + 1)
        try handle.close()
        let run = try runMeasured(["merge-reports", folder + "/big.json", "--html", folder + "/m/r.html"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("over the \(RunResults.maxBytes)-byte limit"), "\(run.stderr)")
        #expect(run.peakKiB < 64 << 10, "peak \(run.peakKiB) KiB: the file is never read")
        #expect(!fm.fileExists(atPath: folder + "/m"))
    }

    /// Item 13: a 1 MB message was printed whole; it is cut at 200 characters.
    @Test func aLongMessageIsPrintedCut() throws {
        let (folder, document) = try baseResults()
        let hostile = changingItem(document) { $0["message"] = String(repeating: "A", count: 1_000_000) }
        let run = try runIconbadge(["merge-reports", try write(hostile, "s", in: folder)], in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        let line = run.stdoutText.split(separator: "\n").first { $0.hasPrefix("changed ") } ?? ""
        #expect(line.count < 300, "\(line.count) characters")
        #expect(line.hasSuffix("A… (1000000 characters)"), "\(line.suffix(40))")
    }

    /// Item 14: an error item whose `errorCode` is 0 printed an error and exited 0.
    @Test func anErrorItemNeverExitsZero() throws {
        let (folder, document) = try baseResults()
        for code: Any in [0, 1, NSNull()] {
            var hostile = changingItem(document) { item in
                item["status"] = "error"
                item["errorCode"] = code
                item["message"] = "render failed"
            }
            hostile["command"] = "batch"
            let run = try merge(try write(hostile, "s", in: folder), in: folder)
            #expect(run.status == 65, "errorCode \(code): \(run.stderr)")
            #expect(run.stderr.contains("iconbadge: error: "), "\(run.stderr)")
        }
    }

    /// Item 15: `"total": 0` with no items exited 66 with no line, and wrote the page.
    @Test func aRunOfNoItemsIsOneLineAndNothingWritten() throws {
        let (folder, document) = try baseResults()
        var empty = document
        empty["total"] = 0
        empty["items"] = [Any]()
        let run = try merge(try write(empty, "s", in: folder), in: folder)
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("\"total\": 0"), "\(run.stderr)")
        #expect(!fm.fileExists(atPath: folder + "/m"), "no page, JUnit file or assets")
    }

    /// Item 11: `compare DIR DIR --shard 1/1 --results` decoded each large pair whole
    /// (530 MiB a pair at 8192², times `--jobs`); it streams as `--html` does. Two
    /// 3072² pairs (36 MiB decoded each image) at `--jobs 2`.
    @Test func aShardedCheckWithResultsAloneStreamsLargePairs() throws {
        let folder = Paths.scratch("results-stream")
        let side = 3072
        for name in ["a", "e"] {
            try fm.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
            var pixels = PixelBuffer(width: side, height: side, fill: Color(red: 255, green: 255, blue: 255))
            if name == "a" {
                for x in 100..<200 { pixels.bytes[(150 * side + x) * 4] = 0 }
            }
            let png = try ImageFile.pngData(of: pixels, compression: .fast)
            for pair in ["one", "two"] {
                try Data(png).write(to: URL(fileURLWithPath: folder + "/\(name)/\(pair).png"))
            }
        }
        let run = try runMeasured([
            "compare", folder + "/a", folder + "/e", "--shard", "1/1", "--results", folder + "/out/results.json",
            "--jobs", "2",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        // Whole decodes would hold 2 pairs × 2 × 36 MiB = 144 MiB.
        #expect(run.peakKiB < 80 << 10, "peak \(run.peakKiB) KiB")
    }
}

/// Issue 44 item 12: `--avoid-content` held the icon's opaque pixels as spans, 8 bytes
/// a pixel when the alpha alternates, and so doubled a render's peak.
@Suite struct AvoidContentBudgetTests {
    @Test func avoidingContentAddsAFractionOfTheIcon() throws {
        let folder = Paths.scratch("avoid-budget")
        let side = 2048
        var pixels = PixelBuffer(width: side, height: side, fill: Color(red: 30, green: 120, blue: 200))
        for index in stride(from: 7, to: pixels.bytes.count, by: 8) { pixels.bytes[index] = 0 }
        try Data(try ImageFile.pngData(of: pixels, compression: .fast)).write(
            to: URL(fileURLWithPath: folder + "/stripes.png"))
        let plain = try runMeasured([folder + "/stripes.png", "--value", "3", "-o", folder + "/plain.png"])
        let avoiding = try runMeasured([
            folder + "/stripes.png", "--value", "3", "--avoid-content", "-o", folder + "/avoiding.png",
        ])
        #expect(plain.status == 0 && avoiding.status == 0, "\(plain.stderr) \(avoiding.stderr)")
        // The icon is 16 MiB of pixels; its opaque pixels as bits are 0.5 MiB (as
        // spans they were 32 MiB).
        #expect(avoiding.peakKiB < plain.peakKiB + 6 << 10, "\(plain.peakKiB) → \(avoiding.peakKiB) KiB")
    }

    @Test func theBitsGiveBackTheSpans() {
        let rows: [[Range<Int>]] = [[], [0..<3, 5..<9], [2..<4], [0..<130], [63..<65, 127..<128, 129..<200]]
        let shape = ContentShape(rows: rows)
        #expect(shape.rows == rows)
        #expect(shape.bounds == Rect(x: 0, y: 1, width: 200, height: 4))
        #expect(!shape.isEmpty && ContentShape(rows: [[], []]).isEmpty)
        var alternating = ContentShape(width: 1000, height: 1)
        for x in stride(from: 0, to: 1000, by: 2) { alternating.set(row: 0, from: x, to: x + 1) }
        #expect(alternating.spans(row: 0).count == 500 && alternating.spans(row: 0).last == 998..<999)
    }
}
