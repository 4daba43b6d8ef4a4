import BadgeCore
import BadgeJobs

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
            let parsed = try ArgumentParser(options: options, command: command.name).parse(
                arguments, defaults: defaults, environment: environment)
            if parsed.wantsHelp {
                io.writeOut(HelpText.command(command))
                return .success
            }
            return try body(parsed)
        } catch {
            io.error(ErrorWording.message(error))
            return error.exitCode
        }
    }
}
