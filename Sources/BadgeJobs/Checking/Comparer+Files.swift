import BadgeCore
import BadgeRender

extension Comparer {
    /// When a comparison of two files makes one of its images as a PNG (an artifact or
    /// a report's image).
    package enum Wanted: Sendable {
        /// Not made.
        case never
        /// Made whatever the comparison finds.
        case always
        /// Made only when the images count as different.
        case ifChanged

        func keeps(equal: Bool) -> Bool { self == .always || (self == .ifChanged && !equal) }
    }

    /// Which PNGs a comparison of two files makes.
    package struct Images: Sendable {
        /// The actual image, decoded and written again (straight RGBA; RGB when opaque).
        package var actual = Wanted.never
        /// The expected image, likewise.
        package var expected = Wanted.never
        /// The diff image (only when the sizes match).
        package var diff = Wanted.never

        /// None.
        package init() {}
    }

    /// A comparison of two files and the PNGs asked for.
    package struct FileResult: Sendable {
        /// What `--json` prints and the lines say.
        package var report: ComparisonReport
        /// The actual image as PNG bytes, when asked for.
        package var actual: [UInt8]?
        /// The expected image as PNG bytes, when asked for and not the actual image's
        /// (`expectedIsActual`).
        package var expected: [UInt8]?
        /// Whether the expected image has the actual image's pixels (its PNG is
        /// `actual`'s).
        package var expectedIsActual = false
        /// The diff image as PNG bytes, when asked for and the sizes match.
        package var diff: [UInt8]?
        /// Whether the images were compared step by step from their files (large images).
        package var streamed = false
    }

    /// Compares two image files (their bytes, read by the caller) as `compare`,
    /// returning the PNGs `images` asks for. The one comparison of the project either
    /// way (`ImageDiff`'s pass), in one of two memory plans:
    ///
    /// - small images (under `RowSource.streamingBytes` decoded), and images of any
    ///   size when no PNG is asked for and not `alwaysStream`, are decoded whole,
    ///   compared, then written;
    /// - when a PNG is larger and PNGs are asked for (or `alwaysStream`), both are read
    ///   step by step (`RowSource`, a non-interlaced
    ///   PNG decoded as its rows are reached, another format decoded whole), compared
    ///   step by step, and the PNGs written step by step (`PNGRowWriter`): then memory
    ///   holds a few rows of each image and the compressed PNGs, never the diff image
    ///   whole.
    ///
    /// Files with the same bytes are decoded once.
    ///
    /// - Parameters:
    ///   - counting: count every differing pixel (`--json`, a check); without it and
    ///     without a diff image the exact mode stops at the first.
    ///   - bands: threads for the comparison's bands of rows (and, when more than one,
    ///     the two decodes of small images run at once).
    ///   - alwaysStream: compare a large PNG step by step even when no PNG is asked
    ///     for (a directory check, whose pairs run `--jobs` at once).
    /// - Throws: as `ImageFile.pixels(of:path:limits:keepTransparentColor:)` for
    ///   either file (65, 69), as `compare` for the settings (64, 65, 66).
    package static func compareFiles(
        actual actualBytes: [UInt8], actualPath: String, expected expectedBytes: [UInt8], expectedPath: String,
        settings: CompareSettings, counting: Bool, images: Images, limits: ImageLimits,
        decodedMask: PixelBuffer? = nil, bands: RowBands = .serial, alwaysStream: Bool = false
    ) throws(BadgeError) -> FileResult {
        let same = actualBytes == expectedBytes
        let keep = settings.storedColor
        // Streamed when images are written: one that writes them would hold 3 to 5
        // decoded images. A lone pair that writes none holds the two decoded images (2 ×
        // one image), which libdeflate decodes faster than libpng's row reader; a
        // directory check (`alwaysStream`) streams anyway, since `--jobs` pairs at once
        // would hold 2 × `--jobs` images (issue 44: 1030 MiB for two 8192² pairs with
        // `--results` and no report).
        let writes =
            alwaysStream || images.actual != .never || images.expected != .never || images.diff != .never
        var large = false
        if writes { large = try streams(actualBytes, actualPath, limits) }
        if writes && !large && !same { large = try streams(expectedBytes, expectedPath, limits) }
        if large {
            return try compareStreamed(
                actual: actualBytes, actualPath: actualPath, expected: same ? nil : expectedBytes,
                expectedPath: expectedPath, settings: settings, counting: counting, images: images, limits: limits,
                decodedMask: decodedMask, bands: bands)
        }
        let actual: PixelBuffer
        let expected: PixelBuffer
        if same {
            actual = try ImageFile.pixels(of: actualBytes, path: actualPath, limits: limits, keepTransparentColor: keep)
            expected = actual
        } else if bands.workers > 1 {
            let inputs = [(actualBytes, actualPath), (expectedBytes, expectedPath)]
            let decoded = ParallelMap.map(count: 2, workers: 2) { index -> Swift.Result<PixelBuffer, BadgeError> in
                do throws(BadgeError) {
                    return .success(
                        try ImageFile.pixels(
                            of: inputs[index].0, path: inputs[index].1, limits: limits, keepTransparentColor: keep))
                } catch {
                    return .failure(error)
                }
            }
            actual = try decoded[0].get()
            expected = try decoded[1].get()
        } else {
            actual = try ImageFile.pixels(of: actualBytes, path: actualPath, limits: limits, keepTransparentColor: keep)
            expected = try ImageFile.pixels(
                of: expectedBytes, path: expectedPath, limits: limits, keepTransparentColor: keep)
        }
        let compared = try compare(
            actual, expected, settings: settings, counting: counting, diffImage: images.diff != .never,
            limits: limits, decodedMask: decodedMask, bands: bands)
        let equal = compared.equal
        var result = FileResult(report: compared.report)
        if images.actual.keeps(equal: equal) { result.actual = try ImageFile.pngData(of: actual, compression: .fast) }
        if images.expected.keeps(equal: equal) {
            if actual == expected {
                result.expectedIsActual = true
                if result.actual == nil { result.actual = try ImageFile.pngData(of: actual, compression: .fast) }
            } else {
                result.expected = try ImageFile.pngData(of: expected, compression: .fast)
            }
        }
        if images.diff.keeps(equal: equal), let diff = compared.diff {
            result.diff = try ImageFile.pngData(of: diff, compression: .fast)
        }
        return result
    }

