// libFuzzer target: `ImageDiff.compare` in the exact and the perceptual (pixelmatch) mode,
// with a diff image. Input: one byte of options, then two halves, the expected and the
// actual image. A half that starts with the PNG signature is decoded (limits 512 px,
// 262,144 pixels); any other half is raw RGBA with a 2-byte little-endian width first
// (at most 1024; the height is what the bytes fill). When the sizes differ, the actual
// image is also compared after being re-tiled to the expected image's size, so the
// pixel loops run on every input. Invariants: counts within the pixel count, a diff image
// of the compared size, the counts the same with the two images swapped (ImageDiff's
// contract), and an image compared with itself has no differing pixel.
import BadgeCore
import BadgeRender
import FuzzSupport

let compareLimits: ImageLimits = {
    var limits = ImageLimits()
    limits.maxSide = 512
    limits.maxPixels = 262_144
    return limits
}()

func image(_ half: ArraySlice<UInt8>) -> PixelBuffer {
    if half.starts(with: FuzzInput.pngSignature),
        let pixels = try? ImageFile.pixels(of: Array(half), path: "fuzz.png", limits: compareLimits)
    {
        return pixels
    }
    guard half.count >= 2 else { return PixelBuffer(width: 0, height: 0, bytes: []) }
    let width = (Int(half[half.startIndex]) | Int(half[half.startIndex + 1]) << 8) % 1025
    let body = half.dropFirst(2)
    let height = width == 0 ? 0 : body.count / 4 / width
    return PixelBuffer(width: width, height: height, bytes: Array(body.prefix(width * height * 4)))
}

/// `source`'s bytes repeated to fill `width` × `height`.
func retiled(_ source: PixelBuffer, width: Int, height: Int) -> PixelBuffer {
    let count = width * height * 4
    guard !source.bytes.isEmpty else {
        return PixelBuffer(width: width, height: height, bytes: [UInt8](repeating: 0, count: count))
    }
    return PixelBuffer(width: width, height: height, bytes: (0..<count).map { source.bytes[$0 % source.bytes.count] })
}

func check(_ result: DiffResult, _ expected: PixelBuffer) {
    guard result.sameSize else {
        precondition(result.differentPixels == 0 && result.diff == nil)
        return
    }
    precondition(result.totalPixels == expected.width * expected.height)
    precondition(result.differentPixels + result.antialiasedPixels <= result.totalPixels)
    if let diff = result.diff {
        precondition(diff.width == expected.width && diff.height == expected.height)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompare(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    guard let flags = bytes.first else { return 0 }
    let body = bytes.dropFirst()
    let middle = body.startIndex + body.count / 2
    let expected = image(body[..<middle])
    var actual = image(body[middle...])

    let level = Int(flags >> 4)  // 0...15
    var exact = DiffOptions(tolerance: level * 17, diffImage: true)
    var perceptual = DiffOptions(threshold: Double(level) / 15, diffImage: true)
    perceptual.includeAntialiased = flags & 1 != 0
    exact.diffMask = flags & 2 != 0
    perceptual.diffMask = flags & 2 != 0
    if flags & 4 != 0 {
        perceptual.alternateDarker = Color(red: 0, green: 255, blue: 0)
        exact.alternateDarker = perceptual.alternateDarker
    }
    if flags & 8 != 0 { perceptual.unchangedOpacity = 1 }

    for _ in 0..<2 {
        let exactResult = ImageDiff.compare(actual, expected, options: exact)
        let perceptualResult = ImageDiff.compare(actual, expected, options: perceptual)
        check(exactResult, expected)
        check(perceptualResult, expected)
        // ImageDiff's contract: the counts do not depend on which image is the expected one.
        let swapped = ImageDiff.compare(expected, actual, options: perceptual)
        precondition(
            swapped.differentPixels == perceptualResult.differentPixels
                && swapped.antialiasedPixels == perceptualResult.antialiasedPixels,
            "perceptual counts depend on the order")
        precondition(
            ImageDiff.compare(expected, actual, options: exact).differentPixels == exactResult.differentPixels,
            "exact counts depend on the order")
        var quick = DiffOptions.exact
        quick.countAll = false
        _ = ImageDiff.compare(actual, expected, options: quick)
        if actual.width == expected.width && actual.height == expected.height { break }
        actual = retiled(actual, width: expected.width, height: expected.height)
    }
    precondition(ImageDiff.compare(expected, expected, options: .exact).differentPixels == 0)
    precondition(ImageDiff.compare(expected, expected, options: perceptual).differentPixels == 0)
    return 0
}

#if !FUZZING
    /// Without libFuzzer (a plain build): replays the files named on the command line.
    @main enum Replay {
        static func main() { FuzzReplay.run(fuzzCompare) }
    }
#endif
