/// The one pass behind every comparison: the images are compared in bands of rows, top
/// to bottom, whether both are in memory whole (``ImageDiff/compare(_:_:options:ignoring:bands:)``)
/// or read band by band from their files (``ImageDiff/compare(width:height:expectedWidth:expectedHeight:options:ignoring:bands:load:didCompare:)``),
/// so both give the same counts, regions and diff pixels.
extension ImageDiff {
    /// Bands of rows (``RowBands``) in each step of the pass: 16, so that a step holds
    /// about 2²⁰ pixels (4 MiB of RGBA per image) and its bands still spread over the
    /// threads.
    public static let bandsPerStep = 16

    /// Rows compared in one step of the pass for images `width` pixels wide: what a
    /// reader must hold at once, besides ``contextRows`` above and below.
    public static func stepRows(width: Int) -> Int { RowBands.bandRows(width: width) * bandsPerStep }

    /// Rows above and below a step that the perceptual mode reads too: its
    /// anti-aliasing test looks at a pixel's neighbours and at their neighbours.
    public static let contextRows = 2

    /// One step of rows once compared, for a caller that writes them out as they come
    /// (a streamed comparison): each pointer addresses row `rows.lowerBound` of its
    /// image, `width × 4` bytes a row (straight RGBA), valid only during the call.
    public struct ComparedRows {
        /// The rows (pixels from the top).
        public let rows: Range<Int>
        /// The actual image's rows.
        public let actual: UnsafePointer<UInt8>
        /// The expected image's rows.
        public let expected: UnsafePointer<UInt8>
        /// The diff image's rows, when one is drawn.
        public let diff: UnsafePointer<UInt8>?
    }

    /// Compares two images read step by step from their decoders: the same pass as the
    /// in-memory ``compare(_:_:options:ignoring:bands:)``, with the same result (counts,
    /// ``DiffResult/regions``), but no image is ever whole in memory. The diff image
    /// (when ``DiffOptions/diffImage``) is handed to `didCompare` step by step and not
    /// kept (``DiffResult/diff`` is nil).
    ///
    /// Images of different sizes are not read: the result says so, as the in-memory
    /// comparison's does.
    ///
    /// - Parameters:
    ///   - width, height: the actual image's size (pixels); `expectedWidth`,
    ///     `expectedHeight` the expected one's.
    ///   - ignoring: pixels not compared, the size of both images (as for the
    ///     in-memory comparison).
    ///   - load: makes rows `rows` of both images readable and returns the address of
    ///     row `rows.lowerBound` of each; asked for ranges that only move down, each
    ///     at most ``stepRows(width:)`` + 2 × ``contextRows`` rows, overlapping the
    ///     last by at most 2 × ``contextRows`` rows. The same address for both images
    ///     says they are one (the same file).
    ///   - didCompare: called after each step, in order.
    /// - Throws: what `load` or `didCompare` throw; the comparison stops there.
    public static func compare<E: Error>(
        width: Int, height: Int, expectedWidth: Int, expectedHeight: Int, options: DiffOptions,
        ignoring: IgnoreMap? = nil, bands: RowBands = .serial,
        load: (_ rows: Range<Int>) throws(E) -> (actual: UnsafePointer<UInt8>, expected: UnsafePointer<UInt8>),
        didCompare: (ComparedRows) throws(E) -> Void
    ) throws(E) -> DiffResult {
        try compare(
            width: width, height: height, expectedWidth: expectedWidth, expectedHeight: expectedHeight,
            options: options, ignoring: ignoring, bands: bands, stepRows: stepRows(width: width), load: load,
            didCompare: didCompare)
    }

