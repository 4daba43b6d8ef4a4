// libFuzzer target: the batch manifest parser (JSON and JSON Lines) and the planning of
// every job through the render option table, with no rendering.
// Invariants:
// - the exit code is 0, 64 or 65;
// - every output a manifest names stays below the output root: relative, no `..`, a
//   file name (and a batch check's goldens and artifacts below theirs);
// - an error's message is one printable line: no control character reaches a terminal
//   or a CI log from hostile paths or values (the escaping rule, TextEscaping);
// - any input that is one JSON document survives the writer used by --report and
//   compare --json: serialised (compact and pretty) and parsed again, it is the same value.
import BadgeCLI
import BadgeCore
import BadgeJobs
import BadgeSystem
import FuzzSupport

/// Whether `text` holds a C0 or C1 control character or DEL.
func hasControlCharacter(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
}

func checkStaysBelowRoot(_ location: OutputLocation, root: String) {
    precondition(location.root == root, "\(location) is not below \(root)")
    precondition(!location.relative.isAbsolute && location.relative.parents == 0, "\(location) leaves \(root)")
    precondition(!location.relative.components.isEmpty, "\(location) names no file")
    precondition(
        !location.relative.components.contains { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("/") },
        "\(location) has a component that walks")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    let code = BadgeCLI.planOnly(manifest: bytes)
    precondition([.success, .usage, .dataError].contains(code), "unexpected exit code \(code)")

    for check in [false, true] {
        do throws(BadgeError) {
            let manifest = try Manifest.parse(bytes, path: "m.json")
            let context = JobPlanner.BatchContext(
                base: RenderSettings(), scales: nil, outputRoot: OutputRoot("fuzz-root"),
                check: check
                    ? JobPlanner.BatchCheck(
                        goldens: "fuzz-goldens", artifacts: "fuzz-artifacts", update: .all, compare: CompareSettings())
                    : nil,
                creationDate: nil, manifestPath: "m.json")
            for job in try JobPlanner.manifest(manifest, context: context) {
                if case .file(let location, _) = job.output { checkStaysBelowRoot(location, root: "fuzz-root") }
                if let target = job.check {
                    checkStaysBelowRoot(target.golden, root: "fuzz-goldens")
                    checkStaysBelowRoot(target.actual, root: "fuzz-artifacts")
                    checkStaysBelowRoot(target.diff, root: "fuzz-artifacts")
                }
                precondition(!hasControlCharacter(job.label), "a label with a control character")
            }
        } catch {
            precondition(!hasControlCharacter(error.message), "an unescaped message: \(Array(error.message.utf8))")
        }
    }

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
