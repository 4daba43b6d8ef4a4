import Foundation
import TestSupport
import Testing

/// The files the code and the documentation cite exist in the repository: every
/// `docs/DESIGN.md` a comment points to (and the section it names), and every path of
/// the repository named in a source or test file. Whoever clones the project can read
/// each rule the code points to.
@Suite struct CitationTests {
    /// The files searched, relative to the root: Swift and C sources and tests, and the
    /// Markdown pages people read first.
    static let files: [String] = {
        var found: [String] = []
        for folder in ["Sources", "Tests", "docs"] {
            let root = URL(fileURLWithPath: Paths.root + "/" + folder)
            guard
                let walk = FileManager.default.enumerator(
                    at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            else { continue }
            for case let url as URL in walk where ["swift", "c", "h", "md"].contains(url.pathExtension) {
                found.append(folder + "/" + String(url.path.dropFirst(root.path.count + 1)))
            }
        }
        for page in ["README.md", "HACKING.md", "SECURITY.md", "CHANGELOG.md"]
        where FileManager.default.fileExists(atPath: Paths.root + "/" + page) {
            found.append(page)
        }
        return found.sorted()
    }()

    static func text(_ file: String) throws -> String {
        try String(contentsOfFile: Paths.root + "/" + file, encoding: .utf8)
    }

    /// Every match of `pattern` (its group 1 when it has one) in `text`, with its line.
    static func matches(_ pattern: String, in text: String) throws -> [(line: Int, text: String)] {
        let regex = try NSRegularExpression(pattern: pattern)
        let whole = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: whole.length)).map { match in
            let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
            let line = whole.substring(to: match.range.location).count(where: { $0 == "\n" }) + 1
            return (line, whole.substring(with: range))
        }
    }

    /// `a/b/../c/./d` as `a/c/d`; a `..` above the root stays, so it never matches.
    static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// `text` with the lines of its fenced code blocks emptied (a folder listing names
    /// files relative to the folder it describes); lines keep their numbers.
    static func outsideCodeBlocks(_ text: String) -> String {
        var inBlock = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            if line.hasPrefix("```") {
                inBlock.toggle()
                return ""
            }
            return inBlock ? "" : line
        }.joined(separator: "\n")
    }

    /// The headings of docs/DESIGN.md, without their `#`s.
    static func designHeadings() throws -> Set<String> {
        Set(
            try text("docs/DESIGN.md").split(separator: "\n").filter { $0.hasPrefix("#") }.map {
                String($0.drop(while: { $0 == "#" }).drop(while: { $0 == " " }))
            })
    }

    /// Each citation of the design rules names their file by a path that exists: from
    /// the root (docs/DESIGN.md), or relative to a page of docs/ (a Markdown link); a
    /// quoted section after it is one of its headings. (Markdown code blocks are left
    /// out: a folder listing names files relative to the folder it describes.)
    @Test func designCitationsLeadToTheFileAndItsSections() throws {
        let headings = try Self.designHeadings()
        #expect(headings.contains("Units and geometry"))
        #expect(headings.contains("Errors, exit codes, output safety"))
        var cited = 0
        var sourceCitations = 0
        for file in Self.files {
            let text = file.hasSuffix(".md") ? Self.outsideCodeBlocks(try Self.text(file)) : try Self.text(file)
            let folder = (file as NSString).deletingLastPathComponent
            for hit in try Self.matches(#"([A-Za-z0-9_./-]*DESIGN\.md)"#, in: text) {
                cited += 1
                if file.hasPrefix("Sources/") { sourceCitations += 1 }
                let fromRoot = hit.text
                let fromFolder = folder.isEmpty ? hit.text : folder + "/" + hit.text
                let resolved = [fromRoot, fromFolder].map(Self.normalised)
                #expect(
                    resolved.contains("docs/DESIGN.md"),
                    "\(file):\(hit.line): \(hit.text) is not docs/DESIGN.md (cite it by its path from the root)")
            }
            for section in try Self.matches(#"DESIGN\.md\s*(?:///\s*)?"([A-Z][^"\n]*)""#, in: text) {
                #expect(
                    headings.contains(section.text),
                    "\(file):\(section.line): docs/DESIGN.md has no section \"\(section.text)\"")
            }
        }
        // Eight source files cite it ten times today; a citation the pattern stopped
        // finding would pass unchecked.
        #expect(sourceCitations >= 8, "\(sourceCitations)")
        #expect(cited > sourceCitations)
    }

    /// A path of the repository named in a source or test file (`scripts/…`,
    /// `docs/…`, `Fixtures/…`, `fuzz/…`) is there: a comment that sends the reader to a
    /// file that was moved or deleted is found here.
    @Test func repositoryPathsNamedInSourcesExist() throws {
        let pattern =
            #"(?<![A-Za-z0-9_./+\-])((?:docs|scripts|Fixtures|fuzz|tests|linker|bench)/[A-Za-z0-9_./+\-]+\.(?:md|sh|py|txt|c|h|ld))\b"#
        var named = Set<String>()
        for file in Self.files where file.hasPrefix("Sources/") || file.hasPrefix("Tests/") {
            for hit in try Self.matches(pattern, in: try Self.text(file)) {
                named.insert(hit.text)
                #expect(
                    FileManager.default.fileExists(atPath: Paths.root + "/" + hit.text),
                    "\(file):\(hit.line): \(hit.text) is not in the repository")
            }
        }
        #expect(named.count >= 15, "\(named.sorted())")
        #expect(named.contains("docs/DESIGN.md"))
    }
}
