import BadgeCore
import BadgeRender
import BadgeSystem
import Foundation
import TestSupport
import Testing

@testable import BadgeJobs

/// The planner in process: command lines, `--scales` and manifest entries become
/// jobs, and what hostile data names stays inside its root.
@Suite struct JobPlannerTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")

    func settings(_ configure: (inout RenderSettings) -> Void = { _ in }) -> RenderSettings {
        var settings = RenderSettings()
        settings.value = "3"
        configure(&settings)
        return settings
    }

    func manifest(_ text: String) throws -> Manifest {
        try Manifest.parse(Array(text.utf8), path: "m.json")
    }

    func context(root: String = ".", scales: [Double]? = nil) -> JobPlanner.BatchContext {
        JobPlanner.BatchContext(
            base: RenderSettings(), scales: scales, outputRoot: OutputRoot(root), check: nil, creationDate: nil,
            manifestPath: "m.json")
    }

    func plan(_ text: String, root: String = ".") throws(BadgeError) -> [RenderJob] {
        let parsed: Manifest
        do { parsed = try manifest(text) } catch { throw .internalError("\(error)") }
        return try JobPlanner.manifest(parsed, context: context(root: root))
    }

    func expectRefused(_ text: String, _ reason: String, root: String = ".") {
        do throws(BadgeError) {
            _ = try plan(text, root: root)
            Issue.record("planned: \(text)")
        } catch {
            #expect(error.exitCode == .dataError, "\(error)")
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func oneRenderIsOneJob() throws {
        let jobs = try JobPlanner.render(
            settings { $0.output = "out.png" }, icon: Self.icon, environment: [:])
        #expect(jobs.count == 1)
        #expect(jobs[0].label == "")
        #expect(jobs[0].output == .file(OutputLocation(commandLine: "out.png"), creatingFolders: false))
        #expect(jobs[0].inputs == [Self.icon])
        #expect(jobs[0].encoding.format == .png)
    }

    @Test func devStdoutIsStandardOutput() throws {
        let jobs = try JobPlanner.render(settings { $0.output = "/dev/stdout" }, icon: Self.icon, environment: [:])
        #expect(jobs[0].output == .standardOutput)
    }

    @Test func inPlaceKeepsTheIconsOwnFormatOrRefuses() throws {
        #expect(throws: BadgeError.self) {
            _ = try JobPlanner.render(settings { $0.inPlace = true }, icon: "t.jpg", environment: [:])
        }
        #expect(throws: BadgeError.self) {
            _ = try JobPlanner.render(
                settings {
                    $0.inPlace = true
                    $0.format = .png
                }, icon: "t.jpg", environment: [:])
        }
        #expect(throws: BadgeError.self) {
            _ = try JobPlanner.render(
                settings {
                    $0.inPlace = true
                    $0.format = .svg
                }, icon: "t.png", environment: [:])
        }
        let jobs = try JobPlanner.render(settings { $0.inPlace = true }, icon: "t.svg", environment: [:])
        #expect(jobs[0].encoding.format == .svg)
        #expect(jobs[0].inputs.isEmpty)
    }

    @Test func scalesGiveOneJobEachWithSizeAndRasterScaled() throws {
        let jobs = try JobPlanner.render(
            settings {
                $0.output = "out/{name}{@scale}.png"
                $0.scales = [1, 2, 3]
            }, icon: Self.icon, environment: [:])
        #expect(jobs.map(\.label) == ["@1x", "@2x", "@3x"])
        #expect(
            jobs.map { $0.output?.description } == [
                "out/folder-48x48.png", "out/folder-48x48@2x.png", "out/folder-48x48@3x.png",
            ])
        #expect(jobs.map(\.request.icon.rasterScale) == [1, 2, 3])
        #expect(jobs[2].notes == [.upscaledRaster(icon: Self.icon, factor: 3)])
        let sized = try JobPlanner.render(
            settings {
                $0.output = "out/{name}{@scale}.png"
                $0.scales = [1, 1.5, 2]
                $0.iconSize = Size(width: 48, height: 48)
            }, icon: Self.icon, environment: [:])
        #expect(sized.map { $0.request.icon.size?.width } == [48, 72, 96])
    }

    @Test func aCheckWithScalesNeedsOneGoldenPerScale() throws {
        #expect(throws: BadgeError.self) {
            _ = try JobPlanner.render(
                settings {
                    $0.output = "out/x{@scale}.png"
                    $0.scales = [1, 2]
                    $0.check = "g/f.png"
                }, icon: Self.icon, environment: [:])
        }
        let jobs = try JobPlanner.render(
            settings {
                $0.output = "out/x{@scale}.png"
                $0.scales = [1, 2]
                $0.check = "g/x{@scale}.png"
            }, icon: Self.icon, environment: [:])
        #expect(jobs.map { $0.check?.golden.description } == ["g/x.png", "g/x@2x.png"])
    }

    /// `}}` is one brace: a folder `x}}` before the first token is written as `x}`, and
    /// the file lands in `x}` (it landed in a folder named `x}}`, its text cut short).
    @Test func bracesInTheFixedFolderExpandLikeTheRest() throws {
        let jobs = try JobPlanner.render(
            settings {
                $0.output = "x}}/a{{b}}/{name}.png"
                $0.scales = [1]
            }, icon: Self.icon, environment: [:])
        guard case .file(let location, _) = jobs[0].output else {
            Issue.record("no file output")
            return
        }
        #expect(location.description == "x}/a{b}/folder-48x48.png")
        #expect(
            (location.root.map { LexicalPath($0).appending(location.relative) } ?? location.relative).description
                == "x}/a{b}/folder-48x48.png")
    }

    @Test func templateExpansionsStayBelowTheirFolder() throws {
        let jobs = try JobPlanner.render(
            settings {
                $0.output = "nz/../{name}.png"
                $0.scales = [1]
            }, icon: Self.icon, environment: [:])
        // The folder written literally is the caller's; the identity check then finds
        // that "nz/../folder-48x48.png" is not the icon (another folder), and the
        // same spelling next to the icon is.
        #expect(jobs[0].output?.description == "nz/../folder-48x48.png")
        let beside = try JobPlanner.render(
            settings {
                $0.output = Paths.fixture("icons/nz/../{name}.png")
                $0.scales = [1]
            }, icon: Self.icon, environment: [:])
        #expect(throws: JobPlanChecks.Conflict.self) { try JobPlanChecks.checkIdentities(beside) }
        #expect(throws: BadgeError.self) {
            _ = try JobPlanner.render(
                settings {
                    $0.output = "out/{value}/{name}.png"
                    $0.value = ".."
                    $0.scales = [1]
                }, icon: Self.icon, environment: [:])
        }
    }

    @Test func manifestOutputsStayInsideTheOutputRoot() {
        let icon = Self.icon
        expectRefused(
            #"{"jobs":[{"icon":"\#(icon)","value":"3","output":"/tmp/x.png"}]}"#, "is outside the working folder")
        expectRefused(#"{"jobs":[{"icon":"\#(icon)","value":"3","output":"../x.png"}]}"#, "leaves the working folder")
        expectRefused(#"{"jobs":[{"icon":"\#(icon)","value":"3","output":"a/../../x.png"}]}"#, "leaves")
        let cwd = FileManager.default.currentDirectoryPath
        expectRefused(
            #"{"jobs":[{"icon":"\#(icon)","value":"3","output":"\#(cwd)/out/x.png"}]}"#, "is outside \"out/sub\"",
            root: "out/sub")
    }

    @Test func manifestsCannotSetLimits() {
        for key in ["max-side", "max-pixels", "svg-time-limit"] {
            expectRefused(
                #"{"jobs":[{"icon":"i.png","value":"3","\#(key)":100,"output":"x.png"}]}"#,
                "jobs[0].\(key): a manifest cannot set a limit")
        }
    }

    @Test func repeatedScalesAreRefusedInBothForms() {
        expectRefused(#"{"jobs":[{"icon":"i.png","value":"3","scales":[1,2,1],"output":"x{@scale}.png"}]}"#, "twice")
        expectRefused(#"{"jobs":[{"icon":"i.png","value":"3","scales":"1,2,2","output":"x{@scale}.png"}]}"#, "twice")
    }

    @Test func theRenderCountIsBoundedBeforeExpansion() throws {
        let entries = (0..<(JobPlanner.maxRenders / 10 + 1)).map {
            Manifest.Entry(
                index: $0,
                pairs: [
                    ("icon", .string("i.png")), ("value", .string("3")), ("output", .string("o\($0){@scale}.png")),
                    ("scales", .array((1...10).map { .number(Double($0)) })),
                ])
        }
        #expect(entries.count * 10 > JobPlanner.maxRenders)
        do throws(BadgeError) {
            _ = try JobPlanner.manifest(Manifest(entries: entries), context: context())
            Issue.record("planned more than the limit")
        } catch {
            #expect(error.message.contains("plans more than 100000 renders"), "\(error.message)")
        }
    }

    @Test func twoSpellingsOfOneFileConflict() throws {
        let folder = Paths.scratch("spellings")
        let jobs = try plan(
            #"{"jobs":[{"icon":"\#(Self.icon)","value":"3","output":"\#(folder)/fresh/a.png"},{"icon":"\#(Self.icon)","value":"4","output":"\#(folder)/fresh/x/../a.png"}]}"#
        )
        #expect(jobs.count == 2)
        #expect(throws: JobPlanChecks.Conflict.self) { try JobPlanChecks.checkIdentities(jobs) }
    }

    @Test func anOutputThatIsAnInputConflicts() throws {
        let folder = Paths.scratch("input")
        let icon = folder + "/icon.png"
        try FileManager.default.copyItem(atPath: Self.icon, toPath: icon)
        let jobs = try plan(#"{"jobs":[{"icon":"\#(icon)","value":"3","output":"\#(folder)/nx/../icon.png"}]}"#)
        #expect(throws: JobPlanChecks.Conflict.self) { try JobPlanChecks.checkIdentities(jobs) }
        #expect(throws: JobPlanChecks.Conflict.self) {
            try JobPlanChecks.checkIdentities(
                try plan(#"{"jobs":[{"icon":"\#(icon)","value":"3","output":"\#(folder)/m.png"}]}"#),
                extraInputs: [folder + "/x/../m.png"])
        }
    }

    /// 5,000 jobs, each with its own icon name: the plan's checks were a scan of every
    /// input per write (10⁸ path comparisons here, 10¹⁰ at the 100,000-render limit).
    /// A large plan's checks look up sets; a conflict at its far end is still found.
    @Test func theIdentityChecksOfALargePlanUseSets() throws {
        #expect(Membership(Array(0..<17)).set != nil)
        #expect(Membership(Array(0..<16)).set == nil)
        #expect(Membership(Array(0..<17)).contains(16) && !Membership(Array(0..<17)).contains(17))
        let entries = (0..<5_000).map {
            Manifest.Entry(
                index: $0,
                pairs: [
                    ("icon", .string("in/\($0).png")), ("value", .string("3")), ("output", .string("out/\($0).png")),
                ])
        }
        let jobs = try JobPlanner.manifest(Manifest(entries: entries), context: context())
        #expect(jobs.count == 5_000)
        try JobPlanChecks.checkIdentities(jobs)
        let last = Manifest.Entry(
            index: 5_000,
            pairs: [("icon", .string("out/0.png")), ("value", .string("3")), ("output", .string("z.png"))])
        let conflicting = try JobPlanner.manifest(Manifest(entries: entries + [last]), context: context())
        #expect(throws: JobPlanChecks.Conflict.self) { try JobPlanChecks.checkIdentities(conflicting) }
    }

    @Test func aBatchCheckComparesWithDirAndItsArtifactsKeepTheFolders() throws {
        var context = self.context()
        context.check = JobPlanner.BatchCheck(
            goldens: "goldens", artifacts: "ci/artifacts", update: .none, compare: CompareSettings())
        let jobs = try JobPlanner.manifest(
            try manifest(#"{"jobs":[{"icon":"i.png","value":"3","output":"out/a/x.png"}]}"#), context: context)
        #expect(jobs[0].output == nil)
        #expect(jobs[0].check?.golden.description == "goldens/out/a/x.png")
        #expect(jobs[0].check?.actual.description == "ci/artifacts/out/a/x.png.actual.png")
        #expect(jobs[0].check?.diff.description == "ci/artifacts/out/a/x.png.diff.png")
        // Without --artifacts they go to iconbadge-artifacts/, never beside the goldens.
        context.check?.artifacts = nil
        let defaulted = try JobPlanner.manifest(
            try manifest(#"{"jobs":[{"icon":"i.png","value":"3","output":"out/a/x.png"}]}"#), context: context)
        #expect(defaulted[0].check?.actual.description == "iconbadge-artifacts/out/a/x.png.actual.png")
        #expect(defaulted[0].check?.diff.description == "iconbadge-artifacts/out/a/x.png.diff.png")
    }

    /// `"densities"` renders a job at each Android density, with that density's
    /// scale and `{density}` in its templates; the icon is each density's own file.
    @Test func densitiesGiveOneJobPerDensity() throws {
        let jobs = try plan(
            #"{"jobs":[{"icon":"res/mipmap-{density}/ic.png","output":"o/mipmap-{density}/ic.png","value":"3","densities":["mdpi","hdpi","xxxhdpi"]}]}"#
        )
        #expect(jobs.map(\.label) == ["jobs[0]@mdpi", "jobs[0]@hdpi", "jobs[0]@xxxhdpi"])
        #expect(jobs.map(\.request.output.scale) == [1, 1.5, 4])
        #expect(
            jobs.map(\.request.icon.path) == [
                "res/mipmap-mdpi/ic.png", "res/mipmap-hdpi/ic.png", "res/mipmap-xxxhdpi/ic.png",
            ])
        #expect(jobs.map(\.request.icon.rasterScale) == [1, 1, 1])  // each density's own file
        #expect(
            jobs.map { $0.output?.description } == [
                "o/mipmap-mdpi/ic.png", "o/mipmap-hdpi/ic.png", "o/mipmap-xxxhdpi/ic.png",
            ])
        expectRefused(
            #"{"jobs":[{"icon":"a.png","output":"o/{density}.png","value":"3"}]}"#,
            "needs the job to list its densities")
        expectRefused(
            #"{"jobs":[{"icon":"a.png","output":"o/x.png","value":"3","densities":["mdpi","hdpi"]}]}"#,
            "needs {density}")
        expectRefused(
            #"{"jobs":[{"icon":"a.png","output":"o/{density}.png","value":"3","densities":["tvdpi"]}]}"#,
            "\"tvdpi\" is not a density")
        expectRefused(
            #"{"jobs":[{"icon":"a.png","output":"o/{density}.png","value":"3","densities":["mdpi"],"scale":2}]}"#,
            "sets the scales itself")
    }
}
