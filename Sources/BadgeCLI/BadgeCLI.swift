import BadgeCore
import BadgeJobs
import BadgeRender
import BadgeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command-line interface: `run(arguments, io)` parses and runs a command and
/// returns its exit code; `main` wires it to the process.
public enum BadgeCLI {
    /// The subcommands, in help order: the table behind help, the man page and
    /// completions (a test checks that `run` dispatches every one of them).
    static let commands: [CommandInfo] = [
        RenderCommand.info, CompareCommand.info, BatchCommand.info, MergeReportsCommand.info, AppIconSetCommand.info,
        AndroidCommand.info, PreviewCommand.info, FontsCommand.info,
    ]

    /// Runs `arguments` (argv, with the program name first) against the process's
    /// standard streams and environment; returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        SignalHandling.install()
        let io = CommandIO.process()
        let code = run(arguments, io: io)
        if io.outputFailure.isSet, code == .success || code == .different {
            io.error("cannot write to standard output: \(String(cString: strerror(errno)).lowercased())")
            return ExitCode.ioError.rawValue
        }
        return code.rawValue
    }

    /// Runs a command line; `arguments[0]` is the program name.
    public static func run(_ arguments: [String], io: CommandIO) -> ExitCode {
        let rest = arguments.dropFirst()
        guard let first = rest.first else {
            io.writeErr(topHelp())
            return .usage
        }
        switch first {
        case "--help", "-h":
            io.writeOut(topHelp())
            return .success
        case "--version", "-V":
            io.writeOut(versionText())
            return .success
        case "--generate-manpage":
            io.writeOut(ManPage.roff())
            return .success
        case "--generate-options-reference":
            io.writeOut(OptionsReference.markdown())
            return .success
        case "--generate-completion-script":
            return Completions.run(rest.dropFirst(), io: io)
        case "help":
            return help(rest.dropFirst(), io: io)
        // Dispatch by name, without building the command table (every option
        // table and help string), which only help, the man page and completions need.
        case "render": return RenderCommand.run(rest.dropFirst(), io: io)
        case "compare": return CompareCommand.run(rest.dropFirst(), io: io)
        case "batch": return BatchCommand.run(rest.dropFirst(), io: io)
        case "merge-reports": return MergeReportsCommand.run(rest.dropFirst(), io: io)
        case "appiconset": return AppIconSetCommand.run(rest.dropFirst(), io: io)
        case "android": return AndroidCommand.run(rest.dropFirst(), io: io)
        case "fonts": return FontsCommand.run(rest.dropFirst(), io: io)
        case "preview": return PreviewCommand.run(rest.dropFirst(), io: io)
        default:
            // `appiconst SET --out b`: a near command name that is no file is a typo,
            // said before its options are read as render's.
            if let guess = misspeltCommand(first) {
                io.error(
                    "unknown command \(Quoted(first)) (did you mean \(guess)?); to badge a file of that name, write ./\(first)"
                )
                return .usage
            }
            if let guess = misspeltTopLevelFlag(first) {
                io.error("unknown option \(Quoted(first)) (did you mean \(guess)?)")
                return .usage
            }
            return RenderCommand.run(rest, io: io)
        }
    }

    /// The command `word` looks like a typo of (`rendr`), when it cannot be an icon:
    /// no such file, and no dot or slash that a file name would have.
    /// A shortened name (`appicon`, at least three letters) suggests the command it
    /// starts; `version` suggests `--version`.
    static func misspeltCommand(_ word: String) -> String? {
        guard !word.isEmpty, !word.hasPrefix("-"), !word.contains("."), !word.contains("/"),
            access(word, F_OK) != 0
        else { return nil }
        let names = commands.map(\.name) + ["help"]
        if let guess = Suggestion.closest(to: word, among: names) { return guess }
        if Suggestion.closest(to: word, among: ["version"]) != nil { return "--version" }
        guard word.count >= 3 else { return nil }
        return names.sorted().first { $0.hasPrefix(word.lowercased()) }
    }

    /// The top-level flag `word` (`--versoin`) looks like a typo of, when it is no
    /// render option: render would otherwise call it an unknown option of its own.
    static func misspeltTopLevelFlag(_ word: String) -> String? {
        guard word.hasPrefix("--"), word.count > 2 else { return nil }
        let name = String(word.dropFirst(2).prefix { $0 != "=" })
        guard !RenderOptions.all.contains(where: { $0.name == name }) else { return nil }
        return Suggestion.closest(to: name, among: ["version", "help"]).map { "--\($0)" }
    }

    static func help(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        guard let name = arguments.first else {
            io.writeOut(topHelp())
            return .success
        }
        if let command = commands.first(where: { $0.name == name }) {
            io.writeOut(HelpText.command(command))
            return .success
        }
        let names = commands.map(\.name) + ["help"]
        let guess = Suggestion.closest(to: name, among: names).map { " (did you mean \($0)?)" } ?? ""
        io.error("help: unknown command \(Quoted(name))\(guess); commands: \(names.joined(separator: ", "))")
        return .usage
    }

    /// `iconbadge --help`; docs/manual/usage.md shows this text (a test checks it).
    static func topHelp() -> String {
        var text = "iconbadge \(Version.tool): draws notification badges onto icons\n\nUsage:\n"
        for command in commands { text += "  \(command.usage)\n" }
        text += "  iconbadge help COMMAND | --help | --version\n"
        text +=
            "  iconbadge --generate-manpage | --generate-options-reference | --generate-completion-script bash|zsh|fish\n"
        text += "\nCommands:\n"
        // One column for the summaries, two spaces past the longest name (merge-reports).
        let column = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            text += "  " + command.name + String(repeating: " ", count: column - command.name.count)
            text += command.summary + "\n"
        }
        text += "\nExamples:\n"
        for command in commands.prefix(3) {
            let (what, line) = command.examples[0]
            text += "  # \(what)\n  \(line)\n"
        }
        text += "\nRun 'iconbadge help COMMAND' for its options. Render options can also come from ICONBADGE_*\n"
        text += "variables (ICONBADGE_BACKGROUND=blue); flags override them.\n"
        text += "\nThe manual: \(Manual.installedFolder)/README.md under the install prefix (/usr, /usr/local),\n"
        text += "\(Manual.sourceFolder)/README.md in the source; options.md there lists every option.\n"
        text += "\nExit codes: 0 ok, 1 images differ, 64 usage, 65 bad input data, 66 input missing,\n"
        text += "69 resource unavailable, 70 internal error, 73 cannot create output, 74 I/O error,\n"
        text += "130/143 interrupted.\n"
        return text
    }

    static func versionText() -> String {
        var text = "iconbadge \(Version.tool)\n"
        for (name, version) in LibraryVersions.all() { text += "\(name) \(version)\n" }
        text += "bundled font: \(LibraryVersions.bundledFont)\n"
        return text
    }
}
