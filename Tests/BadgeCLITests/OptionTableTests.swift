import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem
import Testing

@testable import BadgeCLI

/// Every option of the render command's table, from every source it has: a flag, its
/// `ICONBADGE_*` variable and its manifest key each land in the settings (and the
/// manifest's in the job, as the flag's does), and the record of options given says
/// so. A new option without a sample here, or one whose value goes nowhere, fails.
@Suite struct OptionTableTests {
    /// A value unlike the option's default, and the options it needs beside it (a
    /// timing needs `--animate`, `--update` needs `--check`).
    struct Sample: Sendable {
        var value: String
        var with: [(String, String)] = []
    }

    static let animated = [("animate", "bounce")]

    /// One sample per option of `RenderOptions.all`.
    static let samples: [String: Sample] = [
        "value": Sample(value: "7"),
        "text": Sample(value: "BETA"),
        "dot": Sample(value: "true"),
        "image": Sample(value: "badge.png"),
        "style": Sample(value: "material3"),
        "max": Sample(value: "5"),
        "max-suffix": Sample(value: "*"),
        "show-zero": Sample(value: "true"),
        "max-chars": Sample(value: "4"),
        "platform": Sample(value: "ios"),
        "anchor": Sample(value: "top-left"),
        "badge-anchor": Sample(value: "top-left"),
        "offset": Sample(value: "2,3"),
        "overflow": Sample(value: "clip"),
        "avoid-content": Sample(value: "true"),
        "shape": Sample(value: "ribbon"),
        "ribbon-distance": Sample(value: "30%", with: [("shape", "ribbon")]),
        "banner-ends": Sample(value: "straight", with: [("shape", "banner")]),
        "height": Sample(value: "20"),
        "min-height": Sample(value: "4"),
        "min-width": Sample(value: "30"),
        "padding": Sample(value: "5,3"),
        "radius": Sample(value: "3"),
        "font-size": Sample(value: "14"),
        "dot-size": Sample(value: "10"),
        "image-size": Sample(value: "20x20"),
        "scale": Sample(value: "2"),
        "scales": Sample(value: "1,2", with: [("output", "o{@scale}.png")]),
        "icon-mask": Sample(value: "circle"),
        "small-text": Sample(value: "hide"),
        "min-text-px": Sample(value: "9"),
        "min-dot-px": Sample(value: "6"),
        "ring": Sample(value: "auto"),
        "background": Sample(value: "blue"),
        "label-background": Sample(value: "green", with: [("shape", "shield"), ("value", "1.0|beta")]),
        "color": Sample(value: "black"),
        "border-color": Sample(value: "black"),
        "border-width": Sample(value: "2"),
        "icon-filter": Sample(value: "greyscale"),
        "font": Sample(value: "DejaVu Sans"),
        "font-file": Sample(value: "f.ttf"),
        "font-index": Sample(value: "1", with: [("font-file", "f.ttf")]),
        "font-weight": Sample(value: "regular"),
        "font-features": Sample(value: "liga"),
        "fallback-font": Sample(value: "g.ttf"),
        "no-system-fonts": Sample(value: "true"),
        "strict-glyphs": Sample(value: "true"),
        "force": Sample(value: "true"),
        "output": Sample(value: "other.png"),
        "format": Sample(value: "webp", with: [("output", "o")]),
        "in-place": Sample(value: "true"),
        "size": Sample(value: "60"),
        "report": Sample(value: "true"),
        "png-compression": Sample(value: "best"),
        "animate": Sample(value: "fade-in"),
        "duration": Sample(value: "0.5", with: animated),
        "fps": Sample(value: "30", with: animated),
        "easing": Sample(value: "linear", with: animated),
        "loop": Sample(value: "3", with: animated),
        "from": Sample(value: "2", with: [("animate", "pop")]),
        "max-side": Sample(value: "1000"),
        "max-pixels": Sample(value: "1000000"),
        "svg-time-limit": Sample(value: "2"),
        "check": Sample(value: "g.png"),
        "update": Sample(value: "all", with: [("check", "g.png")]),
        "artifacts": Sample(value: "arts", with: [("check", "g.png")]),
        "tolerance": Sample(value: "2", with: [("check", "g.png")]),
        "threshold": Sample(value: "0.2", with: [("check", "g.png")]),
        "include-aa": Sample(value: "true", with: [("check", "g.png")]),
        "max-diff-pixels": Sample(value: "10", with: [("check", "g.png")]),
        "max-diff-ratio": Sample(value: "0.1", with: [("check", "g.png")]),
        "diff-color-alt": Sample(value: "blue", with: [("check", "g.png")]),
        "ignore": Sample(value: "0,0,4,4", with: [("check", "g.png")]),
        "mask": Sample(value: "m.png", with: [("check", "g.png")]),
        "stored-color": Sample(value: "true", with: [("check", "g.png")]),
    ]

    static let contentNames = ["value", "text", "dot", "image"]

    /// The settings' values, without the record of options given.
    static func values(_ settings: RenderSettings) -> String {
        var settings = settings
        settings.given = GivenOptions()
        return String(describing: settings)
    }

    static func parse(_ pairs: [(String, String)], environment: [String: String] = [:]) throws -> RenderSettings {
        try ArgumentParser(options: RenderOptions.all).parse(
            pairs.map { "--\($0.0)=\($0.1)" }[...], defaults: RenderSettings(), environment: environment
        ).settings
    }

