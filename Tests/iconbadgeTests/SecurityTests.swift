import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The attacks of a security review, each as a pull request would mount it on a CI
/// job that runs iconbadge on the pull request's files (SECURITY.md). Each test fails
/// on the code before the fixes (writes followed links, outputs left their folder,
/// limits came from the manifest, text reached the terminal raw).
@Suite struct SecurityTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    func makeLink(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    func data(_ path: String) -> Data? { try? Data(contentsOf: URL(fileURLWithPath: path)) }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    /// A victim script outside the pull request's folders, set-user-ID, as a later CI
    /// step would run it.
    func victim(in folder: String) throws -> String {
        let path = folder + "/victim.sh"
        try write("#!/bin/sh\necho trusted\n", to: path)
        #expect(chmod(path, 0o4755) == 0)
        return path
    }

    func expectVictimUntouched(_ path: String) {
        #expect(data(path) == Data("#!/bin/sh\necho trusted\n".utf8), "the victim was replaced")
        #expect(mode(path) == 0o4755)
    }

    func entries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    // MARK: - 1. No write through a symbolic link

    @Test func theReadOnlyCheckStepNeverReplacesAScript() throws {
        let folder = Paths.scratch("check-replaces-script")
        let victim = try victim(in: folder)
        try FileManager.default.createDirectory(atPath: folder + "/goldens", withIntermediateDirectories: true)
        // The pull request changes goldens/a.png and commits the artifact's place,
        // iconbadge-artifacts/a.png.actual.png, as a link.
        #expect(try runIconbadge([Self.icon, "--value", "4", "-o", folder + "/goldens/a.png"]).status == 0)
        try FileManager.default.createDirectory(
            atPath: folder + "/iconbadge-artifacts", withIntermediateDirectories: true)
        try makeLink(folder + "/iconbadge-artifacts/a.png.actual.png", to: "../victim.sh")
        let single = try runIconbadge([Self.icon, "--value", "5", "--check", "goldens/a.png"], in: folder)
        #expect(single.status == 73, "\(single.stderr)")
        #expect(single.stderr.contains("a.png.actual.png\": is a symbolic link"))
        try write(#"{"jobs":[{"icon":"\#(Self.icon)","value":"5","output":"a.png"}]}"#, to: folder + "/m.json")
        let batch = try runIconbadge(["batch", "m.json", "--check", "goldens", "--quiet"], in: folder)
        #expect(batch.status == 73, "\(batch.stderr)")
        expectVictimUntouched(victim)
    }

    @Test func noOutputOfAnyKindIsWrittenThroughALink() throws {
        let folder = Paths.scratch("links-everywhere")
        let victim = try victim(in: folder)
        try makeLink(folder + "/out.png", to: "victim.sh")
        #expect(try runIconbadge([Self.icon, "--value", "3", "-o", folder + "/out.png"]).status == 73)
        try write(#"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"out.png"}]}"#, to: folder + "/m.json")
        #expect(try runIconbadge(["batch", "m.json", "--quiet"], in: folder).status == 73)
        // --update over a golden that is a link.
        try FileManager.default.createDirectory(atPath: folder + "/goldens", withIntermediateDirectories: true)
        try makeLink(folder + "/goldens/out.png", to: "../victim.sh")
        let update = try runIconbadge(["batch", "m.json", "--check", "goldens", "--update", "--quiet"], in: folder)
        #expect(update.status == 73, "\(update.stderr)")
        // --junit as a link.
        try makeLink(folder + "/junit.xml", to: "victim.sh")
        try FileManager.default.removeItem(atPath: folder + "/goldens/out.png")
        let junit = try runIconbadge(
            ["batch", "m.json", "--check", "goldens", "--update", "--junit", "junit.xml", "--quiet"], in: folder)
        #expect(junit.status == 73, "\(junit.stderr)")
        expectVictimUntouched(victim)
    }

    @Test func aLinkedFolderInsideTheGoldensCreatesNothingOutside() throws {
        let folder = Paths.scratch("linked-golden-folder")
        try FileManager.default.createDirectory(atPath: folder + "/goldens", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/outside", withIntermediateDirectories: true)
        try makeLink(folder + "/goldens/sub", to: "../outside")
        try write(#"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"sub/x.png"}]}"#, to: folder + "/m.json")
        let run = try runIconbadge(["batch", "m.json", "--check", "goldens", "--update", "--quiet"], in: folder)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("goldens/sub\" is a symbolic link"), "\(run.stderr)")
        #expect(entries(folder + "/outside").isEmpty)
    }

    /// CI often runs in a folder of the checked-out tree (`repo/app`): `-o ../out/x.png`
    /// leaves the working folder but not the pull request's tree, where `out` can be a
    /// committed link to anywhere. No component of a relative path is a link.
    @Test func aRelativePathFollowsNoLinkEvenAboveTheWorkingFolder() throws {
        let folder = Paths.scratch("relative-above")
        let outside = NSTemporaryDirectory() + "iconbadge-above-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/repo/app", withIntermediateDirectories: true)
        try makeLink(folder + "/repo/out", to: outside)
        let run = try runIconbadge([Self.icon, "--value", "3", "-o", "../out/x.png"], in: folder + "/repo/app")
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("\"../out\" is a symbolic link"), "\(run.stderr)")
        try write(#"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"x.png"}]}"#, to: folder + "/repo/app/m.json")
        let batch = try runIconbadge(
            ["batch", "m.json", "--output-root", "../out", "--quiet"], in: folder + "/repo/app")
        #expect(batch.status == 73, "\(batch.stderr)")
        #expect(entries(outside).isEmpty)
        // The caller's absolute path outside the working folder is followed, as before.
        let absolute = try runIconbadge(
            [Self.icon, "--value", "3", "-o", folder + "/repo/out/x.png"], in: folder + "/repo/app")
        #expect(absolute.status == 0, "\(absolute.stderr)")
        #expect(entries(outside) == ["x.png"])
    }

    @Test func appIconSetNeverFollowsALinkedImageOutOfTheSet() throws {
        let folder = Paths.scratch("appiconset-links")
        let set = folder + "/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/outside", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.icon, toPath: folder + "/outside/target.png")
        let before = data(folder + "/outside/target.png")
        try makeLink(set + "/icon.png", to: "../outside/target.png")
        try write(
            #"{"images":[{"filename":"icon.png","idiom":"iphone","scale":"1x","size":"48x48"}]}"#,
            to: set + "/Contents.json")
        let inPlace = try runIconbadge(["appiconset", set, "--value", "3", "--in-place"])
        #expect(inPlace.status == 73, "\(inPlace.stderr)")
        let copy = try runIconbadge(["appiconset", set, "--value", "3", "--out", folder + "/out"])
        #expect(copy.status == 65, "\(copy.stderr)")
        #expect(data(folder + "/outside/target.png") == before)
        // Contents.json itself as a link out of the set.
        try FileManager.default.moveItem(atPath: set + "/Contents.json", toPath: folder + "/outside/Contents.json")
        try makeLink(set + "/Contents.json", to: "../outside/Contents.json")
        let linkedContents = try runIconbadge(["appiconset", set, "--value", "3", "--out", folder + "/out"])
        #expect(linkedContents.status == 65, "\(linkedContents.stderr)")
        try FileManager.default.removeItem(atPath: set + "/Contents.json")
        // Two slots that are one file (a hard link) would race.
        try FileManager.default.removeItem(atPath: set + "/icon.png")
        try FileManager.default.copyItem(atPath: Self.icon, toPath: set + "/a.png")
        #expect(link(set + "/a.png", set + "/b.png") == 0)
        try write(
            #"{"images":[{"filename":"a.png","idiom":"iphone","size":"48x48"},{"filename":"b.png","idiom":"ipad","size":"48x48"}]}"#,
            to: set + "/Contents.json")
        let aliased = try runIconbadge(["appiconset", set, "--value", "3", "--in-place"])
        #expect(aliased.status == 65)
        #expect(aliased.stderr.contains("is the same file as \"a.png\""))
    }

    // MARK: - 2. Outputs stay inside their root

    @Test func batchOutputsStayInsideTheOutputRoot() throws {
        let folder = Paths.scratch("confinement")
        try FileManager.default.copyItem(atPath: Self.icon, toPath: folder + "/icon.png")
        let icon = data(folder + "/icon.png")
        let cases: [(String, String)] = [
            ("/tmp/iconbadge-escape.png", "is outside the working folder"),
            ("../escape.png", "leaves the working folder"),
            ("nx/../icon.png", "would overwrite an input"),
            ("nx/../m.json", "would overwrite an input"),
        ]
        for (output, reason) in cases {
            try write(
                #"{"jobs":[{"icon":"icon.png","value":"3","format":"png","output":"\#(output)"}]}"#,
                to: folder + "/m.json")
            let run = try runIconbadge(["batch", "m.json", "--quiet"], in: folder)
            #expect(run.status == 65, "\(output): \(run.stderr)")
            #expect(run.stderr.contains(reason), "\(output): \(run.stderr)")
        }
        #expect(data(folder + "/icon.png") == icon)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/iconbadge-escape.png"))
        let template = try runIconbadge(
            ["icon.png", "--value", "3", "--scales", "1", "-o", "nz/../{name}.png"], in: folder)
        #expect(template.status == 64, "\(template.stderr)")
        #expect(data(folder + "/icon.png") == icon)
        // --output-root names another root; outputs are paths inside it.
        try FileManager.default.createDirectory(atPath: folder + "/build", withIntermediateDirectories: true)
        try write(#"{"jobs":[{"icon":"icon.png","value":"3","output":"x.png"}]}"#, to: folder + "/m.json")
        #expect(try runIconbadge(["batch", "m.json", "--output-root", "build", "--quiet"], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/build/x.png"))
    }

    @Test func spellingsOfOneFileAreOneOutput() throws {
        let folder = Paths.scratch("spellings")
        let spellings = ["fresh/a.png", "fresh/./a.png", "fresh//a.png", "fresh/x/../a.png"]
        let jobs = spellings.enumerated().map {
            #"{"icon":"\#(Self.icon)","value":"\#($0.offset + 1)","output":"\#($0.element)"}"#
        }
        try write(#"{"jobs":[\#(jobs.joined(separator: ","))]}"#, to: folder + "/m.json")
        let run = try runIconbadge(["batch", "m.json", "--quiet"], in: folder)
        #expect(run.status == 65)
        #expect(run.stderr.contains("jobs[0] and jobs[1] both write"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/fresh"))
    }

    /// A job's artifact is named like its golden plus ".actual": a pull request that
    /// adds a job whose output is "x.actual.png" makes job x's artifact its committed
    /// golden, which the failing check replaced.
    @Test func anArtifactNeverReplacesAnotherJobsGolden() throws {
        let folder = Paths.scratch("artifact-over-golden")
        try FileManager.default.createDirectory(atPath: folder + "/goldens", withIntermediateDirectories: true)
        #expect(try runIconbadge([Self.icon, "--value", "4", "-o", folder + "/goldens/x.png"]).status == 0)
        #expect(try runIconbadge([Self.icon, "--value", "7", "-o", folder + "/goldens/x.actual.png"]).status == 0)
        let golden = data(folder + "/goldens/x.actual.png")
        try write(
            #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"x.png"},{"icon":"\#(Self.icon)","value":"7","output":"x.actual.png"}]}"#,
            to: folder + "/m.json")
        // By default artifacts go to iconbadge-artifacts/, far from the goldens.
        let run = try runIconbadge(["batch", "m.json", "--check", "goldens", "--quiet"], in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(data(folder + "/goldens/x.actual.png") == golden)
        #expect(entries(folder + "/goldens") == ["x.actual.png", "x.png"])
        // Artifacts named into the goldens folder: refused before anything is written.
        let inside = try runIconbadge(
            ["batch", "m.json", "--check", "goldens", "--artifacts", "goldens", "--quiet"], in: folder)
        #expect(inside.status == 64, "\(inside.stderr)")
        #expect(inside.stderr.contains("is inside the goldens folder"), "\(inside.stderr)")
        // A single check's artifacts beside its golden, likewise.
        #expect(try runIconbadge([Self.icon, "--value", "3", "-o", folder + "/goldens/y.png"]).status == 0)
        let beside = try runIconbadge(
            [Self.icon, "--value", "4", "--check", "goldens/y.png", "--artifacts", "goldens/."], in: folder)
        #expect(beside.status == 64 && beside.stderr.contains("is the folder of the golden"), "\(beside.stderr)")
        #expect(data(folder + "/goldens/x.actual.png") == golden)
        #expect(entries(folder + "/goldens") == ["x.actual.png", "x.png", "y.png"])
    }

    // MARK: - 6, 7. Limits come from the caller; memory is bounded

    @Test func aManifestCannotLiftItsLimits() throws {
        let folder = Paths.scratch("manifest-limits")
        for key in ["max-side", "max-pixels", "svg-time-limit"] {
            try write(
                #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","\#(key)":100000,"output":"x.png"}]}"#,
                to: folder + "/m.json")
            let run = try runIconbadge(["batch", "m.json", "--quiet"], in: folder)
            #expect(run.status == 65)
            #expect(run.stderr.contains("jobs[0].\(key): a manifest cannot set a limit"))
        }
        // The batch's own flags and ICONBADGE_* do.
        try write(#"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"x.png"}]}"#, to: folder + "/m.json")
        let flag = try runIconbadge(["batch", "m.json", "--max-side", "16", "--quiet"], in: folder)
        #expect(flag.status == 65)
        #expect(flag.stderr.contains("over the 16 px side limit"))
        let variable = try runIconbadge(
            ["batch", "m.json", "--quiet"], environment: ["ICONBADGE_MAX_SIDE": "16"], in: folder)
        #expect(variable.status == 65)
    }

    @Test func repeatedScalesAreRefusedBeforeAnythingIsExpanded() throws {
        let folder = Paths.scratch("scale-repeats")
        let many = Array(repeating: "1", count: 200_000).joined(separator: ",")
        try write(
            #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","scales":[\#(many)],"output":"x{@scale}.png"}]}"#,
            to: folder + "/m.json")
        let run = try runMeasured(["batch", folder + "/m.json", "--quiet"])
        #expect(run.status == 65)
        #expect(run.stderr.contains("lists the scale 1 twice"))
        #expect(run.peakKiB < 256 * 1024, "\(run.peakKiB) KiB")
    }

    // MARK: - 8. Printed text is escaped

    @Test func hostileNamesReachNoLineRaw() throws {
        let folder = Paths.scratch("escaping")
        let hostile = "a\u{1B}[31m\n::error title=forged::x\u{FFFF}.png"
        try write(
            #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"a\u001b[31m\n::error title=forged::x\uffff.png"}]}"#,
            to: folder + "/m.json")
        try FileManager.default.createDirectory(atPath: folder + "/goldens", withIntermediateDirectories: true)
        let run = try runIconbadge(["batch", "m.json", "--check", "goldens", "--junit", "junit.xml"], in: folder)
        #expect(run.status == 66, "\(run.stderr)")
        for line in run.stderrLines + run.stdoutText.split(separator: "\n").map(String.init) {
            #expect(!line.hasPrefix("::error"), "a forged annotation: \(line)")
            #expect(!line.unicodeScalars.contains { $0.value == 0x1B }, "ESC reached the terminal")
        }
        #expect(run.stderr.contains("a\\u{1b}[31m\\n::error"))
        // The JUnit report is well-formed XML: U+FFFF is replaced.
        let xml = try String(contentsOfFile: folder + "/junit.xml", encoding: .utf8)
        #expect(!xml.unicodeScalars.contains { $0.value == 0xFFFF || $0.value == 0x1B })
        #expect(xml.contains("\u{FFFD}"))
        _ = hostile
        // A 5 MB number is not echoed whole.
        try write(
            #"{"jobs":[{"icon":"i.png","value":\#(String(repeating: "1", count: 5_000_000)),"output":"x.png"}]}"#,
            to: folder + "/big.json")
        let big = try runIconbadge(["batch", "big.json"], in: folder)
        #expect(big.status == 65)
        #expect(big.stderr.utf8.count < 1000, "\(big.stderr.utf8.count) bytes")
    }

    // MARK: - 9. Smaller

    @Test func aFileSizeLimitIsAWriteErrorWithNothingLeft() throws {
        let folder = Paths.scratch("ulimit")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/out.png"))
        let run = try runIconbadgeWith(
            executable: "/bin/sh",
            [
                "-c", "ulimit -f 1; exec \"$0\" \"$@\"", Paths.binary, Paths.fixture("icons/folder-512x512.png"),
                "--value", "3", "-o", folder + "/out.png",
            ])
        #expect(run.status == 74, "\(run.status): \(run.stderr)")
        #expect(run.stderr.contains("file too large"), "\(run.stderr)")
        #expect(entries(folder) == ["out.png"])
        #expect(data(folder + "/out.png") == Data("keep".utf8))
    }

    /// Under `ulimit -v` (a CI runner's memory limit) a large render cannot get its
    /// canvas: 69 naming memory and the fix, not 70 "internal error". Sanitizers
    /// reserve terabytes of address space, so their builds cannot run this.
    @Test(
        .enabled(
            if: !Paths.binary.contains("/sanitizers/"),
            "a sanitizer build: its shadow memory reserves terabytes of address space, past any ulimit -v"))
    func anAddressSpaceLimitIsNamedAsMemory() throws {
        let folder = Paths.scratch("ulimit-v")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/out.png"))
        let run = try runIconbadgeWith(
            executable: "/bin/sh",
            [
                "-c", "ulimit -v 60000; exec \"$0\" \"$@\"", Paths.binary, Paths.fixture("icons/folder-512x512.png"),
                "--value", "3", "--size", "4096", "-o", folder + "/out.png",
            ])
        #expect(run.status == 69, "\(run.status): \(run.stderr)")
        #expect(
            run.stderr
                == "iconbadge: error: memory: cannot allocate a 4096 × 4096 image (64 MiB); raise the memory limit (ulimit -v) or render smaller\n"
        )
        #expect(data(folder + "/out.png") == Data("keep".utf8))
    }

    @Test func aKilledWriteLeavesNoTemporaryFile() throws {
        // O_TMPFILE: the temporary file has no name until it is renamed into place, so
        // SIGKILL at any moment leaves nothing. strace delays the write of the image by
        // 3 s, so the kill lands while the temporary file is open (seen in /proc).
        let strace = "/usr/bin/strace"
        try #require(FileManager.default.isExecutableFile(atPath: strace), "make deps installs strace")
        let folder = Paths.scratch("sigkill")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder + "/out.png"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = [
            "-qq", "-o", "/dev/null", "-e", "trace=write", "-e", "inject=write:delay_enter=3000000", Paths.binary,
            Self.icon, "--value", "3", "-o", folder + "/out.png",
        ]
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer { process.waitUntilExit() }
        // Find the traced iconbadge and wait (bounded by its life) for its temporary file.
        var temporary: String?
        var child: pid_t = 0
        while process.isRunning, temporary == nil {
            let children =
                (try? String(
                    contentsOfFile: "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children",
                    encoding: .utf8)) ?? ""
            guard let pid = children.split(separator: " ").first.flatMap({ pid_t($0) }) else { continue }
            child = pid
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? [] {
                if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                    target.hasPrefix(folder + "/"), target.hasSuffix("(deleted)")
                {
                    temporary = target
                }
            }
        }
        let caught = try #require(temporary, "the write was not seen open")
        #expect(entries(folder) == ["out.png"], "a named temporary file exists while writing: \(entries(folder))")
        kill(child, SIGKILL)
        process.waitUntilExit()
        #expect(entries(folder) == ["out.png"], "left after SIGKILL: \(entries(folder)) (\(caught))")
        #expect(data(folder + "/out.png") == Data("keep".utf8))
    }

    // MARK: - 10. A second review: amplification in libraries

    /// libpng keeps every text chunk, inflated: 60 zTXt chunks of 8 MB of letters each
    /// (3 MB of file) took 480 MB before text chunks were skipped unread.
    @Test func compressedTextChunksAreNeverInflated() throws {
        let folder = Paths.scratch("ztxt-bomb")
        let png = HostileFiles.blackPNG(side: 48)
        let text = (0..<60).flatMap { index in
            HostileFiles.chunk("zTXt", Array("k\(index)".utf8) + [0, 0] + HostileFiles.zlibRun(of: 0x61, 8_000_000))
        }
        // The signature and IHDR are 33 bytes; the text goes before IDAT.
        try Data(png[0..<33] + text + png[33...]).write(to: URL(fileURLWithPath: folder + "/bomb.png"))
        let run = try runMeasured([folder + "/bomb.png", "--value", "3", "-o", folder + "/out.png"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.peakKiB < 256 * 1024, "\(run.peakKiB) KiB")
    }

    /// fontconfig parses and matches a pattern in more than linear time: a manifest's
    /// 4 MB `"font"` took minutes. Patterns are at most 1024 bytes.
    @Test func longFontPatternsAreRefusedBeforeFontconfigSeesThem() throws {
        let folder = Paths.scratch("long-font-pattern")
        let pattern = String(repeating: "Sans:", count: 400_000)
        try write(
            #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"o.png","font":"\#(pattern)"}]}"#,
            to: folder + "/m.json")
        let run = try runIconbadge(["batch", "m.json", "--quiet"], in: folder)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("is 2000000 bytes, over the 1024-byte limit for a font pattern"), "\(run.stderr)")
        let line = try runIconbadge([
            Self.icon, "--value", "3", "--font", String(pattern.prefix(1025)), "-o", folder + "/o.png",
        ])
        #expect(line.status == 64)
        #expect(line.stderr.contains("--font: "), "\(line.stderr)")
        #expect(entries(folder) == ["m.json"])
    }

    /// Standard input is the caller's: a manifest whose icon, badge image or font is
    /// "-" read what the CI step piped in (a secret, another job's data) as an image.
    @Test(arguments: ["icon", "image", "font-file", "fallback-font", "output"])
    func aManifestCannotNameStandardInput(key: String) throws {
        let folder = Paths.scratch("manifest-stdin")
        var pairs = [("icon", Self.icon), ("value", "3"), ("output", "o.png")]
        if let index = pairs.firstIndex(where: { $0.0 == key }) {
            pairs[index].1 = "-"
        } else {
            pairs.append((key, "-"))
        }
        let job = pairs.map { #""\#($0.0)":"\#($0.1)""# }.joined(separator: ",")
        try write(#"{"jobs":[{\#(job)}]}"#, to: folder + "/m.json")
        let run = try runIconbadge(["batch", "m.json", "--quiet"], in: folder)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(
            run.stderr.contains("jobs[0].\(key): \"-\" (standard input or output) is the caller's"), "\(run.stderr)")
        #expect(entries(folder) == ["m.json"])
    }

    /// Text that reached a message without `Quoted` (a colour function's name, a
    /// library's message, CR LF) is still one line with no control character: a
    /// manifest's colour `"\u001b]8;;x\u0007\r\n::error::y(1)"` printed its escape
    /// sequence and a forged annotation line.
    @Test func everyErrorLineIsEscapedAtPrintTime() throws {
        let folder = Paths.scratch("escaping-late")
        try write(
            #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"o.png","background":"\u001b]8;;x\u0007\r\n::error::y\u2028\u0085(1)"}]}"#,
            to: folder + "/m.json")
        let run = try runIconbadge(["batch", "m.json", "--quiet"], in: folder)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(!run.stderr.unicodeScalars.contains { TextEscaping.isControl($0) && $0 != "\n" }, "\(run.stderr)")
        #expect(run.stderr.contains(#"\u{1b}]8;;x\u{7}"#), "\(run.stderr)")
        #expect(run.stderr.contains(#"\u{2028}\u{85}"#), "\(run.stderr)")
    }
}
