import BadgeCore
import BadgeJobs
import BadgeRender

/// `iconbadge fonts [PATTERN]`: which file a family resolves to and the fallback
/// chain; without a pattern, the bundled default and its system fallback.
enum FontsCommand {
    struct Settings {
        var all = false
    }

    static let options: [OptionSpec<Settings>] = [
        OptionSpec(name: "all", kind: .flag, group: "Options", help: "list every fallback font, not the first 10") {
            settings, text throws(BadgeError) in settings.all = try ValueParsers.bool(text, option: "--all")
        }
    ]

    static let info = CommandInfo(
        name: "fonts",
        summary: "show which font files a family resolves to, and the fallback chain",
        usage: "iconbadge fonts [PATTERN] [--all]",
        description: """
            Prints the font file a fontconfig PATTERN ("DejaVu Sans:bold") resolves to, its fallback chain for
            glyphs it lacks, and the emoji font. Without a pattern: the bundled default and its fallback.
            Exit 69 if the family is not installed.
            """,
        options: options.map(\.info),
        examples: [
            ("the default path", "iconbadge fonts"),
            ("a family and weight", "iconbadge fonts \"DejaVu Sans:bold\""),
            ("the whole fallback chain", "iconbadge fonts \"Noto Sans CJK JP\" --all"),
        ],
        manual: ["text.md"],
        positional: .none,
        run: { arguments, io in FontsCommand.run(arguments, io: io) })

    static func run(_ arguments: ArraySlice<String>, io: CommandIO) -> ExitCode {
        CommandRunner.run(
            arguments, io: io, options: options, defaults: Settings(),
            name: "fonts", command: info
        ) { parsed throws(BadgeError) in
            guard parsed.positionals.count <= 1 else {
                throw .usage("fonts takes at most one PATTERN; quote a pattern with spaces")
            }
            let lines = try FontReport.lines(
                pattern: parsed.positionals.first, limit: parsed.settings.all ? 0 : 10,
                more: { "  ... \($0) more (use --all)" })
            io.writeOut(lines.joined(separator: "\n") + "\n")
            return .success
        }
    }
}