    /// The option's companions, with a value to draw unless they or it give the content.
    static func companions(_ name: String, _ sample: Sample) -> [(String, String)] {
        let givesContent = ([name] + sample.with.map(\.0)).contains { contentNames.contains($0) }
        return (givesContent ? [] : [("value", "3")]) + sample.with
    }

    @Test func everyOptionHasASample() {
        let names = RenderOptions.all.map(\.name)
        #expect(names.count == 75)
        #expect(names.filter { Self.samples[$0] == nil } == [], "add a sample for each new option")
        #expect(Self.samples.keys.filter { !names.contains($0) }.sorted() == [])
    }

    @Test(arguments: RenderOptions.all.map(\.name))
    func aFlagAndItsVariableLandInTheSettings(name: String) throws {
        let sample = try #require(Self.samples[name])
        let spec = try #require(RenderOptions.all.first { $0.name == name })
        let companions = Self.companions(name, sample)
        let without = try Self.parse(companions)
        let flag = try Self.parse(companions + [(name, sample.value)])
        #expect(Self.values(flag) != Self.values(without), "--\(name) changed nothing")
        #expect(flag.given.contains(name))
        #expect(!without.given.contains(name))
        if spec.fromEnvironment {
            let variable = try Self.parse(companions, environment: [spec.environmentName: sample.value])
            #expect(Self.values(variable) == Self.values(flag), "\(spec.environmentName) lands elsewhere")
            #expect(variable.given.contains(name))
        } else {
            let ignored = try Self.parse(companions, environment: [spec.environmentName: sample.value])
            #expect(Self.values(ignored) == Self.values(without), "\(spec.environmentName) is read")
        }
    }

    /// What a job holds of its settings: all but where it writes.
    static func fingerprint(_ job: RenderJob) -> String {
        [
            String(describing: job.request), String(describing: job.encoding), String(describing: job.animation),
            String(describing: job.report), String(describing: job.check?.compare), String(describing: job.inputs),
        ].joined(separator: "\n")
    }

    /// A job of a manifest; the batch's own flags among `pairs` (`check`) become the
    /// batch's check.
    static func planManifest(_ pairs: [(String, String)], asWritten: Bool = false, badges: [JSONValue]? = nil)
        throws(BadgeError) -> [RenderJob]
    {
        let batchChecks = !asWritten && pairs.contains { $0.0 == "check" }
        var keys = [("icon", "i.png")] + pairs.filter { !batchChecks || $0.0 != "check" }
        if !keys.contains(where: { $0.0 == "output" }) { keys.append(("output", "o.png")) }
        let entry = Manifest.Entry(
            index: 0,
            pairs: keys.map { (key: $0.0, value: JSONValue.string($0.1)) }
                + (badges.map { [(key: "badges", value: JSONValue.array($0))] } ?? []))
        let context = JobPlanner.BatchContext(
            base: RenderSettings(), scales: nil, outputRoot: OutputRoot("."),
            check: batchChecks
                ? JobPlanner.BatchCheck(goldens: "goldens", artifacts: nil, update: .none, compare: CompareSettings())
                : nil, creationDate: nil,
            manifestPath: "m.json")
        return try JobPlanner.manifest(Manifest(entries: [entry]), context: context)
    }

    static func planFlags(_ pairs: [(String, String)]) throws -> [RenderJob] {
        var pairs = pairs
        if !pairs.contains(where: { $0.0 == "output" }) { pairs.append(("output", "o.png")) }
        return try JobPlanner.render(try parse(pairs), icon: "i.png", environment: [:])
    }

    @Test(arguments: RenderOptions.all.map(\.name))
    func aManifestKeyLandsInTheJobAsItsFlagDoes(name: String) throws {
        let sample = try #require(Self.samples[name])
        let companions = Self.companions(name, sample)
        let pairs = companions + [(name, sample.value)]
        if Manifest.excludedKeys.contains(name) || JobPlanner.callerOnlyKeys.contains(name) {
            // Refused, naming the key, whatever its value.
            do throws(BadgeError) {
                _ = try Self.planManifest([(name, sample.value), ("value", "3")], asWritten: true)
                Issue.record("\"\(name)\" was accepted in a manifest")
            } catch {
                #expect(error.exitCode == .dataError)
                #expect(error.message.contains(name), "\(error.message)")
            }
            return
        }
        let jobs = try Self.planManifest(pairs)
        if name == "scales" {
            // The manifest's own key, read beside the table: one job a scale.
            #expect(jobs.map(\.request.output.scale) == [1, 2])
            return
        }
        if name == "output" {
            #expect(jobs.map(\.output) == [.file(try OutputRoot(".").location(of: "other.png"), creatingFolders: true)])
            return
        }
        #expect(jobs.count == 1)
        let flagJobs = try Self.planFlags(pairs)
        #expect(jobs.map(Self.fingerprint) == flagJobs.map(Self.fingerprint), "\"\(name)\" lands elsewhere")
        let without = try? Self.planManifest(companions)
        #expect(without.map { $0.map(Self.fingerprint) } != jobs.map(Self.fingerprint), "\"\(name)\" changed nothing")
        if RenderOptions.perBadge.contains(where: { $0.name == name }) {
            // One badge's key, in a "badges" entry, lands as the job's does.
            let badge = JSONValue.object(pairs.map { ($0.0, .string($0.1)) })
            let viaBadges = try Self.planManifest([], badges: [badge])
            #expect(viaBadges.map(Self.fingerprint) == jobs.map(Self.fingerprint), "badges[0].\(name) lands elsewhere")
        }
    }
}
