import BadgeCore
import BadgeJobs
import Testing

/// The HTML report's markup, without a browser (HTMLReportBrowserTests opens it in one):
/// asset names, escaping, the order of the rows, determinism, and that nothing can
/// reach the network.
@Suite struct HTMLReportTests {
    static let hostile = "a<script>alert(1)</script>\"'.png"

    static func entries() throws -> [CheckEntry] {
        let red = PixelBuffer(width: 4, height: 4, fill: Color(red: 255, green: 0, blue: 0))
        var dot = red
        dot[1, 2] = Color(red: 0, green: 0, blue: 255)
        let changed = try Comparer.compare(
            dot, red, settings: CompareSettings(), counting: true, diffImage: true, limits: ImageLimits())
        let passed = try Comparer.compare(
            red, red, settings: CompareSettings(), counting: true, diffImage: false, limits: ImageLimits())
        func name(_ index: Int, _ role: HTMLReport.AssetRole) -> String {
            HTMLReport.assetName(index: index, role: role)
        }
        return [
            CheckEntry(
                path: "same.png", status: .passed, report: passed.report, message: passed.report.line,
                assets: .init(actual: name(1, .actual), expected: name(1, .actual))),
            CheckEntry(
                path: Self.hostile, status: .new, report: nil, message: "new", assets: .init(actual: name(2, .actual))),
            CheckEntry(
                path: "dot.png", status: .changed, report: changed.report, message: changed.report.line,
                assets: .init(actual: name(3, .actual), expected: name(3, .expected), diff: name(3, .diff))),
            CheckEntry(path: "gone\u{1B}[2J.png", status: .deleted, report: nil, message: "deleted"),
            CheckEntry(path: "bad.png", status: .error, report: nil, message: "line one\nline <two>"),
            CheckEntry(path: "also-changed.png", status: .changed, report: nil, message: "different"),
        ]
    }

    @Test func assetNamesAreNumberedByPosition() {
        #expect(HTMLReport.assetName(index: 1, role: .actual) == "00001-actual.png")
        #expect(HTMLReport.assetName(index: 42, role: .expected) == "00042-expected.png")
        #expect(HTMLReport.assetName(index: 123_456, role: .diff) == "123456-diff.png")
    }

    @Test func escapingCoversMarkupQuotesControlsAndBidi() {
        #expect(HTMLReport.escape(Self.hostile) == "a&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;.png")
        #expect(HTMLReport.escape("a & b") == "a &amp; b")
        #expect(HTMLReport.escape("x\ny\r\t\u{1B}\u{85}\u{7F}") == "x\\ny\\r\\t\\u{1b}\\u{85}\\u{7f}")
        #expect(HTMLReport.escape("abc\u{202E}gnp.exe\u{2066}") == "abc\\u{202e}gnp.exe\\u{2066}")
        // Swift string literals refuse noncharacters, so these are built from scalars.
        let nonchars = String(String.UnicodeScalarView([0xFFFE, 0xFDD0, 0x1FFFF].compactMap(Unicode.Scalar.init)))
        #expect(HTMLReport.escape(nonchars + "é中") == "\\u{fffe}\\u{fdd0}\\u{1ffff}é中")
        #expect(HTMLReport.shownPath("a\\nb") == "a\\\\nb")
    }

