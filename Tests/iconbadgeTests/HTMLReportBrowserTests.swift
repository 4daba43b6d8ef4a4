import BadgeCore
import BadgeJobs
import BadgeRender
import Foundation
import TestSupport
import Testing

/// The HTML report of a golden check, opened in headless Chromium from `file://` as a
/// person would open it: the DOM after its script ran (rows, statuses, counts, escaping,
/// the URL-fragment state), the page without JavaScript, and a screenshot.
///
/// Chromium comes from `make deps` (scripts/install-deps.sh, APT_EXTRA); without it these
/// tests fail, unless ICONBADGE_SKIP_BROWSER=1 skips them. With
/// ICONBADGE_REPORT_SCREENSHOT=PATH the screenshot is also copied to PATH
/// (scripts/report-screenshot.sh makes the picture of the README and the manual so).
@Suite(
    .disabled(
        if: ProcessInfo.processInfo.environment["ICONBADGE_SKIP_BROWSER"] == "1",
        "ICONBADGE_SKIP_BROWSER=1: the HTML report's browser tests are skipped"))
struct HTMLReportBrowserTests {
    static let hostilePath = "a<script>alert(1)</script>\"'.png"
    /// A newline, markup, an ampersand, ESC and a right-to-left override.
    static let hostilePath2 = "toolbar/trash\n<b id=\"injected\">bold</b> & \u{1B}[31m\u{202E}gnp.png"

    /// A report folder: `report.html` and `report-assets/`, from real renders and their
    /// real comparison. Input order is not the page's order (changed rows come first).
    static func makeReport() throws -> (folder: String, html: String) {
        let folder = Paths.scratch("html-report")
        let assets = folder + "/report-assets"
        try FileManager.default.createDirectory(atPath: assets, withIntermediateDirectories: true)
        func render(_ icon: String, _ arguments: [String]) throws -> PixelBuffer {
            let output = folder + "/render-\(UUID().uuidString.prefix(8)).png"
            let run = try runIconbadge([Paths.fixture("icons/" + icon)] + arguments + ["-o", output])
            guard run.status == 0 else { throw TestFailure(description: "render failed: \(run.stderr)") }
            return try ImageFile.pixels(at: output)
        }
        func write(_ pixels: PixelBuffer, _ index: Int, _ role: HTMLReport.AssetRole) throws -> String {
            let name = HTMLReport.assetName(index: index, role: role)
            try Data(try ImageFile.pngData(of: pixels)).write(to: URL(fileURLWithPath: assets + "/" + name))
            return name
        }
        func compared(_ index: Int, path: String, actual: PixelBuffer, expected: PixelBuffer) throws -> CheckEntry {
            let result = try Comparer.compare(
                actual, expected, settings: CompareSettings(), counting: true, diffImage: true, limits: ImageLimits())
            let actualName = try write(actual, index, .actual)
            let same = result.equal && actual == expected
            return CheckEntry(
                path: path, status: result.equal ? .passed : .changed, report: result.report,
                message: result.report.line,
                assets: CheckEntry.Assets(
                    actual: actualName, expected: same ? actualName : try write(expected, index, .expected),
                    diff: result.equal ? nil : try result.diff.map { try write($0, index, .diff) }))
        }

        let ios = try render("app-ios-180.png", ["--value", "3", "--platform", "ios"])
        let folder132 = try render("folder-132x132.png", ["--value", "12"])
        let folder132Golden = try render("folder-132x132.png", ["--value", "9"])
        let star = try render("star-badge.png", ["--dot"])
        let trash = try render("user-trash-32x32.png", ["--value", "2"])
        let folder48 = try render("folder-48x48.png", ["--value", "NEW"])
        let folder44 = try render("folder-44x44.png", ["--value", "NEW"])
        let watch = try render("app-watch-196.png", ["--dot", "--platform", "watchos"])

        let entries = [
            try compared(1, path: "ios/AppIcon@3x.png", actual: ios, expected: ios),
            try compared(2, path: "mac/Folder@2x.png", actual: folder132, expected: folder132Golden),
            CheckEntry(
                path: hostilePath, status: .new, report: nil, message: "new: no expected image",
                assets: CheckEntry.Assets(actual: try write(star, 3, .actual))),
            CheckEntry(
                path: hostilePath2, status: .deleted, report: nil, message: "deleted: no actual image",
                assets: CheckEntry.Assets(expected: try write(trash, 4, .expected))),
            CheckEntry(
                path: "broken/corrupt.png", status: .error, report: nil,
                message: "error: \"broken/corrupt.png\": not a PNG file (bad signature)"),
            try compared(6, path: "toolbar/Folder.png", actual: folder48, expected: folder44),
            try compared(7, path: "watch/AppIcon.png", actual: watch, expected: watch),
        ]
        let html = HTMLReport.html(
            entries, title: "iconbadge compare out/icons goldens/icons", assetsFolder: "report-assets",
            generated: nil)
        let page = folder + "/report.html"
        try Data(html.utf8).write(to: URL(fileURLWithPath: page))
        return (folder, page)
    }

