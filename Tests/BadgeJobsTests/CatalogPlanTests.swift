import BadgeCore
import BadgeRender
import BadgeSystem
import Foundation
import TestSupport
import Testing

@testable import BadgeJobs

/// The catalog pipeline in process: what a plan holds before anything is written,
/// and what its check finds in the destination (conflicts, a set or an overlay's own
/// files without `--replace`, an earlier run's stale files).
@Suite struct CatalogPlanTests {
    /// The notes said, and how many outcomes were reported; nothing held back.
    final class Said: CatalogMessages {
        var notes: [String] = []
        func note(_ text: String) { notes.append(text) }
        var reported = 0
        func report(_ outcomes: [JobOutcome], jobs: [RenderJob], advice: SizeAdvice) { reported += outcomes.count }
        func holding() -> (messages: any CatalogMessages, replay: () -> Void) { (self, {}) }
    }

    /// A copy of the fixture folder `fixture` in a fresh scratch folder.
    static func copy(_ fixture: String, _ name: String) throws -> String {
        let copy = Paths.scratch(name) + "/" + (fixture.split(separator: "/").last.map(String.init) ?? fixture)
        try FileManager.default.copyItem(atPath: Paths.fixture(fixture), toPath: copy)
        return copy
    }

    static func settings(value: String = "3", _ configure: (inout CatalogTransaction.Settings) -> Void = { _ in })
        -> CatalogTransaction.Settings
    {
        var render = RenderSettings()
        render.value = value
        var settings = CatalogTransaction.Settings(render: render)
        configure(&settings)
        return settings
    }

    static let setImages = [
        "Icon-MacOS-16x16@1x.png", "Icon-MacOS-16x16@2x.png", "Icon-MacOS-32x32@1x.png", "Icon-MacOS-32x32@2x.png",
        "Icon-MacOS-128x128@1x.png",
    ]

    /// A set copied with `--out`: one job per image at the image's own pixel size,
    /// writing into `OUT/NAME.appiconset`; nothing is made before the check, which
    /// stages one folder beside the copy, sends every job there and commits it as the
    /// set's folder with its `Contents.json`.
    @Test func anAppIconSetPlanHasAJobPerImageAtItsSlotsSize() throws {
        let folder = try Self.copy("xcode/NetNewsWire/AppIcon.appiconset", "catalog-set-plan")
        let set = try AppIconSet(folder: folder)
        #expect(set.images.map(\.filename) == Self.setImages)
        #expect(set.slotCount == 5)
        let out = Paths.scratch("catalog-set-plan-out")
        let staging = CatalogStaging()
        defer { staging.discard() }
        let said = Said()
        var plan = try #require(
            try CatalogTransaction.plan(
                .appIconSets([set], out: out, sourceDateEpoch: nil), settings: Self.settings(), relativeSize: 0.3,
                staging: staging, messages: said))
        let finals = Self.setImages.map { OutputLocation(root: out, components: ["AppIcon.appiconset", $0]) }
        #expect(plan.jobs.map(\.label) == Self.setImages)
        #expect(plan.jobs.map { $0.requiredSize?.width } == [16, 32, 32, 64, 128])
        #expect(plan.jobs.map { $0.requiredSize?.height } == [16, 32, 32, 64, 128])
        #expect(plan.jobs.map(\.output) == finals.map { .file($0, creatingFolders: true) })
        #expect(plan.jobs.allSatisfy { $0.encoding.marksBadged && $0.encoding.format == .png })
        #expect(plan.identityInputs?.inputs == [folder + "/Contents.json"])
        #expect(staging.folders.isEmpty)
        #expect(said.notes.isEmpty)

