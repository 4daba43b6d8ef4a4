import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `--animate` from the command line and manifests: what it writes, and every bad
/// value refused with 64 naming its option, nothing written.
@Suite struct AnimationCommandTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")

    func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func badValuesAreRefusedNamingTheOption() throws {
        let folder = Paths.scratch("animation-refused")
        let cases: [([String], String)] = [
            (["--animate", "wobble"], "--animate"),
            (["--animate", "bounce", "--duration", "0"], "--duration: \"0\" is out of range (use 0.001 to 10 s)"),
            (["--animate", "bounce", "--duration", "-1"], "--duration"),
            (["--animate", "bounce", "--duration", "0.0005"], "(use 0.001 to 10 s)"),
            (["--animate", "bounce", "--easing", "ease-inn"], "--easing: \"ease-inn\" is not an easing"),
            (["--animate", "bounce", "--loop", "never"], "use 1 to 65535, or forever"),
            (["--animate", "bounce", "--duration", "10.5"], "--duration"),
            (["--animate", "bounce", "--fps", "0"], "--fps"),
            (["--animate", "bounce", "--fps", "241"], "--fps"),
            (["--animate", "bounce", "--easing", "cubic-bezier(1.2, 0, 1, 1)"], "--easing"),
            (["--animate", "bounce", "--easing", "cubic-bezier(0.4, 1.3, 1)"], "--easing"),
            (["--animate", "bounce", "--easing", "cubic-bezier(0.4, 1e9, 1, 1)"], "--easing"),
            (["--animate", "bounce", "--easing", "springy"], "--easing"),
            (["--animate", "bounce", "--loop", "0"], "--loop"),
            (["--animate", "bounce", "--duration", "10", "--fps", "240"], "--fps: \"240\" makes 2401 frames"),
            (["--animate", "bounce", "--duration", "10.0", "--fps", "61"], "at most 601 are drawn"),
            (["--fps", "30"], "--fps goes with --animate"),
            (["--animate", "pop"], "give it with --from"),
            (["--animate", "bounce", "--from", "2"], "--from is the old value of --animate pop"),
            (["--animate", "bounce", "--check", folder + "/g.png"], "a golden check compares one image"),
        ]
        for (options, message) in cases {
            let run = try runIconbadge([Self.icon, "--value", "3"] + options + ["-o", folder + "/a.png"])
            #expect(run.status == 64, "\(options): \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(run.stderr.contains(message), "\(options): \(run.stderr)")
        }
        let pdf = try runIconbadge([Self.icon, "--value", "3", "--animate", "bounce", "-o", folder + "/a.pdf"])
        #expect(pdf.status == 64)
        #expect(pdf.stderr.contains("PDF cannot hold an animation"), "\(pdf.stderr)")
        let frameless = try runIconbadge([Self.icon, "--value", "3", "-o", folder + "/f-{frame}.png"])
        #expect(frameless.status == 64)
        #expect(frameless.stderr.contains("{frame} with --animate"), "\(frameless.stderr)")
        // 601 frames of 1024² px are over the pixel budget even under 600 frames a file.
        let big = try runIconbadge([
            Self.icon, "--value", "3", "--size", "1024", "--animate", "bounce", "--duration", "5", "--fps", "60", "-o",
            folder + "/big.png",
        ])
        #expect(big.status == 64)
        #expect(big.stderr.contains("301 frames of 1024 × 1024 px are over"), "\(big.stderr)")
        #expect(try files(in: folder).isEmpty, "something was written")
    }

    /// One file a frame, numbered from 0 and padded, each the APNG's frame; the report
    /// lists the frames, their delays and the badge's rectangle.
    @Test func framesAndReport() throws {
        let folder = Paths.scratch("animation-frames")
        let frames = try runIconbadge([
            Self.icon, "--value", "3", "--animate", "bounce", "-o", folder + "/frames/b-{frame}.png",
        ])
        #expect(frames.status == 0, "\(frames.stderr)")
        let names = try files(in: folder + "/frames")
        #expect(names.count == 13)
        #expect(names.first == "b-00.png" && names.last == "b-12.png")
        let still = try runIconbadge([Self.icon, "--value", "3", "-o", folder + "/still.png"])
        #expect(still.status == 0)
        #expect(try ImageFile.pixels(at: folder + "/frames/b-12.png") == ImageFile.pixels(at: folder + "/still.png"))
        #expect(try ImageFile.pixels(at: folder + "/frames/b-00.png") != ImageFile.pixels(at: folder + "/still.png"))

        let report = try runIconbadge([
            Self.icon, "--value", "3", "--animate", "fade-out", "--fps", "30", "--loop", "forever", "--report", "-o",
            folder + "/f.png",
        ])
        #expect(report.status == 0, "\(report.stderr)")
        let json = report.stdoutText.filter { $0 != " " && $0 != "\n" }
        #expect(json.contains("\"kind\":\"fade-out\""), "\(json)")
        #expect(json.contains("\"frameCount\":7"), "\(json)")
        #expect(json.contains("\"loops\":\"forever\""), "\(json)")
        #expect(json.contains("\"delays\":[\"1/30\",\"1/30\",\"1/30\",\"1/30\",\"1/30\",\"1/30\",\"1/30\"]"), "\(json)")
        #expect(json.contains("\"easing\":[\"ease-in\"]"), "\(json)")
        // The last frame of a fade-out draws nothing.
        #expect(json.contains("\"opacity\":0,\"badgeRect\":null"), "\(json)")
    }

    /// What the frames of one animation share is said once: an error naming the frames
    /// it stopped, a note.
    @Test func framesShareOneMessage() throws {
        let folder = Paths.scratch("animation-one-message")
        let run = try runIconbadge([
            Self.icon, "--value", "ABCDEFGHIJKLMNOP", "--animate", "bounce", "-o", folder + "/q/{frame}.png",
        ])
        #expect(run.status == 65)
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("frames 00 to 12 ("), "\(run.stderr)")
        #expect(run.stderr.contains("is larger than the 48 × 48 px icon"), "\(run.stderr)")
        let hidden = try runIconbadge([
            Self.icon, "--value", "0", "--animate", "bounce", "--fps", "10", "-o", folder + "/h/{frame}.png",
        ])
        #expect(hidden.status == 0)
        #expect(hidden.stderrLines.count == 1, "\(hidden.stderr)")
        #expect(hidden.stderr.hasPrefix("iconbadge: note: badge hidden"), "\(hidden.stderr)")
        // A pop from a drawn value to a hidden one is not "the icon unchanged".
        let pop = try runIconbadge([
            Self.icon, "--value", "0", "--from", "5", "--animate", "pop", "-o", folder + "/pop.png",
        ])
        #expect(pop.status == 0)
        #expect(pop.stderr.isEmpty, "\(pop.stderr)")
    }

    /// A manifest entry is held to the command line's rules.
    @Test func manifestEntriesFollowTheCombinationRules() throws {
        let folder = Paths.scratch("animation-manifest-rules")
        let cases: [(String, String)] = [
            ("\"animate\": \"pop\"", "give it with --from"),
            ("\"animate\": \"bounce\", \"from\": \"2\"", "--from is the old value"),
            ("\"duration\": 0.3", "--duration goes with --animate"),
            ("\"animate\": \"bounce\", \"loop\": \"never\"", "jobs[0].loop"),
        ]
        for (keys, message) in cases {
            let manifest =
                "{\"jobs\": [{\"icon\": \"\(Self.icon)\", \"value\": \"3\", \(keys), \"output\": \"\(folder)/a.png\"}]}"
            try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
            let run = try runIconbadge(["batch", folder + "/m.json"])
            #expect(run.status == 65, "\(keys): \(run.stderr)")
            #expect(run.stderrLines.count == 1 && run.stderr.contains(message), "\(keys): \(run.stderr)")
        }
        #expect(try files(in: folder) == ["m.json"])
    }

    /// `--overflow expand` makes room for the largest frame: the bounce's first frame
    /// is inside the canvas, the icon at a whole-pixel offset; without --animate the
    /// canvas is smaller; --scales keeps @2x and @3x exactly 2× and 3× @1x.
    @Test func expandMakesRoomForTheLargestFrame() throws {
        let folder = Paths.scratch("animation-expand")
        let icon = Paths.fixture("icons/app-ios-180.png")
        let options = [icon, "--value", "3", "--height", "28%", "--overflow", "expand"]
        let animated = try runIconbadge(options + ["--animate", "bounce", "--report", "-o", folder + "/a.png"])
        #expect(animated.status == 0, "\(animated.stderr)")
        let report = try ReportJSON(animated.stdoutText)
        let width = try #require(report.number("canvas", "width"))
        let iconY = try #require(report.number("iconRect", "y"))
        #expect(iconY == iconY.rounded(), "the icon is drawn at a whole pixel")
        let json = animated.stdoutText.filter { $0 != " " && $0 != "\n" }
        #expect(
            json.contains("\"scale\":1.5,\"opacity\":1,\"badgeRect\":{\"x\":142.5,\"y\":0.5,\"width\":75"), "\(json)")
        #expect(142.5 + 75 <= width)
        let still = try runIconbadge(options + ["--report", "-o", folder + "/s.png"])
        #expect(try ReportJSON(still.stdoutText).number("canvas", "width")! < width)
        let scales = try runIconbadge([
            Paths.fixture("icons/folder-48x48.png"), "--value", "3", "--scales", "1,2,3", "--overflow", "expand",
            "--animate", "bounce", "-o", folder + "/b{@scale}.png",
        ])
        #expect(scales.status == 0, "\(scales.stderr)")
        let sides = try ["b", "b@2x", "b@3x"].map { try ImageFile.pixels(at: "\(folder)/\($0).png").width }
        #expect(sides[1] == 2 * sides[0] && sides[2] == 3 * sides[0], "\(sides)")
        // Heights whose rounding differs from scale to scale (17 pt at @1x is 17 px, at
        // @3x 51 px) keep the proportion too.
        for height in ["17", "21", "22.5"] {
            let run = try runIconbadge([
                Paths.fixture("icons/folder-48x48.png"), "--value", "3", "--height", height, "--scales", "1,2,3",
                "--overflow", "expand", "--animate", "bounce", "-o", folder + "/h\(height){@scale}.png",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let images = try ["", "@2x", "@3x"].map { try ImageFile.pixels(at: "\(folder)/h\(height)\($0).png") }
            #expect(
                images[1].width == 2 * images[0].width && images[2].width == 3 * images[0].width
                    && images[1].height == 2 * images[0].height && images[2].height == 3 * images[0].height,
                "\(height): \(images.map { "\($0.width)×\($0.height)" })")
        }
        // The room is the curve's, not the frames': the same at 1 and 60 frames a second.
        func canvas(_ fps: String) throws -> Double? {
            let run = try runIconbadge([
                Paths.fixture("icons/folder-48x48.png"), "--value", "3", "--overflow", "expand", "--animate", "bounce",
                "--easing", "cubic-bezier(1,-10,1,-10)", "--fps", fps, "--duration", "1", "--report", "-o",
                folder + "/fps\(fps).svg",
            ])
            return try ReportJSON(run.stdoutText).number("canvas", "width")
        }
        #expect(try canvas("1") == canvas("60"))
    }

    /// A duration that is not a whole number of frames ends on a shorter step.
    @Test func shortLastStep() throws {
        let folder = Paths.scratch("animation-short")
        let run = try runIconbadge([
            Self.icon, "--value", "3", "--animate", "bounce", "--duration", "0.125", "--fps", "10", "--report", "-o",
            folder + "/b.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let json = run.stdoutText.filter { $0 != " " && $0 != "\n" }
        #expect(json.contains("\"delays\":[\"1/10\",\"1/40\",\"1/10\"]"), "\(json)")
    }

    /// Manifests take the same keys; a batch golden check compares every frame.
    @Test func manifestKeysAndFrameChecks() throws {
        let folder = Paths.scratch("animation-batch")
        let manifest =
            "{\"jobs\": [{\"icon\": \"\(Self.icon)\", \"value\": \"3\", \"animate\": \"pop\", \"from\": \"2\", \"fps\": 20, \"output\": \"out/p.webp\"},"
            + " {\"icon\": \"\(Self.icon)\", \"value\": \"5\", \"animate\": \"fade-in\", \"easing\": \"linear\", \"duration\": 0.1, \"fps\": 20, \"output\": \"out/frames/f-{frame}.png\"}]}"
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(["batch", "m.json", "--quiet"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try files(in: folder + "/out/frames") == ["f-0.png", "f-1.png", "f-2.png"])
        let webp = try Data(contentsOf: URL(fileURLWithPath: folder + "/out/p.webp"))
        #expect(webp.count > 100 && String(decoding: webp.prefix(4), as: UTF8.self) == "RIFF")
        #expect(String(decoding: webp, as: UTF8.self).contains("ANIM"))

        // The frames as goldens: every frame compared, and a changed curve fails.
        try FileManager.default.createDirectory(atPath: folder + "/goldens/out", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/out/frames", toPath: folder + "/goldens/out/frames")
        let frameManifest =
            "{\"jobs\": [{\"icon\": \"\(Self.icon)\", \"value\": \"5\", \"animate\": \"fade-in\", \"easing\": \"linear\", \"duration\": 0.1, \"fps\": 20, \"output\": \"out/frames/f-{frame}.png\"}]}"
        try frameManifest.write(toFile: folder + "/frames.json", atomically: true, encoding: .utf8)
        let same = try runIconbadge(["batch", "frames.json", "--check", "goldens", "--quiet"], in: folder)
        #expect(same.status == 0, "\(same.stderr)")
        // A golden frame that is not the render's (frame 1 replaced by frame 0) fails.
        try FileManager.default.removeItem(atPath: folder + "/goldens/out/frames/f-1.png")
        try FileManager.default.copyItem(
            atPath: folder + "/goldens/out/frames/f-0.png", toPath: folder + "/goldens/out/frames/f-1.png")
        let changed = try runIconbadge(["batch", "frames.json", "--check", "goldens"], in: folder)
        #expect(changed.status == 1, "\(changed.stderr)")
        #expect(
            changed.stdoutText.contains("changed goldens/out/frames/f-1.png (jobs[0] frame 1): "),
            "\(changed.stdoutText)")

        let animatedCheck =
            "{\"jobs\": [{\"icon\": \"\(Self.icon)\", \"value\": \"5\", \"animate\": \"bounce\", \"output\": \"out/b.png\"}]}"
        try animatedCheck.write(toFile: folder + "/animated.json", atomically: true, encoding: .utf8)
        let refused = try runIconbadge(["batch", "animated.json", "--check", "goldens"], in: folder)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("a golden check compares one image"), "\(refused.stderr)")
    }

    /// Standard output takes an animation like any image.
    @Test func animationToStandardOutput() throws {
        let run = try runIconbadge([Self.icon, "--value", "3", "--animate", "bounce", "--format", "png", "-o", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(String(decoding: run.stdout.prefix(64), as: UTF8.self).contains("acTL"))
    }
}
