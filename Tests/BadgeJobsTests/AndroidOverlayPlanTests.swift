import BadgeCore
import BadgeRender
import BadgeSystem
import Foundation
import TestSupport
import Testing

@testable import BadgeJobs

/// `AndroidOverlay.plan` in process: it reads RES and writes nothing, its layers are
/// held in memory by its jobs, and the preview drawn from it is the preview of the
/// folders it makes.
@Suite struct AndroidOverlayPlanTests {
    /// The sample app's resources, both icons.
    static func sampleApp() throws -> AndroidResources {
        try app("sample-app", names: ["ic_launcher", "ic_launcher_round"])
    }

    /// The resources `names` of an app of `Fixtures/android`.
    static func app(_ app: String, names: [String]) throws -> AndroidResources {
        var notes: [String] = []
        return try AndroidResources(folder: Paths.fixture("android/\(app)/res"), names: names, notes: &notes)
    }

    /// Settings for a plan: a count, placed off the drawing when `avoiding`.
    static func settings(avoiding: Bool) -> RenderSettings {
        var settings = RenderSettings()
        settings.value = "3"
        settings.style.avoidsContent = avoiding
        return settings
    }

    /// Planning writes nothing, anywhere: the overlay folder is not made and the
    /// folder it would be made in stays empty; every adaptive layer's render reads
    /// its icon (and its backdrop) from memory, and names no input file for it.
    @Test(arguments: [false, true]) func planWritesNothingAndHoldsTheLayersInMemory(avoiding: Bool) throws {
        let scratch = Paths.scratch("android-plan")
        let out = scratch + "/debug-res"
        let overlay = try AndroidOverlay.plan(
            try Self.sampleApp(), settings: Self.settings(avoiding: avoiding), relativeSize: 0.25, out: out)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
        // 10 legacy images; per icon, 5 densities of the badge layer and of the monochrome one.
        #expect(overlay.jobs.count == 10 + 2 * 2 * 5)
        #expect(overlay.legacySizes.count == 10)
        #expect(overlay.legacySizes[["mipmap-xxxhdpi", "ic_launcher.png"]]! == (192, 192))
        let layers = overlay.jobs.filter { $0.label.hasPrefix("drawable-") }
        #expect(layers.count == 20)
        for job in layers {
            let icon = job.request.icon
            let drawn = try #require(icon.drawn[icon.path], "\(job.label)")
            #expect(drawn.width == job.requiredSize!.width && drawn.height == job.requiredSize!.height)
            #expect(!job.inputs.contains(icon.path))
            if job.label.contains("_badge") {
                // The badge's contrast is measured on the icon's layers, drawn in memory too.
                let backdrop = try #require(icon.backdrop)
                #expect(icon.drawn[backdrop] != nil, "\(job.label)")
            }
            guard case .file(let location, _)? = job.output else {
                Issue.record("\(job.label) is not planned into the overlay folder")
                continue
            }
            #expect(location.description == out + "/" + job.label)
        }
        // The background the copies keep, at each density, as the plan converted it.
        #expect(overlay.keptLayers.count == 2 * 5)
    }

    /// `staged(in:)` points every job into the staging folder, each moved to the
    /// place the plan gave it.
    @Test func stagingPointsEveryJobIntoTheStagingFolder() throws {
        let scratch = Paths.scratch("android-plan-staged")
        let out = scratch + "/debug-res"
        let planned = try AndroidOverlay.plan(
            try Self.sampleApp(), settings: Self.settings(avoiding: false), relativeSize: 0.25, out: out)
        let staged = try StagedFolder.beside(OutputLocation(commandLine: out))
        defer { staged.discard() }
        let overlay = planned.staged(in: staged)
        #expect(overlay.jobs.count == planned.jobs.count)
        for (job, plannedJob) in zip(overlay.jobs, planned.jobs) {
            guard case .staged(_, let components, let final)? = job.output,
                case .file(let location, _)? = plannedJob.output
            else {
                Issue.record("\(job.label) is not staged")
                continue
            }
            #expect(components.joined(separator: "/") == job.label)
            #expect(final == location)
        }
    }

    /// The preview drawn from the plan is the preview of the overlay folder it makes
    /// over RES, read from the disk: the same sheet, tile for tile and drawing for
    /// drawing (the backgrounds the preview takes from the plan's conversions
    /// included). An overlay folder that holds a colour of its own before the run
    /// (`own`: the background's, for a debug variant) keeps it, and the preview
    /// shows it, as the launcher will.
    @Test(arguments: [
        ("sample-app", false, false, 38), ("sample-app", true, false, 38), ("sample-app", false, true, 38),
        ("nextcloud-qa", true, false, 14),
    ])
    func thePreviewFromThePlanIsThePreviewOfTheFolders(app: String, avoiding: Bool, own: Bool, tiles: Int) throws {
        let resources = try Self.app(
            app, names: app == "sample-app" ? ["ic_launcher", "ic_launcher_round"] : ["ic_launcher"])
        let out = Paths.scratch("android-plan-preview") + "/debug-res"
        if own {
            try FileManager.default.createDirectory(atPath: out + "/values", withIntermediateDirectories: true)
            try """
            <resources><color name="ic_launcher_background">#FF8800</color></resources>
            """.write(toFile: out + "/values/colors.xml", atomically: true, encoding: .utf8)
        }
        let overlay = try AndroidOverlay.plan(
            resources, settings: Self.settings(avoiding: avoiding), relativeSize: 0.25, out: out)
        for outcome in JobRunner.run(overlay.jobs, workers: 2) {
            guard case .success = outcome.result else {
                Issue.record("a render failed: \(outcome)")
                return
            }
        }
        for file in overlay.files {
            let path = out + "/" + file.components.joined(separator: "/")
            try FileManager.default.createDirectory(
                atPath: OutputFile.parentFolder(of: path), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        }
        let fromPlan = try AndroidPreview.sheet(title: "t", overlay: overlay, over: resources, limits: ImageLimits())
        let fromFolders = try AndroidPreview.sheet(
            title: "t", folders: [out, resources.folder], names: resources.names, limits: ImageLimits())
        #expect(fromPlan.tiles.count == tiles)
        #expect(fromPlan == fromFolders)
        #expect(overlay.folderExisted == own)
    }

    /// A legacy icon's size is read from its header: a PNG whose pixel data is
    /// damaged past its header still has one (its render says what is wrong), while
    /// decoding it fails.
    @Test func aLegacySizeComesFromTheHeader() throws {
        let path = Paths.scratch("android-plan-header") + "/icon.png"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("icons/folder-48x48.png"))))
        let idat = try #require(
            (0..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual(Array("IDAT".utf8)) })
        for index in idat + 20..<idat + 60 { bytes[index] ^= 0x55 }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let size = try ImageFile.size(at: path, limits: ImageLimits())
        #expect(size == (48, 48))
        #expect(throws: BadgeError.self) { try ImageFile.pixels(at: path) }
    }
}
