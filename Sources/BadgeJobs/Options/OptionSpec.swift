import BadgeCore

/// What kind of value an option takes (drives completion and help).
package enum OptionValueKind: Equatable, Sendable {
    /// No value: a switch.
    case flag
    /// A value shown in help as `placeholder`.
    case value(placeholder: String)
}

/// What completion offers for the value.
package enum OptionCompletion: Equatable, Sendable {
    case none
    case file
    case folder
    /// Words the shells complete; `exhaustive` when no other value is accepted (help
    /// then says "one of: ...").
    case choices([String], exhaustive: Bool = true)
}

/// What help, the man page and completions need to know of an option, whatever
/// settings it writes to.
package struct OptionInfo: Sendable {
    package var name: String
    package var short: Character?
    package var kind: OptionValueKind
    package var group: String
    package var help: String
    package var defaultText: String?
    package var completion: OptionCompletion
    package var fromEnvironment: Bool
    package var repeatable: Bool

    /// `--name`.
    package var flagName: String { "--\(name)" }

    /// `-o, --output PATH` as help shows it.
    package var synopsis: String {
        var text = short.map { "-\($0), " } ?? ""
        text += flagName
        if case .value(let placeholder) = kind { text += " \(placeholder)" }
        if kind == .flag, case .choices(let words, _) = completion { text += " [\(words.joined(separator: "|"))]" }
        return text
    }

    /// The environment variable that mirrors it: `ICONBADGE_BADGE_ANCHOR`.
    package var environmentName: String {
        "ICONBADGE_" + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }
}

/// One command-line option: the single source for parsing, help, the man page,
/// shell completions, `ICONBADGE_*` variables and batch manifest keys.
package struct OptionSpec<Settings>: Sendable {
    /// The long name without dashes (`background`); also the manifest key.
    package let name: String
    /// The one-letter alias, if any (`o` for `--output`).
    package var short: Character?
    package let kind: OptionValueKind
    /// The help group ("Placement", "Size and shape", ...).
    package let group: String
    /// One-line help text.
    package let help: String
    /// The default, as shown in help; nil when there is none to show.
    package var defaultText: String?
    package var completion: OptionCompletion = .none
    /// Whether `ICONBADGE_<NAME>` sets it (false for per-run values such as the output).
    package var fromEnvironment = true
    /// Whether it may be given more than once (each value is applied in turn).
    package var repeatable = false
    /// Applies a value; the value of a flag is "true" or "false".
    package let apply: @Sendable (inout Settings, String) throws(BadgeError) -> Void

    /// An option from its parts; `apply` writes a value into the settings.
    package init(
        name: String, short: Character? = nil, kind: OptionValueKind, group: String, help: String,
        defaultText: String? = nil, completion: OptionCompletion = .none, fromEnvironment: Bool = true,
        repeatable: Bool = false, apply: @escaping @Sendable (inout Settings, String) throws(BadgeError) -> Void
    ) {
        self.name = name
        self.short = short
        self.kind = kind
        self.group = group
        self.help = help
        self.defaultText = defaultText
        self.completion = completion
        self.fromEnvironment = fromEnvironment
        self.repeatable = repeatable
        self.apply = apply
    }

    /// The option as help, the man page and completions describe it.
    package var info: OptionInfo {
        OptionInfo(
            name: name, short: short, kind: kind, group: group, help: help, defaultText: defaultText,
            completion: completion, fromEnvironment: fromEnvironment, repeatable: repeatable)
    }

    /// `--name`.
    package var flagName: String { info.flagName }

    /// The environment variable that mirrors it: `ICONBADGE_BADGE_ANCHOR`.
    package var environmentName: String { info.environmentName }

    /// `-o, --output PATH` as help shows it.
    package var synopsis: String { info.synopsis }
}

extension OptionSpec {
    /// The same option writing into a part of a larger settings value, so commands
    /// share option tables (compare's options on `compare`, `--check` and `batch`).
    package func lifted<Outer>(_ path: WritableKeyPath<Outer, Settings> & Sendable) -> OptionSpec<Outer> {
        OptionSpec<Outer>(
            name: name, short: short, kind: kind, group: group, help: help, defaultText: defaultText,
            completion: completion, fromEnvironment: fromEnvironment, repeatable: repeatable
        ) { outer, text throws(BadgeError) in try apply(&outer[keyPath: path], text) }
    }

    /// The same option, also noting in the settings' record (`path`) that it was
    /// given, once its value is applied.
    package func noted(in path: WritableKeyPath<Settings, GivenOptions> & Sendable) -> OptionSpec {
        let name = name
        return OptionSpec(
            name: name, short: short, kind: kind, group: group, help: help, defaultText: defaultText,
            completion: completion, fromEnvironment: fromEnvironment, repeatable: repeatable
        ) { settings, text throws(BadgeError) in
            try apply(&settings, text)
            settings[keyPath: path].note(name)
        }
    }
}
