// libFuzzer target: PNG pre-flight (`PNGPreflight`) and decoding through libpng
// (`ImageFile.pixels(of:)`). Inputs that are not PNG (no signature, no IHDR at byte 12)
// only go through the pre-flight, never to librsvg or gdk-pixbuf.
// Limits are smaller than the CLI's (4096 px side, 2048² pixels) so that one input
// allocates at most 16 MiB a surface, well inside libFuzzer's -malloc_limit_mb=256.
// Invariant: a decoded image (up to 65,536 pixels) written with iconbadge's PNG encoder
// and decoded again gives the same straight RGBA pixels, as goldens need.
import BadgeCore
import BadgeRender
import FuzzSupport

let pngLimits: ImageLimits = {
    var limits = ImageLimits()
    limits.maxSide = 4096
    limits.maxPixels = 2048 * 2048
    limits.maxSVGBytes = 1 << 20
    return limits
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    let pngLike =
        bytes.starts(with: FuzzInput.pngSignature)
        || (bytes.count >= 16 && bytes[12..<16].elementsEqual("IHDR".utf8) && !FuzzInput.isPixbufFormat(bytes)
            && bytes.first != 0x1F)
    guard pngLike else {
        // Not for libpng (nor librsvg, gdk-pixbuf): only the pre-flight sees it.
        _ = bytes.withUnsafeBytes { try? PNGPreflight.check($0, limits: pngLimits) }
        return 0
    }
    do throws(BadgeError) {
        let pixels = try ImageFile.pixels(of: bytes, path: "fuzz", limits: pngLimits)
        precondition(pixels.bytes.count == pixels.width * pixels.height * 4)
        // What a golden goes through: the decoded pixels written as PNG and read back
        // are the same pixels (kept to small images, for speed).
        if pixels.width * pixels.height <= 65536 {
            let encoded = try ImageFile.pngData(of: pixels, compression: .fast)
            let again = try ImageFile.pixels(of: encoded, path: "fuzz-again.png", limits: pngLimits)
            precondition(again == pixels, "PNG write and read back changed the pixels")
        }
    } catch {
        precondition(error.exitCode == .dataError, "unexpected error: \(error.message)")
    }
    return 0
}

#if !FUZZING
    /// Without libFuzzer (a plain build): replays the files named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzPNG) }
    }
#endif
