import BadgeCore

/// The frame every subcommand runs in: parse its arguments through its option
/// table, print its help for `-h`/`--help`, run it, and turn a thrown error into
/// one line on stderr and the error's exit code.
enum CommandRunner {
    static func run<Settings>(
        _ arguments: ArraySlice<String>, io: CommandIO, options: [OptionSpec<Settings>], defaults: Settings,
        environment: [String: String] = [:], command: CommandInfo,
        body: (ParsedArguments<Settings>) throws(BadgeError) -> ExitCode
    ) -> ExitCode {
        do throws(BadgeError) {
            let parsed = try ArgumentParser(options: options).parse(
                arguments, defaults: defaults, environment: environment)
            if parsed.wantsHelp {
                io.writeOut(HelpText.command(command))
                return .success
            }
            return try body(parsed)
        } catch {
            let error = explained(error, command: command.name)
            io.error(error.message)
            return error.exitCode
        }
    }

    /// An unknown option with no near spelling: say which command it belongs to,
    /// if another one has it, and where this command's options are listed.
    static func explained(_ error: BadgeError, command: String) -> BadgeError {
        guard case .unknownOption(let option, nil) = error else { return error }
        let name = option.hasPrefix("--") ? String(option.dropFirst(2).prefix { $0 != "=" }) : nil
        let owners = BadgeCLI.commands.filter { info in
            info.name != command && info.options.contains { $0.name == name }
        }.map(\.name)
        guard !owners.isEmpty else {
            return .usage("unknown option \(Quoted(option)) (see iconbadge help \(command))")
        }
        return .usage(
            "\(Quoted(option)) is not an option of \(command); it goes with \(owners.joined(separator: " and ")) (see iconbadge help \(command))"
        )
    }
}
