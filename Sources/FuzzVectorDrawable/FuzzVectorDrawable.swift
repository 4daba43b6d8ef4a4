// libFuzzer target: Android drawables to SVG (`AndroidDrawableSVG.file`): XMLScanner, every
// element and attribute the converter reads (<vector>, <group>, <path>, <clip-path>,
// aapt:attr gradients, <shape>, <inset>, <layer-list>, <selector>, <bitmap>, <color>),
// references through a small resource table (colours naming colours, a string of path
// data, a dimension, a bitmap, and `@drawable/self`, the input itself, for cycles), path
// data (`AndroidPathData`), and the limits (elements, reference depth, document size).
// The drawing is then drawn natively at 64 × 64 px (`AndroidDrawingPainter`, Cairo in
// this process, as `android` and `preview` draw it).
//
// Invariants: the answer is a document or an `AndroidDrawableProblem` with a reason; a
// document is within the size limit, is well-formed XML (XMLScanner reads it), and is the
// same when converted again; the native drawing never crashes and gives the same bytes
// twice; path data written once reads back to itself, and its segments are finite.
import BadgeCore
import BadgeRender
import FuzzSupport

let limits: ImageLimits = {
    var limits = ImageLimits()
    limits.maxSVGBytes = 1 << 20
    limits.maxSide = 512
    limits.maxPixels = 262_144
    return limits
}()

/// A 1 × 1 grey PNG.
let png: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B, 0x55, 0x00, 0x00, 0x00, 0x0A, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x68, 0x00, 0x00, 0x00, 0x82, 0x00, 0x81, 0x77, 0xCD, 0x72, 0xB6, 0x00, 0x00,
    0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
]

let values: [String: String] = [
    "color/a": "#FF3367D6", "color/b": "@color/a", "color/loop": "@color/loop",
    "color/clear": "@android:color/transparent",
    "string/path": "\"M0 0h24v24h-24z\"", "dimen/d": "4dp", "drawable/tint": "#80FF0000",
]

func lookup(_ input: [UInt8]) -> AndroidResourceLookup {
    AndroidResourceLookup(
        value: { reference in
            values[reference.type + "/" + reference.name].map {
                AndroidResourceValue(text: $0, path: "res/values/values.xml", line: 3)
            }
        },
        file: { reference, _ in
            switch (reference.type, reference.name) {
            case ("drawable", "self"), ("mipmap", "self"):
                return AndroidResourceFile(path: "res/drawable/self.xml", bytes: input, density: nil)
            case ("drawable", "bitmap"), ("mipmap", "bitmap"):
                return AndroidResourceFile(path: "res/drawable-xhdpi/bitmap.png", bytes: png, density: 2)
            default: return nil
            }
        })
}

func convert(_ bytes: [UInt8]) -> Result<[UInt8], AndroidDrawableProblem> {
    Result { () throws(AndroidDrawableProblem) in
        try AndroidDrawableSVG.file(
            bytes, path: "res/drawable/fuzz.xml", width: 108, height: 108, density: 2, lookup: lookup(bytes),
            limits: limits)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVectorDrawable(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    let first = convert(bytes)
    switch first {
    case .success(let document):
        precondition(document.count <= limits.maxSVGBytes, "a document over the limit")
        precondition((try? XMLScanner.parse(document)) != nil, "a document that is not well-formed XML")
        precondition(convert(bytes) == first, "not the same document twice")
        let drawing = try? AndroidDrawableSVG.fileDrawing(
            bytes, path: "res/drawable/fuzz.xml", width: 108, height: 108, density: 2, lookup: lookup(bytes),
            limits: limits)
        if let drawing {
            let drawn = try? AndroidDrawingPainter.png(drawing, width: 64, height: 64, name: "fuzz", limits: limits)
            precondition(
                (try? AndroidDrawingPainter.png(drawing, width: 64, height: 64, name: "fuzz", limits: limits)) == drawn,
                "not the same pixels twice")
        }
    case .failure(let problem):
        precondition(!problem.reason.isEmpty && !problem.path.isEmpty)
    }
    // The input as path data: what is written reads back to itself.
    if bytes.count <= 4096, let written = try? AndroidPathData.svg(String(decoding: bytes, as: UTF8.self)) {
        precondition((try? AndroidPathData.svg(written)) == written, "path data does not read back: \(written)")
        for command in AndroidPathData.segments(written) {
            let points: [Point]
            switch command {
            case .move(let p), .line(let p): points = [p]
            case .curve(let a, let b, let c): points = [a, b, c]
            case .close: points = []
            }
            precondition(points.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "a segment that is not finite")
        }
    }
    return 0
}

#if !FUZZING
    /// Without libFuzzer (a plain build): replays the files named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzVectorDrawable) }
    }
#endif
