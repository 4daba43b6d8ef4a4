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
    static func split(_ arguments: ArraySlice<String>, options: [RenderOptions.Spec]) throws(BadgeError)
        -> [ArraySlice<String>]
    {
        var groups: [ArraySlice<String>] = []
        var start = arguments.startIndex
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { break }
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
    private static func takesValue(_ argument: String, options: [RenderOptions.Spec]) -> Bool {
        if argument.hasPrefix("--") {
            let name = argument.dropFirst(2)
            guard !name.contains("=") else { return false }
            return options.first { $0.name == name }.map { $0.kind != .flag } ?? false
        }
        guard argument.count == 2, argument.hasPrefix("-"), let letter = argument.last else { return false }
        return options.first { $0.short == letter }.map { $0.kind != .flag } ?? false
    }

    /// Moves what belongs to the whole render out of the later groups into the first:
    /// the render's options (with their values) and positionals (the icon). So
    /// `--and --value 3 -o out.png` writes out.png, wherever -o is given.
    static func hoist(_ groups: [ArraySlice<String>], options: [RenderOptions.Spec]) -> (
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
                if isRenderWide(argument, options: options) || !argument.hasPrefix("-") || argument == "-" {
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

    /// Whether `argument` names an option of the whole render (`-o`, `--scale=2`).
    private static func isRenderWide(_ argument: String, options: [RenderOptions.Spec]) -> Bool {
        if argument.hasPrefix("--") {
            return RenderOptions.renderWideNames.contains(String(argument.dropFirst(2).prefix { $0 != "=" }))
        }
        guard argument.count >= 2, argument.hasPrefix("-") else { return false }
        let letter = argument[argument.index(after: argument.startIndex)]
        return options.first { $0.short == letter }.map { RenderOptions.renderWideNames.contains($0.name) } ?? false
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
            let parsed = try ArgumentParser(options: RenderOptions.perBadge, command: "render").parse(
                group[...], defaults: RenderSettings(), environment: environment)
            badges.append(parsed.settings)
        }
        return badges
    }
}