    /// Whether `bytes` are a PNG whose pixels take `RowSource.streamingBytes` or more.
    private static func streams(_ bytes: [UInt8], _ path: String, _ limits: ImageLimits) throws(BadgeError) -> Bool {
        guard let header = try ImageFile.pngHeader(of: bytes, path: path, limits: limits) else { return false }
        return header.width * header.height * 4 >= RowSource.streamingBytes
    }

    /// The step-by-step plan of `compareFiles`; `expected` nil: the same bytes as the
    /// actual image.
    private static func compareStreamed(
        actual actualBytes: [UInt8], actualPath: String, expected expectedBytes: [UInt8]?, expectedPath: String,
        settings: CompareSettings, counting: Bool, images: Images, limits: ImageLimits, decodedMask: PixelBuffer?,
        bands: RowBands
    ) throws(BadgeError) -> FileResult {
        let keep = settings.storedColor
        func open(_ bytes: [UInt8], _ path: String) throws(BadgeError) -> RowSource {
            let width = try ImageFile.pngHeader(of: bytes, path: path, limits: limits)?.width ?? 1
            return try RowSource.open(
                bytes, path: path, limits: limits, keepTransparentColor: keep,
                rows: ImageDiff.stepRows(width: width) + 2 * ImageDiff.contextRows)
        }
        let actual = try open(actualBytes, actualPath)
        let expected = try expectedBytes.map { (bytes) throws(BadgeError) in try open(bytes, expectedPath) } ?? actual
        let ignoring = try checkedIgnoreMap(
            settings, width: expected.width, height: expected.height, limits: limits, decodedMask: decodedMask)
        let options = settings.options(counting: counting, diffImage: images.diff != .never)
        let actualPNG = images.actual != .never || (images.expected != .never && expected === actual)
        let actualWriter = try actualPNG ? PNGRowWriter(source: actual) : nil
        let expectedWriter = try images.expected != .never && expected !== actual ? PNGRowWriter(source: expected) : nil
        let sameSize = actual.width == expected.width && actual.height == expected.height
        // The diff image is opaque (it is never drawn as a mask here).
        let diffWriter =
            try images.diff != .never && sameSize && !options.diffMask
            ? PNGRowWriter(width: actual.width, height: actual.height, opaque: true) : nil
        let diffResult: DiffResult
        if sameSize {
            // The two decoders, then the writers, run on two threads (also in a
            // directory check, whose other workers then share the cores): inflating and
            // deflating a step's rows take longer than comparing them.
            let inParallel = BatchRenderer.availableCPUs > 1
            func load(_ rows: Range<Int>) throws(BadgeError) -> (
                actual: UnsafePointer<UInt8>, expected: UnsafePointer<UInt8>
            ) {
                guard expected !== actual else {
                    let first = try actual.load(rows)
                    return (first, first)
                }
                guard inParallel else { return (try actual.load(rows), try expected.load(rows)) }
                let sources = Unshared([actual, expected])
                let loaded = ParallelMap.map(count: 2, workers: 2) { index in
                    Unshared(Swift.Result { () throws(BadgeError) in try sources.value[index].load(rows) })
                }
                return (try loaded[0].value.get(), try loaded[1].value.get())
            }
            func write(_ band: ImageDiff.ComparedRows) throws(BadgeError) {
                let work: [(PNGRowWriter, UnsafePointer<UInt8>)] = [
                    actualWriter.map { ($0, band.actual) }, expectedWriter.map { ($0, band.expected) },
                    diffWriter.flatMap { writer in band.diff.map { (writer, $0) } },
                ].compactMap(\.self)
                guard inParallel, work.count > 1 else {
                    for (writer, rows) in work { try writer.write(rows, count: band.rows.count) }
                    return
                }
                let shared = Unshared(work)
                let count = band.rows.count
                let written = ParallelMap.map(count: work.count, workers: 2) { index in
                    Unshared(
                        Swift.Result { () throws(BadgeError) in
                            try shared.value[index].0.write(shared.value[index].1, count: count)
                        })
                }
                for result in written { try result.value.get() }
            }
            diffResult = try ImageDiff.compare(
                width: actual.width, height: actual.height, expectedWidth: expected.width,
                expectedHeight: expected.height, options: options, ignoring: ignoring, bands: bands, load: load,
                didCompare: write)
        } else {
            // Not compared; each image still written, for the report to show.
            diffResult = DiffResult(
                sameSize: false, differentPixels: 0, antialiasedPixels: 0, totalPixels: 0, maxChannelDelta: 0,
                width: actual.width, height: actual.height, expectedWidth: expected.width,
                expectedHeight: expected.height, diff: nil, stoppedEarly: false)
            for (source, writer) in [(actual, actualWriter), (expected, expectedWriter)] {
                guard let writer else { continue }
                let step = ImageDiff.stepRows(width: source.width)
                for top in stride(from: 0, to: source.height, by: step) {
                    let rows = top..<min(source.height, top + step)
                    try writer.write(try source.load(rows), count: rows.count)
                }
            }
        }
        let equal = settings.passes(diffResult)
        var result = FileResult(
            report: ComparisonReport(result: diffResult, equal: equal, settings: settings, diffPath: nil))
        result.streamed = true
        let actualBytes = try actualWriter?.finish()
        if images.actual.keeps(equal: equal) { result.actual = actualBytes }
        if images.expected.keeps(equal: equal) {
            if expected === actual {
                result.expectedIsActual = true
                result.actual = actualBytes
            } else {
                result.expected = try expectedWriter?.finish()
            }
        }
        if images.diff.keeps(equal: equal) { result.diff = try diffWriter?.finish() }
        return result
    }
}

