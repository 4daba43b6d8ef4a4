// libFuzzer target: SVG and SVGZ loading through `ImageFile.pixels(of:)`: sniffing, gunzip,
// the size limits, and the isolated decoder's parent side (spawning `iconbadge
// --isolated-decode`, feeding it the document, reading and checking its answer). librsvg
// runs in that child, which fuzz/run.sh provides as a plain (uninstrumented) iconbadge
// beside this binary: a librsvg crash or hang costs the child and comes back as exit 65,
// as in the CLI. PNG (FuzzPNG's) and the gdk-pixbuf formats are skipped. Limits keep
// renders small: 512 px side, 262,144 pixels, 1 MiB of SVG after gunzip.
import BadgeCore
import BadgeRender
import FuzzSupport

let svgLimits: ImageLimits = {
    var limits = ImageLimits()
    limits.maxSide = 512
    limits.maxPixels = 262_144
    limits.maxSVGBytes = 1 << 20
    return limits
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    guard !FuzzInput.isPixbufFormat(bytes), !bytes.starts(with: FuzzInput.pngSignature) else { return -1 }
    do throws(BadgeError) {
        let pixels = try ImageFile.pixels(of: bytes, path: "fuzz.svg", limits: svgLimits)
        precondition(pixels.width <= 512 && pixels.height <= 512)
    } catch {
        // 69: no helper or no librsvg; fuzz/run.sh makes sure both are there.
        precondition(error.exitCode == .dataError, "unexpected error: \(error.message)")
    }
    return 0
}

#if !FUZZING
    /// Without libFuzzer (a plain build): replays the files named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzSVG) }
    }
#endif
