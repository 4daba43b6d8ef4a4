import BadgeCore
import BadgeJobs

/// Help text generated from the command table and each command's option table,
/// so help and parsing cannot drift.
enum HelpText {
    /// A command's whole help: usage, description, options, examples, notes.
    static func command(_ command: CommandInfo) -> String {
        var text = "Usage: \(command.usage)\n\n\(command.description)\n"
        text += options(command.options)
        text += "\nExamples:\n"
        for (what, line) in command.examples { text += "  # \(what)\n  \(line)\n" }
        if !command.notes.isEmpty { text += "\n" + command.notes + "\n" }
        if !command.manual.isEmpty { text += "\n" + Manual.helpLines(for: command.manual) }
        return text
    }

    /// Formats `options` grouped in table order, each line with its value, help,
    /// default and allowed values.
    static func options(_ options: [OptionInfo]) -> String {
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
                if case .choices(let choices, exhaustive: true) = spec.completion {
                    extras.append("one of: " + choices.joined(separator: ", "))
                }
                if let value = spec.defaultText { extras.append("default: \(value)") }
                if spec.repeatable { extras.append("repeatable") }
                if !extras.isEmpty { line += " [" + extras.joined(separator: "; ") + "]" }
                out += line + "\n"
            }
        }
        return out
    }
}
