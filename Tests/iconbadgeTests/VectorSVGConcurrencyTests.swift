import BadgeCore
import Foundation
import TestSupport
import Testing

/// Cairo 1.16's FreeType backend keeps the fonts Pango opens by file in one process-wide
/// cache of at most 10 open faces, and crashes when two threads draw or subset such
/// fonts at once. librsvg draws an SVG icon's text through Pango for PDF and SVG
/// outputs; `batch` used to crash (exit 139 in 4 runs of 6 with 8 jobs, every run with
/// 20) on an icon with text in more than 10 faces. Vector renders of SVG documents went
/// one at a time (`SVGSource.vectorLock`), as they are again now that librsvg draws in
/// iconbadge-loader and its recorded drawing is replayed here.
@Suite struct VectorSVGConcurrencyTests {
    @Test func batchOfSVGIconsWithTextInManyFontsToPDF() throws {
        let folder = Paths.scratch("vector-svg-concurrency")
        // 22 faces from fonts-noto-cjk (installed by `make deps`): 5 Sans, 4 Serif and
        // 2 Mono families, regular and bold, in four TTC files.
        let families = [
            "Noto Sans CJK JP", "Noto Sans CJK KR", "Noto Sans CJK SC", "Noto Sans CJK TC", "Noto Sans CJK HK",
            "Noto Serif CJK JP", "Noto Serif CJK KR", "Noto Serif CJK SC", "Noto Serif CJK TC",
            "Noto Sans Mono CJK JP", "Noto Sans Mono CJK KR",
        ]
        var lines: [String] = []
        var y = 12
        for family in families {
            for weight in ["normal", "bold"] {
                lines.append(
                    "<text x=\"2\" y=\"\(y)\" font-family=\"\(family)\" font-weight=\"\(weight)\" font-size=\"10\">Ab 1 漢</text>"
                )
                y += 12
            }
        }
        let icon = folder + "/many-fonts.svg"
        try "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"\(y)\">\(lines.joined())</svg>"
            .write(toFile: icon, atomically: true, encoding: .utf8)
        let jobs = (0..<16).map { "{\"icon\": \"\(icon)\", \"value\": \"3\", \"output\": \"\(folder)/\($0).pdf\"}" }
        let manifest = folder + "/jobs.json"
        try "{\"jobs\": [\(jobs.joined(separator: ", "))]}".write(toFile: manifest, atomically: true, encoding: .utf8)

        // What this test asserts is no crash and one document: the time limit is raised
        // so that a loaded machine (one 4 s overrun at load 5) cannot fail it.
        let run = try runIconbadge(["batch", manifest, "--jobs", "2", "--quiet", "--svg-time-limit", "120"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".pdf") }
        #expect(written.count == 16)
        // Every PDF is the same document: the lock changes the order, not the output.
        let first = try Data(contentsOf: URL(fileURLWithPath: folder + "/0.pdf"))
        #expect(first.starts(with: Array("%PDF-".utf8)))
        for index in 1..<16 {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(index).pdf")) == first, "\(index).pdf")
        }
    }
}
