// libFuzzer target: `Color(parsing:)` on the input as UTF-8 (invalid bytes repaired).
// Invariant: a parsed colour's `#RRGGBBAA` description parses back to itself.
import BadgeCore
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzColor(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = String(decoding: FuzzInput.bytes(data, size), as: UTF8.self)
    do throws(ColorSyntaxError) {
        let color = try Color(parsing: text)
        precondition((try? Color(parsing: color.description)) == color, "\(color) does not parse back")
    } catch {
        _ = error.problem
    }
    return 0
}

#if !FUZZING
    /// Without libFuzzer (a plain build): replays the files named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzColor) }
    }
#endif
