import BadgeCore
import BadgeJobs

/// The frame every subcommand runs in: parse its arguments through its option
/// table, print its help for `-h`/`--help`, run it, and turn a thrown error into
/// one line on stderr and the error's exit code.
enum CommandRunner {
    static func run<Settings>(
        _ arguments: ArraySlice<String>, io: CommandIO, options: [OptionSpec<Settings>], defaults: Settings,
        environment: [String: String] = [:], name: String, command: @autoclosure () -> CommandInfo,
        body: (ParsedArguments<Settings>) throws(BadgeError) -> ExitCode
    ) -> ExitCode {
        // The command's table of help text is built only for help: a render should not
        // pay for it (callgrind: 3 % of a 48 px render).
        do throws(BadgeError) {
            let parsed = try ArgumentParser(options: options, command: name).parse(
                arguments, defaults: defaults, environment: environment)
            if parsed.wantsHelp {
                io.writeOut(HelpText.command(command()))
                return .success
            }
            return try body(parsed)
        } catch {
            io.error(ErrorWording.message(error))
            return error.exitCode
        }
    }
}
