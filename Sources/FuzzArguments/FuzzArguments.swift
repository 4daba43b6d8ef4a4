// libFuzzer target: the render command's argument parsing and every check before the
// icon is read (`BadgeCLI.parseOnly`), with no rendering and no files written.
// The input is split into arguments at NUL or newline; an argument `ICONBADGE_NAME=VALUE`
// or `SOURCE_DATE_EPOCH=VALUE` becomes an environment variable instead. The checks read the
// file system (output is not an input, golden exists, output folder writable) but never
// write. Invariant: the exit code is one of 0, 64 (usage), 65 (bad --scales plan or
// SOURCE_DATE_EPOCH), 66 (--check golden missing), 73 (output cannot be created).
import BadgeCLI
import BadgeCore
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    var arguments: [String] = []
    var environment: [String: String] = [:]
    for part in bytes.split(omittingEmptySubsequences: false, whereSeparator: { $0 == 0 || $0 == 0x0A }) {
        let text = String(decoding: part, as: UTF8.self)
        if text.hasPrefix("ICONBADGE_") || text.hasPrefix("SOURCE_DATE_EPOCH="), let equals = text.firstIndex(of: "=") {
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        } else {
            arguments.append(text)
        }
    }
    let code = BadgeCLI.parseOnly(arguments, environment: environment)
    precondition(
        [.success, .usage, .dataError, .noInput, .cannotCreate].contains(code), "unexpected exit code \(code)")
    return 0
}

#if !FUZZING
    /// Without libFuzzer (a plain build): replays the files named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzArguments) }
    }
#endif