    /// The streamed comparison in steps of `step` rows (tests take smaller steps than
    /// ``stepRows(width:)`` to see many of them on small images).
    static func compare<E: Error>(
        width: Int, height: Int, expectedWidth: Int, expectedHeight: Int, options: DiffOptions,
        ignoring: IgnoreMap?, bands: RowBands, stepRows step: Int,
        load: (_ rows: Range<Int>) throws(E) -> (actual: UnsafePointer<UInt8>, expected: UnsafePointer<UInt8>),
        didCompare: (ComparedRows) throws(E) -> Void
    ) throws(E) -> DiffResult {
        var result = DiffResult(
            sameSize: width == expectedWidth && height == expectedHeight, differentPixels: 0, antialiasedPixels: 0,
            totalPixels: 0, maxChannelDelta: 0, width: width, height: height, expectedWidth: expectedWidth,
            expectedHeight: expectedHeight, diff: nil, stoppedEarly: false)
        guard result.sameSize else { return result }
        let map = ignoring.flatMap { $0.isEmpty ? nil : $0 }
        if let map {
            precondition(map.width == width && map.height == height, "ignore map size differs from the images'")
        }
        let noFlags: [UInt8] = []
        try (map?.flags ?? noFlags).withUnsafeBufferPointer { (flags) throws(E) in
            let frame = Frame(
                width: width, height: height, ignored: map == nil ? nil : flags.baseAddress,
                ignoredCount: map?.count ?? 0)
            try scan(
                frame, options: options, bands: bands, diff: options.diffImage ? .steps : .none, step: step,
                load: load, didCompare: didCompare, into: &result)
        }
        return result
    }

    /// The size of the compared images and their ignored pixels (one flag byte per
    /// pixel, nil when none is ignored).
    struct Frame {
        let width: Int
        let height: Int
        let ignored: UnsafePointer<UInt8>?
        let ignoredCount: Int
    }

    /// Where the diff image's pixels go.
    enum DiffTarget {
        /// No diff image.
        case none
        /// The whole diff image's buffer (`width × height × 4` bytes).
        case whole(UnsafeMutablePointer<UInt8>)
        /// A buffer of one step, handed to the caller after each.
        case steps
    }

    /// The pass: for each step of rows, load them, compare them on `bands`' threads,
    /// mark the differing pixels, gather them into regions, and hand the rows on.
    ///
    /// Each image is addressed through its *origin*: the address row 0 would have if
    /// the whole image were in memory, so the modes' byte offsets (`(y × width + x) × 4`,
    /// which pixelmatch's background pattern also reads) are the same whole or
    /// streamed. Only the loaded rows are ever read through it.
    static func scan<E: Error>(
        _ frame: Frame, options: DiffOptions, bands: RowBands, diff: DiffTarget, step: Int,
        load: (Range<Int>) throws(E) -> (actual: UnsafePointer<UInt8>, expected: UnsafePointer<UInt8>),
        didCompare: (ComparedRows) throws(E) -> Void, into result: inout DiffResult
    ) throws(E) {
        let width = frame.width
        let height = frame.height
        result.totalPixels = width * height
        result.ignoredPixels = frame.ignoredCount
        guard width > 0 && height > 0 else {
            result.regions = DiffRegions.none
            return
        }
        let rowBytes = width * 4
        let context = options.threshold == nil ? 0 : contextRows
        let drawing: Bool
        if case .none = diff { drawing = false } else { drawing = true }
        // Stopping at the first difference (exact mode) gives no regions; every other
        // pass counts every pixel, so it marks them.
        let counting = options.threshold != nil || options.countAll || drawing
        let rowWords = (width + 63) / 64
        let marks = counting ? UnsafeMutablePointer<UInt64>.allocate(capacity: step * rowWords) : nil
        defer { marks?.deallocate() }
        var stepDiff: UnsafeMutablePointer<UInt8>?
        if case .steps = diff { stepDiff = .allocate(capacity: step * rowBytes) }
        defer { stepDiff?.deallocate() }
        var finder = RegionFinder()
        var outcome = BandOutcome()
        var top = 0
        while top < height {
            let rows = top..<min(height, top + step)
            let loaded = max(0, rows.lowerBound - context)..<min(height, rows.upperBound + context)
            let (actualRows, expectedRows) = try load(loaded)
            let actual = origin(actualRows, rows: loaded.lowerBound, rowBytes: rowBytes)
            let expected =
                actualRows == expectedRows ? actual : origin(expectedRows, rows: loaded.lowerBound, rowBytes: rowBytes)
            var diffOrigin: UnsafeMutablePointer<UInt8>?
            switch diff {
            case .none: diffOrigin = nil
            case .whole(let buffer): diffOrigin = buffer
            case .steps:
                if options.diffMask { stepDiff!.update(repeating: 0, count: rows.count * rowBytes) }
                diffOrigin = origin(stepDiff!, rows: rows.lowerBound, rowBytes: rowBytes)
            }
            if let marks { marks.update(repeating: 0, count: rows.count * rowWords) }
            let images = ImagePair(
                actual: actual, expected: expected, width: width, height: height, ignored: frame.ignored)
            let painter = DiffPainter(output: diffOrigin, expected: expected, options: options)
            let marker = DiffMarks(
                words: marks.map { origin($0, rows: rows.lowerBound, rowBytes: rowWords) }, rowWords: rowWords,
                width: width)
            let found =
                options.threshold != nil
                ? perceptual(images, rows: rows, options: options, painter: painter, marks: marker, bands: bands)
                : exact(images, rows: rows, options: options, painter: painter, marks: marker, bands: bands)
            outcome.different += found.different
            outcome.antialiased += found.antialiased
            outcome.maxDelta = max(outcome.maxDelta, found.maxDelta)
            if found.stopped {
                outcome.stopped = true
                break
            }
            if let marks {
                for y in rows {
                    finder.addRow(y, runs: runs(marks + (y - rows.lowerBound) * rowWords, words: rowWords))
                }
            }
            do {
                let shift = (rows.lowerBound - loaded.lowerBound) * rowBytes
                try didCompare(
                    ComparedRows(
                        rows: rows, actual: actualRows + shift, expected: expectedRows + shift,
                        diff: diffOrigin.map { UnsafePointer($0 + rows.lowerBound * rowBytes) }))
            }
            top = rows.upperBound
        }
        result.differentPixels = outcome.different
        result.antialiasedPixels = outcome.antialiased
        result.maxChannelDelta = outcome.maxDelta
        result.stoppedEarly = outcome.stopped
        result.regions = counting && !outcome.stopped ? finder.finish() : nil
    }

