import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// The pictures of the README and the manual (docs/gallery.txt) are what the commands
/// beside them make.
@Suite struct GalleryTests {
    struct Entry: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: String
        var testDescription: String { name }
    }

    static let entries: [Entry] = {
        let text = (try? String(contentsOfFile: Paths.root + "/docs/gallery.txt", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let bar = line.firstIndex(of: "|") else { return nil }
            return Entry(
                name: line[..<bar].trimmingCharacters(in: .whitespaces),
                arguments: line[line.index(after: bar)...].trimmingCharacters(in: .whitespaces))
        }
    }()

    @Test func galleryIsNotEmpty() {
        #expect(Self.entries.count == 42)
    }

    @Test(arguments: entries)
    func pictureIsCurrentAndShownWithItsCommand(_ entry: Entry) throws {
        let output = Paths.scratch("gallery") + "/\(entry.name).png"
        // A compare line shows its diff image (and exits 1: the images differ).
        let words = shellWords(entry.arguments)
        let isCompare = words.first == "compare"
        let flag = isCompare ? "--diff" : "-o"
        let run = try runIconbadge(words + [flag, output], in: Paths.root)
        #expect(run.status == (isCompare ? 1 : 0), "\(run.stderr)")
        let committed = try ImageFile.pixels(at: Paths.root + "/docs/images/\(entry.name).png")
        #expect(
            try ImageFile.pixels(at: output) == committed, "run make docs and look at docs/images/\(entry.name).png")
        // An APNG's default image (read above) is its static render: compare what it
        // plays too (its play count, every frame's delay and pixels).
        if words.contains("--animate") {
            let fix = "run make docs and look at docs/images/\(entry.name).png"
            let fresh = try APNGAnimation(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
            let shown = try APNGAnimation(
                png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.root + "/docs/images/\(entry.name).png"))))
            #expect(fresh.plays == shown.plays, "\(fix)")
            #expect(fresh.frames.map(\.delay) == shown.frames.map(\.delay), "\(fix)")
            if let first = zip(fresh.frames, shown.frames).enumerated().first(where: { $1.0.pixels != $1.1.pixels }) {
                Issue.record("frame \(first.offset) differs: \(fix)")
            }
        }
        // A page shows the picture and, on the same page, the command that made it.
        let command = "iconbadge \(entry.arguments) \(flag) \(entry.name).png"
        let pages = try Self.pages.filter { try $0.text.contains(command) }
        #expect(!pages.isEmpty, "no page of the README or the manual shows: \(command)")
        for page in pages {
            let picture = page.path == "README.md" ? "docs/images/" : "../images/"
            #expect(
                page.text.contains(picture + entry.name + ".png"),
                "\(page.path) shows the command for \(entry.name) but not its picture")
        }
    }

    /// The README and the manual's pages, with their text.
    static var pages: [(path: String, text: String)] {
        get throws {
            let manual = try FileManager.default.contentsOfDirectory(atPath: Paths.root + "/docs/manual")
                .filter { $0.hasSuffix(".md") }.sorted().map { "docs/manual/" + $0 }
            return try (["README.md"] + manual).map {
                ($0, try String(contentsOfFile: Paths.root + "/" + $0, encoding: .utf8))
            }
        }
    }
}
