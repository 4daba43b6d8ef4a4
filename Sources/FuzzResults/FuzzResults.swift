// libFuzzer target: merge-reports' results reader (`RunResults.read`, item by item
// within its budgets of values), the merge of one file, the HTML page (regions placed
// in percent), the JUnit file and the printed lines (issue 44).
// Invariants:
// - the exit code is 0 or 1 (a run's verdict), 65 (a hostile file), 66 (no items), or
//   an error item's own failing code; never 0 or 1 when an item is an error;
// - never a trap (the page's arithmetic on hostile regions and sizes);
// - every printed line is one line without control characters, and a line's message
//   is cut at 200 characters (TextEscaping.maxShown) plus its count.
import BadgeCLI
import BadgeCore
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResults(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    let (code, lines) = BadgeCLI.mergeOnly(results: bytes)
    precondition(
        [.success, .different, .dataError, .noInput].contains(code) || code.rawValue >= 64,
        "unexpected exit code \(code)")
    for line in lines {
        precondition(
            !line.unicodeScalars.contains { TextEscaping.isControl($0) }, "a control character: \(Array(line.utf8))")
    }
    return 0
}

#if !FUZZING
    /// Without libFuzzer (a plain build): replays the files named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzResults) }
    }
#endif