    /// The origin of an image whose row `rows` is at `pointer`: the address of its row
    /// 0, computed as a number (it may lie outside any allocation and is only ever
    /// offset back into the loaded rows).
    @inline(__always)
    static func origin<T>(_ pointer: UnsafeMutablePointer<T>, rows: Int, rowBytes stride: Int)
        -> UnsafeMutablePointer<T>
    {
        UnsafeMutablePointer(
            bitPattern: originAddress(Int(bitPattern: pointer), rows * stride * MemoryLayout<T>.stride))!
    }

    @inline(__always)
    static func origin(_ pointer: UnsafePointer<UInt8>, rows: Int, rowBytes: Int) -> UnsafePointer<UInt8> {
        UnsafePointer(bitPattern: originAddress(Int(bitPattern: pointer), rows * rowBytes))!
    }

    /// `address` − `bytes`, as an unsigned number (no overflow check: the result is an
    /// address never read outside the loaded rows).
    @inline(__always)
    private static func originAddress(_ address: Int, _ bytes: Int) -> UInt {
        UInt(bitPattern: address) &- UInt(bytes)
    }

    /// The runs of set bits of one row of marks (`words` 64-bit words, bit `x % 64` of
    /// word `x / 64` for pixel x), left to right, as (first pixel, length).
    static func runs(_ row: UnsafePointer<UInt64>, words: Int) -> [(x: Int, length: Int)] {
        var found: [(x: Int, length: Int)] = []
        var start = -1
        for index in 0..<words {
            let word = row[index]
            if word == 0 {
                if start >= 0 {
                    found.append((start, index * 64 - start))
                    start = -1
                }
                continue
            }
            if word == ~0 {
                if start < 0 { start = index * 64 }
                continue
            }
            var bit = 0
            while bit < 64 {
                let rest = word >> UInt64(bit)
                if start < 0 {
                    if rest == 0 { break }
                    bit += rest.trailingZeroBitCount
                    start = index * 64 + bit
                } else {
                    bit += (~rest).trailingZeroBitCount
                    if bit >= 64 { break }
                    found.append((start, index * 64 + bit - start))
                    start = -1
                }
            }
        }
        if start >= 0 { found.append((start, words * 64 - start)) }
        return found
    }

    /// The differing pixels of a step, one bit each (rows of `rowWords` 64-bit words
    /// from `words`, the marks' origin): what regions are found from. Bands mark
    /// disjoint rows, so whole words (hence `@unchecked Sendable`).
    struct DiffMarks: @unchecked Sendable {
        let words: UnsafeMutablePointer<UInt64>?
        let rowWords: Int
        let width: Int

        /// Marks the pixel at byte offset `k`.
        @inline(__always)
        func mark(_ k: Int) {
            guard let words else { return }
            let index = k >> 2
            let y = index / width
            let x = index - y * width
            words[y * rowWords + (x >> 6)] |= 1 << UInt64(x & 63)
        }
    }
}
