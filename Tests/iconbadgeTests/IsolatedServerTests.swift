import BadgeRender
import Foundation
import TestSupport
import Testing

/// The long-lived isolated renderer (Sources/CImageLoaders/isolated_server.c): a
/// batch worker runs its SVG jobs one after another in one process instead of a child
/// each. A job must end exactly as it does in a render of its own (which starts a new
/// renderer): the same bytes, the same error, whatever ran before it, and a crash, a
/// time limit or the memory cap fails only that job.
@Suite struct IsolatedServerTests {
    /// The outcome of one job: its exit status alone, its one error line without the
    /// prefix that says which job it was, and its output's bytes.
    struct Outcome: Equatable, CustomStringConvertible {
        var error: String?
        var bytes: [UInt8]?
        var description: String { error ?? "\(bytes?.count ?? 0) bytes" }
    }

    /// Good icons with librsvg's crashers between them, in one batch on one worker,
    /// against one render each: PNG for all, and SVG (drawn in the renderer too) for the
    /// good ones.
    @Test func jobsAfterCrashesEndAsRendersOfTheirOwn() throws {
        let good =
            try Corpus.files(in: "icons/papirus-svg").map { try Corpus.path("icons/papirus-svg/" + $0) }
            + Corpus.files(in: "icons/adwaita-svg").map { try Corpus.path("icons/adwaita-svg/" + $0) }
        #expect(good.count == 23)
        // librsvg 2.54.7 aborts on these four (a Rust panic; HostileInputTests), three
        // times over, and rejects the rest of its crash folder with an error.
        let aborts = try [
            "render-crash/bug1118-fuzz-large-transform-and-recursive-use.svg",
            "render-crash/bug928-empty-feTile-bounds.svg",
            "render-crash/bug932-too-big-font-size.svg", "crash/bug1064-private-lang-tag-in-lang-selector.svg",
        ].map { try Corpus.path("librsvg/" + $0) }
        let rejected = try Corpus.files(in: "librsvg/crash").map { try Corpus.path("librsvg/crash/" + $0) }
        #expect(rejected.count == 25)
        let hostile = aborts + aborts + aborts + rejected
        var icons: [(path: String, format: String)] = []
        for (index, icon) in good.enumerated() {
            icons.append((icon, index % 2 == 0 ? "png" : "svg"))
            icons.append((hostile[index], "png"))
        }
        icons += hostile.dropFirst(good.count).map { ($0, "png") }
        #expect(icons.count == 60)
        let folder = Paths.scratch("isolated-server")
        var jobs: [String] = []
        var alone: [Outcome] = []
        for (index, icon) in icons.enumerated() {
            let single = "\(folder)/single-\(index).\(icon.format)"
            let run = try runIconbadge([icon.path, "--value", "\(index + 1)", "--overflow", "clip", "-o", single])
            alone.append(
                Outcome(
                    error: run.status == 0 ? nil : run.stderr.replacingOccurrences(of: "iconbadge: error: ", with: ""),
                    bytes: run.status == 0 ? try bytes(single) : nil))
            jobs.append(
                #"{"icon": "\#(icon.path)", "value": "\#(index + 1)", "output": "\#(folder)/batch-\#(index).\#(icon.format)"}"#
            )
        }
        #expect(alone.filter { $0.error?.contains("crashed on it (signal") == true }.count == 13)
        #expect(alone.filter { $0.bytes != nil }.count >= 23, "every good icon renders alone")
        let manifest = "\(folder)/batch.json"
        try Data(#"{"defaults": {"overflow": "clip"}, "jobs": [\#(jobs.joined(separator: ",\n"))]}"#.utf8).write(
            to: URL(fileURLWithPath: manifest))
        let batch = try runIconbadge(["batch", manifest, "--jobs", "1"])
        var errors: [Int: String] = [:]
        for line in batch.stderrLines {
            // "iconbadge: error: jobs[N] (OUTPUT): MESSAGE"
            guard let open = line.range(of: "jobs["),
                let close = line.range(of: "]", range: open.upperBound..<line.endIndex),
                let index = Int(line[open.upperBound..<close.lowerBound]),
                let message = line.range(of: "): ", range: close.upperBound..<line.endIndex)
            else { continue }
            errors[index] = String(line[message.upperBound...])
        }
        for index in icons.indices {
            let output = "\(folder)/batch-\(index).\(icons[index].format)"
            let inBatch = Outcome(
                error: errors[index].map { $0 + "\n" },
                bytes: FileManager.default.fileExists(atPath: output) ? try bytes(output) : nil)
            #expect(
                inBatch == alone[index],
                "job \(index) (\(icons[index].path)): \(inBatch) in the batch, \(alone[index]) alone")
        }
    }

    /// The memory cap and the time limit hold for each job, and the jobs after one that
    /// met them run in a new renderer.
    @Test(
        .enabled(
            if: IsolatedLoader.memoryCapEnforced,
            "a sanitizer build: the isolated loader runs without its memory cap (RLIMIT_DATA), which ASan/TSan shadow memory would pass"
        )) func limitsHoldJobByJob() throws
    {
        let folder = Paths.scratch("isolated-server-limits")
        let good = try Corpus.path("icons/papirus-svg/firefox.svg")
        // As SVG, its recording by iconbadge-loader stops at its limit (62 MB of nested
        // patterns; minutes and gigabytes without a limit). No time limit.
        let laughs = try Corpus.path("librsvg/errors/bug515-pattern-billion-laughs.svg")
        let capped = try batch(folder, "capped", [good, good, laughs, good], time: "0")
        #expect(capped.status == 65)
        #expect(
            capped.failed == [2: "SVG too complex: drawing it as vectors takes more than 22 MiB of drawing commands"],
            "\(capped.stderr)")
        // Busy for 5 s here before librsvg gives up on its own: always over half a second.
        let slow = try Corpus.path("librsvg/errors/bug323-nested-use.svg")
        let timed = try batch(folder, "timed", [good, slow, good], time: "0.5")
        #expect(timed.status == 65)
        #expect(timed.failed == [1: "SVG too complex: it took more than 0.5 s"], "\(timed.stderr)")
        let first = try bytes("\(folder)/capped-0.png")
        for name in ["capped-1", "capped-3", "timed-0", "timed-2"] {
            #expect(try bytes("\(folder)/\(name).png") == first, "\(name)")
        }
    }

    /// Runs `icons` as one batch on one worker into FOLDER/NAME-INDEX.png (.svg for the
    /// billion laughs); `failed` maps each failed job to the start of its message that
    /// the test names.
    private func batch(_ folder: String, _ name: String, _ icons: [String], time: String) throws
        -> (status: Int32, failed: [Int: String], stderr: String)
    {
        let jobs = icons.enumerated().map { index, icon in
            #"{"icon": "\#(icon)", "output": "\#(folder)/\#(name)-\#(index).\#(icon.contains("laughs") ? "svg" : "png")"}"#
        }
        let manifest = "\(folder)/\(name).json"
        try Data(#"{"defaults": {"value": "7"}, "jobs": [\#(jobs.joined(separator: ","))]}"#.utf8).write(
            to: URL(fileURLWithPath: manifest))
        let run = try runIconbadge(["batch", manifest, "--jobs", "1", "--svg-time-limit", time])
        var failed: [Int: String] = [:]
        let known = [
            "SVG too complex: drawing it as vectors takes more than 22 MiB of drawing commands",
            "SVG too complex: it took more than 0.5 s",
        ]
        for line in run.stderrLines where line.contains("jobs[") {
            let index = icons.indices.first { line.contains("jobs[\($0)]") } ?? -1
            failed[index] = known.first { line.contains($0) } ?? line
        }
        return (run.status, failed, run.stderr)
    }

    private func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
}