    /// `chromium` on PATH, or nil.
    static func chromium() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/chromium" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs headless Chromium on `page` (with `fragment`) and returns its standard output.
    /// Each run has its own profile folder, so runs in parallel never share a lock.
    /// Standard error is ignored unless it fails (Chromium logs D-Bus noise there).
    ///
    /// - Throws: `TestFailure` when Chromium is missing or fails: the test fails, it
    ///   never passes without having run (ICONBADGE_SKIP_BROWSER=1 disables the suite).
    static func browse(
        _ page: String, fragment: String = "", _ arguments: [String], javaScript: Bool = true
    ) throws -> RunResult {
        guard let chromium = chromium() else {
            throw TestFailure(
                description: "chromium is not on PATH: `make deps` installs it (scripts/install-deps.sh); "
                    + "ICONBADGE_SKIP_BROWSER=1 skips the HTML report's browser tests")
        }
        let profile = Paths.scratch("chromium-profile")
        defer { try? FileManager.default.removeItem(atPath: profile) }
        var flags = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--mute-audio", "--hide-scrollbars",
            "--force-device-scale-factor=1", "--force-color-profile=srgb", "--user-data-dir=" + profile,
        ]
        if !javaScript { flags.append("--blink-settings=scriptEnabled=false") }
        let url = URL(fileURLWithPath: page).absoluteString + fragment
        let run = try runIconbadgeWith(executable: chromium, flags + arguments + [url])
        guard run.status == 0 else {
            throw TestFailure(
                description:
                    "chromium exited with \(run.status): \(run.stderrLines.suffix(10).joined(separator: "\n"))")
        }
        return run
    }

    /// The opening tags of the `name` elements of a serialized DOM, as attribute
    /// dictionaries (Chromium writes every value in double quotes, `"` and `&` escaped).
    static func elements(_ name: String, in dom: String) -> [[String: String]] {
        let tag = try! Regex("<" + name + #"\b([^>]*)>"#)
        let attribute = try! Regex(#"([A-Za-z_:][-A-Za-z0-9_:.]*)(?:="([^"]*)")?"#)
        return dom.matches(of: tag).map { match in
            var attributes: [String: String] = [:]
            for found in String(match.output[1].substring ?? "").matches(of: attribute) {
                attributes[String(found.output[1].substring ?? "")] = found.output[2].substring.map(String.init) ?? ""
            }
            return attributes
        }
    }

    /// The `name` elements whose `class` holds `className`.
    static func elements(_ name: String, class className: String, in dom: String) -> [[String: String]] {
        elements(name, in: dom).filter { $0["class"]?.split(separator: " ").contains(Substring(className)) == true }
    }

    @Test func rowsCountsAndEscapingAfterTheScriptRan() throws {
        let report = try Self.makeReport()
        let run = try Self.browse(report.html, ["--dump-dom"])
        let dom = run.stdoutText
        let body = Self.elements("body", in: dom)
        #expect(body.first?["data-ready"] == "1", "the page's script did not run: \(dom.prefix(400))")
        #expect(body.first?["data-shown"] == "7")

        let rows = Self.elements("article", class: "entry", in: dom)
        #expect(rows.count == 7)
        // Changed first, then new, deleted, error, passed; input order within a status.
        #expect(
            rows.map { $0["data-status"] } == ["changed", "changed", "new", "deleted", "error", "passed", "passed"])
        #expect(rows.map { $0["id"] } == (["2", "6", "3", "4", "5", "1", "7"].map { "entry-0000\($0)" }))
        #expect(rows.allSatisfy { $0["hidden"] == nil })
        // A changed pair of one size has three views; of two sizes, no diff.
        #expect(rows[0]["data-views"] == "side diff swipe" && rows[0]["data-view"] == "side")
        #expect(rows[1]["data-views"] == "side swipe")

        let counts = Self.elements("li", class: "count", in: dom)
        let byStatus = Dictionary(counts.compactMap { c in c["data-status"].map { ($0, c["data-count"] ?? "") } }) {
            first, _ in first
        }
        #expect(byStatus == ["changed": "2", "new": "1", "deleted": "1", "error": "1", "passed": "2"])
        #expect(counts.first { $0["class"]?.contains("total") == true }?["data-count"] == "7")

        // The hostile paths are text: escaped, their control and bidi characters visible,
        // and nothing they hold became an element.
        #expect(dom.contains("a&lt;script&gt;alert(1)&lt;/script&gt;\"'.png"))
        #expect(
            dom.contains("toolbar/trash\\n&lt;b id=\"injected\"&gt;bold&lt;/b&gt; &amp; \\u{1b}[31m\\u{202e}gnp.png"))
        #expect(dom.components(separatedBy: "<script").count == 2, "one script element: the page's own")
        #expect(!dom.contains("<b id=\"injected\"") && !dom.contains("alert(1)</script>"))

        // Every image of an open row loaded from the assets folder (allowed by the
        // Content-Security-Policy from file://) and got its natural size.
        let images = Self.elements("img", class: "px", in: dom)
        let eager = images.filter { $0["loading"] != "lazy" }
        #expect(eager.count == 12, "\(eager.count) eager images")
        #expect(eager.allSatisfy { $0["data-loaded"] == "1" && $0["data-broken"] == nil }, "\(eager)")
        #expect(eager.allSatisfy { $0["src"]?.hasPrefix("report-assets/0000") == true })
        #expect(eager.contains { $0["style"]?.contains("--w: 132") == true })
        #expect(dom.contains("<span class=\"size\">48 × 48</span>"), "the script wrote the new image's size")
    }

    @Test func theFragmentFiltersRowsAndChoosesViewAndZoom() throws {
        let report = try Self.makeReport()
        let run = try Self.browse(
            report.html, fragment: "#filter=changed,error&view=diff&zoom=4", ["--dump-dom"])
        let dom = run.stdoutText
        let body = Self.elements("body", in: dom)
        #expect(body.first?["data-ready"] == "1")
        #expect(body.first?["data-filter"] == "changed,error")
        #expect(body.first?["data-view"] == "diff")
        #expect(body.first?["data-zoom"] == "4")
        #expect(body.first?["data-shown"] == "3")
        let rows = Self.elements("article", class: "entry", in: dom)
        #expect(rows.count == 7)
        for row in rows {
            let shown = row["data-status"] == "changed" || row["data-status"] == "error"
            #expect((row["hidden"] == nil) == shown, "\(row)")
        }
        // The row without a diff falls back to its first view.
        #expect(rows[0]["data-view"] == "diff" && rows[1]["data-view"] == "side")
        let pressed = Self.elements("button", in: dom).filter { $0["aria-pressed"] == "true" }
        #expect(pressed.contains { $0["data-set-view"] == "diff" } && pressed.contains { $0["data-set-zoom"] == "4" })
    }

    /// Chromium's --dump-dom needs JavaScript, so the page's own script is blocked by its
    /// policy instead (`script-src 'nonce-probe'`), and a probe script with that nonce
    /// records what is rendered once the page has loaded.
    @Test func withoutJavaScriptEveryRowAndImageIsShown() throws {
        let report = try Self.makeReport()
        let page = try String(contentsOfFile: report.html, encoding: .utf8)
        let probe = """
            <script nonce="probe">
            addEventListener("load", () => {
              const shown = (element) => element.checkVisibility();
              const count = (selector, test) => Array.from(document.querySelectorAll(selector)).filter(test).length;
              const probe = document.createElement("div");
              probe.id = "probe";
              probe.dataset.rows = count("article.entry", shown);
              probe.dataset.images = count("img.px", (image) => shown(image) && image.naturalWidth > 0);
              probe.dataset.controls = count(".controls, .tabs, .summary input, .pane-swipe", shown);
              document.body.append(probe);
            });
            </script>
            """
        let blocked = page.replacingOccurrences(of: "script-src 'unsafe-inline'", with: "script-src 'nonce-probe'")
            .replacingOccurrences(of: "</body>", with: probe + "\n</body>")
        #expect(blocked != page)
        let copy = report.folder + "/no-script.html"
        try Data(blocked.utf8).write(to: URL(fileURLWithPath: copy))
        let run = try Self.browse(copy, fragment: "#filter=changed", ["--dump-dom"])
        let dom = run.stdoutText
        #expect(Self.elements("body", in: dom).first?["data-ready"] == nil, "the page's own script ran")
        let probed = Self.elements("div", in: dom).first { $0["id"] == "probe" }
        #expect(probed != nil, "the probe did not run: \(dom.suffix(300))")
        // Every row (the fragment means nothing without the script); the images of the
        // open rows in their side-by-side view: 3 + 2 changed, 1 new, 1 deleted.
        #expect(probed?["data-rows"] == "7")
        #expect(probed?["data-images"] == "7")
        #expect(probed?["data-controls"] == "0", "controls that cannot work are not shown")
    }

    /// The page's own policy, with a probe added to a copy of it: an `http:` image, a
    /// `data:` image and a fetch are all refused, while the assets (`file:`) load.
    @Test func thePolicyBlocksTheNetwork() throws {
        let report = try Self.makeReport()
        let page = try String(contentsOfFile: report.html, encoding: .utf8)
        let probe = """
            <body>
            <div id="net-probe" data-blocked=""></div>
            <script>
            document.addEventListener("securitypolicyviolation", (event) => {
              const probe = document.getElementById("net-probe");
              probe.dataset.blocked += " " + event.effectiveDirective + "=" + event.blockedURI;
            });
            fetch("http://127.0.0.1:9/x").catch(() => document.getElementById("net-probe").dataset.fetch = "refused");
            </script>
            <img src="http://127.0.0.1:9/x.png" alt="">
            <img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" alt="">
            """
        let probed = page.replacingOccurrences(of: "<body>", with: probe)
        #expect(probed != page)
        let copy = report.folder + "/net-probe.html"
        try Data(probed.utf8).write(to: URL(fileURLWithPath: copy))
        let run = try Self.browse(copy, ["--dump-dom"])
        let dom = run.stdoutText
        let found = Self.elements("div", in: dom).first { $0["id"] == "net-probe" }
        let blocked = found?["data-blocked"] ?? ""
        #expect(blocked.contains("img-src=http://127.0.0.1:9/x.png"), "\(blocked)")
        #expect(blocked.contains("img-src=data"), "\(blocked)")
        #expect(blocked.contains("connect-src=http://127.0.0.1:9/x"), "\(blocked)")
        #expect(!blocked.contains("file:"), "\(blocked)")
        #expect(found?["data-fetch"] == "refused")
        #expect(Self.elements("body", in: dom).first?["data-ready"] == "1")
        #expect(Self.elements("img", class: "px", in: dom).filter { $0["data-loaded"] == "1" }.count >= 12)
    }

    @Test func screenshotShowsThePage() throws {
        let report = try Self.makeReport()
        let shot = report.folder + "/screenshot.png"
        _ = try Self.browse(report.html, ["--screenshot=" + shot, "--window-size=1280,900"])
        let pixels = try ImageFile.pixels(at: shot)
        #expect(pixels.width == 1280 && pixels.height == 900)
        var colours = Set<UInt32>()
        for index in stride(from: 0, to: pixels.bytes.count, by: 4 * 7) {
            colours.insert(
                UInt32(pixels.bytes[index]) << 16 | UInt32(pixels.bytes[index + 1]) << 8
                    | UInt32(pixels.bytes[index + 2]))
        }
        #expect(colours.count > 200, "\(colours.count) colours: the page looks empty")
        // The changed status colour (#cf222e) is drawn: the style sheet applied.
        #expect(colours.contains(0xCF222E))
        if let copy = ProcessInfo.processInfo.environment["ICONBADGE_REPORT_SCREENSHOT"] {
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: shot, toPath: copy)
        }
    }

    /// The report as CI makes it: `compare ACTUAL_DIR EXPECTED_DIR --html` and
    /// `batch --check --html`, opened in Chromium.
    @Test func theCommandsReportsLoadInTheBrowser() throws {
        let folder = Paths.scratch("report-e2e")
        let icon = Paths.fixture("icons/folder-48x48.png")
        for (value, path) in [
            ("3", "a/one.png"), ("3", "e/one.png"), ("4", "a/sub/two.png"), ("5", "e/sub/two.png"),
            ("6", "a/new.png"), ("7", "e/gone.png"),
        ] {
            try FileManager.default.createDirectory(
                atPath: folder + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(try runIconbadge([icon, "--value", value, "-o", folder + "/" + path]).status == 0)
        }
        let compare = try runIconbadge(
            ["compare", "a", "e", "--html", "r/report.html"], environment: ["SOURCE_DATE_EPOCH": "1700000000"],
            in: folder)
        #expect(compare.status == 1)
        let page = try String(contentsOfFile: folder + "/r/report.html", encoding: .utf8)
        #expect(page.contains("2023-11-14T22:13:20Z"), "SOURCE_DATE_EPOCH dates the page")
        // The same results give the same bytes; no date without SOURCE_DATE_EPOCH.
        #expect(try runIconbadge(["compare", "a", "e", "--html", "r/again.html"], in: folder).status == 1)
        let again = try String(contentsOfFile: folder + "/r/again.html", encoding: .utf8)
        #expect(!again.contains("2023-") && !again.contains("2026-"))
        #expect(
            try runIconbadge(["compare", "a", "e", "--html", "r/third.html"], in: folder).stdout
                == (try runIconbadge(["compare", "a", "e", "--html", "r/again.html"], in: folder).stdout))
        #expect(try String(contentsOfFile: folder + "/r/again.html", encoding: .utf8) == again)
        let run = try Self.browse(folder + "/r/report.html", ["--dump-dom"])
        let dom = run.stdoutText
        #expect(Self.elements("body", in: dom).first?["data-ready"] == "1")
        let rows = Self.elements("article", class: "entry", in: dom)
        #expect(rows.count == 4)
        #expect(rows.map { $0["data-status"] } == ["changed", "new", "deleted", "passed"])
        let images = Self.elements("img", class: "px", in: dom).filter { $0["loading"] != "lazy" }
        #expect(!images.isEmpty && images.allSatisfy { $0["data-loaded"] == "1" }, "\(images)")
        #expect(images.allSatisfy { $0["src"]?.hasPrefix("report-assets/") == true })

        // batch --check --html: a row per render.
        let manifest =
            #"{"jobs":[{"icon":"\#(icon)","value":"3","output":"one.png"},{"icon":"\#(icon)","value":"9","output":"sub/two.png"}]}"#
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let batch = try runIconbadge(["batch", "m.json", "--check", "e", "--html", "r/batch.html"], in: folder)
        #expect(batch.status == 1)
        let batchRun = try Self.browse(folder + "/r/batch.html", ["--dump-dom"])
        let batchRows = Self.elements("article", class: "entry", in: batchRun.stdoutText)
        #expect(batchRows.map { $0["data-status"] } == ["changed", "passed"])
        // A second run replaces the assets folder: no stale image stays.
        #expect(
            try runIconbadge(["batch", "m.json", "--check", "e", "--html", "r/batch.html"], in: folder).status == 1)
        let assets = try FileManager.default.contentsOfDirectory(atPath: folder + "/r/batch-assets").sorted()
        #expect(
            assets == [
                ".iconbadge-report", "00001-actual.png", "00002-actual.png", "00002-diff.png", "00002-expected.png",
            ],
            "\(assets)")
    }

    /// The page `merge-reports` makes from three shards of a directory check, opened in
    /// Chromium: every row and image, the regions outlined, and "n" stepping through them.
    @Test func theMergedReportLoadsAndStepsThroughRegions() throws {
        let folder = try ShardMergeTests().iconFolders()
        for k in 1...3 {
            _ = try runIconbadge(
                [
                    "compare", "a", "e", "--shard", "\(k)/3", "--artifacts", "s\(k)", "--html", "s\(k)/report.html",
                    "--results", "s\(k)/results.json",
                ], in: folder)
        }
        let merged = try runIconbadge(
            ["merge-reports", "s1/results.json", "s2/results.json", "s3/results.json", "--html", "m/report.html"],
            in: folder)
        #expect(merged.status == 1, "\(merged.stderr)")
        let page = try String(contentsOfFile: folder + "/m/report.html", encoding: .utf8)
        // A probe presses "n" twice, then "p", once the page has loaded.
        let probe = """
            <script>
            addEventListener("load", () => {
              const press = (key) => document.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
              const seen = [];
              for (const key of ["n", "n", "p"]) {
                press(key);
                seen.push(document.body.dataset.region + "=" + document.querySelectorAll(".region.current").length);
              }
              const probe = document.createElement("div");
              probe.id = "probe";
              probe.dataset.steps = seen.join(" ");
              document.body.append(probe);
            });
            </script>
            """
        try Data(page.replacingOccurrences(of: "</body>", with: probe + "\n</body>").utf8).write(
            to: URL(fileURLWithPath: folder + "/m/probe.html"))
        let run = try Self.browse(folder + "/m/probe.html", ["--dump-dom"])
        let dom = run.stdoutText
        #expect(Self.elements("body", in: dom).first?["data-ready"] == "1")
        let rows = Self.elements("article", class: "entry", in: dom)
        #expect(rows.count == 14)
        #expect(rows.prefix(4).map { $0["data-status"] } == ["changed", "changed", "new", "deleted"])
        // Both changed rows have one region each (a count's badge), outlined over the
        // expected, actual and diff images of the side-by-side view and the diff view.
        #expect(rows.prefix(2).allSatisfy { $0["data-regions"] == "1" }, "\(rows.prefix(2))")
        #expect(Self.elements("span", class: "region", in: dom).count == 8)
        let images = Self.elements("img", class: "px", in: dom).filter { $0["loading"] != "lazy" }
        #expect(!images.isEmpty && images.allSatisfy { $0["data-loaded"] == "1" }, "\(images)")
        #expect(images.allSatisfy { $0["src"]?.hasPrefix("report-assets/000") == true })
        // n: the first changed row's region, n: the second's, p: back to the first; each
        // time its four boxes (side by side and diff) are the current ones.
        let steps = Self.elements("div", in: dom).first { $0["id"] == "probe" }?["data-steps"]
        let first = rows[0]["id"] ?? "?"
        let second = rows[1]["id"] ?? "?"
        #expect(steps == "\(first):1=4 \(second):1=4 \(first):1=4", "\(steps ?? "no probe")")
    }
}