        try CatalogTransaction.check(&plan, settings: Self.settings(), staging: staging, messages: said)
        #expect(staging.folders.count == 1)
        let staged = try #require(staging.folders.first)
        #expect(
            plan.jobs.map(\.output) == zip(Self.setImages, finals).map { .staged(staged, components: [$0], final: $1) })
        #expect(plan.files.map(\.components) == [["Contents.json"]])
        #expect(plan.commits.count == 1)
        guard case .folder(let name, let subfolders) = plan.commits.first?.commit else {
            Issue.record("the set is not committed as a folder: \(String(describing: plan.commits.first?.commit))")
            return
        }
        #expect(name == "AppIcon.appiconset")
        #expect(subfolders.isEmpty)
    }

    /// In place with one of the set's own images as the badge image: its render would
    /// overwrite an input. The check refuses it (65, blamed on the set's
    /// `Contents.json`) before any folder is staged.
    @Test func theCheckFindsAnImageThatOverwritesTheBadgeImage() throws {
        let folder = try Self.copy("xcode/NetNewsWire/AppIcon.appiconset", "catalog-set-conflict")
        let set = try AppIconSet(folder: folder)
        let badge = folder + "/Icon-MacOS-128x128@1x.png"
        let settings = Self.settings {
            $0.render.value = nil
            $0.render.image = badge
        }
        let staging = CatalogStaging()
        defer { staging.discard() }
        var plan = try #require(
            try CatalogTransaction.plan(
                .appIconSets([set], out: nil, sourceDateEpoch: nil), settings: settings, relativeSize: 0.3,
                staging: staging, messages: Said()))
        #expect(plan.jobs.count == 5)
        do throws(BadgeError) {
            try CatalogTransaction.check(&plan, settings: settings, staging: staging, messages: Said())
            Issue.record("the check passed")
        } catch {
            #expect(
                error
                    == .badInput(
                        path: folder + "/Contents.json",
                        reason: "Icon-MacOS-128x128@1x.png would overwrite an input, \(Quoted(badge))"))
            #expect(error.exitCode == .dataError)
        }
        #expect(staging.folders.isEmpty)
    }

    /// `--out` onto a set that is not a copy of this one (its `Contents.json`
    /// differs): refused (73) without `--replace`; with it, the check passes.
    @Test func theCheckRefusesAnotherSetAtOutWithoutReplace() throws {
        let folder = try Self.copy("xcode/NetNewsWire/AppIcon.appiconset", "catalog-set-other")
        let set = try AppIconSet(folder: folder)
        let out = Paths.scratch("catalog-set-other-out")
        try FileManager.default.copyItem(
            atPath: Paths.fixture("xcode/App/Assets.xcassets/AppIcon.appiconset"),
            toPath: out + "/AppIcon.appiconset")
        for replace in [false, true] {
            let settings = Self.settings { $0.replace = replace }
            let staging = CatalogStaging()
            defer { staging.discard() }
            var plan = try #require(
                try CatalogTransaction.plan(
                    .appIconSets([set], out: out, sourceDateEpoch: nil), settings: settings, relativeSize: 0.3,
                    staging: staging, messages: Said()))
            do throws(BadgeError) {
                try CatalogTransaction.check(&plan, settings: settings, staging: staging, messages: Said())
                #expect(replace, "the check passed without --replace")
            } catch {
                #expect(!replace, "\(error)")
                #expect(
                    error
                        == .cannotCreate(
                            path: out + "/AppIcon.appiconset",
                            reason:
                                "is a set that is not a copy of \(Quoted(folder)) (its Contents.json differs); --replace replaces it, or write elsewhere"
                        ))
            }
        }
    }

    /// A hidden badge (a value of 0) plans nothing, with one note; with
    /// `--fail-if-hidden` it is 64.
    @Test func aHiddenBadgePlansNothing() throws {
        let set = try AppIconSet(folder: Paths.fixture("xcode/NetNewsWire/AppIcon.appiconset"))
        let said = Said()
        let staging = CatalogStaging()
        let plan = try CatalogTransaction.plan(
            .appIconSets([set], out: Paths.scratch("catalog-hidden"), sourceDateEpoch: nil),
            settings: Self.settings(value: "0"), relativeSize: 0.3, staging: staging, messages: said)
        #expect(plan == nil)
        #expect(
            said.notes == [
                "the badge is hidden: the value is 0 (--show-zero draws it); nothing written (--fail-if-hidden makes this an error)"
            ])
        #expect(
            throws: BadgeError.usage(
                "--fail-if-hidden: the badge is hidden: the value is 0 (--show-zero draws it); nothing written")
        ) {
            _ = try CatalogTransaction.plan(
                .appIconSets([set], out: Paths.scratch("catalog-hidden"), sourceDateEpoch: nil),
                settings: Self.settings(value: "0") { $0.failIfHidden = true }, relativeSize: 0.3, staging: staging,
                messages: said)
        }
    }

    /// The sample app's `res/` and an overlay `res/` folder holding `files` (path
    /// below it → bytes).
    static func overlay(_ name: String, files: [String: [UInt8]]) throws -> (AndroidResources, String) {
        let res = try copy("android/sample-app/res", name)
        let out = Paths.scratch(name + "-overlay") + "/res"
        for (path, bytes) in files {
            let full = out + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: full))
        }
        var notes: [String] = []
        return (try AndroidResources(folder: res, names: [], notes: &notes), out)
    }

    /// An overlay holding the variant's own launcher icons (a hand-made debug icon,
    /// not in iconbadge's record): refused (73) without `--replace`, naming them; with
    /// it, a note, and the commit replaces them file by file.
    @Test func anOverlaysOwnIconsAreRefusedWithoutReplace() throws {
        let icon = try InputFile.bytes(
            at: Paths.fixture("android/sample-app/res/mipmap-hdpi/ic_launcher.png"), limit: 1 << 20, what: "icon")
        let (resources, out) = try Self.overlay(
            "catalog-overlay-own",
            files: ["mipmap-hdpi/ic_launcher.png": icon, "mipmap-hdpi/ic_launcher_round.webp": icon])
        for replace in [false, true] {
            let settings = Self.settings { $0.replace = replace }
            let staging = CatalogStaging()
            defer { staging.discard() }
            let said = Said()
            var plan = try #require(
                try CatalogTransaction.plan(
                    .androidOverlay(resources, out: out), settings: settings, relativeSize: 0.3, staging: staging,
                    messages: said))
            #expect(plan.jobs.count > 10)
            #expect(plan.jobs.contains { $0.label == "mipmap-hdpi/ic_launcher.png" })
            // The overlay exists: it is staged inside, its other files kept.
            guard case .overlay(let planned) = plan.detail else {
                Issue.record("not an overlay plan")
                return
            }
            #expect(planned.exists)
            do throws(BadgeError) {
                try CatalogTransaction.check(&plan, settings: settings, staging: staging, messages: said)
                #expect(replace, "the check passed without --replace")
            } catch {
                #expect(!replace, "\(error)")
                #expect(
                    error
                        == .cannotCreate(
                            path: out,
                            reason:
                                "holds its own \"mipmap-hdpi/ic_launcher.png\", \"mipmap-hdpi/ic_launcher_round.webp\", not written by iconbadge; --replace replaces them with RES's icons badged, or remove them"
                        ))
                continue
            }
            #expect(
                said.notes.last
                    == "--replace: replacing the overlay's own \"mipmap-hdpi/ic_launcher.png\", \"mipmap-hdpi/ic_launcher_round.webp\""
            )
            guard case .overlay(let checked) = plan.detail,
                case .files(let files, let removing) = plan.commits.first?.commit
            else {
                Issue.record("the overlay is not committed file by file")
                return
            }
            // The WebP beside the new PNG of the same resource goes (a duplicate
            // resource fails the build); the PNG is replaced.
            #expect(removing == [["mipmap-hdpi", "ic_launcher_round.webp"]])
            #expect(checked.removing == removing)
            #expect(files.contains(["mipmap-hdpi", "ic_launcher.png"]))
            #expect(files.last == OverlayRecord.components)
        }
    }

    /// Files of an earlier run listed in the record, unchanged, and named as iconbadge
    /// names this run's adaptive icons' layers but not written by it are stale: the
    /// commit removes them. A listed file that was changed since, or one named for
    /// another icon, stays.
    @Test func anEarlierRunsStaleFilesAreRemoved() throws {
        let stale = Array("an old monochrome badge layer".utf8)
        let changed = Array("changed by hand".utf8)
        let other = Array("another icon's layer".utf8)
        // In the order the record is written (by path).
        var record = OverlayRecord()
        record.files = [
            ("drawable-hdpi/iconbadge_ic_launcher_badge_mono.png", ContentHash.fnv1a64(stale)),
            ("drawable-hdpi/iconbadge_ic_other_badge.png", ContentHash.fnv1a64(other)),
            ("drawable-xhdpi/iconbadge_ic_launcher_badge_mono.png", ContentHash.fnv1a64(Array("before".utf8))),
        ]
        let (resources, out) = try Self.overlay(
            "catalog-overlay-stale",
            files: [
                "drawable-hdpi/iconbadge_ic_launcher_badge_mono.png": stale,
                "drawable-xhdpi/iconbadge_ic_launcher_badge_mono.png": changed,
                "drawable-hdpi/iconbadge_ic_other_badge.png": other,
                OverlayRecord.components.joined(separator: "/"): record.bytes,
            ])
        let staging = CatalogStaging()
        defer { staging.discard() }
        var plan = try #require(
            try CatalogTransaction.plan(
                .androidOverlay(resources, out: out), settings: Self.settings(), relativeSize: 0.3, staging: staging,
                messages: Said()))
        try CatalogTransaction.check(&plan, settings: Self.settings(), staging: staging, messages: Said())
        guard case .overlay(let checked) = plan.detail else {
            Issue.record("not an overlay plan")
            return
        }
        #expect(checked.record == record)
        #expect(checked.removing == [["drawable-hdpi", "iconbadge_ic_launcher_badge_mono.png"]])
        #expect(
            CatalogTransaction.stale(record, overlay: checked.overlay, out: out) == [
                ["drawable-hdpi", "iconbadge_ic_launcher_badge_mono.png"]
            ])
    }
}
