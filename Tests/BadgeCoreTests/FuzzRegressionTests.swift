import Foundation
import TestSupport
import Testing

@testable import BadgeCore

/// Inputs kept from fuzzing (Fixtures/fuzz-regressions/FuzzColor), fed to what the fuzz
/// target FuzzColor runs, with the invariant it checks.
@Suite struct ColorFuzzRegressionTests {
    static let folder = Paths.fixture("fuzz-regressions/FuzzColor")

    @Test func everyKeptInputParsesBackOrFailsWithAReason() throws {
        let inputs = try regularFiles(in: Self.folder)
        #expect(inputs.count == 1)
        for name in inputs {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name))
            let text = String(decoding: data, as: UTF8.self)
            do throws(ColorSyntaxError) {
                let color = try Color(parsing: text)
                #expect(try Color(parsing: color.description) == color, "\(name)")
            } catch {
                #expect(error.problem.hasPrefix("is not a colour"), "\(name)")
            }
        }
    }

    /// timeout-long-unknown-name.txt: 60,000 characters that are no colour. At f66a24d the
    /// "did you mean" search built a 60,000 × ~10 table for each of the 148 CSS names, over
    /// libFuzzer's 5 s limit (a manifest value of megabytes took minutes and gigabytes);
    /// names are now only looked for when the word is short.
    @Test func longUnknownNameFailsWithoutASuggestion() throws {
        let text = try String(contentsOfFile: Self.folder + "/timeout-long-unknown-name.txt", encoding: .utf8)
        #expect(text.count == 60000)
        #expect(throws: ColorSyntaxError(reason: nil)) { try Color(parsing: text) }
        let huge = String(repeating: "aliceblue", count: 200_000)
        #expect(Suggestion.closest(to: huge, among: ["aliceblue", "antiquewhite"]) == nil)
    }
}

/// Inputs kept from fuzzing (Fixtures/fuzz-regressions/FuzzVectorDrawable), fed to the
/// drawable converter as FuzzVectorDrawable feeds them: a document or a problem.
@Suite struct VectorDrawableFuzzRegressionTests {
    static let folder = Paths.fixture("fuzz-regressions/FuzzVectorDrawable")

    /// crash-overlapping-comment-end.xml: a comment written `<!--->`. XMLScanner looked
    /// for its end from its `<`, found `-->` overlapping `<!--`, and trapped on a range
    /// that ended before it began (any resource XML from a pull request could crash
    /// iconbadge so); the end is now looked for after the opening.
    @Test func everyKeptInputConvertsOrFailsWithAReason() throws {
        let inputs = try regularFiles(in: Self.folder)
        #expect(inputs.count == 1)
        for name in inputs {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name)))
            do throws(AndroidDrawableProblem) {
                let document = try AndroidDrawableSVG.file(
                    bytes, path: name, width: 108, height: 108, density: 2, lookup: .empty, limits: ImageLimits())
                #expect((try? XMLScanner.parse(document)) != nil, "\(name)")
            } catch {
                #expect(!error.reason.isEmpty, "\(name)")
            }
        }
        #expect(throws: XMLSyntaxError.self) { try XMLScanner.parse(Array("<!---><a/>".utf8)) }
    }
}

/// Which fuzz targets have kept inputs: a folder of Fixtures/fuzz-regressions is replayed
/// by its target's FuzzRegressionTests (FuzzColor and FuzzVectorDrawable here, FuzzManifest in BadgeCLITests,
/// FuzzPNG and FuzzSVG in BadgeRenderTests). FuzzArguments and FuzzCompare have kept
/// nothing yet: a folder for one of them needs a test that replays it, and this fails
/// until it is added to the list.
@Suite struct FuzzRegressionFolderTests {
    @Test func everyRegressionFolderIsReplayed() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Paths.fixture("fuzz-regressions")).sorted()
        // FuzzFont's are replayed by Tests/BadgeRenderTests/FontProbeTests.swift.
        #expect(folders == ["FuzzColor", "FuzzFont", "FuzzManifest", "FuzzPNG", "FuzzSVG", "FuzzVectorDrawable"])
    }
}
