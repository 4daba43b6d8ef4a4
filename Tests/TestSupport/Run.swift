import Foundation
import Synchronization

/// The outcome of running the built binary.
public struct RunResult: Sendable {
    /// Exit status.
    public var status: Int32
    /// Standard output bytes.
    public var stdout: Data
    /// Standard error as text.
    public var stderr: String
    /// Standard output as text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error split into non-empty lines.
    public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs the built `iconbadge` with `arguments`, optional standard input, extra
/// environment and working folder; waits for it. Standard input is a pipe (empty
/// unless `stdin` is given).
public func runIconbadge(
    _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], in folder: String? = nil
) throws -> RunResult {
    try launch(Paths.binary, arguments, stdin: .data(stdin ?? Data()), environment: environment, folder: folder)
}

/// Runs the built `iconbadge` with standard input opened on the file at `stdinFile`
/// (as a shell's `< FILE`).
public func runIconbadge(_ arguments: [String], stdinFile: String) throws -> RunResult {
    try launch(Paths.binary, arguments, stdin: .file(stdinFile), environment: [:], folder: nil)
}

/// Where a launched process's standard input comes from.
private enum StandardInput {
    case data(Data)
    case file(String)
}

/// Starts `executable` without the caller's ICONBADGE_ variables, feeds `stdin`
/// (bytes through a pipe, or a file), reads both output pipes to the end and waits.
private func launch(
    _ executable: String, _ arguments: [String], stdin: StandardInput, environment: [String: String],
    folder: String?
) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    // The host's CI variables would change what ICONBADGE_UPDATE does: tests give them.
    let ci: Set = [
        "CI", "GITHUB_ACTIONS", "GITLAB_CI", "TF_BUILD", "BUILDKITE", "CIRCLECI", "TRAVIS", "JENKINS_URL",
        "TEAMCITY_VERSION", "CODEBUILD_BUILD_ID", "BITBUCKET_BUILD_NUMBER", "DRONE",
    ]
    var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ICONBADGE_") && !ci.contains($0.key) }
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    switch stdin {
    case .data: process.standardInput = input
    case .file(let path): process.standardInput = FileHandle(forReadingAtPath: path)
    }
    try process.run()
    let watchdog = Watchdog(process)
    if case .data(let bytes) = stdin {
        if !bytes.isEmpty { input.fileHandleForWriting.write(bytes) }
        try? input.fileHandleForWriting.close()
    }
    // Read both pipes fully before waiting, so a large output cannot block the child.
    final class Box: @unchecked Sendable { var data = Data() }
    let outBox = Box()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        outBox.data = out.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    try watchdog.check(executable, arguments)
    return RunResult(
        status: process.terminationStatus, stdout: outBox.data, stderr: String(decoding: errData, as: UTF8.self))
}

/// A run of the built binary measured by GNU time (a small C parent, so its peak
/// RSS is the child's own, not a copy of this large test process).
public struct MeasuredRun: Sendable {
    /// Exit status (from the binary, passed through by time).
    public var status: Int32
    /// Standard error of the binary alone.
    public var stderr: String
    /// Peak resident memory (KiB).
    public var peakKiB: Int
}

/// Runs the built `iconbadge` under `/usr/bin/time` and reports status, stderr and
/// peak memory. (Not its wall time: speed is measured by `make bench`, against a
/// peer in the same run, never by a test.)
public func runMeasured(_ arguments: [String]) throws -> MeasuredRun {
    let report = NSTemporaryDirectory() + "iconbadge-time-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: report) }
    let run = try runIconbadgeWith(executable: "/usr/bin/time", ["-f", "%M", "-o", report, Paths.binary] + arguments)
    // time writes "Command exited with non-zero status N" before the figure when N != 0.
    let lines = (try String(contentsOfFile: report, encoding: .utf8)).split(separator: "\n")
    guard let peak = lines.last.flatMap({ Int($0) }) else {
        throw TestFailure(description: "/usr/bin/time wrote no peak memory figure: \(lines)")
    }
    return MeasuredRun(status: run.status, stderr: run.stderr, peakKiB: peak)
}

/// Runs any executable with arguments and returns its result (for wrappers such as
/// /usr/bin/time or setpriv around the binary); standard input is /dev/null.
public func runIconbadgeWith(executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
    -> RunResult
{
    try launch(executable, arguments, stdin: .file("/dev/null"), environment: environment, folder: nil)
}

/// How long a process a test starts may run before it is killed and the test fails.
/// It is no speed check (speed belongs to `make bench`): it turns a hang (a blocked
/// open, a deadlock) into a failure that says so instead of a suite that never ends.
/// Far above any honest run, also under ThreadSanitizer on a loaded 2-core machine.
public let watchdogSeconds = 300

/// An error that fails a test with its description.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// The error a test fails with when a process it started outlived `watchdogSeconds`.
public struct WatchdogExpired: Error, CustomStringConvertible {
    public let description: String
}

/// Kills a process and its descendants if it has not ended `watchdogSeconds` after
/// it started; `check` (called once it has ended) then throws.
final class Watchdog: Sendable {
    private let state = Mutex((ended: false, fired: false))

    init(_ process: Process) {
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(watchdogSeconds)) { [self] in
            state.withLock { state in
                guard !state.ended else { return }
                state.fired = true
                for member in processTree(pid) { kill(member, SIGKILL) }
            }
        }
    }

    /// Throws `WatchdogExpired` if the watchdog killed the process.
    func check(_ executable: String, _ arguments: [String]) throws {
        let fired = state.withLock { state in
            state.ended = true
            return state.fired
        }
        if fired {
            throw WatchdogExpired(
                description: "\(executable) \(arguments.joined(separator: " ")) was still running after "
                    + "\(watchdogSeconds) s and was killed: it hangs (this is no speed limit)")
        }
    }
}

/// `pid` and every process below it, parents first (read from /proc/PID/task/*/children).
public func processTree(_ pid: pid_t) -> [pid_t] {
    [pid] + childProcesses(of: pid).flatMap(processTree)
}

/// The processes whose parent is `pid` (any of its threads), from /proc.
public func childProcesses(of pid: pid_t) -> [pid_t] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.flatMap { task -> [pid_t] in
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}

/// The command line of process `pid` (its arguments joined by spaces), or nil when it
/// has ended.
public func commandLine(of pid: pid_t) -> String? {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
    return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
}
