#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command's text goes and what it can see of its environment; tests pass
/// their own to capture output.
public struct CommandIO {
    /// Writes text to standard output.
    public var writeOut: (String) -> Void
    /// Writes text to standard error.
    public var writeErr: (String) -> Void
    /// The environment iconbadge reads (`ICONBADGE_*`, `SOURCE_DATE_EPOCH`).
    public var environment: [String: String]
    /// Whether standard error is a terminal (progress lines are shown only then).
    public var stderrIsTerminal: Bool

    /// Creates an IO from its parts.
    public init(
        writeOut: @escaping (String) -> Void, writeErr: @escaping (String) -> Void, environment: [String: String],
        stderrIsTerminal: Bool
    ) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.environment = environment
        self.stderrIsTerminal = stderrIsTerminal
    }

    /// The process's real standard output, standard error and environment.
    public static func process() -> CommandIO {
        CommandIO(
            writeOut: { writeAll(1, $0) }, writeErr: { writeAll(2, $0) }, environment: processEnvironment(),
            stderrIsTerminal: isatty(2) == 1)
    }

    /// Prints `iconbadge: error: MESSAGE` on standard error, as one line: line
    /// breaks inside a library's message become spaces.
    func error(_ message: String) { writeErr("iconbadge: error: \(CommandIO.oneLine(message))\n") }

    /// `text` with every run of line breaks and the spaces around them made one space.
    static func oneLine(_ text: String) -> String {
        var out = ""
        var pendingSpace = false
        for character in text {
            if character == "\n" || character == "\r" {
                pendingSpace = true
                continue
            }
            if pendingSpace {
                while out.last == " " { out.removeLast() }
                if !out.isEmpty { out.append(" ") }
                pendingSpace = false
                if character == " " { continue }
            }
            out.append(character)
        }
        while out.last == " " { out.removeLast() }
        return out
    }
    /// Prints `iconbadge: warning: MESSAGE` on standard error.
    func warning(_ message: String) { writeErr("iconbadge: warning: \(message)\n") }
    /// Prints `iconbadge: note: MESSAGE` on standard error.
    func note(_ message: String) { writeErr("iconbadge: note: \(message)\n") }

    /// Set when writing to standard output failed (a full disk behind a
    /// redirection): the command then ends with exit 74.
    nonisolated(unsafe) static var standardOutputFailed = false

    private static func writeAll(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                if fd == 1 { standardOutputFailed = true }
                return
            }
            offset += written
        }
    }

    /// The variables iconbadge reads: `ICONBADGE_*` and `SOURCE_DATE_EPOCH`. Others
    /// are skipped by their first bytes, without making strings of them.
    private static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            pointer += 1
            guard entry[0] == 0x49 || entry[0] == 0x53 else { continue }  // "I", "S"
            let text = String(cString: entry)
            guard text.hasPrefix("ICONBADGE_") || text.hasPrefix("SOURCE_DATE_EPOCH="),
                let equals = text.firstIndex(of: "=")
            else { continue }
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return result
    }
}
