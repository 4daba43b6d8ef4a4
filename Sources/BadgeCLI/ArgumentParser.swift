import BadgeCore
import BadgeJobs

/// The result of parsing a command's arguments.
struct ParsedArguments<Settings> {
    var settings: Settings
    var positionals: [String]
    var wantsHelp: Bool
    /// The long names of the options given as flags (not from the environment).
    var flags: [String] = []
}

/// A small getopt-style parser driven by an option table.
///
/// - `--name VALUE`, `--name=VALUE`, `-o VALUE`, `-oVALUE`; a value option always
///   takes the next argument, so `--offset -4,2` works.
/// - `--` ends the options; `-` alone is a positional (standard input/output).
/// - An option given twice is an error; so is an unknown one (with "did you mean").
/// - Order of application: `--style` (or `ICONBADGE_STYLE`) first, then the
///   `ICONBADGE_*` variables, then the flags, so flags override the environment,
///   which overrides the preset.
struct ArgumentParser<Settings> {
    let options: [OptionSpec<Settings>]
    /// The command parsed for (`render`), so an option of another command can say so.
    var command: String? = nil
    /// Options applied before the environment and the other flags (`style`). Arrays,
    /// not sets, here and below: a few names, and a Set<String> costs the Swift runtime
    /// a scan of every protocol conformance at each start (callgrind).
    var earlyOptions: [String] = ["style"]

    func parse(_ arguments: ArraySlice<String>, defaults: Settings, environment: [String: String])
        throws(BadgeError) -> ParsedArguments<Settings>
    {
        var given: [(OptionSpec<Settings>, String, String)] = []  // spec, value, as typed
        var positionals: [String] = []
        var seen: [String] = []
        var index = arguments.startIndex
        var wantsHelp = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals.append(contentsOf: arguments[index...])
                break
            }
            if argument == "-h" || argument == "--help" {
                wantsHelp = true
                continue
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            var attached: String?
            let spec: OptionSpec<Settings>
            let typed: String
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    attached = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                typed = "--\(name)"
                guard let found = options.first(where: { $0.name == name }) else {
                    throw unknownOption(typed, suggestion: suggestion(for: name))
                }
                spec = found
            } else {
                let letter = argument.dropFirst().first!
                typed = "-\(letter)"
                guard let found = options.first(where: { $0.short == letter }) else {
                    // -o is --output elsewhere: suggest this command's nearest (--out).
                    let elsewhere = BadgeCLI.commands.lazy.flatMap(\.options).first { $0.short == letter }?.name
                    throw unknownOption(
                        argument,
                        suggestion: suggestion(for: String(argument.dropFirst()))
                            ?? elsewhere.flatMap { long in
                                options.first { $0.name.count >= 3 && long.hasPrefix($0.name) }.map { "--\($0.name)" }
                                    ?? suggestion(for: long)
                            })
                }
                spec = found
                if argument.count > 2 { attached = String(argument.dropFirst(2)) }
            }
            guard spec.repeatable || !seen.contains(spec.name) else {
                throw .usage("\(spec.flagName) is given twice (give it once)")
            }
            seen.append(spec.name)
            switch spec.kind {
            case .flag:
                // A flag with words (`--update [missing|changed|all]`) takes the next
                // argument when it is one of them.
                if attached == nil, case .choices(let words, _) = spec.completion, index < arguments.endIndex,
                    words.contains(arguments[index])
                {
                    given.append((spec, arguments[index], typed))
                    index += 1
                } else {
                    given.append((spec, attached ?? "true", typed))
                }
            case .value:
                if let attached {
                    given.append((spec, attached, typed))
                } else {
                    guard index < arguments.endIndex else {
                        throw .usage("\(typed) needs a value (see iconbadge --help)")
                    }
                    given.append((spec, arguments[index], typed))
                    index += 1
                }
            }
        }
        var settings = defaults
        if wantsHelp { return ParsedArguments(settings: settings, positionals: positionals, wantsHelp: true) }

        // Presets first, then the environment, then the command line. Variable names
        // are built only when some ICONBADGE_* variable is set (most runs have none).
        let hasVariables = environment.keys.contains { $0.utf8.starts(with: "ICONBADGE_".utf8) }
        for spec in options where earlyOptions.contains(spec.name) {
            if let (_, value, _) = given.first(where: { $0.0.name == spec.name }) {
                try spec.apply(&settings, value)
            } else if hasVariables, spec.fromEnvironment, let value = environment[spec.environmentName] {
                try applyEnvironment(spec, value, to: &settings)
            }
        }
        for spec in options where hasVariables && spec.fromEnvironment && !earlyOptions.contains(spec.name) {
            if let value = environment[spec.environmentName], !seen.contains(spec.name) {
                try applyEnvironment(spec, value, to: &settings)
            }
        }
        for (spec, value, _) in given where !earlyOptions.contains(spec.name) {
            try spec.apply(&settings, value)
        }
        return ParsedArguments(settings: settings, positionals: positionals, wantsHelp: false, flags: seen)
    }

    /// Applies a variable's value; its errors name the variable, not the flag.
    private func applyEnvironment(_ spec: OptionSpec<Settings>, _ value: String, to settings: inout Settings)
        throws(BadgeError)
    {
        do throws(BadgeError) {
            try spec.apply(&settings, value)
        } catch {
            if case .invalidValue(_, let raw, let problem) = error {
                throw .invalidValue(option: spec.environmentName, value: raw, problem: problem)
            }
            throw error
        }
    }

    /// An unknown option: its near spelling, or the command it belongs to, or where
    /// this command's options are listed.
    private func unknownOption(_ option: String, suggestion: String?) -> BadgeError {
        if let suggestion { return .usage("unknown option \(Quoted(option)) (did you mean \(suggestion)?)") }
        guard let command else { return .usage("unknown option \(Quoted(option)) (see iconbadge --help)") }
        let name = option.hasPrefix("--") ? String(option.dropFirst(2).prefix { $0 != "=" }) : nil
        let owners = BadgeCLI.commands.filter { info in
            info.name != command && info.options.contains { $0.name == name }
        }.map(\.name)
        guard !owners.isEmpty else {
            return .usage("unknown option \(Quoted(option)) (see iconbadge help \(command))")
        }
        return .usage(
            "\(Quoted(option)) is not an option of \(command); it goes with \(owners.count > 2 ? owners.dropLast().joined(separator: ", ") + " and " + owners.last! : owners.joined(separator: " and ")) (see iconbadge help \(command))"
        )
    }

    private func suggestion(for name: String) -> String? {
        Suggestion.closest(to: name, among: options.map(\.name) + ["help"]).map { "--\($0)" }
    }
}
