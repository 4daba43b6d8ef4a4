import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Issue 9's proofs: hostile files, hostile paths, and failures on the output side.
@Suite struct HostileInputTests {
    /// The corpus folders swept, with how many files each holds (Fixtures/corpus/SOURCES.md
    /// lists them; the subfolders are swept on their own). The text files
    /// among them (PngSuite's README and licence, libpng's LICENSE.md, image-png's
    /// License.toml) are swept too: hostile icons need not be images.
    static let sweepFolders: KeyValuePairs<String, Int> = [
        "pngsuite": 177, "libpng-testpngs": 107, "libpng-testpngs/crashers": 23, "libpng-testpngs/badpal": 9,
        "libpng-testpngs/png-3": 1, "image-png-extra/bugfixes": 19, "image-png-extra/pngsuite-extra": 2,
        "image-png-extra/sbit": 5, "image-png-extra/iccp": 1, "image-png-extra/text_chunk_examples": 1,
        "librsvg/crash": 25, "librsvg/render-crash": 43, "librsvg/errors": 3, "librsvg/loading": 11,
        "resvg/structure/svg": 92, "resvg/structure/image": 110, "resvg/structure/use": 84,
        "resvg/structure/style": 36,
    ]

    static let noise = [
        "libpng warning", "libpng error", "GLib", "CRITICAL", "(process:", "Gtk", "rsvg-WARNING", "Fatal error",
    ]

