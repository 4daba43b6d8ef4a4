import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `compare`, `--check` and `batch --check`, run as CI would: exit codes, JSON
/// fields and the artifact files.
@Suite struct CompareEndToEndTests {
    /// pixelmatch's fixtures (1a, 1b and 8a here) in the test corpus.
    static var pixelmatch: String { get throws { try Corpus.path("pixelmatch") } }
    static let icon = Paths.fixture("icons/folder-48x48.png")

    func json(_ run: RunResult) throws -> JSONValue { try JSONParser().parse(run.stdoutText) }

    @Test func exactCompareExitCodesAndJSON() throws {
        let copy = Paths.scratch("compare-same") + "/1a.png"
        try FileManager.default.copyItem(atPath: "\(Self.pixelmatch)/1a.png", toPath: copy)
        let same = try runIconbadge(["compare", copy, "\(Self.pixelmatch)/1a.png", "--json"])
        #expect(same.status == 0)
        let sameJSON = try json(same)
        #expect(sameJSON["equal"] == .bool(true) && sameJSON["reason"] == .string("same"))
        #expect(sameJSON["totalPixels"] == .number(512 * 256))

        let differ = try runIconbadge(["compare", "\(Self.pixelmatch)/1a.png", "\(Self.pixelmatch)/1b.png", "--json"])
        #expect(differ.status == 1)
        let differJSON = try json(differ)
        #expect(differJSON["schema"] == .number(1))
        #expect(differJSON["reason"] == .string("pixels"))
        #expect(differJSON["mode"] == .string("exact"))
        guard case .number(let count) = differJSON["differentPixels"] else { throw CancellationError() }
        #expect(count > 143)

        let plain = try runIconbadge(["compare", "\(Self.pixelmatch)/1a.png", "\(Self.pixelmatch)/1b.png"])
        #expect(plain.status == 1)
        #expect(plain.stdoutText.hasPrefix("different: pixels differ (stopped at the first"))
    }

