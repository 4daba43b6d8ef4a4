import Synchronization

extension ImageDiff {
    /// The exact mode over `rows` (one step of ``scan``): a pixel differs when some
    /// channel (R, G, B or A, straight 8-bit) differs by more than the tolerance.
    /// Byte-identical rows are skipped whole; without a diff image and with `countAll`
    /// false it stops at the first differing pixel that is not ignored. Ignored pixels
    /// are skipped (drawn as such). Differing pixels are marked in `marks`.
    ///
    /// Bands of rows run on `bands`' threads. When stopping at the first difference, the
    /// result is the raster-order one whatever the threads do: bands before the first
    /// band that found a difference always run to their end, a band after it may give up,
    /// and the bands are combined in order up to that band (so the largest channel
    /// difference covers exactly the pixels up to the first difference).
    static func exact(
        _ images: ImagePair, rows: Range<Int>, options: DiffOptions, painter: DiffPainter, marks: DiffMarks,
        bands: RowBands
    ) -> BandOutcome {
        let tolerance = min(max(options.tolerance, 0), 255)
        let stopAtFirst = !options.countAll && !painter.drawing
        let bandRows = RowBands.bandRows(width: images.width)
        let count = (rows.count + bandRows - 1) / bandRows
        let outcomes = BandOutcomes(count: count)
        // The lowest band that stopped at a difference so far (Int.max: none); only a
        // band after it may give up.
        let firstStopped = Atomic<Int>(Int.max)
        bands.forEachBand(rows: rows, bandRows: bandRows) { band, rows in
            outcomes[band] = exactBand(
                images, rows: rows, tolerance: tolerance, stopAtFirst: stopAtFirst, painter: painter, marks: marks
            ) {
                stopAtFirst && firstStopped.load(ordering: .relaxed) < band
            }
            if outcomes[band].stopped {
                _ = firstStopped.min(band, ordering: .relaxed)
            }
        }
        var combined = BandOutcome()
        for band in 0..<count {
            let outcome = outcomes[band]
            combined.maxDelta = max(combined.maxDelta, outcome.maxDelta)
            combined.different += outcome.different
            if outcome.stopped {
                combined.stopped = true
                break
            }
        }
        return combined
    }

    /// The exact mode over `rows`: 4-pixel groups whose 16 bytes are equal, or differ by
    /// no more than `tolerance` in every byte, are done as one; a group with a differing
    /// pixel (with no tolerance: any group that is not equal), a row with ignored pixels
    /// and a row's last 1 to 3 pixels are looked at pixel by pixel. `giveUp` is asked before each row (a band after one that stopped).
    static func exactBand(
        _ images: ImagePair, rows: Range<Int>, tolerance: Int, stopAtFirst: Bool, painter: DiffPainter,
        marks: DiffMarks, giveUp: () -> Bool
    ) -> BandOutcome {
        var scan = ExactScan(
            images: images, tolerance: tolerance, stopAtFirst: stopAtFirst, painter: painter, marks: marks)
        var maxVector = SIMD16<UInt8>(repeating: 0)
        let limit = SIMD16<UInt8>(repeating: UInt8(tolerance))
        let width = images.width
        rows: for y in rows {
            if giveUp() { break }
            if images.rowsEqual(y) {
                scan.painter.unchangedRow(y, of: images)
                continue
            }
            let start = y * width * 4
            let end = start + width * 4
            var k = start
            if images.ignored == nil {
                while k + 16 <= end {
                    if images.groupEqual(at: k) {
                        scan.painter.unchangedGroup(k)
                        k += 16
                        continue
                    }
                    if tolerance > 0 {
                        let (a, e) = images.group(at: k)
                        let delta = pointwiseMax(a, e) &- pointwiseMin(a, e)
                        // delta − min(delta, limit): non-zero where a byte differs by more.
                        let over = delta &- pointwiseMin(delta, limit)
                        if ImagePair.isZero(unsafeBitCast(over, to: SIMD2<UInt64>.self)) {
                            maxVector = pointwiseMax(maxVector, delta)
                            scan.painter.unchangedGroup(k)
                            k += 16
                            continue
                        }
                    }
                    for p in stride(from: k, to: k + 16, by: 4) where scan.pixel(p) {
                        scan.outcome.stopped = true
                        break rows
                    }
                    k += 16
                }
            }
            while k < end {
                if scan.pixel(k) {
                    scan.outcome.stopped = true
                    break rows
                }
                k += 4
            }
        }
        scan.outcome.maxDelta = max(scan.maxDelta, Int(maxVector.max()))
        return scan.outcome
    }

    /// One band's state in the exact mode, a value the band owns (its pixel test is a
    /// mutating method, not a closure over variables, whose every access Swift would
    /// check for exclusivity at run time).
    struct ExactScan {
        let images: ImagePair
        let tolerance: Int
        let stopAtFirst: Bool
        var painter: DiffPainter
        let marks: DiffMarks
        var outcome = BandOutcome()
        var maxDelta = 0

        init(images: ImagePair, tolerance: Int, stopAtFirst: Bool, painter: DiffPainter, marks: DiffMarks) {
            self.images = images
            self.tolerance = tolerance
            self.stopAtFirst = stopAtFirst
            self.painter = painter
            self.marks = marks
        }

        /// The pixel at byte offset `k`; true when the band stops there.
        @inline(__always)
        mutating func pixel(_ k: Int) -> Bool {
            if images.isIgnored(k) {
                painter.ignored(k)
                return false
            }
            let delta = images.maxChannelDelta(at: k)
            maxDelta = max(maxDelta, delta)
            guard delta > tolerance else {
                painter.unchanged(k)
                return false
            }
            outcome.different += 1
            if stopAtFirst { return true }
            marks.mark(k)
            if painter.drawing {
                painter.different(k, actualDarker: brightnessDelta(images.expected, images.actual, k, k) > 0)
            }
            return false
        }
    }
}
