// libFuzzer target: SVG and SVGZ loading through `ImageFile.pixels(of:)`: sniffing, gunzip,
// the size limits, the embedded-image pre-scan, and the isolated decoder's parent side
// (spawning `iconbadge-loader --isolated-decode`, feeding it the document, reading and
// checking its answer). librsvg runs in that child, which fuzz/run.sh puts beside this
// binary: a librsvg crash or hang costs the child and comes back as exit 65, as in the CLI. PNG (FuzzPNG's) and the gdk-pixbuf formats are not decoded here.
// Limits keep renders small: 512 px side, 262,144 pixels, 1 MiB of SVG after gunzip.
//
// `SVGEmbeddedImages.scan` (pure Swift, in this process) sees every input three ways: as a
// document, and base64-encoded as the payload of a data: URL inside a small document, once
// declared image/svg+xml (a nested document) and once with no media type (the raster
// header readers: PNG, JPEG, GIF, WebP, BMP, and the refusals). It must never trap, must
// return the same answer twice, and what it accepts must be within the limits.
// FUZZ_SVG_SCAN_ONLY=1 in the environment skips the decode (and its child), for thousands
// of scans a second instead of tens of decodes.
import BadgeCore
import BadgeRender
import FuzzSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let scanOnly = getenv("FUZZ_SVG_SCAN_ONLY") != nil

let svgLimits: ImageLimits = {
    var limits = ImageLimits()
    limits.maxSide = 512
    limits.maxPixels = 262_144
    limits.maxSVGBytes = 1 << 20
    return limits
}()

func checkEmbeddedImageScan(_ bytes: [UInt8]) {
    let encoded = Base64.encode(bytes)
    let documents =
        [bytes]
        + ["image/svg+xml", ""].map { type in
            Array(
                ("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">"
                    + "<image xlink:href=\"data:\(type);base64,\(encoded)\"/></svg>").utf8)
        }
    for document in documents {
        let first = Result { () throws(SVGEmbeddedImagesProblem) in
            try SVGEmbeddedImages.scan(document, limits: svgLimits)
        }
        let second = Result { () throws(SVGEmbeddedImagesProblem) in
            try SVGEmbeddedImages.scan(document, limits: svgLimits)
        }
        precondition(first == second, "the scan is not deterministic")
        if case .success(let summary) = first {
            precondition(summary.totalPixels == summary.images.reduce(0) { $0 + $1.pixels })
            precondition(summary.totalPixels <= svgLimits.maxPixels)
            for image in summary.images {
                precondition(image.width > 0 && image.height > 0)
                precondition(image.width <= svgLimits.maxSide && image.height <= svgLimits.maxSide)
                precondition(image.depth <= SVGEmbeddedImages.maxNestingDepth)
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    checkEmbeddedImageScan(bytes)
    // Raster inputs were scanned as data: URL payloads; they are not decoded here.
    guard !scanOnly, !FuzzInput.isPixbufFormat(bytes), !bytes.starts(with: FuzzInput.pngSignature) else { return 0 }
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
