import BadgeCore
import BadgeJobs
import BadgeSystem
import Foundation
import TestSupport
import Testing

@testable import BadgeCLI

/// The fuzz targets' entry points (`BadgeCLI.parseOnly`, `BadgeCLI.planOnly`) on the seeds
/// of fuzz/seeds and on the inputs kept in Fixtures/fuzz-regressions.
@Suite struct CLIFuzzRegressionTests {
    /// The files of `folder` (which must exist: a missing folder is an error, not a loop
    /// over nothing).
    static func files(_ folder: String) throws -> [String] {
        try regularFiles(in: folder).map { folder + "/" + $0 }
    }

    /// FuzzArguments' split: NUL or newline between arguments; ICONBADGE_* and
    /// SOURCE_DATE_EPOCH assignments go to the environment.
    static func split(_ data: Data) -> ([String], [String: String]) {
        var arguments: [String] = []
        var environment: [String: String] = [:]
        for part in data.split(omittingEmptySubsequences: false, whereSeparator: { $0 == 0 || $0 == 0x0A }) {
            let text = String(decoding: part, as: UTF8.self)
            if text.hasPrefix("ICONBADGE_") || text.hasPrefix("SOURCE_DATE_EPOCH="),
                let equals = text.firstIndex(of: "=")
            {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            } else {
                arguments.append(text)
            }
        }
        return (arguments, environment)
    }

    @Test func argumentSeedsAreValidCommandLines() throws {
        let seeds = try Self.files(Paths.root + "/fuzz/seeds/arguments")
        #expect(seeds.count == 14)
        for path in seeds {
            let (arguments, environment) = Self.split(try Data(contentsOf: URL(fileURLWithPath: path)))
            let code = BadgeCLI.parseOnly(arguments, environment: environment)
            if path.hasSuffix("/check.txt") {
                #expect(code == .noInput, "\(path): the golden does not exist")
            } else {
                #expect(code == .success, "\(path): \(code)")
            }
        }
    }

    @Test func parseOnlyReportsWhatRenderWould() {
        #expect(BadgeCLI.parseOnly(["icon.png", "--value", "3"]) == .usage)  // no -o
        #expect(BadgeCLI.parseOnly(["icon.png", "--value", "3", "--dot", "-o", "x.png"]) == .usage)
        #expect(BadgeCLI.parseOnly(["icon.png", "--background", "#12345", "--value", "3", "-o", "x.png"]) == .usage)
        #expect(BadgeCLI.parseOnly(["icon.png", "--value", "3", "-o", "icon.png"]) == .usage)
        #expect(
            BadgeCLI.parseOnly(["icon.png", "--value", "3", "-o", "x.png"], environment: ["ICONBADGE_SCALE": "x"])
                == .usage)
        #expect(BadgeCLI.parseOnly(["icon.png", "--value", "3", "-o", "/no/such/folder/x.png"]) == .cannotCreate)
        #expect(BadgeCLI.parseOnly(["--help"]) == .success)
    }

    /// FuzzResults' seeds (issue 44's results files): each gives its exit code and one
    /// printable line per message, the long one cut at 200 characters.
    @Test func resultsSeedsGiveTheirCodes() throws {
        let seeds = try Self.files(Paths.root + "/fuzz/seeds/results")
        #expect(seeds.count == 10)
        let expected: [String: ExitCode] = [
            "changed.json": .different, "error-code-0.json": .dataError, "error-code-999.json": .dataError,
            "long-message.json": .different, "many-values.json": .dataError, "region-far.json": .dataError,
            "region-wide.json": .dataError, "same-index.json": .dataError, "shard-missing.json": .noInput,
            "total-0.json": .noInput,
        ]
        for path in seeds {
            let name = String(path.split(separator: "/").last!)
            let (code, lines) = BadgeCLI.mergeOnly(results: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(code == expected[name], "\(name): \(code) \(lines)")
            for line in lines {
                #expect(!line.unicodeScalars.contains { TextEscaping.isControl($0) }, "\(name): \(line)")
                #expect(line.count < 400, "\(name): \(line.count) characters")
            }
        }
    }

    @Test func manifestSeedsPlan() throws {
        let seeds = try Self.files(Paths.root + "/fuzz/seeds/manifests")
        #expect(seeds.count == 8)
        for path in seeds {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            // bad-key has an unknown key; escapes and spellings are refused by confinement
            // and by the identity check.
            let refused = ["/bad-key.json", "/escapes.json", "/spellings.jsonl"]
            let expected: ExitCode = refused.contains { path.hasSuffix($0) } ? .dataError : .success
            #expect(BadgeCLI.planOnly(manifest: bytes) == expected, "\(path)")
        }
        #expect(BadgeCLI.planOnly(manifest: Array("{\"jobs\": []}".utf8)) == .dataError)
    }

    /// timeout-long-unknown-key.json: a job with an unknown key of 60,000 characters. The
    /// "did you mean" search over the option names once cost a 60,000-row table per name.
    @Test func keptManifestInputsAreRefusedOrPlanned() throws {
        let kept = try Self.files(Paths.fixture("fuzz-regressions/FuzzManifest"))
        #expect(kept.count == 2)
        for path in kept {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let code = BadgeCLI.planOnly(manifest: bytes)
            #expect([.success, .usage, .dataError].contains(code), "\(path): \(code)")
            if path.hasSuffix("/timeout-long-unknown-key.json") { #expect(code == .dataError) }
            // template-token-del.json: "{name\u{7f}{@scale}" in an output; the unknown
            // token was printed raw, DEL and all.
            let manifest = try Manifest.parse(bytes, path: "m.json")
            let context = JobPlanner.BatchContext(
                base: RenderSettings(), scales: nil, outputRoot: OutputRoot("fuzz-root"), check: nil,
                creationDate: nil, manifestPath: "m.json")
            do throws(BadgeError) {
                _ = try JobPlanner.manifest(manifest, context: context)
            } catch {
                #expect(!error.message.unicodeScalars.contains { TextEscaping.isControl($0) }, "\(error.message)")
            }
        }
    }
}
