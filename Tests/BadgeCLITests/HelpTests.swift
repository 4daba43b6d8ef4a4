import BadgeCore
import BadgeJobs
import Testing

@testable import BadgeCLI

@Suite struct HelpTests {
    final class Capture: @unchecked Sendable {
        var out = ""
        var err = ""
    }

    func run(_ arguments: [String]) -> (ExitCode, Capture) {
        let capture = Capture()
        let io = CommandIO(
            writeOut: { capture.out += $0 }, writeErr: { capture.err += $0 }, environment: [:], stderrIsTerminal: false)
        return (BadgeCLI.run(["iconbadge"] + arguments, io: io), capture)
    }

    @Test func renderHelpListsEveryOptionOfTheTable() {
        let (code, capture) = run(["help", "render"])
        #expect(code == .success)
        for spec in RenderOptions.all {
            #expect(capture.out.contains(spec.synopsis), "\(spec.name) missing from help")
        }
        #expect(
            capture.out.contains(
                "[one of: top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right; default: top-right]"
            ))
    }

    @Test func helpFlagWorksAnywhere() {
        #expect(run(["--help"]).0 == .success)
        #expect(run(["render", "--help"]).1.out.contains("Usage: iconbadge [render] ICON"))
        #expect(run(["icon.png", "--value", "3", "-h"]).0 == .success)
    }

    @Test func versionNamesTheLibraries() {
        let (code, capture) = run(["--version"])
        #expect(code == .success)
        for name in [
            "iconbadge ", "cairo 1.", "freetype 2.", "harfbuzz ", "fontconfig 2.", "libpng 1.6",
            "bundled font: DejaVu Sans",
        ] {
            #expect(capture.out.contains(name), "\(name)")
        }
    }

    @Test func noArgumentsIsAUsageError() {
        let (code, capture) = run([])
        #expect(code == .usage)
        #expect(capture.err.contains("Usage:"))
    }

    @Test func unknownHelpTopicSuggests() {
        let (code, capture) = run(["help", "rendr"])
        #expect(code == .usage)
        let names = (BadgeCLI.commands.map(\.name) + ["help"]).joined(separator: ", ")
        #expect(
            capture.err
                == "iconbadge: error: help: unknown command \"rendr\" (did you mean render?); commands: \(names)\n")
    }
}

@Suite struct DispatchTests {
    @Test func everyCommandOfTheTableIsDispatched() {
        final class Capture: @unchecked Sendable { var out = "" }
        for command in BadgeCLI.commands {
            let capture = Capture()
            let io = CommandIO(
                writeOut: { capture.out += $0 }, writeErr: { _ in }, environment: [:], stderrIsTerminal: false)
            #expect(BadgeCLI.run(["iconbadge", command.name, "--help"], io: io) == .success)
            #expect(capture.out.hasPrefix("Usage: \(command.usage)"), "\(command.name) is not dispatched to itself")
        }
    }
}