extension PNGRowWriter {
    /// A writer for the rows of `source`: its size, RGB when no pixel can be translucent.
    convenience init(source: RowSource) throws(BadgeError) {
        try self.init(width: source.width, height: source.height, opaque: !source.hasAlpha)
    }
}

extension Comparer {
    /// An image file's pixels written again as a PNG (a report's image of a new or
    /// deleted image; the check that a new golden is an image at all): a large PNG
    /// step by step (`RowSource`, `PNGRowWriter`), anything else decoded whole.
    ///
    /// - Throws: 65 when the bytes are not an image iconbadge reads, corrupt or over
    ///   a limit; 69 when memory runs out.
    package static func png(of bytes: [UInt8], path: String, limits: ImageLimits, keepTransparentColor: Bool)
        throws(BadgeError) -> [UInt8]
    {
        guard try streams(bytes, path, limits) else {
            let pixels = try ImageFile.pixels(
                of: bytes, path: path, limits: limits, keepTransparentColor: keepTransparentColor)
            return try ImageFile.pngData(of: pixels, compression: .fast)
        }
        let header = try ImageFile.pngHeader(of: bytes, path: path, limits: limits)
        let step = ImageDiff.stepRows(width: header?.width ?? 1)
        let source = try RowSource.open(
            bytes, path: path, limits: limits, keepTransparentColor: keepTransparentColor, rows: step)
        let writer = try PNGRowWriter(source: source)
        for top in stride(from: 0, to: source.height, by: step) {
            let rows = top..<min(source.height, top + step)
            try writer.write(try source.load(rows), count: rows.count)
        }
        return try writer.finish()
    }
}

/// A value handed to another thread of one `ParallelMap` call: each task reads only its
/// own element (one decoder, one writer, or its own result), and the call returns only
/// after every task has, so nothing is shared at once (hence `@unchecked Sendable`).
struct Unshared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
