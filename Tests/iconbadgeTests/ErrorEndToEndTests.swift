import BadgeCore
import Foundation
import TestSupport
import Testing

/// Bad input gets one line on stderr naming the value, the right exit code, and
/// no output file; an existing output is left as it was.
@Suite struct ErrorEndToEndTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")

    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let status: Int32
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(
            arguments: ["/no/such/icon.png", "--value", "3"], status: 66,
            message: "\"/no/such/icon.png\": no such image file"),
        Case(arguments: [Paths.fixture("icons"), "--value", "3"], status: 66, message: "is a directory"),
        Case(
            arguments: [Corpus.root + "/pngsuite/xcsn0g01.png", "--value", "3"], status: 65,
            message: "xcsn0g01.png\": corrupt PNG: IDAT: CRC error"),
        Case(
            arguments: [Corpus.root + "/pngsuite/xs1n0g01.png", "--value", "3"], status: 65, message: "bad signature"),
        Case(
            arguments: [icon, "--value", "3", "--background", "#12345"], status: 64,
            message: "--background: \"#12345\" is not a colour"),
        Case(
            arguments: [icon, "--value", "3", "--color", "rgb(1,2)"], status: 64,
            message: "--color: \"rgb(1,2)\" is not a colour"),
        Case(
            arguments: [icon, "--value", "3", "--backgrund", "red"], status: 64,
            message: "unknown option \"--backgrund\" (did you mean --background?)"),
        Case(arguments: [icon, "--value"], status: 64, message: "--value needs a value"),
        Case(
            arguments: ["rendr", icon, "--value", "3"], status: 64,
            message: "unknown command \"rendr\" (did you mean render?); to badge a file of that name, write ./rendr"),
        Case(arguments: ["comapre", icon, icon], status: 64, message: "(did you mean compare?)"),
        Case(
            arguments: [icon, "--value", "3", "--font-size", "nan"], status: 64,
            message: "--font-size: \"nan\" is not a number"),
        Case(
            arguments: [icon, "--value", "3", "--scale", "0"], status: 64,
            message: "--scale: \"0\" must be greater than 0"),
        Case(arguments: [icon, "--value", "3", "--max", "-1"], status: 64, message: "--max: \"-1\" is out of range"),
        Case(arguments: [icon, "--value", "3", "--value", "4"], status: 64, message: "--value is given twice"),
        Case(arguments: [icon], status: 64, message: "nothing to draw"),
        Case(arguments: ["--value", "3"], status: 64, message: "missing ICON"),
        Case(
            arguments: [icon, "--value", "3", "--jobs", "2"], status: 64,
            message:
                "\"--jobs\" is not an option of render; it goes with compare, batch, appiconset and android (see iconbadge help render)"
        ),
        Case(
            arguments: [icon, "--value", "3", "--bogus"], status: 64,
            message: "unknown option \"--bogus\" (see iconbadge help render)"),
        Case(
            arguments: [icon, "--value", "3", "--check", icon, "--tolerance", "3", "--threshold", "0.1"], status: 64,
            message: "--tolerance is for the exact mode"),
        Case(
            arguments: [icon, "--value", "12345", "--max", "0"], status: 65,
            message: "error: the badge (50 × 18 px) is larger than the 48 × 48 px icon"),
    ]

    /// Messages of other commands: the same rules.
    @Test func otherCommandsNameTheirOptions() throws {
        let appiconset = try runIconbadge(["appiconset", "Some.appiconset", "--value", "3", "--check", "g.png"])
        #expect(appiconset.status == 64)
        #expect(appiconset.stderr.contains("\"--check\" is not an option of appiconset; it goes with render and batch"))
        let diff = try runIconbadge(["compare", Self.icon, Self.icon, "--diff", "d.svg"])
        #expect(diff.status == 64 && diff.stderr.contains("the diff image is a PNG; name it .png"))
        let aa = try runIconbadge(["compare", Self.icon, Self.icon, "--include-aa"])
        #expect(aa.status == 64 && aa.stderr.contains("--include-aa goes with --threshold"))
        let scales = try runIconbadge([
            Self.icon, "--value", "12345", "--max", "0", "--scales", "1,2", "-o",
            Paths.scratch("scales") + "/x{@scale}.png",
        ])
        #expect(scales.status == 65)
        #expect(scales.stderrLines.first?.hasPrefix("iconbadge: error: @1x (") == true, "\(scales.stderr)")
    }

    @Test(arguments: cases)
    func failsCleanly(_ testCase: Case) throws {
        try Corpus.check(testCase.arguments)
        let folder = Paths.scratch("errors")
        let output = folder + "/out.png"
        let run = try runIconbadge(["-o", output] + testCase.arguments)
        #expect(run.status == testCase.status, "\(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("iconbadge: error: "))
        #expect(run.stderr.contains(testCase.message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "a temporary file was left")
    }

    @Test func failureLeavesAnExistingOutputUntouched() throws {
        let folder = Paths.scratch("untouched")
        let output = folder + "/out.png"
        let before = Data("previous content".utf8)
        try before.write(to: URL(fileURLWithPath: output))
        let run = try runIconbadge([try Corpus.path("pngsuite/xd9n2c08.png"), "--value", "3", "-o", output])
        #expect(run.status == 65)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.png"])
    }

    @Test func outputNamingTheInputIsRefused() throws {
        let folder = Paths.scratch("same")
        let input = folder + "/icon.png"
        try FileManager.default.copyItem(atPath: Self.icon, toPath: input)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        for output in [input, folder + "/./icon.png"] {
            let run = try runIconbadge([input, "--value", "3", "-o", output])
            #expect(run.status == 64)
            #expect(run.stderr.contains("is the icon itself: --in-place replaces it"), "\(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }

    @Test func missingOutputFolderIs73() throws {
        let run = try runIconbadge([Self.icon, "--value", "3", "-o", "/no/such/folder/out.png"])
        #expect(run.status == 73)
        #expect(run.stderr.contains("folder \"/no/such/folder\" does not exist"))
    }

    @Test func everyCorruptPngSuiteFileIs65() throws {
        // PngSuite's 14 corrupt files.
        let names = try regularFiles(in: try Corpus.path("pngsuite")).filter { $0.hasPrefix("x") }
        #expect(names.count == 14)
        for name in names {
            let run = try runIconbadge([
                try Corpus.path("pngsuite/\(name)"), "--value", "3", "-o", Paths.scratch("x") + "/o.png",
            ])
            #expect(run.status == 65, "\(name)")
            #expect(run.stderrLines.count == 1 && run.stderr.contains(name), "\(name): \(run.stderr)")
            #expect(!run.stderr.contains("out of memory"))
        }
    }
}
