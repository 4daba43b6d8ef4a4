import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

@Suite struct FormatEndToEndTests {
    static let icon = Paths.fixture("icons/folder-132x132.png")

    func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func formatFollowsTheExtensionOrTheFlag() throws {
        let folder = Paths.scratch("formats")
        for name in ["a.png", "a.svg", "a.pdf", "a.PDF"] {
            #expect(try runIconbadge([Self.icon, "--value", "3", "-o", "\(folder)/\(name)"]).status == 0)
        }
        #expect(try read("\(folder)/a.png").starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try String(decoding: read("\(folder)/a.svg"), as: UTF8.self).hasPrefix("<?xml"))
        #expect(try String(decoding: read("\(folder)/a.pdf"), as: UTF8.self).hasPrefix("%PDF-"))
        // --format names the format of a file whose name does not: never one whose name
        // says another (the content would contradict the name).
        #expect(
            try runIconbadge([Self.icon, "--value", "3", "--format", "svg", "-o", "\(folder)/forced.out"]).status == 0)
        #expect(try String(decoding: read("\(folder)/forced.out"), as: UTF8.self).hasPrefix("<?xml"))
        let contradicting = try runIconbadge([
            Self.icon, "--value", "3", "--format", "svg", "-o", "\(folder)/forced.png",
        ])
        #expect(contradicting.status == 64)
        #expect(contradicting.stderr.contains("names a PNG file, but the format is SVG"))
        let unknown = try runIconbadge([Self.icon, "--value", "3", "-o", "\(folder)/a.jpg"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("names a JPEG file, and iconbadge writes PNG, WebP, SVG or PDF"))
        let webp = try runIconbadge([Self.icon, "--value", "3", "--format", "png", "-o", "\(folder)/a.webp"])
        #expect(webp.status == 64)
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/a.webp"))
        let golden = try runIconbadge([Self.icon, "--value", "3", "--check", "\(folder)/g.jpg", "--update"])
        #expect(golden.status == 64)
    }

