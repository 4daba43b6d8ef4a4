import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Help, the man page and completions come from the option tables; these tests keep
/// the committed copies (and the README) equal to what the binary prints.
@Suite struct DocumentationTests {
    func file(_ relative: String) throws -> String {
        try String(contentsOfFile: Paths.root + "/" + relative, encoding: .utf8)
    }

    @Test func helpMatchesItsSnapshots() throws {
        #expect(try runIconbadge(["--help"]).stdoutText == file("Fixtures/help/iconbadge.txt"), "run make docs")
        #expect(try runIconbadge(["help", "render"]).stdoutText == file("Fixtures/help/render.txt"), "run make docs")
        #expect(try runIconbadge(["render", "--help"]).stdoutText == file("Fixtures/help/render.txt"))
    }

    @Test func manualShowsTheHelp() throws {
        let help = try runIconbadge(["--help"]).stdoutText
        #expect(
            try file("docs/manual/usage.md").contains("```console\n$ iconbadge --help\n" + help + "```\n"),
            "docs/manual/usage.md's --help differs: run make docs")
    }

    @Test func optionsReferenceIsCurrent() throws {
        let page = try runIconbadge(["--generate-options-reference"])
        #expect(page.status == 0)
        #expect(page.stdoutText == (try file("docs/manual/options.md")), "run make docs")
        // Every option of every command is in it, as help names it.
        for command in ["render", "compare", "batch", "appiconset", "android", "fonts"] {
            #expect(page.stdoutText.contains("\n## \(command)\n"), "\(command)")
        }
        for option in ["`--badge-anchor POINT`", "`--fail-on LIST`", "`--output-root DIR`", "`--relative-size F`"] {
            #expect(page.stdoutText.contains("| " + option + " |"), "\(option)")
        }
        #expect(page.stdoutText.contains("| `ICONBADGE_BACKGROUND` | `background` |"))
    }

    /// docs/manual holds the pages help and the man page name, each titled as they say,
    /// and the README and the manual's index list every one.
    @Test func manualPagesAreThoseHelpNames() throws {
        let table = try runIconbadge(["--generate-manpage"]).stdoutText
        let files = try FileManager.default.contentsOfDirectory(atPath: Paths.root + "/docs/manual")
            .filter { $0.hasSuffix(".md") && $0 != "README.md" }.sorted()
        #expect(files.count == 17)
        let readme = try file("README.md")
        let index = try file("docs/manual/README.md")
        for name in files {
            #expect(
                table.contains("share/doc/iconbadge/manual/" + name.replacingOccurrences(of: "-", with: "\\-")),
                "\(name)")
            let title = try file("docs/manual/" + name).split(separator: "\n").first.map(String.init) ?? ""
            #expect(title.hasPrefix("# "), "\(name) has no title")
            let link = "[" + title.dropFirst(2) + "]("
            #expect(readme.contains(link + "docs/manual/" + name + ")"), "README's contents lack \(name)")
            #expect(index.contains(link + name + ")"), "docs/manual/README.md lacks \(name)")
        }
        // Help names the pages of each command.
        let compare = try runIconbadge(["help", "compare"]).stdoutText
        #expect(
            compare.contains(
                "Manual (share/doc/iconbadge/manual/ under the install prefix, docs/manual/ in the source):"))
        #expect(compare.contains("\n  golden-checks.md  "))
        #expect(try runIconbadge(["--help"]).stdoutText.contains("docs/manual/README.md in the source"))
    }

    @Test func everyCommandHasHelpWithThreeToFiveExamples() throws {
        for command in ["render", "compare", "batch", "merge-reports", "appiconset", "fonts"] {
            let help = try runIconbadge(["help", command])
            #expect(help.status == 0)
            let examples = help.stdoutText.components(separatedBy: "\n  # ").count - 1
            #expect((3...5).contains(examples), "\(command) has \(examples) examples")
            #expect(try runIconbadge([command, "--help"]).stdoutText == help.stdoutText)
        }
    }

    @Test func manPageIsCurrentAndRendersWithoutWarnings() throws {
        let page = try runIconbadge(["--generate-manpage"]).stdoutText
        #expect(page == (try file("docs/iconbadge.1")), "run make docs")
        for section in [".SH NAME", ".SH SYNOPSIS", ".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", ".SH \"BATCH COMMAND\""] {
            #expect(page.contains(section), "\(section)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        process.arguments = ["-man", "-Tutf8", "-ww", Paths.root + "/docs/iconbadge.1"]
        let errors = Pipe()
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = errors
        try process.run()
        let warnings = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func bashCompletionCompletesCommandsOptionsAndValues() throws {
        let script = try runIconbadge(["--generate-completion-script", "bash"]).stdoutText
        let folder = Paths.scratch("completion")
        try script.write(toFile: folder + "/iconbadge.bash", atomically: true, encoding: .utf8)
        let probe = """
            . '\(folder)/iconbadge.bash'
            complete -p iconbadge
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _iconbadge; echo "${COMPREPLY[*]}"; }
            t iconbadge com
            t iconbadge icon.png --badge-a
            t iconbadge icon.png --anchor bottom
            t iconbadge compare a.png b.png --thresh
            t iconbadge batch m.json --jo
            t iconbadge icon.png --format ""
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", probe]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        process.waitUntilExit()
        #expect(
            lines == [
                "complete -o filenames -F _iconbadge iconbadge", "compare", "--badge-anchor",
                "bottom-left bottom bottom-right", "--threshold", "--jobs", "png webp svg pdf",
            ])
    }

    @Test func zshAndFishScriptsNameEveryOption() throws {
        let zsh = try runIconbadge(["--generate-completion-script", "zsh"]).stdoutText
        let fish = try runIconbadge(["--generate-completion-script", "fish"]).stdoutText
        #expect(zsh.hasPrefix("#compdef iconbadge"))
        for option in ["badge-anchor", "overflow", "threshold", "scales", "relative-size"] {
            #expect(zsh.contains("--\(option)["), "zsh lacks \(option)")
            #expect(fish.contains("-l \(option)"), "fish lacks \(option)")
        }
        #expect(zsh.contains("(clamp clip expand)"))
        #expect(fish.contains("-a 'clamp clip expand'"))
        #expect(try runIconbadge(["--generate-completion-script", "tcsh"]).status == 64)
    }

    @Test func versionNamesEveryLibraryAndTheFont() throws {
        let version = try runIconbadge(["--version"]).stdoutText
        for name in [
            "cairo", "freetype", "harfbuzz", "fontconfig", "libpng", "fribidi", "librsvg", "gdk-pixbuf",
            "bundled font:",
        ] {
            #expect(version.contains("\n\(name)"), "\(name)")
        }
    }

    @Test func environmentVariablesMirrorOptionsAndFlagsWin() throws {
        let icon = Paths.fixture("icons/folder-48x48.png")
        func background(_ arguments: [String], _ environment: [String: String]) throws -> Color {
            let output = Paths.scratch("env") + "/out.png"
            let run = try runIconbadge(
                [icon, "--value", "3", "--report", "-o", output] + arguments, environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            let report = try ReportJSON(run.stdoutText)
            let rect = try #require(report.rect("badge", "rect"))
            return try BadgeRender.ImageFile.pixels(at: output)[Int(rect.minX) + 2, Int(rect.center.y)]
        }
        #expect(try background([], ["ICONBADGE_BACKGROUND": "blue"]) == Color(rgb: 0x0000FF))
        #expect(try background(["--background", "lime"], ["ICONBADGE_BACKGROUND": "blue"]) == Color(rgb: 0x00FF00))
        let bad = try runIconbadge([icon, "--value", "3", "--report"], environment: ["ICONBADGE_ANCHOR": "topright"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("ICONBADGE_ANCHOR: \"topright\""))
    }
}
