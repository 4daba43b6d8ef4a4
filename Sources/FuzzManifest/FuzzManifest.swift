// libFuzzer target: the batch manifest parser (JSON and JSON Lines) and the planning of
// every job through the render option table (`BadgeCLI.planOnly`), with no rendering.
// Invariants: the exit code is 0, 64 or 65; and any input that is one JSON document
// survives the writer used by --report and compare --json: serialised (compact and
// pretty) and parsed again, it is the same value.
import BadgeCLI
import BadgeCore
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    let code = BadgeCLI.planOnly(manifest: bytes)
    precondition([.success, .usage, .dataError].contains(code), "unexpected exit code \(code)")
    let parser = JSONParser(maxDepth: 32)
    if let value = try? parser.parse(bytes) {
        for pretty in [false, true] {
            let text = value.serialized(pretty: pretty)
            precondition((try? parser.parse(text)) == value, "JSON round trip changed the value: \(text)")
        }
    }
    return 0
}

#if !FUZZING
    /// Without libFuzzer (a plain build): replays the files named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzManifest) }
    }
#endif
