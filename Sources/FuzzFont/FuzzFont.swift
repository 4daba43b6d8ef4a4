// libFuzzer target: a font from bytes through `FontProbe.check`, as `--font-file` opens
// one: the table directory, the bitmap tables (sbix, CBLC/CBDT, EBLC/EBDT) and COLR
// layers checked before FreeType reads them, FreeType's face, HarfBuzz shaping a short
// label through FontChain and TextShaper (which also measures its ink with Cairo), and
// Cairo drawing it over FreeType onto a 512 × 128 surface. Each input gets its own
// FreeType library and face, freed when Cairo lets go of them, so nothing leaks.
// Invariant: 65 (the bytes are refused) or success; never a crash, a 70 or another code.
import BadgeCore
import BadgeRender
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFont(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    do throws(BadgeError) {
        try FontProbe.check(bytes: bytes, origin: "fuzz.ttf")
    } catch {
        precondition(error.exitCode == .dataError, "unexpected error: \(error.message)")
    }
    return 0
}

#if !FUZZING
    /// Without libFuzzer (a plain build): replays the files named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzFont) }
    }
#endif
