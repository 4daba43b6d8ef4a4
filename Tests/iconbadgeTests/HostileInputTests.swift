import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Issue 9's proofs: hostile files, hostile paths, and failures on the output side.
@Suite struct HostileInputTests {
    static let sweepFolders = [
        "pngsuite", "libpng-testpngs", "libpng-testpngs/crashers", "libpng-testpngs/badpal", "libpng-testpngs/png-3",
        "image-png-extra/bugfixes", "image-png-extra/pngsuite-extra", "image-png-extra/sbit", "image-png-extra/iccp",
        "image-png-extra/text_chunk_examples", "librsvg/crash", "librsvg/render-crash", "librsvg/errors",
        "librsvg/loading", "resvg/structure/svg", "resvg/structure/image", "resvg/structure/use",
        "resvg/structure/style",
    ]

    static let noise = [
        "libpng warning", "libpng error", "GLib", "CRITICAL", "(process:", "Gtk", "rsvg-WARNING", "Fatal error",
    ]

    /// Every file of the corpus: exit 0, 65 or 66, under 5 s, under 256 MiB, and
    /// exactly one line of our own on stderr when it fails (none when it works).
    @Test func corpusSweep() async throws {
        var files: [String] = []
        for folder in Self.sweepFolders {
            let path = Paths.corpus(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for name in names.sorted() {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder),
                    !isFolder.boolValue
                {
                    files.append(path + "/" + name)
                }
            }
        }
        #expect(files.count > 600, "the shared corpus must be at \(Paths.corpus(""))")
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
            let name = String(file.dropFirst(Paths.corpus("").count))
            #expect([0, 65, 66].contains(run.status), "\(name): exit \(run.status): \(run.stderr)")
            #expect(run.seconds < 5, "\(name): \(run.seconds) s")
            #expect(run.peakKiB < 256 * 1024, "\(name): \(run.peakKiB) KiB")
            let lines = run.stderr.split(separator: "\n")
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
        let folder = Paths.scratch("read-only")
        #expect(chmod(folder, 0o555) == 0)
        defer { chmod(folder, 0o755) }
        // As root every folder is writable, so the binary runs as nobody.
        let run = try runIconbadgeWith(
            executable: "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", Paths.binary,
                Paths.fixture("icons/folder-48x48.png"),
                "--value", "3", "-o", folder + "/out.png",
            ])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("permission denied"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
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
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.binary)
            process.arguments = ["batch", folder + "/m.json", "--quiet"]
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            // Wait for some outputs to exist, then interrupt.
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline,
                ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter({ $0.hasSuffix(".png") })
                    .count < 3
            {
                Thread.sleep(forTimeInterval: 0.02)
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
    /// librsvg running on a slow document (bug323 takes about 5 s; no time limit).
    @Test func decoderChildDiesWithItsParent() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary)
        process.arguments = [
            Paths.corpus("librsvg/errors/bug323-nested-use.svg"), "--value", "3", "--svg-time-limit", "0", "-o",
            Paths.scratch("orphan") + "/out.png",
        ]
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let parent = process.processIdentifier
        func children() throws -> [String] {
            let run = try runIconbadgeWith(executable: "/usr/bin/pgrep", ["-f", "isolated-decode svg .* \(parent)$"])
            return run.stdoutText.split(separator: "\n").map(String.init)
        }
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, try children().isEmpty { Thread.sleep(forTimeInterval: 0.02) }
        #expect(try children().count == 1, "the decoder child did not start")
        kill(parent, SIGKILL)
        process.waitUntilExit()
        let gone = Date().addingTimeInterval(3)
        while Date() < gone, !(try children().isEmpty) { Thread.sleep(forTimeInterval: 0.02) }
        #expect(try children().isEmpty, "the decoder child outlived its parent")
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

    /// A copy of the binary under another name still decodes SVG in its own child.
    @Test func renamedBinaryStillDecodesSVG() throws {
        let folder = Paths.scratch("renamed")
        let copy = folder + "/ib-renamed"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: Paths.binary, toPath: copy)
        let run = try runIconbadgeWith(
            executable: copy, [Paths.fixture("icons/mail-unread-symbolic.svg"), "--dot", "-o", folder + "/o.png"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ImageFile.pixels(at: folder + "/o.png").width == 16)
    }

    @Test func compareReadsStandardInputOnce() throws {
        let run = try runIconbadge(["compare", "-", "-"])
        #expect(run.status == 64 && run.stderr.contains("at most one image from standard input"))
    }
}