    @Test func perceptualCountsArePixelmatchs() throws {
        let run = try runIconbadge([
            "compare", "\(Self.pixelmatch)/1a.png", "\(Self.pixelmatch)/1b.png", "--threshold", "0.05", "--json",
        ])
        #expect(run.status == 1)
        let report = try json(run)
        #expect(report["differentPixels"] == .number(143))
        #expect(report["mode"] == .string("perceptual"))
        let budget = try runIconbadge([
            "compare", "\(Self.pixelmatch)/1a.png", "\(Self.pixelmatch)/1b.png", "--threshold", "0.05",
            "--max-diff-pixels", "143",
        ])
        #expect(budget.status == 0)
        #expect(budget.stdoutText.hasPrefix("same within budget: 143 of 131072 pixels differ"))
        let ratio = try runIconbadge([
            "compare", "\(Self.pixelmatch)/1a.png", "\(Self.pixelmatch)/1b.png", "--threshold", "0.05",
            "--max-diff-ratio", "0.001",
        ])
        #expect(ratio.status == 1)
        // The failure names the budget it broke.
        #expect(
            ratio.stdoutText.contains("143 of 131072 pixels differ (0.109%), over --max-diff-ratio 0.001"),
            "\(ratio.stdoutText)")
        // Either budget works alone (Playwright's maxDiffPixels / maxDiffPixelRatio);
        // given both, both must hold.
        let ratioAlone = try runIconbadge([
            "compare", "\(Self.pixelmatch)/1a.png", "\(Self.pixelmatch)/1b.png", "--threshold", "0.05",
            "--max-diff-ratio", "0.002", "--json",
        ])
        #expect(ratioAlone.status == 0, "\(ratioAlone.stdoutText)")
        #expect(try json(ratioAlone)["maxDiffPixels"] == .null)
        let both = try runIconbadge([
            "compare", "\(Self.pixelmatch)/1a.png", "\(Self.pixelmatch)/1b.png", "--threshold", "0.05",
            "--max-diff-ratio", "0.002", "--max-diff-pixels", "100",
        ])
        #expect(both.status == 1)
        #expect(both.stdoutText.contains("over --max-diff-pixels 100"), "\(both.stdoutText)")
    }

    @Test func sizeMismatchIsADifference() throws {
        // 1a is 512 × 256, 8a 256 × 256.
        let run = try runIconbadge(["compare", "\(Self.pixelmatch)/1a.png", "\(Self.pixelmatch)/8a.png", "--json"])
        #expect(run.status == 1)
        #expect(try json(run)["reason"] == .string("size"))
        // --diff cannot pair pixels up: no file, and a note that says so.
        let folder = Paths.scratch("compare-size-diff")
        let diff = try runIconbadge([
            "compare", "\(Self.pixelmatch)/1a.png", "\(Self.pixelmatch)/8a.png", "--diff", folder + "/d.png",
        ])
        #expect(diff.status == 1)
        #expect(diff.stderr.hasPrefix("iconbadge: note: no diff image written to"), "\(diff.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/d.png"))
    }

    @Test func diffImageIsWritten() throws {
        let folder = Paths.scratch("diff")
        let run = try runIconbadge([
            "compare", "\(Self.pixelmatch)/1a.png", "\(Self.pixelmatch)/1b.png", "--threshold", "0.05", "--diff",
            folder + "/d.png",
        ])
        #expect(run.status == 1)
        let diff = try ImageFile.pixels(at: folder + "/d.png")
        var red = 0
        for i in stride(from: 0, to: diff.bytes.count, by: 4)
        where diff.bytes[i] == 255 && diff.bytes[i + 1] == 0 && diff.bytes[i + 2] == 0 { red += 1 }
        #expect(red == 143)
    }

    @Test func compareErrorsAreNotDifferences() throws {
        #expect(try runIconbadge(["compare", "/no/a.png", Self.icon]).status == 66)
        #expect(try runIconbadge(["compare", Self.icon]).status == 64)
        #expect(try runIconbadge(["compare", Self.icon, Self.icon, "--threshold", "2"]).status == 64)
    }

    @Test func checkUpdateAndArtifacts() throws {
        let folder = Paths.scratch("check")
        let golden = folder + "/icon.png"
        let missing = try runIconbadge([Self.icon, "--value", "3", "--check", golden])
        #expect(missing.status == 66)
        let created = try runIconbadge([Self.icon, "--value", "3", "--check", golden, "--update"])
        #expect(created.status == 0 && created.stdoutText == "new \(golden): golden created (it was missing)\n")
        let unchanged = try runIconbadge([Self.icon, "--value", "3", "--check", golden, "--update"])
        #expect(unchanged.stdoutText == "passed \(golden): unchanged (the golden already matches)\n")
        let same = try runIconbadge([Self.icon, "--value", "3", "--check", golden])
        #expect(same.status == 0)
        let differ = try runIconbadge([Self.icon, "--value", "4", "--check", golden, "--artifacts", folder + "/art"])
        #expect(differ.status == 1)
        #expect(differ.stdoutText.contains("wrote \(folder)/art/icon.png.actual.png"))
        #expect(differ.stdoutText.contains("wrote \(folder)/art/icon.png.diff.png"))
        let actual = try ImageFile.pixels(at: folder + "/art/icon.png.actual.png")
        let fresh = try Renderer().compose(RenderRequest(iconPath: Self.icon, content: .value("4"))).pixels()
        #expect(actual == fresh)
        let updated = try runIconbadge([Self.icon, "--value", "4", "--check", golden, "--update"])
        #expect(
            updated.stdoutText
                == "changed \(golden): golden updated: 62 of 2304 pixels differ (2.691%), largest channel difference 207; 1 region, 8 × 10 at 35,5\n",
            "\(updated.stdoutText)")
        // With --report, stdout is the JSON alone and the check's line goes to stderr.
        let reported = try runIconbadge([Self.icon, "--value", "4", "--check", golden, "--report"])
        #expect(reported.status == 0)
        #expect(try ReportJSON(reported.stdoutText).string("badge", "label") == "4")
        #expect(reported.stderr == "passed \(golden): 2304 pixels equal\n")
    }

    @Test func batchCheckReportsEachJobAndWritesJUnit() throws {
        let folder = Paths.scratch("batch-check")
        let manifest = """
            {"defaults": {"icon": "\(Self.icon)"},
             "jobs": [{"value": "1", "output": "one.png"}, {"value": "2", "output": "two.png"}, {"value": "3", "output": "three.png"}]}
            """
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder + "/goldens", withIntermediateDirectories: true)
        let update = try runIconbadge(["batch", folder + "/m.json", "--check", folder + "/goldens", "--update"])
        #expect(update.status == 0, "\(update.stderr)")
        // One golden deliberately changed.
        #expect(try runIconbadge([Self.icon, "--value", "9", "-o", folder + "/goldens/two.png"]).status == 0)
        let run = try runIconbadge(
            ["batch", folder + "/m.json", "--check", folder + "/goldens", "--junit", folder + "/junit.xml"],
            in: folder)
        #expect(run.status == 1)
        #expect(
            run.stderrLines.last
                == "iconbadge: batch --check: 3 images: 2 passed, 1 changed, 0 new, 0 deleted, 0 errors")
        let junit = try String(contentsOfFile: folder + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("<testsuites name=\"iconbadge\" tests=\"3\" failures=\"1\" errors=\"0\">"))
        #expect(junit.contains("name=\"\(folder)/goldens/two.png\">"))
        #expect(junit.contains("<failure type=\"different\" message=\""), "\(junit)")
        #expect(junit.contains(" of 2304 pixels differ ("), "\(junit)")
        #expect(junit.contains("<system-out>wrote iconbadge-artifacts/two.png.actual.png&#10;"), "\(junit)")
        #expect(junit.components(separatedBy: "<failure").count == 2)
        // Artifacts go to iconbadge-artifacts/ in the working folder, not beside the goldens.
        #expect(FileManager.default.fileExists(atPath: folder + "/iconbadge-artifacts/two.png.diff.png"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/goldens/two.png.diff.png"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/one.png"), "--check writes no outputs")
    }
}
