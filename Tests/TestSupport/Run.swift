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
/// environment and working folder; waits for it.
public func runIconbadge(
    _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], in folder: String? = nil
) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Paths.binary)
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
    process.standardInput = input
    try process.run()
    if let stdin {
        input.fileHandleForWriting.write(stdin)
    }
    try? input.fileHandleForWriting.close()
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
    let outData = outBox.data
    process.waitUntilExit()
    return RunResult(
        status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
}
