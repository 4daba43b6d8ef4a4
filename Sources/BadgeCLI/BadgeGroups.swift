import BadgeCore
import BadgeJobs

/// Several badges on one command line: `--and` ends one badge's options and starts
/// the next, drawn after it on the same icon.
///
///     iconbadge icon.png --shape ribbon --text BETA --anchor top-left --and --value 3 -o out.png
///
/// Each badge starts from the defaults (and the `ICONBADGE_*` variables). The options
/// of the whole render (`RenderOptions.renderWideNames`: output, scale, platform, ...)
/// and the icon may be given anywhere, once.
enum BadgeGroups {
    /// The separator.
    static let separator = "--and"

    /// `arguments` split at each `--and` that is an argument of its own: not the value
    /// of an option (`--text --and` draws "--and"), and not after `--`.
    ///
    /// - Throws: `BadgeError.usage` for an empty group.
    static func split<Settings>(_ arguments: ArraySlice<String>, options: [OptionSpec<Settings>]) throws(BadgeError)
        -> [ArraySlice<String>]
    {
        var groups: [ArraySlice<String>] = []
        var start = arguments.startIndex
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument.hasPrefix(separator + "=") {
                throw .usage("\(separator) takes no value: it ends one badge's options and starts the next")
            }
            if argument == separator {
                groups.append(arguments[start..<index])
                start = index + 1
                index += 1
                continue
            }
            index += takesValue(argument, options: options) ? 2 : 1
        }
        groups.append(arguments[start...])
        if groups.count > 1, let empty = groups.firstIndex(where: { $0.isEmpty }) {
            throw .usage(
                empty == groups.count - 1
                    ? "\(separator) must be followed by the next badge's options (e.g. --and --value 3)"
                    : "\(separator) with no badge before it: give each badge its options")
        }
        return groups
    }

    /// Whether `argument` is an option whose value is the next argument.
    private static func takesValue<Settings>(_ argument: String, options: [OptionSpec<Settings>]) -> Bool {
        if argument.hasPrefix("--") {
            let name = argument.dropFirst(2)
            guard !name.contains("=") else { return false }
            return options.first { $0.name == name }.map { $0.kind != .flag } ?? false
        }
        guard argument.count == 2, argument.hasPrefix("-"), let letter = argument.last else { return false }
        return options.first { $0.short == letter }.map { $0.kind != .flag } ?? false
    }

    /// Moves what belongs to the whole command out of the later groups into the first:
    /// every option that is not one badge's (`RenderOptions.perBadge`: the output, the
    /// scale, a catalog's `--out`), with its value, and the positionals (the icon). So
    /// `--and --value 3 -o out.png` writes out.png, wherever -o is given.
    static func hoist<Settings>(_ groups: [ArraySlice<String>], options: [OptionSpec<Settings>]) -> (
        render: [String], badges: [[String]]
    ) {
        var render = Array(groups[0])
        var badges: [[String]] = []
        for group in groups.dropFirst() {
            var own: [String] = []
            var index = group.startIndex
            while index < group.endIndex {
                let argument = group[index]
                let width = takesValue(argument, options: options) ? 2 : 1
                let end = min(group.endIndex, index + width)
                if argument == "--" {
                    render += group[index...]
                    break
                }
                if !isBadgeOption(argument, options: options) {
                    render += group[index..<end]
                } else {
                    own += group[index..<end]
                }
                index = end
            }
            badges.append(own)
        }
        return (render, badges)
    }

    /// Whether `argument` names an option of one badge (`--background`, `--shape=ribbon`).
    private static func isBadgeOption<Settings>(_ argument: String, options: [OptionSpec<Settings>]) -> Bool {
        let name: String?
        if argument.hasPrefix("--") {
            name = String(argument.dropFirst(2).prefix { $0 != "=" })
        } else if argument.count >= 2, argument.hasPrefix("-") {
            let letter = argument[argument.index(after: argument.startIndex)]
            name = options.first { $0.short == letter }?.name
        } else {
            name = nil
        }
        guard let name else { return false }
        return RenderOptions.perBadge.contains { $0.name == name }
    }

    /// Runs a command whose options include the render's badge options: its arguments
    /// split at `--and`, the first group parsed with the command's `options` and the
    /// later groups with the badge options into `render`'s `moreBadges`; help and errors
    /// as `CommandRunner`.
    static func run<Settings>(
        _ arguments: ArraySlice<String>, io: CommandIO, options: [OptionSpec<Settings>], defaults: Settings,
        render: WritableKeyPath<Settings, RenderSettings>, name: String,
        command: @autoclosure () -> CommandInfo,
        body: (ParsedArguments<Settings>) throws(BadgeError) -> ExitCode
    ) -> ExitCode {
        let groups: (render: [String], badges: [[String]])
        do throws(BadgeError) {
            groups = hoist(try split(arguments, options: options), options: options)
        } catch {
            io.error(ErrorWording.message(error))
            return error.exitCode
        }
        return CommandRunner.run(
            groups.render[...], io: io, options: options, defaults: defaults, environment: io.environment, name: name,
            command: command()
        ) { parsed throws(BadgeError) in
            var parsed = parsed
            parsed.settings[keyPath: render].given.own = parsed.flags
            parsed.settings[keyPath: render].moreBadges = try parseMore(groups.badges, environment: io.environment)
            return try body(parsed)
        }
    }

    /// The settings of the badges after the first: each group parsed with the
    /// per-badge options over the defaults (and the `ICONBADGE_*` variables).
    ///
    /// - Throws: the options' own errors, naming the badge.
    static func parseMore(_ groups: [[String]], environment: [String: String]) throws(BadgeError)
        -> [RenderSettings]
    {
        var badges: [RenderSettings] = []
        for group in groups {
            guard !group.isEmpty else {
                throw .usage("\(separator) must be followed by the next badge's options (e.g. --and --value 3)")
            }
            var parsed = try ArgumentParser(options: RenderOptions.perBadge, command: "render").parse(
                group[...], defaults: RenderSettings(), environment: environment)
            parsed.settings.given.own = parsed.flags
            badges.append(parsed.settings)
        }
        return badges
    }
}
