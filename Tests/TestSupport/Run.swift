import Foundation

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
    var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ICONBADGE_") }
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
    /// Wall time (seconds).
    public var seconds: Double
    /// Peak resident memory (KiB).
    public var peakKiB: Int
}

/// Runs the built `iconbadge` under `/usr/bin/time` and reports status, stderr,
/// wall time and peak memory.
public func runMeasured(_ arguments: [String]) throws -> MeasuredRun {
    let report = NSTemporaryDirectory() + "iconbadge-time-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: report) }
    let run = try runIconbadgeWith(
        executable: "/usr/bin/time", ["-f", "%e %M", "-o", report, Paths.binary] + arguments)
    let fields = (try String(contentsOfFile: report, encoding: .utf8)).split(whereSeparator: { $0 == " " || $0 == "\n" }
    )
    .filter { Double($0) != nil }
    let seconds = fields.count >= 2 ? Double(fields[fields.count - 2]) ?? 0 : 0
    let peak = fields.count >= 2 ? Int(fields[fields.count - 1]) ?? 0 : 0
    return MeasuredRun(status: run.status, stderr: run.stderr, seconds: seconds, peakKiB: peak)
}

/// Runs any executable with arguments and returns its result (for wrappers such as
/// /usr/bin/time or setpriv around the binary); standard input is /dev/null.
public func runIconbadgeWith(executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
    -> RunResult
{
    try launch(executable, arguments, stdin: .file("/dev/null"), environment: environment, folder: nil)
}
