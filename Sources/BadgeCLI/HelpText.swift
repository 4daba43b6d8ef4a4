import BadgeCore

/// Help text generated from an option table, so help and parsing cannot drift.
enum HelpText {
    /// Formats `options` grouped in table order, each line with its value, help,
    /// default and allowed values.
    static func options<Settings>(_ options: [OptionSpec<Settings>]) -> String {
        var groups: [String] = []
        for spec in options where !groups.contains(spec.group) { groups.append(spec.group) }
        var out = ""
        for group in groups {
            out += "\n\(group):\n"
            for spec in options where spec.group == group {
                var line = "  " + spec.synopsis
                if line.count < 28 {
                    line += String(repeating: " ", count: 28 - line.count)
                } else {
                    line += "\n" + String(repeating: " ", count: 28)
                }
                line += spec.help
                var extras: [String] = []
                if case .choices(let choices) = spec.completion, !choices.contains(where: { $0.hasSuffix(":") }) {
                    extras.append("one of: " + choices.joined(separator: ", "))
                }
                if let value = spec.defaultText { extras.append("default: \(value)") }
                if !extras.isEmpty { line += " [" + extras.joined(separator: "; ") + "]" }
                out += line + "\n"
            }
        }
        return out
    }
}
