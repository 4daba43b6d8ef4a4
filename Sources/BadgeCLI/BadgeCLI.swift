import BadgeCore
import BadgeRender

/// The command-line interface: `run(arguments, io)` parses and runs a command and
/// returns its exit code; `main` wires it to the process.
public enum BadgeCLI {
    /// The subcommands, in help order.
    static let commands: [(name: String, summary: String)] = [
        ("render", "draw a badge onto an icon (the default command)"),
        ("compare", "compare two images, exactly or like pixelmatch (exit 1 when they differ)"),
        ("batch", "render the jobs of a manifest in parallel, at several scales"),
        ("appiconset", "badge every image of an Xcode app icon set at its own size"),
        ("fonts", "show which font files a family resolves to, and the fallback chain"),
        ("help", "show help for a command"),
    ]

    /// Runs `arguments` (argv, with the program name first) against the process's
    /// standard streams and environment; returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        SignalHandling.install()
        return run(arguments, io: .process()).rawValue
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
        case "help":
            return help(rest.dropFirst(), io: io)
        case "render":
            return RenderCommand.run(rest.dropFirst(), io: io)
        case "fonts":
            return FontsCommand.run(rest.dropFirst(), io: io)
        case "batch":
            return BatchCommand.run(rest.dropFirst(), io: io)
        case "compare":
            return CompareCommand.run(rest.dropFirst(), io: io)
        case "appiconset":
            return AppIconSetCommand.run(rest.dropFirst(), io: io)
        default:
            return RenderCommand.run(rest, io: io)
        }
    }

    static func help(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        guard let name = arguments.first else {
            io.writeOut(topHelp())
            return .success
        }
        switch name {
        case "render":
            io.writeOut(RenderCommand.help())
            return .success
        case "fonts":
            io.writeOut(FontsCommand.help())
            return .success
        case "batch":
            io.writeOut(BatchCommand.help())
            return .success
        case "compare":
            io.writeOut(CompareCommand.help())
            return .success
        case "appiconset":
            io.writeOut(AppIconSetCommand.help())
            return .success
        default:
            let names = commands.map(\.name)
            let guess = Suggestion.closest(to: name, among: names).map { " (did you mean \($0)?)" } ?? ""
            io.error("help: unknown command \(Quoted(name))\(guess); commands: \(names.joined(separator: ", "))")
            return .usage
        }
    }

    static func topHelp() -> String {
        var text = "iconbadge \(Version.tool): draws notification badges onto icons (PNG in, PNG out)\n\n"
        text +=
            "Usage:\n  \(RenderCommand.usage)\n  \(CompareCommand.usage)\n  \(BatchCommand.usage)\n  \(AppIconSetCommand.usage)\n  \(FontsCommand.usage)\n  iconbadge help COMMAND\n  iconbadge --version\n\nCommands:\n"
        for (name, summary) in commands {
            text += "  " + name + String(repeating: " ", count: max(1, 12 - name.count)) + summary + "\n"
        }
        text += "\nRun 'iconbadge help render' for every option.\n"
        text += "\nExit codes: 0 ok, 1 images differ, 64 usage, 65 bad input data, 66 input missing,\n"
        text += "69 resource unavailable, 70 internal error, 73 cannot create output, 74 I/O error.\n"
        return text
    }

    static func versionText() -> String {
        var text = "iconbadge \(Version.tool)\n"
        for (name, version) in LibraryVersions.all() { text += "\(name) \(version)\n" }
        text += "bundled font: \(LibraryVersions.bundledFont)\n"
        return text
    }
}
