import BadgeCore

/// The HTML report of a golden check (`compare ACTUAL_DIR EXPECTED_DIR --html
/// report.html`): one self-contained page beside a folder of PNG assets, for a person
/// to look at what changed. It works offline from `file://`: every style and script is
/// inline, no URL leaves the page, and a Content-Security-Policy forbids the network.
///
/// The page lists one row (`<article class="entry" data-status="changed">`) per entry,
/// the rows that need looking at first: changed, then new, deleted, error, and passed
/// last (collapsed); within a status, in the order given. Each row with two images
/// offers three views of them: side by side (expected, actual and the diff, as
/// jest-image-snapshot's composite shows them), the diff alone, and a swipe of actual
/// over expected; images are shown at 1:1 or zoomed with hard pixel edges, over a
/// checkerboard so transparency shows. A filter by status hides rows.
///
/// The state of the page can be set by the URL fragment, as
/// `report.html#filter=changed,new&view=diff&zoom=4` (`filter`: statuses shown, comma
/// separated, empty for none; `view`: `side`, `diff` or `swipe`; `zoom`: `fit`, `1`,
/// `2`, `4` or `8`); the controls write it back. Once its script has run, `<body>` has
/// `data-ready="1"`, `data-filter`, `data-view`, `data-zoom` and `data-shown` (rows
/// shown), each row its `data-view` and `hidden` when filtered out, and each loaded
/// image `data-loaded="1"`. Without JavaScript every row and image is still shown (the
/// side-by-side view), only the controls are missing.
///
/// Untrusted text (each entry's path and message) is escaped for HTML text and
/// attributes (`escape`), its control and bidirectional formatting characters made
/// visible; only asset names (`assetName`), checked again here, reach a `src`.
package enum HTMLReport {
    /// What an asset shows: the role in its file name.
    package enum AssetRole: String, Sendable, CaseIterable {
        /// The actual image.
        case actual
        /// The expected image (the golden).
        case expected
        /// The diff image.
        case diff
    }

    /// The order of the rows and of the summary's counts: what a reviewer looks at first
    /// (changed images), then images added and removed, then the ones that could not be
    /// compared, and the passed ones last (issue 18).
    package static let statusOrder: [CheckEntry.Status] = [.changed, .new, .deleted, .error, .passed]

    /// The name of an asset inside the report's assets folder: the entry's 1-based
    /// position in the list given to `html`, five digits at least, and its role
    /// (`00001-actual.png`). Never derived from the image's own path, which may be
    /// hostile; the same entries always give the same names.
    package static func assetName(index: Int, role: AssetRole) -> String {
        precondition(index >= 0, "asset index must not be negative")
        return number(index) + "-" + role.rawValue + ".png"
    }

    /// The page for `entries`: a complete HTML document, deterministic (the same
    /// arguments give the same bytes).
    ///
    /// - Parameters:
    ///   - title: the page's heading and `<title>` (escaped).
    ///   - assetsFolder: the folder holding the assets, relative to the HTML file
    ///     (`report-assets`); percent-encoded into each `src`, runs of `/` made one.
    ///   - generated: a line such as a date, shown under the title; nil (the default)
    ///     shows none, so the page holds no clock unless the caller asks for one (when
    ///     `SOURCE_DATE_EPOCH` is set).
    package static func html(
        _ entries: [CheckEntry], title: String, assetsFolder: String, generated: String? = nil
    ) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">\n"
        out += "<meta name=\"referrer\" content=\"no-referrer\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"color-scheme\" content=\"light dark\">\n"
        out += "<meta name=\"generator\" content=\"iconbadge\">\n"
        out += "<title>\(escape(title))</title>\n<style>\n\(styleSheet)</style>\n</head>\n<body>\n"
        out += header(entries, title: title, generated: generated)
        out += "<main>\n"
        if entries.isEmpty {
            out += "<p class=\"note\">No images were compared.</p>\n"
        } else {
            out += "<p class=\"note none-shown\" hidden>No image has a status the filter shows.</p>\n"
        }
        let numbered = entries.enumerated().map { (index: $0.offset + 1, entry: $0.element) }
        for status in statusOrder {
            for item in numbered where item.entry.status == status {
                out += row(item.entry, index: item.index, assetsFolder: assetsFolder)
            }
        }
        out += "</main>\n<script>\n\(script)</script>\n</body>\n</html>\n"
        return out
    }

    /// The policy: nothing but the page's own inline style and script, and images from
    /// the page's own place. `'self'` is that place when the report is served over HTTP
    /// (a CI artifact browser); opened from `file://`, a page's origin is opaque by the
    /// URL standard and browsers differ on whether `'self'` still matches other `file:`
    /// URLs (Chromium 156 on Debian 12 does, checked), so `file:` names them outright. It
    /// allows nothing more: a page served over HTTP cannot load `file:` images anyway.
    /// `http:`, `https:` and `data:` stay blocked (checked in Chromium: a `securitypolicyviolation`
    /// for an `http:` image). `base-uri` and `form-action` do not fall back to
    /// `default-src`, so they are closed too.
    package static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self' file:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
        + "base-uri 'none'; form-action 'none'"

    /// The title, the optional generated line, the counts (each a filter checkbox) and
    /// the page-wide controls, hidden until the script shows them.
    private static func header(_ entries: [CheckEntry], title: String, generated: String?) -> String {
        var out = "<header class=\"masthead\">\n<div class=\"title\">\n<h1>\(escape(title))</h1>\n"
        if let generated { out += "<p class=\"generated\">\(escape(generated))</p>\n" }
        out += "</div>\n<ul class=\"summary\" aria-label=\"Counts by status; each box filters\">\n"
        for status in statusOrder {
            let count = entries.filter { $0.status == status }.count
            out += "<li class=\"count\" data-status=\"\(status.rawValue)\" data-count=\"\(count)\"><label>"
            out += "<input type=\"checkbox\" name=\"filter\" value=\"\(status.rawValue)\" checked>"
            out += "<span class=\"n\">\(count)</span> \(status.rawValue)</label></li>\n"
        }
        out += "<li class=\"count total\" data-count=\"\(entries.count)\">"
        out += "<span class=\"n\">\(entries.count)</span> total</li>\n</ul>\n"
        out += "<div class=\"controls\" hidden>\n"
        out += "<div class=\"group\" role=\"group\" aria-label=\"View of every row\"><span class=\"label\">View</span>"
        for view in views {
            out += "<button type=\"button\" data-set-view=\"\(view.id)\">\(view.label)</button>"
        }
        out += "</div>\n<div class=\"group\" role=\"group\" aria-label=\"Zoom\"><span class=\"label\">Zoom</span>"
        for zoom in zooms {
            out += "<button type=\"button\" data-set-zoom=\"\(zoom.id)\">\(zoom.label)</button>"
        }
        out += "</div>\n"
        if entries.contains(where: { $0.report?.result.regions?.largest.isEmpty == false }) {
            out += "<div class=\"group\" role=\"group\" aria-label=\"Regions\"><span class=\"label\">Regions</span>"
            out +=
                "<button type=\"button\" data-region-step=\"-1\" title=\"previous region (p)\">\u{2039} Previous <kbd>p</kbd></button>"
            out +=
                "<button type=\"button\" data-region-step=\"1\" title=\"next region (n)\">Next <kbd>n</kbd> \u{203A}</button>"
            out += "</div>\n"
        }
        out += "</div>\n</header>\n"
        return out
    }

    /// The views of a row with two images: id (as in `data-view` and the fragment) and label.
    private static let views = [
        (id: "side", label: "Side by side"), (id: "diff", label: "Diff"), (id: "swipe", label: "Swipe"),
    ]

    /// The zoom factors offered: id (as in `data-zoom` and the fragment) and label.
    private static let zooms = [
        (id: "fit", label: "Fit"), (id: "1", label: "1\u{D7}"), (id: "2", label: "2\u{D7}"),
        (id: "4", label: "4\u{D7}"), (id: "8", label: "8\u{D7}"),
    ]

    /// One entry: a collapsible row when it has images (open unless passed), its path,
    /// status and line, then its images.
    private static func row(_ entry: CheckEntry, index: Int, assetsFolder: String) -> String {
        let status = entry.status.rawValue
        let assets = entry.assets
        let pair: (expected: String, actual: String)? = {
            guard let expected = assets.expected, let actual = assets.actual, expected != actual else { return nil }
            return (expected, actual)
        }()
        let rowViews = pair == nil ? [] : ["side"] + (assets.diff == nil ? [] : ["diff"]) + ["swipe"]
        let result = entry.report?.result
        // Regions are outlined where both images have one size (the diff's).
        let regions = result.flatMap { $0.sameSize ? $0.regions?.largest : nil } ?? []
        var out = "<article class=\"entry\" id=\"entry-\(number(index))\" data-status=\"\(status)\""
        if !rowViews.isEmpty { out += " data-view=\"side\" data-views=\"\(rowViews.joined(separator: " "))\"" }
        if !regions.isEmpty { out += " data-regions=\"\(regions.count)\"" }
        out += ">\n"
        let hasImages = assets.actual != nil || assets.expected != nil || assets.diff != nil
        let shown = entry.label.isEmpty ? entry.path : "\(entry.path) (\(entry.label))"
        var head =
            "<span class=\"status\">\(status)</span><span class=\"path\">\(escape(shownPath(shown)))</span>"
            + "<span class=\"message\">\(escape(TextEscaping.oneLine(entry.message)))"
        if entry.imagesMissing { head += " <span class=\"missing\">artifacts missing</span>" }
        head += "</span>"
        guard hasImages else {
            return out + "<div class=\"head\">\(head)</div>\n</article>\n"
        }
        out += entry.status == .passed ? "<details>\n" : "<details open>\n"
        out += "<summary class=\"head\">\(head)</summary>\n<div class=\"images\">\n"
        // Passed rows start collapsed, their images lazy: a browser may load them only
        // once the row is opened (Chromium 156 loads them with the page all the same).
        let outlined = result.map { (width: $0.width, height: $0.height, regions: regions) }
        let image = Image(folder: assetsFolder, lazy: entry.status == .passed, regions: outlined)
        let actualSize = result.map { size($0.width, $0.height) } ?? ""
        let expectedSize = result.map { size($0.expectedWidth, $0.expectedHeight) } ?? ""
        if let pair {
            out += "<div class=\"tabs\" role=\"group\" aria-label=\"View\">"
            for view in views where rowViews.contains(view.id) {
                out += "<button type=\"button\" data-view=\"\(view.id)\">\(view.label)</button>"
            }
            out += "</div>\n<div class=\"pane pane-side\">\n"
            out += image.figure("Expected", size: expectedSize, name: pair.expected)
            out += image.figure("Actual", size: actualSize, name: pair.actual)
            let diffSize = result?.sameSize == true ? actualSize : ""
            if let diff = assets.diff { out += image.figure("Diff", size: diffSize, name: diff) }
            out += "</div>\n"
            if let diff = assets.diff {
                out += "<div class=\"pane pane-diff\">\n"
                out += image.figure("Diff", size: diffSize, name: diff)
                out += "</div>\n"
            }
            out += "<div class=\"pane pane-swipe\">\n<figure class=\"swipe\">"
            out += "<figcaption>Expected <span class=\"hint\">\u{25C2} drag \u{25B8}</span> Actual</figcaption>"
            out += "<div class=\"slider\"><div class=\"stack\">\(image.tag(pair.expected, role: "expected"))"
            out += "<div class=\"over\">\(image.tag(pair.actual, role: "actual"))</div></div>"
            out += "<input type=\"range\" min=\"0\" max=\"100\" step=\"any\" value=\"50\""
            out += " aria-label=\"Split: expected on the left, actual on the right\"></div>"
            out += "</figure>\n</div>\n"
        } else {
            out += "<div class=\"pane pane-all\">\n"
            if let actual = assets.actual, actual == assets.expected {
                out += image.figure("Actual = expected", size: actualSize, name: actual)
            } else {
                if let expected = assets.expected {
                    out += image.figure("Expected", size: expectedSize, name: expected)
                }
                if let actual = assets.actual { out += image.figure("Actual", size: actualSize, name: actual) }
            }
            if let diff = assets.diff { out += image.figure("Diff", size: "", name: diff) }
            out += "</div>\n"
        }
        return out + "</div>\n</details>\n</article>\n"
    }

    /// `index` with at least five digits, as in asset names and row ids.
    private static func number(_ index: Int) -> String {
        let digits = String(index)
        return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }

    /// `64 × 64`.
    private static func size(_ width: Int, _ height: Int) -> String { "\(width) \u{D7} \(height)" }

    /// The markup of the images of one row.
    private struct Image {
        /// The assets folder, relative to the page.
        var folder: String
        /// Whether the images load only when shown.
        var lazy: Bool
        /// The regions to outline over images of the compared size (pixels of it).
        var regions: (width: Int, height: Int, regions: [DiffRegion])?

        /// A captioned image: label, size (empty: the script fills it in once loaded),
        /// the regions outlined over it.
        func figure(_ label: String, size: String, name: String) -> String {
            "<figure><figcaption>\(label) <span class=\"size\">\(size)</span></figcaption>"
                + "<div class=\"frame\"><div class=\"pic\">\(tag(name, role: label.lowercased()))\(outlines())</div></div></figure>\n"
        }

        /// A box over each region (`data-region` from 1, largest first), placed in
        /// percent of the image so that it follows every zoom.
        func outlines() -> String {
            guard let regions, regions.width > 0, regions.height > 0 else { return "" }
            var out = ""
            for (k, region) in regions.regions.enumerated() {
                let left = percent(region.x, of: regions.width)
                let top = percent(region.y, of: regions.height)
                let width = percent(region.width, of: regions.width)
                let height = percent(region.height, of: regions.height)
                out += "<span class=\"region\" data-region=\"\(k + 1)\" style=\"left:\(left)%;top:\(top)%;"
                out += "width:\(width)%;height:\(height)%\" title=\"region \(k + 1): \(region.width) \u{D7} "
                out +=
                    "\(region.height) at \(region.x),\(region.y), \(region.pixels) pixel\(region.pixels == 1 ? "" : "s")\">"
                out += "</span>"
            }
            return out
        }

        /// `part` of `whole` in percent, with 4 decimals (a 10,000 px image's pixel is 0.01 %).
        /// `part` is clamped to `0...whole` (a region is drawn inside its image) and the
        /// product taken at double width, so no value a results file holds can overflow
        /// (issue 44: a region at x = 10¹³ trapped in `part * 1_000_000`).
        func percent(_ part: Int, of whole: Int) -> String {
            HTMLReport.percent(part, of: whole)
        }

        /// The `<img>` of asset `name`, or a note when the name is not one `assetName`
        /// could have made (nothing else reaches a `src`).
        func tag(_ name: String, role: String) -> String {
            guard let url = HTMLReport.assetURL(folder: folder, name: name) else {
                return "<span class=\"refused\">not shown: the asset name is not a plain file name</span>"
            }
            let loading = lazy ? " loading=\"lazy\"" : ""
            let alt = HTMLReport.escape(role) + " image"
            return "<img class=\"px\" src=\"\(HTMLReport.escape(url))\" alt=\"\(alt)\"\(loading)>"
        }
    }

    /// `part` of `whole` (pixels) in percent with 4 decimals, `part` clamped to
    /// `0...whole`: exact for every `Int`, never trapping (the product is taken at
    /// double width). `"0.0000"` when `whole` is not positive.
    package static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "0.0000" }
        let clamped = UInt64(min(max(part, 0), whole))
        let product = clamped.multipliedFullWidth(by: 1_000_000)
        // part ≤ whole, so the quotient is at most 1,000,000 and cannot overflow.
        let (sum, carry) = product.low.addingReportingOverflow(UInt64(whole) / 2)
        let (quotient, _) = UInt64(whole).dividingFullWidth((product.high + (carry ? 1 : 0), sum))
        let tenThousandths = Int(quotient)
        let fraction = String(tenThousandths % 10_000)
        return "\(tenThousandths / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
    }

    /// The relative URL of asset `name` in `folder`: each folder component
    /// percent-encoded (so no `:` makes a scheme, no `?` or `#` a query or fragment),
    /// runs of `/` made one (so no `//` makes a network-path reference); nil when
    /// `name` is not a plain file name (ASCII letters, digits, `.`, `_`, `-`, starting
    /// with a letter or digit, so neither `.` nor `..`).
    package static func assetURL(folder: String, name: String) -> String? {
        guard isAssetName(name) else { return nil }
        var parts = folder.split(separator: "/").map { percentEncoded(String($0)) }
        parts.append(name)
        return (folder.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// Whether `name` is a plain file name `assetName` could have made.
    private static func isAssetName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 255, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `text` with every byte but RFC 3986's unreserved characters percent-encoded.
    private static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            if isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~")
            {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
