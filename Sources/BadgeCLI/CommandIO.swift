import BadgeCore
import BadgeJobs
import BadgeSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command's text goes and what it can see of its environment; tests pass
/// their own to capture output.
public struct CommandIO: Sendable {
    /// Writes text to standard output.
    public var writeOut: @Sendable (String) -> Void
    /// Writes text to standard error.
    public var writeErr: @Sendable (String) -> Void
    /// The environment iconbadge reads (`ICONBADGE_*`, `SOURCE_DATE_EPOCH`, the CI variables of `UpdateMode.isCI`).
    public var environment: [String: String]
    /// Whether standard error is a terminal (progress lines are shown only then).
    public var stderrIsTerminal: Bool
    /// Whether standard output is a terminal (image bytes are not written there
    /// without `--force`).
    public var stdoutIsTerminal = false
    /// Set when writing to standard output failed (a full disk behind a
    /// redirection): the command then ends with exit 74. One per run, not a global.
    var outputFailure = OutputFailure()

    /// Creates an IO from its parts.
    public init(
        writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
        environment: [String: String],
        stderrIsTerminal: Bool
    ) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.environment = environment
        self.stderrIsTerminal = stderrIsTerminal
    }

    /// The process's real standard output, standard error and environment.
    public static func process() -> CommandIO {
        let failure = OutputFailure()
        var io = CommandIO(
            writeOut: { text in
                let code = Array(text.utf8).withUnsafeBytes { Platform.writeAll(1, $0) }
                if code != 0 { failure.set() }
            },
            writeErr: { text in _ = Array(text.utf8).withUnsafeBytes { Platform.writeAll(2, $0) } },
            environment: processEnvironment(), stderrIsTerminal: isatty(2) == 1)
        io.stdoutIsTerminal = isatty(1) == 1
        io.outputFailure = failure
        return io
    }

    /// Prints `iconbadge: error: MESSAGE` on standard error, as one line: line
    /// breaks inside a library's message become spaces, other control characters
    /// escapes (`TextEscaping.oneLine`).
    func error(_ message: String) { writeErr("iconbadge: error: \(TextEscaping.oneLine(message))\n") }

    /// Prints `iconbadge: warning: MESSAGE` on standard error, as one line.
    func warning(_ message: String) { writeErr("iconbadge: warning: \(TextEscaping.oneLine(message))\n") }
    /// Prints `iconbadge: note: MESSAGE` on standard error, as one line.
    func note(_ message: String) { writeErr("iconbadge: note: \(TextEscaping.oneLine(message))\n") }

    /// The variables iconbadge reads: `ICONBADGE_*`, `SOURCE_DATE_EPOCH` and the CI
    /// variables (`UpdateMode.ciVariables`). Each entry's name is compared as bytes,
    /// before any string is made: building a `String` of every variable and searching it
    /// by `Character` was a tenth of a failed run's instructions (callgrind).
    private static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            pointer += 1
            guard let equals = strchr(entry, 0x3D) else { continue }  // "="
            let nameLength = entry.distance(to: equals)
            let name = UnsafeRawBufferPointer(start: entry, count: nameLength)
            guard
                name.starts(with: "ICONBADGE_".utf8) || name.elementsEqual("SOURCE_DATE_EPOCH".utf8)
                    || UpdateMode.ciVariables.contains(where: { name.elementsEqual($0.utf8) })
            else { continue }
            result[String(decoding: name, as: UTF8.self)] = String(cString: equals + 1)
        }
        return result
    }
}

/// Whether a write to standard output failed; set from any thread.
final class OutputFailure: Sendable {
    private let failed = Mutex(false)
    func set() { failed.withLock { $0 = true } }
    var isSet: Bool { failed.withLock { $0 } }
}
