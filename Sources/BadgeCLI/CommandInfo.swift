import BadgeCore
import BadgeJobs

/// A subcommand as help, the man page and shell completions describe it; the
/// table `BadgeCLI.commands` holds every one, and `run` dispatches through it.
struct CommandInfo: Sendable {
    /// The subcommand's name (`render`, `compare`).
    var name: String
    /// One line for the command list.
    var summary: String
    /// The usage line.
    var usage: String
    /// A paragraph under the usage line.
    var description: String
    /// Its options, from the table that parses them.
    var options: [OptionInfo]
    /// Three to five examples: what it does, and the command.
    var examples: [(String, String)]
    /// The manual's pages on this command (`Manual.pages` file names), most
    /// relevant first: help and the man page name them.
    var manual: [String] = []
    /// Extra notes after the examples, built only when help or the man page shows
    /// them (every run reads this table; a render should not pay for its help).
    var notesText: @Sendable () -> String = { "" }
    /// What completion offers for positional arguments.
    var positional: OptionCompletion
    /// Runs the command on the arguments after its name.
    var run: @Sendable (ArraySlice<String>, CommandIO) -> ExitCode

    /// The notes' text.
    var notes: String { notesText() }
}
