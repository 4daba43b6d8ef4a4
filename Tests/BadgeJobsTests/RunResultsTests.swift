import BadgeCore
import BadgeJobs
import Testing

/// The results file (`--results`) read back as written, and the merge of its shards.
@Suite struct RunResultsTests {
    /// Results of shard `k` of 2 holding `entries` of a run of `total`.
    static func results(_ k: Int, _ entries: [CheckEntry], total: Int, run: String = "r") -> RunResults {
        var results = RunResults(
            command: .compare, title: "iconbadge compare a e", run: .object([("actual", .string(run))]),
            shard: Shard(index: k, count: 2), total: total, failOn: [.new, .deleted], exitCode: .different,
            entries: entries)
        results.artifactsFolder = "art"
        results.artifactsFromResults = "."
        return results
    }

    static func entries() throws -> [CheckEntry] {
        let red = PixelBuffer(width: 40, height: 30, fill: Color(red: 255, green: 0, blue: 0))
        var dots = red
        for (x, y) in [(1, 2), (2, 2), (30, 20)] { dots[x, y] = Color(red: 0, green: 0, blue: 255) }
        let changed = try Comparer.compare(
            dots, red, settings: CompareSettings(), counting: true, diffImage: false, limits: ImageLimits())
        var first = CheckEntry(
            path: "sub/dots.png", status: .changed, report: changed.report, message: changed.report.detail,
            assets: .init(actual: "report-assets/00002-actual.png", diff: "report-assets/00002-diff.png"))
        first.index = 1
        first.artifacts = ["sub/dots.png.diff.png"]
        var second = CheckEntry(
            path: "bad.png", status: .error, report: nil, message: "\"bad.png\": corrupt PNG", errorCode: .dataError)
        second.index = 0
        return [second, first]
    }

    @Test func writtenResultsReadBackTheSame() throws {
        let written = Self.results(1, try Self.entries(), total: 3)
        let read = try RunResults.read(Array(written.json.utf8), path: "r.json")
        #expect(read.json == written.json, "the same document again")
        #expect(read.entries.map(\.status) == [.error, .changed])
        let regions = try #require(read.entries[1].report?.result.regions)
        #expect(regions.count == 2 && regions.largest[0] == DiffRegion(x: 1, y: 2, width: 2, height: 1, pixels: 2))
        #expect(read.entries[0].errorCode == .dataError)
        #expect(read.shard == Shard(index: 1, count: 2) && read.total == 3)
    }

    @Test func mergeOrdersByIndexAndComputesTheRunsExitCode() throws {
        let entries = try Self.entries()
        var third = CheckEntry(path: "z.png", status: .passed, report: nil, message: "")
        third.index = 2
        let one = Self.results(1, entries, total: 3)
        let two = Self.results(2, [third], total: 3)
        let merged = try ReportMerge.merge([("b/results.json", two), ("a/results.json", one)])
        #expect(merged.entries.map(\.path) == ["bad.png", "sub/dots.png", "z.png"])
        #expect(merged.exitCode == .dataError, "the first error's code")
        #expect(merged.entries[1].artifacts == [], "the shard wrote them, not the merge")
        #expect(merged.folders == ["a", "a", "b"])
        // Without the error: 1, something changed.
        let fine = try ReportMerge.merge([
            ("a/results.json", Self.results(1, [entries[1]], total: 2)),
            (
                "b/results.json",
                Self.results(
                    2,
                    [
                        {
                            var e = third; e.index = 0; return e
                        }()
                    ], total: 2)
            ),
        ])
        #expect(fine.exitCode == .different)
    }

    @Test func mergeRefusesTwoRunsAndCountsTheItems() throws {
        let entries = try Self.entries()
        let other = Self.results(2, [], total: 3, run: "other")
        #expect(throws: BadgeError.self) {
            try ReportMerge.merge([("a", Self.results(1, entries, total: 3)), ("b", other)])
        }
        // Both shards given, but an item is missing from them: 65, not a silent hole.
        let short = Self.results(2, [], total: 3)
        do {
            _ = try ReportMerge.merge([("a", Self.results(1, entries, total: 3)), ("b", short)])
            Issue.record("a merge with an item missing passed")
        } catch {
            #expect(error.exitCode == .dataError)
            #expect(error.message.contains("says the run has 3 items, and the shards hold 2"), "\(error.message)")
        }
    }
}
