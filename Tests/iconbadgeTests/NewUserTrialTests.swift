import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// What a new user's trial of the README's jobs found (issue 43, items 6–16), each
/// as it was reproduced, now fixed.
@Suite struct NewUserTrialTests {
    let fm = FileManager.default
    static let icon = Paths.fixture("icons/folder-48x48.png")
    /// A single-size iOS set (one 1024 px image, with its dark and tinted ones).
    static let singleSizeSet = Paths.fixture("xcode/App/Assets.xcassets/AppIcon.appiconset")

    func snapshot(_ folder: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for name in try fm.contentsOfDirectory(atPath: folder) {
            found[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return found
    }

    // MARK: 6. Badging iconbadge's own output again

    /// `--in-place` twice stacked a second badge over the first: the second run is
    /// refused (65) naming an image and the fix, and writes nothing; a copy made with
    /// `--out` from the originals, and the originals again, still badge.
    @Test func badgingABadgedSetAgainIsRefused() throws {
        let folder = Paths.scratch("rebadge-set")
        let set = folder + "/Assets.xcassets/AppIcon.appiconset"
        try fm.createDirectory(atPath: folder + "/Assets.xcassets", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Self.singleSizeSet, toPath: set)
        let original = try snapshot(set)
        let first = try runIconbadge(["appiconset", set, "--value", "BETA", "--in-place"])
        #expect(first.status == 0, "\(first.stderr)")
        let badged = try snapshot(set)
        #expect(badged != original)
        let again = try runIconbadge(["appiconset", set, "--text", "1.2 (346)", "--in-place"])
        #expect(again.status == 65, "\(again.stderr)")
        #expect(again.stderrLines.count == 1, "\(again.stderr)")
        #expect(again.stderr.contains("\"\(set)/AppIcon.png\": already has a badge iconbadge drew"), "\(again.stderr)")
        #expect(again.stderr.contains("restore the set's original images") && again.stderr.contains("--out"))
        #expect(try snapshot(set) == badged, "nothing written")
        // A copy from the badged set would stack too.
        let copy = try runIconbadge(["appiconset", set, "--value", "RC", "--out", folder + "/rc"])
        #expect(copy.status == 65, "\(copy.stderr)")
        #expect(!fm.fileExists(atPath: folder + "/rc"))
        // A whole catalog holding the badged set: the same.
        let catalog = try runIconbadge(["appiconset", folder + "/Assets.xcassets", "--value", "RC", "--in-place"])
        #expect(catalog.status == 65, "\(catalog.stderr)")
        // The originals back: badged again, with no complaint; and a copy made with
        // --out leaves the originals unmarked, so badging them twice works.
        for (name, data) in original { try data.write(to: URL(fileURLWithPath: set + "/" + name)) }
        for value in ["BETA", "RC"] {
            let run = try runIconbadge(["appiconset", set, "--value", value, "--out", folder + "/" + value])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try snapshot(set) == original)
        // The badged images are PNGs that decode as before, their pixels unchanged by
        // the mark.
        let pixels = try ImageFile.pixels(at: folder + "/BETA/AppIcon.appiconset/AppIcon.png")
        #expect(pixels.width == 1024)
    }

    /// The mark is a `tEXt` chunk an original never has: an original that happens to
    /// hold one with another tool's name is badged; the mark only ever refuses.
    @Test func theMarkIsIconbadgesOwnTextChunk() throws {
        let folder = Paths.scratch("rebadge-mark")
        let set = folder + "/AppIcon.appiconset"
        try fm.copyItem(atPath: Self.singleSizeSet, toPath: set)
        let run = try runIconbadge(["appiconset", set, "--value", "BETA", "--out", folder + "/out"])
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/out/AppIcon.appiconset/AppIcon.png")))
        let chunk = Array("tEXtSoftware".utf8) + [0] + Array("iconbadge".utf8)
        #expect(bytes.indices.contains { bytes[$0...].starts(with: chunk) }, "the badged image carries the mark")
        let originalBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: set + "/AppIcon.png")))
        #expect(!originalBytes.indices.contains { originalBytes[$0...].starts(with: Array("tEXt".utf8)) })
    }

    /// An Icon Composer bundle badged again gets its badge layer replaced (its other
    /// layers are never drawn on); a layer image that was badged in a set is refused.
    @Test func aBundleIsRebadgedByItsLayerAndRefusesABadgedLayer() throws {
        let folder = Paths.scratch("rebadge-bundle")
        let bundle = folder + "/AppIcon.icon"
        try fm.copyItem(atPath: Paths.fixture("xcode/App/AppIcon.icon"), toPath: bundle)
        for value in ["BETA", "RC"] {
            let run = try runIconbadge(["appiconset", bundle, "--value", value, "--in-place"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let json = try String(contentsOfFile: bundle + "/icon.json", encoding: .utf8)
        #expect(json.components(separatedBy: "\"iconbadge-badge.png\"").count == 2, "one badge layer: \(json)")
        #expect(
            try fm.contentsOfDirectory(atPath: bundle + "/Assets").sorted() == ["envelope.png", "iconbadge-badge.png"])
        // A layer image that iconbadge badged (here its own badge layer, copied over
        // the envelope) would show that badge under the new one.
        let before = try snapshot(bundle + "/Assets")
        try fm.removeItem(atPath: bundle + "/Assets/envelope.png")
        try fm.copyItem(atPath: bundle + "/Assets/iconbadge-badge.png", toPath: bundle + "/Assets/envelope.png")
        let refused = try runIconbadge(["appiconset", bundle, "--value", "RC", "--in-place"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("\"\(bundle)/Assets/envelope.png\": already has a badge iconbadge drew"))
        #expect(try snapshot(bundle + "/Assets")["iconbadge-badge.png"] == before["iconbadge-badge.png"])
    }

    /// Looking for the mark never blocks: a set whose image is a FIFO is refused by
    /// the image's reader, as before the mark, not left waiting for a writer.
    @Test func lookingForTheMarkNeverOpensAFIFOForGood() throws {
        let folder = Paths.scratch("rebadge-fifo")
        let set = folder + "/AppIcon.appiconset"
        try fm.copyItem(atPath: Self.singleSizeSet, toPath: set)
        try fm.removeItem(atPath: set + "/AppIcon.png")
        #expect(mkfifo(set + "/AppIcon.png", 0o600) == 0)
        let run = try runIconbadge(["appiconset", set, "--value", "BETA", "--in-place"])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.contains("AppIcon.png\": is a FIFO; only regular files are read"), "\(run.stderr)")
    }

    // MARK: 7. Typos of command names

    @Test func misspeltCommandsFollowedByTheirOptionsAreCaught() throws {
        let folder = Paths.scratch("typo-commands")
        let set = try runIconbadge(["appiconst", Self.singleSizeSet, "--value", "BETA", "--out", "b"], in: folder)
        #expect(set.status == 64, "\(set.stderr)")
        #expect(set.stderr.contains("unknown command \"appiconst\" (did you mean appiconset?)"), "\(set.stderr)")
        let android = try runIconbadge(["andriod", "app/src/main/res", "--value", "BETA", "--out", "x"], in: folder)
        #expect(android.status == 64, "\(android.stderr)")
        #expect(android.stderr.contains("(did you mean android?)"), "\(android.stderr)")
        #expect(!fm.fileExists(atPath: folder + "/b") && !fm.fileExists(atPath: folder + "/x"))
        // A file of that name is an icon, as before.
        try fm.copyItem(atPath: Self.icon, toPath: folder + "/rendr")
        let file = try runIconbadge(["rendr", "--value", "3", "-o", "out.png"], in: folder)
        #expect(file.status == 0, "\(file.stderr)")
    }

    /// A command shortened (`appicon`), `version` as a word, and a misspelt
    /// `--version` are named as what they look like, not read as an icon or a render
    /// option; a render option given first is still one.
    @Test func shortenedCommandsAndTopLevelFlagTyposAreCaught() throws {
        let folder = Paths.scratch("typo-top-level")
        let short = try runIconbadge(["appicon", Self.singleSizeSet, "--value", "BETA", "--out", "b"], in: folder)
        #expect(short.status == 64, "\(short.stderr)")
        #expect(short.stderr.contains("unknown command \"appicon\" (did you mean appiconset?)"), "\(short.stderr)")
        let word = try runIconbadge(["version"], in: folder)
        #expect(word.status == 64, "\(word.stderr)")
        #expect(word.stderr.contains("(did you mean --version?)"), "\(word.stderr)")
        let flag = try runIconbadge(["--versoin"], in: folder)
        #expect(flag.status == 64, "\(flag.stderr)")
        #expect(flag.stderr == "iconbadge: error: unknown option \"--versoin\" (did you mean --version?)\n")
        try fm.copyItem(atPath: Self.icon, toPath: folder + "/icon.png")
        let first = try runIconbadge(["--value", "3", "icon.png", "-o", "out.png"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!fm.fileExists(atPath: folder + "/b"))
    }

    // MARK: A folder of the set's name at --out that is no set

    /// `--out` where a folder of the set's or bundle's name already holds files but no
    /// manifest (or one that cannot be read) is refused, 73, and keeps its files; an
    /// empty folder, or `--replace`, is replaced.
    @Test func aFolderAtOutThatIsNoSetKeepsItsFiles() throws {
        let folder = Paths.scratch("out-not-a-set")
        for (source, name, manifest) in [
            (Self.singleSizeSet, "AppIcon.appiconset", nil),
            (Paths.fixture("xcode/App/AppIcon.icon"), "AppIcon.icon", nil),
            (Paths.fixture("xcode/App/AppIcon.icon"), "AppIcon.icon", "not json"),
            (Paths.fixture("xcode/App/AppIcon.icon"), "AppIcon.icon", "{}"),
        ] as [(String, String, String?)] {
            let out = folder + "/out"
            try? fm.removeItem(atPath: out)
            try fm.createDirectory(atPath: out + "/" + name, withIntermediateDirectories: true)
            try "precious".write(toFile: out + "/" + name + "/README.txt", atomically: false, encoding: .utf8)
            if let manifest {
                try manifest.write(toFile: out + "/" + name + "/icon.json", atomically: false, encoding: .utf8)
            }
            let run = try runIconbadge(["appiconset", source, "--value", "BETA", "--out", out])
            #expect(run.status == 73, "\(name) \(manifest ?? "-"): \(run.stderr)")
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(run.stderr.contains("--replace replaces it, or write elsewhere"), "\(run.stderr)")
            #expect(try String(contentsOfFile: out + "/" + name + "/README.txt", encoding: .utf8) == "precious")
            let replaced = try runIconbadge(["appiconset", source, "--value", "BETA", "--out", out, "--replace"])
            #expect(replaced.status == 0, "\(replaced.stderr)")
            #expect(!fm.fileExists(atPath: out + "/" + name + "/README.txt"))
        }
        // A copy inside the set itself is refused, 64, and nothing is written there.
        let inside = folder + "/inside/AppIcon.appiconset"
        try fm.createDirectory(atPath: folder + "/inside", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Self.singleSizeSet, toPath: inside)
        let nested = try runIconbadge(["appiconset", inside, "--value", "BETA", "--out", inside + "/sub"])
        #expect(nested.status == 64, "\(nested.stderr)")
        #expect(nested.stderr.contains("is inside the set"), "\(nested.stderr)")
        #expect(!fm.fileExists(atPath: inside + "/sub"))
        // An empty folder of that name is simply replaced.
        let empty = folder + "/empty"
        try fm.createDirectory(atPath: empty + "/AppIcon.appiconset", withIntermediateDirectories: true)
        let run = try runIconbadge(["appiconset", Self.singleSizeSet, "--value", "BETA", "--out", empty])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(fm.fileExists(atPath: empty + "/AppIcon.appiconset/Contents.json"))
    }

    // MARK: 9. Illegible sizes of a single-size iOS set

    @Test func aSingleSizeSetNamesTheSizeWhereTheTextIsTooSmall() throws {
        let folder = Paths.scratch("single-size-legibility")
        // BETA at 0.2 of the image: a 0.133 em, 5.3 px at 40 px and 7.7 px at 58 px.
        let run = try runIconbadge(
            ["appiconset", Self.singleSizeSet, "--value", "BETA", "--relative-size", "0.2", "--out", folder])
        #expect(run.status == 0, "\(run.stderr)")
        let notes = run.stderrLines.filter { $0.contains("as the device draws it") }
        #expect(notes.count == 1, "once per run, though three 1024 px images: \(run.stderr)")
        #expect(
            notes.first?.contains(
                "as the device draws it at 40 px (notification 20 pt @2x), the text \"BETA\" is 5.3 px, under --min-text-px 7 (it reads from 58 px (Settings 29 pt @2x) up"
            ) == true, "\(run.stderr)")
        // At the default size its em is 8 px at 40 px: legible by the rule, no note.
        let legible = try runIconbadge(["appiconset", Self.singleSizeSet, "--value", "BETA", "--out", folder + "/b"])
        #expect(legible.status == 0)
        #expect(!legible.stderr.contains("as the device draws it"), "\(legible.stderr)")
        // A set of every size names nothing: its small images get their own notes.
        let sized = try runIconbadge(
            [
                "appiconset", Paths.fixture("xcode/NetNewsWire/AppIcon.appiconset"), "--value", "BETA", "--out",
                folder + "/n",
            ])
        #expect(sized.status == 0, "\(sized.stderr)")
        #expect(!sized.stderr.contains("as the device draws it"), "\(sized.stderr)")
    }

    // MARK: 10, 11. merge-reports

    /// Two shards of a directory check whose artifacts went to each shard's folder.
    func shards() throws -> String {
        let folder = Paths.scratch("merge-trial")
        for side in ["a", "e"] {
            try fm.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: true)
        }
        for (name, actual, expected) in [("x.png", "1", "1"), ("y.png", "2", "3"), ("z.png", "4", "5")] {
            for (side, value) in [("a", actual), ("e", expected)] {
                let run = try runIconbadge([Self.icon, "--value", value, "-o", "\(folder)/\(side)/\(name)"])
                #expect(run.status == 0, "\(run.stderr)")
            }
        }
        for k in 1...2 {
            let shard = try runIconbadge(
                [
                    "compare", "a", "e", "--shard", "\(k)/2", "--artifacts", "shard-\(k)", "--results",
                    "shard-\(k)/results.json",
                ], in: folder)
            #expect([0, 1].contains(shard.status), "\(shard.stderr)")
        }
        return folder
    }

    @Test func mergeReportsSaysOnlyWhatItWrote() throws {
        let folder = try shards()
        let merged = try runIconbadge(
            ["merge-reports", "shard-1/results.json", "shard-2/results.json", "--junit", "merged/junit.xml"],
            in: folder)
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(merged.stdoutText.contains("changed y.png: "), "\(merged.stdoutText)")
        #expect(!merged.stdoutText.contains("wrote"), "\(merged.stdoutText)")
        #expect(merged.stderr.contains("JUnit report: merged/junit.xml"))
        let junit = try String(contentsOfFile: folder + "/merged/junit.xml", encoding: .utf8)
        #expect(!junit.contains("wrote shard-"), "\(junit)")
    }

    @Test func mergeReportsErrorsReadAsSentences() throws {
        let folder = try shards()
        let missing = try runIconbadge(["merge-reports", "shard-1/results.json"], in: folder)
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(
            missing.stderr.contains(
                "\"shard-1/results.json\": holds shard 1/2, and the results of shard 2/2 are missing"),
            "\(missing.stderr)")
        try fm.copyItem(atPath: folder + "/shard-1", toPath: folder + "/copy")
        let twice = try runIconbadge(
            ["merge-reports", "shard-1/results.json", "copy/results.json", "shard-2/results.json"], in: folder)
        #expect(twice.status == 65, "\(twice.stderr)")
        #expect(
            twice.stderr.contains("\"shard-1/results.json\": holds shard 1/2's results, as does \"copy/results.json\""),
            "\(twice.stderr)")
        for run in [missing, twice] {
            #expect(!run.stderr.contains("\": and ") && !run.stderr.contains("\": is "), "\(run.stderr)")
        }
    }

    // MARK: 12. -o naming the input

    @Test func anOutputThatIsTheInputNamesInPlace() throws {
        let folder = Paths.scratch("output-is-input")
        try fm.copyItem(atPath: Self.icon, toPath: folder + "/icon.png")
        let run = try runIconbadge(["icon.png", "--value", "3", "-o", "icon.png"], in: folder)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--in-place replaces it"), "\(run.stderr)")
    }

    // MARK: 16. batch --check names the job

    @Test func batchCheckLinesNameTheManifestJob() throws {
        let folder = Paths.scratch("batch-check-job")
        try fm.createDirectory(atPath: folder + "/goldens", withIntermediateDirectories: true)
        try fm.copyItem(atPath: Self.icon, toPath: folder + "/goldens/x.png")
        try "{\"jobs\": [{\"icon\": \"\(Self.icon)\", \"value\": \"3\", \"output\": \"x.png\"}]}"
            .write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(
            ["batch", "m.json", "--check", "goldens", "--junit", "junit.xml", "--artifacts", "art"], in: folder)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdoutText.hasPrefix("changed goldens/x.png (jobs[0]): "), "\(run.stdoutText)")
        let junit = try String(contentsOfFile: folder + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("<failure type=\"different\" message=\"jobs[0]: "), "\(junit)")
        // Merged shards say the same.
        let shard = try runIconbadge(
            ["batch", "m.json", "--check", "goldens", "--shard", "1/1", "--results", "r.json"], in: folder)
        #expect(shard.status == 1)
        let merged = try runIconbadge(["merge-reports", "r.json"], in: folder)
        #expect(merged.stdoutText.hasPrefix("changed goldens/x.png (jobs[0]): "), "\(merged.stdoutText)")
    }
}