    /// SVG and PDF outputs carry no time, so the same command gives the same bytes
    /// whenever it runs. Cairo 1.16 stamps the current time into a PDF as /CreationDate
    /// unless told otherwise; iconbadge clears it and writes a date only from
    /// SOURCE_DATE_EPOCH. Checked on the bytes (no date field), and by running with the
    /// input's modification time and the time zone set to two different values, rather
    /// than by waiting for the clock to move on.
    @Test func vectorOutputsCarryNoTimestamp() throws {
        let folder = Paths.scratch("vector-determinism")
        let icon = folder + "/icon.png"
        try FileManager.default.copyItem(atPath: Self.icon, toPath: icon)
        let settings: [(modified: TimeInterval, zone: String)] = [
            (1_000_000_000, "UTC"), (1_700_000_000, "Pacific/Kiritimati"),
        ]
        for (index, setting) in settings.enumerated() {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: setting.modified)], ofItemAtPath: icon)
            for format in ["svg", "pdf"] {
                let run = try runIconbadge(
                    [icon, "--value", "42", "-o", "\(folder)/\(index).\(format)"], environment: ["TZ": setting.zone])
                #expect(run.status == 0, "\(run.stderr)")
            }
        }
        for format in ["svg", "pdf"] {
            #expect(try read("\(folder)/0.\(format)") == read("\(folder)/1.\(format)"), "\(format)")
        }
        let pdf = String(decoding: try read("\(folder)/0.pdf"), as: UTF8.self)
        #expect(pdf.contains("/Creator (iconbadge)"))
        #expect(!pdf.contains("/CreationDate") && !pdf.contains("/ModDate"), "the PDF records a date")
        let dated = try runIconbadge(
            [Self.icon, "--value", "42", "-o", "\(folder)/dated.pdf"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(dated.status == 0)
        #expect(
            try String(decoding: read("\(folder)/dated.pdf"), as: UTF8.self).contains("/CreationDate (20231114221320Z)")
        )
    }

    @Test func standardInputAndOutput() throws {
        let input = try read(Self.icon)
        let run = try runIconbadge(["-", "--value", "3", "-o", "-", "--format", "svg"], stdin: input)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutText.hasPrefix("<?xml"))
        let png = try runIconbadge(["-", "--value", "3", "-o", "-"], stdin: input)
        #expect(try ImageFile.pixels(of: Array(png.stdout), path: "-").width == 132)
    }

    @Test func inPlaceReplacesTheIconAtomically() throws {
        let folder = Paths.scratch("in-place")
        let path = folder + "/icon.png"
        try FileManager.default.copyItem(atPath: Self.icon, toPath: path)
        let before = try ImageFile.pixels(at: path)
        let run = try runIconbadge([path, "--value", "3", "--in-place"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ImageFile.pixels(at: path) != before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["icon.png"])
        let both = try runIconbadge([path, "--value", "3", "--in-place", "-o", folder + "/x.png"])
        #expect(both.status == 64)
    }

    @Test func inputsThatAreNotRegularFilesAreRefusedAtOnce() throws {
        let folder = Paths.scratch("fifo")
        let fifo = folder + "/pipe.png"
        #expect(mkfifo(fifo, 0o600) == 0)
        for (input, reason) in [(fifo, "is a FIFO"), ("/dev/zero", "is a device"), (folder, "is a directory")] {
            // Opening the FIFO to read would block until a writer came: the run would
            // hang, and its watchdog would fail the test saying so (no time is asserted).
            let run = try runIconbadge([input, "--value", "3", "-o", folder + "/out.png"])
            #expect(run.status == 66, "\(input)")
            #expect(run.stderr.contains(reason), "\(run.stderr)")
        }
    }

    @Test func svgLimitsAreEnforcedWithTheFlagNamed() throws {
        let big = try runIconbadge([
            try Corpus.path("icons/papirus-svg/firefox.svg"), "--value", "3", "--scale", "200", "--report",
        ])
        #expect(big.status == 65)
        #expect(big.stderr.contains("over the 8192 px side limit (raise it with --max-side"))
        let nested = try runIconbadge([
            try Corpus.path("librsvg/errors/bug323-nested-use.svg"), "--value", "3", "--svg-time-limit", "0.5", "-o",
            Paths.scratch("nested") + "/out.png",
        ])
        #expect(nested.status == 65)
        #expect(nested.stderrLines.count == 1)
        #expect(nested.stderr.contains("SVG too complex"))
    }

    @Test func largeRasterLimitNamesItsFlag() throws {
        let run = try runIconbadge([
            Paths.fixture("icons/folder-512x512.png"), "--value", "3", "--max-pixels", "1000", "--report",
        ])
        #expect(run.status == 65)
        #expect(run.stderr.contains("over the 1000 pixel limit (raise it with --max-pixels)"))
    }

    /// `.webp` is written as lossless WebP: the same pixels as the PNG (decoded by
    /// gdk-pixbuf's WebP loader, an independent reader), the same bytes on every run,
    /// and `--in-place` keeps a WebP icon WebP.
    @Test func webpIsLosslessAndDeterministic() throws {
        let folder = Paths.scratch("format-webp")
        // An opaque icon: the reader premultiplies, which is exact only at full alpha.
        for name in ["a.png", "a.webp", "b.webp"] {
            let run = try runIconbadge([
                Paths.fixture("icons/app-ios-180.png"), "--value", "BETA", "-o", "\(folder)/\(name)",
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let webp = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/a.webp")))
        #expect(
            String(decoding: webp[0..<4], as: UTF8.self) == "RIFF"
                && String(decoding: webp[8..<16], as: UTF8.self) == "WEBPVP8L")
        #expect(try ImageFile.pixels(at: folder + "/a.webp") == (try ImageFile.pixels(at: folder + "/a.png")))
        #expect(webp == [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/b.webp"))))
        try FileManager.default.copyItem(atPath: folder + "/a.webp", toPath: folder + "/in.webp")
        let inPlace = try runIconbadge([folder + "/in.webp", "--dot", "--in-place"])
        #expect(inPlace.status == 0, "\(inPlace.stderr)")
        let rewritten = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/in.webp")))
        #expect(String(decoding: rewritten[8..<16], as: UTF8.self) == "WEBPVP8L")
    }
}
