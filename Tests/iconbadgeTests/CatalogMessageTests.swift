import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// What `appiconset` and `android` say when something is off: size advice in the
/// command's own option with the largest value that fits, the Gradle note naming the
/// variant, the icon names a `res/` folder does have, one 16-bit note a run, and the
/// summary's count of images that got a dot.
@Suite struct CatalogMessageTests {
    /// A copy of a fixture folder in a scratch folder.
    static func copy(_ fixture: String, _ name: String) throws -> String {
        let folder = Paths.scratch(name)
        let copy = folder + "/" + (fixture.split(separator: "/").last.map(String.init) ?? fixture)
        try FileManager.default.copyItem(atPath: Paths.fixture(fixture), toPath: copy)
        return copy
    }

    /// `appiconset --text "BETA 1234" --relative-size 0.3` on the iOS set fails whole,
    /// and the advice is `--relative-size` with the largest value that fits: 0.22
    /// works, 0.23 does not.
    @Test func sizeAdviceNamesRelativeSizeAndTheLargestValueThatFits() throws {
        let set = try Self.copy("xcode/App/Assets.xcassets/AppIcon.appiconset", "advice-ios")
        let out = (set as NSString).deletingLastPathComponent + "/out"
        let run = try runIconbadge(["appiconset", set, "--text", "BETA 1234", "--relative-size", "0.3", "--out", out])
        #expect(run.status == 64, "\(run.stderr)")
        let errors = run.stderrLines.filter { $0.hasPrefix("iconbadge: error: ") }
        #expect(errors.count == 3)
        for line in errors {
            #expect(
                line.hasSuffix(
                    "cannot fit inside the ios shape of this 1024 × 1024 px icon; the largest that fits is 1017 × 230 px (set a smaller --relative-size: 0.22 is the largest that fits every image)"
                ), "\(line)")
            #expect(!line.contains("--height"), "\(line)")
        }
        let fits = try runIconbadge([
            "appiconset", set, "--text", "BETA 1234", "--relative-size", "0.22", "--out", out,
        ])
        #expect(fits.status == 0, "\(fits.stderr)")
        let tooLarge = try runIconbadge([
            "appiconset", set, "--text", "BETA 1234", "--relative-size", "0.23", "--out", out + "2",
        ])
        #expect(tooLarge.status == 64)
        // An explicit --height is the option to change, and a render's advice is unchanged.
        let height = try runIconbadge(["appiconset", set, "--text", "BETA 1234", "--height", "35%", "--out", out + "3"])
        #expect(height.stderr.contains("px (set a smaller --height)\n"), "\(height.stderr)")
        let render = try runIconbadge([
            Paths.fixture("icons/app-ios-180.png"), "--platform", "ios", "--text", "BETA 1234", "--height", "60",
            "--font-size", "40",
            "-o", out + ".png",
        ])
        #expect(render.stderr.contains("(set a smaller --height or --dot-size)"), "\(render.stderr)")
    }

    /// `android`'s advice is `--relative-size` too, with the value that fits every
    /// image of the overlay (legacy icons and badge layers).
    @Test func androidSizeAdviceIsRelativeSize() throws {
        let app = try Self.copy("android/sample-app", "advice-android")
        let run = try runIconbadge([
            "android", app + "/res", "--out", app + "/debug/res", "--text", "BETA 1234", "--relative-size", "0.3",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.contains("(set a smaller --relative-size: 0.2 is the largest that fits every image)"),
            "\(run.stderr)")
        let fits = try runIconbadge([
            "android", app + "/res", "--out", app + "/debug/res", "--text", "BETA 1234", "--relative-size", "0.2",
        ])
        #expect(fits.status == 0, "\(fits.stderr)")
    }

    /// At the default size, a label too wide for some images shrinks the badge of every
    /// image to the largest relative size that fits them all, with one note: the
    /// images are those of an explicit `--relative-size` at that figure, byte for
    /// byte, and the first run's messages are not repeated. Not below 0.15, and never
    /// when the size was given (`--relative-size`, `--height`).
    @Test func aLabelTooWideAtTheDefaultSizeShrinksToFit() throws {
        let set = try Self.copy("xcode/App/Assets.xcassets/AppIcon.appiconset", "shrink-ios")
        let out = (set as NSString).deletingLastPathComponent
        let run = try runIconbadge(["appiconset", set, "--text", "BETA 1234", "--out", out + "/shrunk"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines == [
                "iconbadge: note: appiconset: the badge is too large for 3 of the 3 images it draws at the default --relative-size 0.3; every image drawn at 0.22 (--relative-size sets it)",
                // The single-size set's smallest device size (NewUserTrialTests).
                "iconbadge: note: appiconset: \"\(set)/AppIcon.png\" is one image the device draws every size from: as the device draws it at 40 px (notification 20 pt @2x), the text \"BETA 1234\" is 5.8 px, under --min-text-px 7 (it reads from 58 px (Settings 29 pt @2x) up; --preview shows every size)",
                "iconbadge: appiconset: badged 3 images into \"\(out)/shrunk/AppIcon.appiconset\"",
            ], "\(run.stderr)")
        let given = try runIconbadge([
            "appiconset", set, "--text", "BETA 1234", "--relative-size", "0.22", "--out", out + "/given",
        ])
        #expect(given.status == 0, "\(given.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out + "/given/AppIcon.appiconset").sorted()
        #expect(names.count == 4)
        for name in names {
            let shrunk = try Data(contentsOf: URL(fileURLWithPath: out + "/shrunk/AppIcon.appiconset/" + name))
            let explicit = try Data(contentsOf: URL(fileURLWithPath: out + "/given/AppIcon.appiconset/" + name))
            #expect(shrunk == explicit, "\(name)")
        }
        // A given height is kept, and fails with its advice.
        let height = try runIconbadge([
            "appiconset", set, "--text", "BETA 1234", "--height", "30%", "--out", out + "/h",
        ])
        #expect(height.status == 64)
        #expect(!FileManager.default.fileExists(atPath: out + "/h"))

        // Android: DEBUG at 0.29; the Gradle note of the first run is not repeated.
        let app = try Self.copy("android/sample-app", "shrink-android")
        let debug = try runIconbadge(["android", app + "/res", "--out", app + "/src/debug", "--text", "DEBUG"])
        #expect(debug.status == 0, "\(debug.stderr)")
        #expect(debug.stderrLines.filter { $0.contains("Gradle reads") }.count == 1, "\(debug.stderr)")
        #expect(
            debug.stderrLines.contains(
                "iconbadge: note: android: the badge is too large for 23 of the 30 images it draws at the default --relative-size 0.3; every image drawn at 0.29 (--relative-size sets it)"
            ), "\(debug.stderr)")
        // A label that would need less than 0.15 fails as before: 64, the figure, nothing written.
        let long = try runIconbadge([
            "android", app + "/res", "--out", app + "/long/res", "--text", "A VERY LONG LABEL TEXT",
        ])
        #expect(long.status == 64)
        #expect(long.stderr.contains("(set a smaller --relative-size: 0.08 is the largest that fits every image)"))
        #expect(!long.stderr.contains("every image drawn at"))
        #expect(!FileManager.default.fileExists(atPath: app + "/long"))
    }

    /// What may stop a shrinking run: a height given to a second badge keeps the
    /// size (its advice is `--height`, which sizes that badge), an Icon Composer
    /// bundle shrinks too, and the notes of a first run refused before it drew (73)
    /// are printed, not dropped with its held-back output.
    @Test func shrinkingKeepsGivenHeightsBundlesAndNotes() throws {
        let app = try Self.copy("android/wikipedia", "shrink-and")
        let and = try runIconbadge([
            "android", app + "/res", "--out", app + "/debug/res", "--text", "BETA", "--and", "--text", "STAGING",
            "--anchor", "bottom", "--height", "30%",
        ])
        #expect(and.status == 64)
        #expect(!and.stderr.contains("every image drawn at"), "\(and.stderr)")
        #expect(and.stderr.contains("badge 2: the badge"), "\(and.stderr)")
        #expect(and.stderr.contains("px (set a smaller --height)\n"), "\(and.stderr)")
        #expect(!FileManager.default.fileExists(atPath: app + "/debug"))

        let bundle = try Self.copy("xcode/App/AppIcon.icon", "shrink-bundle")
        let out = (bundle as NSString).deletingLastPathComponent + "/out/AppIcon.icon"
        let run = try runIconbadge(["appiconset", bundle, "--text", "BETA 1234", "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines.first
                == "iconbadge: note: appiconset: the badge is too large at the default --relative-size 0.3; drawn at 0.22 (--relative-size sets it)",
            "\(run.stderr)")

        let set = try Self.copy("xcode/App/Assets.xcassets/AppIcon.appiconset", "shrink-refused")
        let folder = (set as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder + "/o/AppIcon.appiconset", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/o/.iconbadge-tmp", withIntermediateDirectories: true)
        try Data("{\"images\":[]}".utf8).write(to: URL(fileURLWithPath: folder + "/o/AppIcon.appiconset/Contents.json"))
        let refused = try runIconbadge(["appiconset", set, "--text", "BETA", "--out", folder + "/o/AppIcon.appiconset"])
        #expect(refused.status == 73)
        #expect(refused.stderrLines.count == 2, "\(refused.stderr)")
        #expect(refused.stderrLines.first?.contains("was left by an interrupted run") == true, "\(refused.stderr)")
    }

    /// `--out app/src/beta` (not a res/ folder) gets a note naming the variant and
    /// its res/ folder.
    @Test func theGradleNoteNamesTheVariant() throws {
        let app = try Self.copy("android/sample-app", "gradle-note")
        let out = app + "/src/beta"
        let run = try runIconbadge(["android", app + "/res", "--out", out, "--dot"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines.first
                == "iconbadge: note: android: Gradle reads the \"beta\" source set's resources from its res/ folder, \"\(out)/res\"; \"\(out)\" is written as given"
        )
        let other = try runIconbadge(["android", app + "/res", "--out", app + "/overlay", "--dot"])
        #expect(
            other.stderrLines.first
                == "iconbadge: note: android: Gradle reads a source set's resources from its res/ folder, \"\(app)/overlay/res\"; \"\(app)/overlay\" is written as given"
        )
        let quiet = try runIconbadge(["android", app + "/res", "--out", app + "/src/debug/res", "--dot"])
        #expect(!quiet.stderr.contains("Gradle"), "\(quiet.stderr)")
    }

    /// A launcher name that is not there: the message lists the names that are, with
    /// their files, and the option to give.
    @Test func aMissingLauncherNameListsTheNamesFound() throws {
        let app = try Self.copy("android/sample-app", "launcher-names")
        let res = app + "/res"
        // An app whose icons are named "launcher", as some are.
        for folder in try FileManager.default.contentsOfDirectory(atPath: res) where folder.hasPrefix("mipmap") {
            for file in try FileManager.default.contentsOfDirectory(atPath: res + "/" + folder)
            where file.hasPrefix("ic_launcher") {
                try FileManager.default.moveItem(
                    atPath: res + "/" + folder + "/" + file,
                    toPath: res + "/" + folder + "/" + file.replacingOccurrences(of: "ic_launcher", with: "launcher"))
            }
        }
        try FileManager.default.removeItem(atPath: app + "/AndroidManifest.xml")
        let run = try runIconbadge(["android", res, "--out", app + "/debug/res", "--dot"])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(
            run.stderrLines
                == [
                    "iconbadge: error: \"\(res)\": has no launcher icon named \"ic_launcher\" or \"ic_launcher_round\" in mipmap-<density>/ or an adaptive icon folder; it has \"launcher\" (mipmap-anydpi-v26/launcher.xml, mipmap-hdpi/launcher.png), \"launcher_round\" (mipmap-anydpi-v26/launcher_round.xml, mipmap-hdpi/launcher_round.png): give --icon launcher"
                ])
        let named = try runIconbadge(["android", res, "--out", app + "/debug/res", "--dot", "--icon", "launcher"])
        #expect(named.status == 0, "\(named.stderr)")
    }

    /// Icons of 16 bits per channel: one note for the run, not one per image.
    @Test func theSixteenBitNoteComesOncePerRun() throws {
        let folder = Paths.scratch("sixteen-bit")
        let set = folder + "/AppIcon.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        var images: [String] = []
        for (index, scale) in ["1x", "2x", "3x"].enumerated() {
            // PngSuite's basn6a16: 32 × 32, RGBA, 16 bits per channel.
            try FileManager.default.copyItem(
                atPath: Corpus.path("pngsuite/basn6a16.png"), toPath: set + "/icon-\(index).png")
            images.append(
                "{ \"filename\" : \"icon-\(index).png\", \"idiom\" : \"iphone\", \"scale\" : \"\(scale)\", \"size\" : \"32x32\" }"
            )
        }
        try "{ \"images\" : [ \(images.joined(separator: ", ")) ] }".write(
            toFile: set + "/Contents.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(["appiconset", set, "--dot", "--out", folder + "/out"])
        #expect(run.status == 0, "\(run.stderr)")
        let notes = run.stderrLines.filter { $0.contains("16 bits per channel") }
        #expect(
            notes == [
                "iconbadge: note: 3 icons have 16 bits per channel; their outputs have 8 (Cairo 1.16 composites 8 bits per channel)"
            ], "\(run.stderr)")
    }

    /// The summary counts the images whose text became a dot: NetNewsWire's Mac set
    /// draws BETA on its 128 and 64 px images and a dot on the three smaller ones.
    @Test func theSummaryCountsTheSlotsThatGotADot() throws {
        let set = try Self.copy("xcode/NetNewsWire/AppIcon.appiconset", "small-slots")
        let out = (set as NSString).deletingLastPathComponent + "/out"
        let run = try runIconbadge(["appiconset", set, "--value", "BETA", "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderrLines.last
                == "iconbadge: appiconset: badged 5 images (3 as dots) into \"\(out)/AppIcon.appiconset\"")
        let hidden = try runIconbadge([
            "appiconset", set, "--value", "BETA", "--small-text", "hide", "--out", out + "2",
        ])
        #expect(
            hidden.stderrLines.last
                == "iconbadge: appiconset: badged 5 images (3 without a badge) into \"\(out)2/AppIcon.appiconset\"")
    }
}
