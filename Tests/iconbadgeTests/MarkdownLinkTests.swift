import Foundation
import TestSupport
import Testing

/// Every relative link and `#anchor` of every Markdown file of the repository leads
/// somewhere: the file exists, and the anchor is a heading of that file as GitHub
/// names it (or an explicit `id`).
@Suite struct MarkdownLinkTests {
    /// The repository's Markdown files, relative to the root: every `.md` outside
    /// `.build`, `out` and hidden folders.
    static let files: [String] = {
        var found: [String] = []
        let root = URL(fileURLWithPath: Paths.root)
        guard
            let walk = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { return [] }
        for case let url as URL in walk {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            if relative == ".build" || relative == "out" || relative.hasPrefix("out/") {
                walk.skipDescendants()
                continue
            }
            if url.pathExtension == "md" { found.append(relative) }
        }
        return found.sorted()
    }()

    @Test func theRepositoryHasItsMarkdownFiles() {
        #expect(Self.files.contains("README.md"))
        #expect(Self.files.contains("HACKING.md"))
        #expect(Self.files.filter { $0.hasPrefix("docs/manual/") }.count == 18)
        #expect(Self.files.count >= 25, "\(Self.files)")
    }

    @Test func slugsAreGitHubs() {
        #expect(MarkdownDocument.slug("Golden checks: `compare` and `--check`") == "golden-checks-compare-and---check")
        #expect(MarkdownDocument.slug("Toolbar assets at @1x, @2x and @3x") == "toolbar-assets-at-1x-2x-and-3x")
        #expect(MarkdownDocument.slug("`{frame}`: one file a frame") == "frame-one-file-a-frame")
        #expect(
            MarkdownDocument.slug("Xcode app icon sets, catalogs and Icon Composer bundles: `appiconset`")
                == "xcode-app-icon-sets-catalogs-and-icon-composer-bundles-appiconset")
        #expect(MarkdownDocument.slug("What 新着 means") == "what-新着-means")
        let twice = MarkdownDocument("## Options\n\ntext\n\n## Options\n")
        #expect(twice.anchors == ["options", "options-1"])
        // Headings inside code blocks are not headings; links inside code are not links.
        let code = MarkdownDocument("```sh\n# a comment\n[x](nowhere.md)\n```\n`[y](nowhere.md)`\n")
        #expect(code.anchors.isEmpty)
        #expect(code.links.isEmpty)
    }

    /// `a/b/../c/./d` as `a/c/d`; nil when `..` climbs out of the root.
    static func normalised(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                guard parts.popLast() != nil else { return nil }
                continue
            }
            parts.append(part)
        }
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    @Test(arguments: files)
    func everyLinkResolves(_ file: String) throws {
        let document = MarkdownDocument(try String(contentsOfFile: Paths.root + "/" + file, encoding: .utf8))
        let folder = (file as NSString).deletingLastPathComponent
        for link in document.links {
            let target = link.target
            if target.contains("://") || target.hasPrefix("mailto:") { continue }
            let place = "\(file):\(link.line): \(target)"
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let path = parts[0].removingPercentEncoding ?? parts[0]
            #expect(!path.hasPrefix("/"), "\(place): a link from the root of the file system")
            guard let resolved = path.isEmpty ? file : Self.normalised(folder.isEmpty ? path : folder + "/" + path)
            else {
                Issue.record("\(place) leaves the repository")
                continue
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: Paths.root + "/" + resolved, isDirectory: &isFolder) else {
                Issue.record("\(place): no such file")
                continue
            }
            guard parts.count == 2 else { continue }
            #expect(
                resolved.hasSuffix(".md") && !isFolder.boolValue, "\(place): an anchor in a file that is not Markdown")
            let anchors =
                resolved == file
                ? document.anchors
                : MarkdownDocument(try String(contentsOfFile: Paths.root + "/" + resolved, encoding: .utf8)).anchors
            #expect(anchors.contains(parts[1]), "\(place): no such anchor in \(resolved)")
        }
    }
}