    @Test func assetURLsArePlainRelativeNames() {
        #expect(
            HTMLReport.assetURL(folder: "report-assets", name: "00001-actual.png") == "report-assets/00001-actual.png")
        #expect(
            HTMLReport.assetURL(folder: "my report/#1?:x", name: "00001-diff.png")
                == "my%20report/%231%3F%3Ax/00001-diff.png")
        // No `//` (a network-path reference), no scheme, no way out of the name.
        #expect(HTMLReport.assetURL(folder: "//evil.example//a", name: "x.png") == "/evil.example/a/x.png")
        #expect(HTMLReport.assetURL(folder: "", name: "x.png") == "x.png")
        for name in ["../x.png", ".x.png", "a/b.png", "javascript:alert(1)", "a b.png", "", "é.png", "a\".png"] {
            #expect(HTMLReport.assetURL(folder: "assets", name: name) == nil, "\(name)")
        }
    }

    @Test func pageIsDeterministicOrderedAndEscaped() throws {
        let page = HTMLReport.html(
            try Self.entries(), title: "check <1>", assetsFolder: "report-assets", generated: nil)
        #expect(
            try page
                == HTMLReport.html(Self.entries(), title: "check <1>", assetsFolder: "report-assets", generated: nil))
        #expect(page.hasPrefix("<!DOCTYPE html>\n"))
        #expect(page.contains("<title>check &lt;1&gt;</title>"))
        #expect(
            page.contains(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self' file:;"))
        #expect(!page.contains("generated\">"), "no date line unless one is given")
        #expect(
            HTMLReport.html([], title: "t", assetsFolder: "a", generated: "Generated 2024-01-01").contains(
                "<p class=\"generated\">Generated 2024-01-01</p>"))

        // Rows: changed (in input order), new, deleted, error, passed.
        let ids = page.split(separator: "<article class=\"entry\" id=\"entry-").dropFirst().map { $0.prefix(5) }
        #expect(ids == ["00003", "00006", "00002", "00004", "00005", "00001"])
        #expect(page.contains("data-count=\"2\"><label><input type=\"checkbox\" name=\"filter\" value=\"changed\""))
        #expect(page.contains("<li class=\"count total\" data-count=\"6\">"))

        // Untrusted text never becomes markup; control characters are visible.
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("<span class=\"path\">a&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;.png</span>"))
        #expect(page.contains("<span class=\"path\">gone\\u{1b}[2J.png</span>"))
        #expect(page.contains("<span class=\"message\">line one line &lt;two&gt;</span>"))
        #expect(page.components(separatedBy: "<script").count == 2)

        // Three views for a changed pair with a diff; one image for an exact pass.
        #expect(page.contains("data-status=\"changed\" data-view=\"side\" data-views=\"side diff swipe\""))
        #expect(page.contains("Actual = expected"))
        #expect(page.components(separatedBy: "src=\"report-assets/00001-actual.png\"").count == 2)
    }

    @Test func pageNeverNamesTheNetwork() throws {
        let page = HTMLReport.html(try Self.entries(), title: "t", assetsFolder: "report-assets", generated: nil)
        for needle in ["http:", "https:", "//", "url(", "@import", "fetch(", "XMLHttpRequest", "src=\"data:"] {
            // `//` is allowed only where it starts a JavaScript comment.
            let hits = page.components(separatedBy: needle).count - 1
            let comments = needle == "//" ? page.components(separatedBy: "  // ").count - 1 : 0
            #expect(hits == comments, "\(needle)")
        }
        let sources = page.split(separator: "src=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(!sources.isEmpty && sources.allSatisfy { $0.hasPrefix("report-assets/0000") })
    }

    @Test func refusedAssetNamesReachNoSource() {
        let entry = CheckEntry(
            path: "x.png", status: .new, report: nil, message: "new",
            assets: .init(actual: "../../etc/passwd\" onerror=\"alert(1)"))
        let page = HTMLReport.html([entry], title: "t", assetsFolder: "a", generated: nil)
        #expect(!page.contains("<img"))
        #expect(!page.contains("passwd"))
        #expect(page.contains("not shown: the asset name is not a plain file name"))
    }

    /// Regions outlined over each image of a changed pair, in percent of its size, and
    /// the keys that step through them; a merged entry whose images are missing says so.
    @Test func regionsAreOutlinedInPercentOfTheImage() throws {
        let page = HTMLReport.html(try Self.entries(), title: "t", assetsFolder: "report-assets", generated: nil)
        // dot.png: one differing pixel at (1, 2) of a 4 × 4 image.
        #expect(page.contains("data-views=\"side diff swipe\" data-regions=\"1\">"))
        let box =
            "<span class=\"region\" data-region=\"1\" style=\"left:25.0000%;top:50.0000%;width:25.0000%;height:25.0000%\""
            + " title=\"region 1: 1 × 1 at 1,2, 1 pixel\"></span>"
        // Over the expected, actual and diff images side by side, and the diff alone.
        #expect(page.components(separatedBy: box).count - 1 == 4)
        #expect(page.contains("data-region-step=\"1\""))
        var missing = try Self.entries()[2]
        missing.imagesMissing = true
        let merged = HTMLReport.html([missing], title: "t", assetsFolder: "a", generated: nil)
        #expect(merged.contains("<span class=\"missing\">artifacts missing</span>"))
        // No region, no Regions buttons.
        let plain = HTMLReport.html([try Self.entries()[0]], title: "t", assetsFolder: "a", generated: nil)
        #expect(!plain.contains("data-region-step=\"") && !plain.contains("class=\"region\""))
    }
}
