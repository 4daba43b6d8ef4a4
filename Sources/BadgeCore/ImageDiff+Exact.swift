extension ImageDiff {
    /// The exact mode: a pixel differs when some channel (R, G, B or A, straight 8-bit)
    /// differs by more than the tolerance. Byte-identical rows are skipped whole; without a
    /// diff image and with `countAll` false it stops at the first differing pixel that
    /// is not ignored. Ignored pixels are skipped (drawn as such).
    static func exact(_ images: ImagePair, options: DiffOptions, painter: DiffPainter, into result: inout DiffResult) {
        let tolerance = min(max(options.tolerance, 0), 255)
        let stopAtFirst = !options.countAll && !painter.drawing
        let width = images.width
        var different = 0
        var maxDelta = 0
        rows: for y in 0..<images.height {
            if images.rowsEqual(y) {
                painter.unchangedRow(y, of: images)
                continue
            }
            let start = y * width * 4
            for k in stride(from: start, to: start + width * 4, by: 4) {
                if images.isIgnored(k) {
                    painter.ignored(k)
                    continue
                }
                let delta = images.maxChannelDelta(at: k)
                maxDelta = max(maxDelta, delta)
                guard delta > tolerance else {
                    painter.unchanged(k)
                    continue
                }
                different += 1
                if stopAtFirst {
                    result.stoppedEarly = true
                    break rows
                }
                if painter.drawing {
                    painter.different(k, actualDarker: brightnessDelta(images.expected, images.actual, k, k) > 0)
                }
            }
        }
        result.differentPixels = different
        result.maxChannelDelta = maxDelta
    }
}
