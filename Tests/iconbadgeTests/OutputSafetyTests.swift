import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Regression tests for the hostile-use findings: nothing but a regular file is
/// ever replaced, no input is overwritten however it is spelled, and options that
/// would do nothing are refused.
@Suite struct OutputSafetyTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")

    func md5(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func devicesAndFIFOsAreNeverReplaced() throws {
        let folder = Paths.scratch("devices")
        #expect(mknod(folder + "/null", S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)  // makedev(1, 3): /dev/null
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
        for (name, reason) in [("null", "is a device"), ("fifo", "is a FIFO")] {
            let run = try runIconbadge([Self.icon, "--value", "3", "--format", "png", "-o", "\(folder)/\(name)"])
            #expect(run.status == 73, "\(name): \(run.stderr)")
            #expect(run.stderr.contains(reason))
        }
        var info = stat()
        #expect(stat(folder + "/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        #expect(stat(folder + "/fifo", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        let junit = try runIconbadge(["compare", Self.icon, Self.icon, "--diff", "\(folder)/null"])
        #expect(junit.status == 73)
    }

    @Test func symbolicLinkOutputIsRefusedAndKept() throws {
        let folder = Paths.scratch("links")
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/target.png"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.png", withDestinationPath: "target.png")
        let run = try runIconbadge([Self.icon, "--value", "3", "-o", folder + "/link.png"])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("link.png\": is a symbolic link; iconbadge never writes through a link"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.png") == "target.png")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/target.png")) == Data("old".utf8))
    }

    @Test func inPlaceKeepsPermissions() throws {
        let folder = Paths.scratch("mode")
        let path = folder + "/icon.png"
        try FileManager.default.copyItem(atPath: Self.icon, toPath: path)
        #expect(chmod(path, 0o600) == 0)
        #expect(try runIconbadge([path, "--value", "3", "--in-place"]).status == 0)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func readOnlyOutputIsRefusedForAnOrdinaryUser() throws {
        try OtherUser.withFolder("read-only-file") { scratch in
            let icon = scratch + "/icon.png"
            try FileManager.default.copyItem(atPath: Self.icon, toPath: icon)
            let folder = scratch + "/out"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let path = folder + "/existing.png"
            try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
            #expect(chmod(path, 0o444) == 0)
            #expect(chmod(folder, 0o777) == 0)
            let run = try OtherUser.run([icon, "--value", "3", "-o", path], in: scratch)
            #expect(run.status == 73, "\(run.stderr)")
            #expect(run.stderr.contains("is read-only"), "\(run.stderr)")
            #expect(try md5(path) == Data("keep".utf8))
        }
    }

    @Test func noInputIsOverwrittenHoweverSpelled() throws {
        let folder = Paths.scratch("spelling")
        let icon = folder + "/i.png"
        try FileManager.default.copyItem(atPath: Self.icon, toPath: icon)
        let font = folder + "/f.ttf"
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: font)
        let before = try md5(icon)
        // render: the icon by another spelling, a font file, a fallback font.
        #expect(try runIconbadge([icon, "--value", "3", "-o", folder + "/./i.png"]).status == 64)
        #expect(
            try runIconbadge([icon, "--value", "3", "--font-file", font, "--format", "png", "-o", font]).status == 64)
        #expect(
            try runIconbadge([icon, "--value", "3", "--fallback-font", font, "--format", "png", "-o", font]).status
                == 64)
        // compare: the diff image onto an input.
        let compare = try runIconbadge(["compare", icon, icon, "--diff", folder + "//i.png"])
        #expect(compare.status == 64 && compare.stderr.contains("--diff"))
        // --check: an artifact onto the icon.
        try FileManager.default.copyItem(atPath: Self.icon, toPath: folder + "/g.png")
        let artifactIcon = folder + "/g.actual.png"
        try FileManager.default.copyItem(atPath: Self.icon, toPath: artifactIcon)
        let check = try runIconbadge([
            artifactIcon, "--value", "7", "--check", folder + "/g.png", "--artifacts", folder,
        ])
        #expect(check.status == 64, "\(check.stderr)")
        // batch: ./ spelling, a NUL, duplicates by spelling, the manifest itself.
        let manifests: [(String, String)] = [
            (
                "{\"jobs\":[{\"icon\":\"\(icon)\",\"value\":\"3\",\"output\":\"\(folder)/./i.png\"}]}",
                "would overwrite an input"
            ),
            ("{\"jobs\":[{\"icon\":\"\(icon)\",\"value\":\"3\",\"output\":\"\(folder)/i.png\\u0000.png\"}]}", "NUL"),
            (
                "{\"jobs\":[{\"icon\":\"\(icon)\",\"value\":\"3\",\"output\":\"\(folder)/o.png\"},{\"icon\":\"\(icon)\",\"value\":\"4\",\"output\":\"\(folder)/./o.png\"}]}",
                "both write"
            ),
            (
                "{\"jobs\":[{\"icon\":\"\(icon)\",\"value\":\"3\",\"output\":\"\(folder)/m.json\",\"format\":\"png\"}]}",
                "would overwrite an input"
            ),
            (
                "{\"jobs\":[{\"icon\":\"\(icon)\",\"value\":\"3\",\"output\":\"\(font)\",\"font-file\":\"\(font)\",\"format\":\"png\"}]}",
                "would overwrite an input"
            ),
        ]
        for (manifest, message) in manifests {
            try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
            let run = try runIconbadge(["batch", folder + "/m.json"])
            #expect(run.status == 65, "\(message): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
        }
        #expect(try md5(icon) == before)
        #expect(!FileManager.default.fileExists(atPath: folder + "/o.png"))

        // The icon read from standard input (`- < i.png`) is that file too.
        let stdin = try runIconbadge(["-", "--value", "3", "-o", icon], stdinFile: icon)
        #expect(stdin.status == 64 && stdin.stderr.contains("is an input file"), "\(stdin.stderr)")
        // batch --junit onto the manifest, an icon or a golden.
        try FileManager.default.createDirectory(atPath: folder + "/goldens", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.icon, toPath: folder + "/goldens/o.png")
        try "{\"jobs\":[{\"icon\":\"\(icon)\",\"value\":\"3\",\"output\":\"o.png\"}]}".write(
            toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let manifestBefore = try md5(folder + "/m.json")
        let goldenBefore = try md5(folder + "/goldens/o.png")
        for target in [folder + "/m.json", icon, folder + "/goldens/o.png"] {
            let run = try runIconbadge(["batch", folder + "/m.json", "--check", folder + "/goldens", "--junit", target])
            #expect(run.status == 64 && run.stderr.contains("--junit"), "\(target): \(run.stderr)")
        }
        #expect(try md5(folder + "/m.json") == manifestBefore)
        #expect(try md5(folder + "/goldens/o.png") == goldenBefore)
        #expect(try md5(icon) == before)
    }

    /// `--check` renders in memory: with `--in-place` it would badge the icon and
    /// then compare; refused before anything is written.
    @Test func checkDoesNotGoWithInPlace() throws {
        let folder = Paths.scratch("check-in-place")
        let icon = folder + "/i.png"
        try FileManager.default.copyItem(atPath: Self.icon, toPath: icon)
        let before = try md5(icon)
        let run = try runIconbadge([icon, "--value", "3", "--in-place", "--check", folder + "/g.png"])
        #expect(run.status == 64 && run.stderr.contains("--in-place"), "\(run.stderr)")
        #expect(try md5(icon) == before)
    }

    @Test func appIconSetOutIntoItselfIsRefused() throws {
        let folder = Paths.scratch("appicon-self")
        let set = folder + "/Self.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.fixture("icons/folder-132x132.png"), toPath: set + "/icon.png")
        try #"{"images":[{"filename":"icon.png","idiom":"iphone","scale":"3x","size":"44x44"}]}"#
            .write(toFile: set + "/Contents.json", atomically: true, encoding: .utf8)
        let before = try md5(set + "/icon.png")
        let run = try runIconbadge(["appiconset", set, "--value", "3", "--out", folder])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(try md5(set + "/icon.png") == before)
        // A set whose image is missing: nothing is written at all.
        try #"{"images":[{"filename":"gone.png","idiom":"iphone","scale":"3x","size":"44x44"}]}"#
            .write(toFile: set + "/Contents.json", atomically: true, encoding: .utf8)
        let missing = try runIconbadge(["appiconset", set, "--value", "3", "--out", folder + "/out"])
        #expect(missing.status == 66)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    @Test func standardOutputCarriesOneThing() throws {
        #expect(try runIconbadge([Self.icon, "--value", "3", "--report", "-o", "-"]).status == 64)
        #expect(try runIconbadge(["compare", Self.icon, Self.icon, "--diff", "-"]).status == 64)
        let full = try runIconbadgeWith(
            executable: "/bin/sh", ["-c", "'\(Paths.binary)' '\(Self.icon)' --value 3 --report > /dev/full"])
        #expect(full.status == 74, "\(full.stderr)")
        #expect(full.stderr.contains("cannot write to standard output"))
    }

    /// A value of 100,000 characters (about the longest argument Linux passes): one
    /// short line that gives its length instead of echoing it.
    @Test func hostileLengthsGetAShortMessage() throws {
        let long = String(repeating: "a", count: 100_000)
        let run = try runIconbadge([Self.icon, "--value", "3", "--background", long, "--report"])
        #expect(run.status == 64)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.count < 600, "the message echoes \(run.stderr.count) characters")
        #expect(run.stderr.contains("(100000 characters) is not a colour"), "\(run.stderr)")
        #expect(!run.stderr.contains("did you mean"), "\(run.stderr)")
    }

    /// A manifest value of 1,000,000 characters costs memory in proportion to its
    /// length, not its square: the "did you mean" search, whose table is length × name
    /// length for each of the 148 colour names, is skipped for a word that long (20 MiB
    /// of peak memory; 237 MiB when the search ran). Peak memory is what is asserted;
    /// how long it takes is `make bench`'s.
    @Test func hostileLengthsCostNoQuadraticWork() throws {
        let folder = Paths.scratch("long-value")
        let manifest =
            #"{"jobs": [{"icon": "\#(Self.icon)", "value": "3", "background": ""#
            + String(repeating: "a", count: 1_000_000) + #"", "output": "\#(folder)/o.png"}]}"#
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let run = try runMeasured(["batch", folder + "/m.json"])
        #expect(run.status == 65, "\(run.stderr.prefix(300))")
        #expect(run.stderr.contains("(1000000 characters) is not a colour"))
        #expect(run.peakKiB < 96 * 1024, "\(run.peakKiB) KiB")
    }

    @Test func libraryMessagesBecomeOneLine() throws {
        let run = try runIconbadge([
            try Corpus.path("librsvg/crash/bug463-characters-outside-first-element.svg"), "--value", "3", "-o",
            Paths.scratch("one-line") + "/o.png",
        ])
        #expect(run.status == 65)
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
    }

    @Test func svgsThatLookUnusualAreStillSVG() throws {
        let folder = Paths.scratch("svg-sniff")
        let body =
            #"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="red"/></svg>"#
        let documents = [
            "illustrator.svg":
                "<?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\" [\n<!ENTITY ns_flows \"http://ns.adobe.com/Flows/1.0/\">\n]>\n"
                + body,
            "comment.svg": "<!-- " + String(repeating: "x", count: 8000) + " -->\n" + body,
        ]
        for (name, text) in documents {
            try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
            #expect(try ImageFile.pixels(at: "\(folder)/\(name)").width == 20, "\(name)")
        }
        var utf16 = Data([0xFF, 0xFE])
        utf16.append(body.data(using: .utf16LittleEndian)!)
        try utf16.write(to: URL(fileURLWithPath: folder + "/utf16.svg"))
        #expect(try ImageFile.pixels(at: folder + "/utf16.svg").width == 20)
    }

    @Test(arguments: [
        ([icon, "--value", "3", "--font-index", "2", "--report"], "--font-index goes with --font-file"),
        ([icon, "--value", "3", "--tolerance", "2", "--report"], "go with --check"),
        ([icon, "--value", "3", "-o", "s{scale}.png"], "templates go with --scales"),
        ([icon, "--value", "3", "--svg-time-limit", "1e-400", "--report"], "is not a number"),
        ([icon, "--value", "3", "--svg-time-limit", "0.001", "--report"], "is too short"),
        ([icon, "--value", "3", "--check", "x.pdf"], "PDF cannot be read"),
    ])
    func optionsThatWouldDoNothingAreRefused(arguments: [String], message: String) throws {
        let run = try runIconbadge(arguments, in: Paths.scratch("nothing"))
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func malformedSourceDateEpochIsAnError() throws {
        let run = try runIconbadge([Self.icon, "--value", "3", "--report"], environment: ["SOURCE_DATE_EPOCH": "abc"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("SOURCE_DATE_EPOCH: \"abc\""))
    }

    @Test func checkRefusesAMissingGoldenBeforeWritingAnything() throws {
        let folder = Paths.scratch("check-first")
        let run = try runIconbadge([
            Self.icon, "--value", "3", "--check", folder + "/gone.png", "-o", folder + "/out.png",
        ])
        #expect(run.status == 66)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
    }

    @Test func svgGoldensCompareLikeWithLike() throws {
        let folder = Paths.scratch("svg-golden")
        let golden = folder + "/g.svg"
        #expect(
            try runIconbadge([Self.icon, "--value", "3", "--check", golden, "--update"]).stdoutText.hasSuffix(
                "golden created (it was missing)\n"))
        let again = try runIconbadge([Self.icon, "--value", "3", "--check", golden, "--update"])
        #expect(again.stdoutText.hasSuffix("unchanged (the golden already matches)\n"), "\(again.stdoutText)")
        #expect(try runIconbadge([Self.icon, "--value", "3", "--check", golden]).status == 0)
        #expect(
            try runIconbadge([Self.icon, "--value", "4", "--check", golden, "--artifacts", folder + "/art"]).status
                == 1)
    }

    @Test func manifestKeysThatMeanNothingAreRefused() throws {
        let folder = Paths.scratch("manifest-keys")
        let cases: [(String, String)] = [
            (
                "{\"jobs\":[{\"icon\":\"\(Self.icon)\",\"value\":\"3\",\"output\":\"\(folder)/a.png\",\"check\":\"g.png\"}]}",
                "\"check\" is not a manifest key"
            ),
            (
                "{\"jobs\":[{\"icon\":\"\(Self.icon)\",\"value\":\"3\",\"output\":\"\(folder)/a.png\",\"in-place\":true}]}",
                "\"in-place\" is not a manifest key"
            ),
            (
                "{\"jobs\":[{\"icon\":\"\(Self.icon)\",\"value\":\"3\",\"value\":\"4\",\"output\":\"\(folder)/a.png\"}]}",
                "duplicate key \"value\""
            ),
            (
                "{\"jobs\":[{\"icon\":\"\(Self.icon)\",\"value\":\"3\",\"output\":\"\"}]}",
                "jobs[0].output: must not be empty"
            ),
            ("{\"defaults\":{\"value\":\"3\"}}", "has \"defaults\" but no \"jobs\" array"),
        ]
        for (manifest, message) in cases {
            try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
            let run = try runIconbadge(["batch", folder + "/m.json"])
            #expect(run.status == 65, "\(message): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
        }
    }

    @Test func batchCheckKeepsGoldensInsideTheirFolder() throws {
        let folder = Paths.scratch("golden-escape")
        try FileManager.default.createDirectory(atPath: folder + "/gold", withIntermediateDirectories: true)
        try "{\"jobs\":[{\"icon\":\"\(Self.icon)\",\"value\":\"3\",\"output\":\"../escaped.png\"}]}"
            .write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(["batch", folder + "/m.json", "--check", folder + "/gold", "--update"])
        #expect(run.status == 65)
        #expect(!FileManager.default.fileExists(atPath: folder + "/escaped.png"))
    }
}