    /// Every file of the corpus: exit 0, 65 or 66, under 256 MiB, and exactly one line
    /// of our own on stderr when it fails (none when it works). A file that hangs
    /// fails through the watchdog (`runMeasured`); how long each takes is no test's
    /// business (`make bench`).
    @Test func corpusSweep() async throws {
        var files: [String] = []
        for (folder, count) in Self.sweepFolders {
            let names = try Corpus.files(in: folder)
            #expect(names.count == count, "\(folder): \(names.count) files")
            files += try names.map { try Corpus.path(folder + "/" + $0) }
        }
        #expect(files.count == 749)
        let output = Paths.scratch("sweep")
        let results = try await withThrowingTaskGroup(of: (String, MeasuredRun).self) { group in
            var results: [(String, MeasuredRun)] = []
            var next = 0
            for _ in 0..<2 where next < files.count {
                let file = files[next]
                let index = next
                group.addTask {
                    (
                        file,
                        try runMeasured([file, "--value", "3", "--overflow", "clip", "-o", "\(output)/\(index).png"])
                    )
                }
                next += 1
            }
            while let result = try await group.next() {
                results.append(result)
                if next < files.count {
                    let file = files[next]
                    let index = next
                    group.addTask {
                        (
                            file,
                            try runMeasured([
                                file, "--value", "3", "--overflow", "clip", "-o", "\(output)/\(index).png",
                            ])
                        )
                    }
                    next += 1
                }
            }
            return results
        }
        #expect(results.count == files.count)
        for (file, run) in results {
            let name = String(file.dropFirst(Corpus.root.count + 1))
            #expect([0, 65, 66].contains(run.status), "\(name): exit \(run.status): \(run.stderr)")
            #expect(run.peakKiB < 256 * 1024, "\(name): \(run.peakKiB) KiB")
            // A 16-bit image's note (its output has 8 bits per channel) is expected, and
            // so is the contrast note of a badge on an icon of its own colour.
            let lines = run.stderr.split(separator: "\n").filter {
                !$0.contains("the icon has 16 bits per channel")
                    && !$0.contains("is close in colour to the icon around it")
            }
            if run.status == 0 {
                #expect(lines.isEmpty, "\(name): \(run.stderr)")
            } else {
                #expect(lines.count == 1 && lines[0].hasPrefix("iconbadge: error: "), "\(name): \(run.stderr)")
            }
            for word in Self.noise { #expect(!run.stderr.contains(word), "\(name): \(run.stderr)") }
        }
    }

    @Test func namesWithSpacesUnicodeAndLeadingDashWork() throws {
        let folder = Paths.scratch("paths")
        let composed = "icône café 新"
        let decomposed = "ic\u{006F}\u{0302}ne cafe\u{0301}"
        for name in [composed, decomposed, "-dash"] {
            let icon = "\(folder)/\(name).png"
            try FileManager.default.copyItem(atPath: Paths.fixture("icons/folder-48x48.png"), toPath: icon)
        }
        let plain = try runIconbadge([
            "\(folder)/\(composed).png", "--value", "3", "-o", "\(folder)/out \(composed).png",
        ])
        #expect(plain.status == 0, "\(plain.stderr)")
        let nfd = try runIconbadge([
            "\(folder)/\(decomposed).png", "--value", "3", "-o", "\(folder)/out \(decomposed).png",
        ])
        #expect(nfd.status == 0, "\(nfd.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(folder)/out \(decomposed).png"))
        let dash = try runIconbadge(["--value", "3", "-o", "\(folder)/d.png", "--", "-dash.png"], in: folder)
        #expect(dash.status == 0, "\(dash.stderr)")
        // A missing file's name is printed intact, in both normal forms.
        let missing = try runIconbadge(["\(folder)/\(decomposed)-x.png", "--value", "3", "-o", "\(folder)/m.png"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("\(decomposed)-x.png"))
    }

    @Test func symlinkToANonImageIsRefusedWithoutEchoingIt() throws {
        let folder = Paths.scratch("symlink")
        let secret = "\(folder)/secret.txt"
        try "root:x:0:0:the secret line\n".write(toFile: secret, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/icon.png", withDestinationPath: secret)
        let run = try runIconbadge(["\(folder)/icon.png", "--value", "3", "-o", "\(folder)/out.png"])
        #expect(run.status == 65)
        #expect(!run.stderr.contains("secret line") && !run.stderr.contains("root:x"))
        let passwd = try runIconbadge(["/etc/passwd", "--value", "3", "-o", "\(folder)/out.png"])
        #expect(passwd.status == 65)
        #expect(!passwd.stderr.contains("root:"))
    }

    @Test func outputNamingAFolderIs73() throws {
        let folder = Paths.scratch("out-folder")
        let run = try runIconbadge([Paths.fixture("icons/folder-48x48.png"), "--value", "3", "-o", folder])
        #expect(run.status == 73)
        #expect(run.stderr.contains("is a directory"))
    }

    @Test func readOnlyFolderIs73() throws {
        // As root every folder is writable, so the binary runs as nobody.
        try OtherUser.withFolder("read-only") { scratch in
            let icon = scratch + "/icon.png"
            try FileManager.default.copyItem(atPath: Paths.fixture("icons/folder-48x48.png"), toPath: icon)
            let folder = scratch + "/out"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            #expect(chmod(folder, 0o555) == 0)
            let run = try OtherUser.run([icon, "--value", "3", "-o", folder + "/out.png"], in: scratch)
            #expect(run.status == 73, "\(run.stderr)")
            #expect(run.stderr.contains("permission denied"), "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        }
    }

    /// A full disk (a 64 KiB tmpfs in a private mount namespace): exit 74, the old
    /// output intact, no temporary file left.
    @Test func diskFullIs74AndTheOldOutputSurvives() throws {
        let folder = Paths.scratch("disk-full")
        let mount = folder + "/mnt"
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let script = """
            set -u
            mount -t tmpfs -o size=64k tmpfs '\(mount)' || exit 99
            printf 'previous output' > '\(mount)/out.png'
            '\(Paths.binary)' '\(Paths.fixture("icons/folder-512x512.png"))' --value 3 --size 2048 -o '\(mount)/out.png'
            echo "status=$?"
            echo "content=$(cat '\(mount)/out.png')"
            echo "files=$(ls -A '\(mount)' | tr '\\n' ' ')"
            """
        var run = try runIconbadgeWith(executable: "/usr/bin/unshare", ["-m", "/bin/sh", "-c", script])
        if run.status != 0 {
            // Without CAP_SYS_ADMIN, a user namespace still allows a private tmpfs.
            run = try runIconbadgeWith(executable: "/usr/bin/unshare", ["-rm", "/bin/sh", "-c", script])
        }
        #expect(run.stdoutText.contains("status=74"), "\(run.stdoutText) \(run.stderr)")
        #expect(run.stdoutText.contains("content=previous output"), "\(run.stdoutText)")
        #expect(run.stdoutText.contains("files=out.png \n"), "\(run.stdoutText)")
        #expect(run.stderr.contains("cannot write") && run.stderr.contains("no space left on device"), "\(run.stderr)")
    }

    @Test func interruptedBatchRemovesUnfinishedOutputs() throws {
        let folder = Paths.scratch("interrupt")
        let jobs = (0..<300).map {
            "{\"icon\": \"\(Paths.fixture("icons/folder-512x512.png"))\", \"value\": \"\($0)\", \"size\": 1024, \"output\": \"\(folder)/\($0).png\"}"
        }
        try ("{\"jobs\": [" + jobs.joined(separator: ",") + "]}").write(
            toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let watch = try FolderWatch(folder)
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.binary)
            process.arguments = ["batch", folder + "/m.json", "--quiet"]
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            // Interrupt once some outputs are in place (inotify wakes this up as each
            // is renamed into the folder), long before all 300 can be.
            try watch.wait(until: "holding 3 finished outputs", whileRunning: process.processIdentifier) { names in
                names.filter { $0.hasSuffix(".png") && !$0.hasPrefix(".") }.count >= 3
            }
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationStatus == status)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(!names.contains { $0.hasPrefix(".iconbadge-") }, "a temporary file was left")
            let outputs = names.filter { $0.hasSuffix(".png") }
            #expect(outputs.count >= 3 && outputs.count < 300)
            for name in outputs {
                #expect(try ImageFile.pixels(at: "\(folder)/\(name)").width == 1024, "\(name) is not whole")
            }
            for name in outputs { try FileManager.default.removeItem(atPath: "\(folder)/\(name)") }
        }
    }

    @Test(arguments: [
        "--height", "--font-size", "--scale", "--min-width", "--padding", "--radius", "--dot-size", "--border-width",
        "--max", "--max-chars", "--font-index", "--max-side", "--max-pixels", "--tolerance", "--svg-time-limit",
        "--min-height",
    ])
    func numericFlagsRejectNonNumbers(flag: String) throws {
        for value in ["nan", "inf", "-inf", "1e400", "0x1p3", "١", "9223372036854775808"] {
            let run = try runIconbadge([
                Paths.fixture("icons/folder-48x48.png"), "--value", "3", flag, value, "--report",
            ])
            #expect(run.status == 64, "\(flag) \(value): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("iconbadge: error: \(flag): "), "\(run.stderr)")
        }
    }

    /// The SVG decoder's child dies with its parent: a killed iconbadge leaves no
    /// librsvg running on a hostile document. The decoder either gets SIGKILL when its
    /// parent dies (PR_SET_PDEATHSIG) or, if the parent died before it asked for that,
    /// sees that it has been orphaned and exits with 70.
    ///
    /// Nothing here depends on how long anything takes. The decoder is stopped
    /// (SIGSTOP) before its parent is killed, so it cannot end by finishing its work,
    /// and continued (SIGCONT) after; this test process is the subreaper that inherits
    /// it, so it can wait for it and read how it ended. (Being a subreaper also keeps
    /// the kernel from sending SIGHUP to the decoder's process group, which an orphaned
    /// group with a stopped member would get.)
    @Test func decoderChildDiesWithItsParent() throws {
        try setChildSubreaper(true)
        defer { try? setChildSubreaper(false) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary)
        process.arguments = [
            // bug323 keeps librsvg busy for seconds (no time limit): the decoder is still
            // at work when it is found.
            try Corpus.path("librsvg/errors/bug323-nested-use.svg"), "--value", "3", "--svg-time-limit", "0", "-o",
            Paths.scratch("orphan") + "/out.png",
        ]
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let parent = process.processIdentifier
        // Linux has no event for "a process started a child", so /proc is looked at until
        // the decoder is there (or the parent has ended). The loop asserts that it
        // appears, never how soon; only a hang meets the watchdog.
        func decoders() -> [pid_t] {
            // The thread's long-lived isolated renderer (isolated_server.c).
            childProcesses(of: parent).filter { commandLine(of: $0)?.contains("--isolated-decode serve") == true }
        }
        func state(_ pid: pid_t) -> Character? {
            // /proc/PID/stat: "PID (COMM) STATE ...": the state follows the last ")".
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            return stat[close...].dropFirst(2).first
        }
        let watchdog = DispatchTime.now() + .seconds(watchdogSeconds)
        var found = decoders()
        while found.isEmpty, process.isRunning, DispatchTime.now() < watchdog {
            usleep(2000)
            found = decoders()
        }
        let decoder = try #require(
            found.first, "the decoder child did not start (parent running: \(process.isRunning))")
        #expect(found.count == 1)
        #expect(commandLine(of: decoder)?.hasSuffix(" \(parent)") == true, "\(commandLine(of: decoder) ?? "")")
        #expect(kill(decoder, SIGSTOP) == 0)
        while state(decoder) != "T", DispatchTime.now() < watchdog { usleep(2000) }
        #expect(state(decoder) == "T", "the decoder did not stop: \(String(describing: state(decoder)))")
        #expect(kill(parent, SIGKILL) == 0)
        // Not Process.waitUntilExit: Foundation learns of the end from a socket the
        // decoder inherited, so it waits for the decoder too.
        try waitForEnd(of: parent, "iconbadge, killed")
        // The decoder is now this process's child. One that outlived its parent would go
        // on decoding once continued and end some other way (or never: the watchdog).
        kill(decoder, SIGCONT)
        let status: Int32
        do {
            status = try waitForChild(decoder, "the decoder child, after its parent was killed")
        } catch {
            kill(decoder, SIGKILL)  // not reaped yet, so still this process's child
            _ = waitpid(decoder, nil, 0)
            throw error
        }
        let killed = status & 0x7F == SIGKILL
        let orphanedExit = status & 0x7F == 0 && (status >> 8) & 0xFF == 70
        #expect(killed || orphanedExit, "the decoder outlived its parent: wait status \(status)")
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    }

    /// Sizes an SVG cannot be drawn at get a reason and a fix, not a raw status.
    @Test func svgSizesOutOfRangeAreNamed() throws {
        let folder = Paths.scratch("svg-sizes")
        let cases: [(String, String)] = [
            ("width=\"0.4\" height=\"0.4\"", "renders at 0.4 x 0.4 px, less than a pixel; give --size WxH"),
            ("width=\"1e30\" height=\"10\"", "over the 8192 px side limit"),
        ]
        for (size, message) in cases {
            let path = folder + "/s.svg"
            try "<svg xmlns=\"http://www.w3.org/2000/svg\" \(size)><rect width=\"1\" height=\"1\"/></svg>".write(
                toFile: path, atomically: true, encoding: .utf8)
            let run = try runIconbadge([path, "--value", "3", "--overflow", "clip", "-o", folder + "/o.png"])
            #expect(run.status == 65 && run.stderrLines.count == 1, "\(size): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(size): \(run.stderr)")
        }
    }

    /// A copy of the binary under another name, its iconbadge-loader beside it, still
    /// decodes SVG (through the loader) and draws an SVG output of it.
    @Test func renamedBinaryStillDecodesSVG() throws {
        let folder = Paths.scratch("renamed")
        let copy = folder + "/ib-renamed"
        try Executables.copyWithLoader(to: folder, name: "ib-renamed")
        for format in ["png", "svg"] {
            let run = try runIconbadgeWith(
                executable: copy,
                [Paths.fixture("icons/mail-unread-symbolic.svg"), "--dot", "-o", folder + "/o." + format])
            #expect(run.status == 0, "\(format): \(run.stderr)")
            #expect(try ImageFile.pixels(at: folder + "/o." + format).width == 16)
        }
    }

    @Test func compareReadsStandardInputOnce() throws {
        let run = try runIconbadge(["compare", "-", "-"])
        #expect(run.status == 64 && run.stderr.contains("at most one image from standard input"))
    }
}
