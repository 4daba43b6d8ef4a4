/// How ``ImageDiff`` spreads an image's rows over threads: the image is cut into bands
/// of whole rows, and `run` calls the band body once for every band, on as many threads
/// as it likes, returning when every call has returned.
///
/// BadgeCore starts no thread itself (it has no access to the operating system); the
/// caller passes a runner backed by its own pool (BadgeRender's
/// `ParallelMap.rowBands(workers:)`), or ``serial``.
///
/// **Determinism**: the bands depend only on the image's size (``bandRows(width:)``),
/// never on the number of threads; each band's result goes to its own slot, and the
/// slots are combined in band order. So counts, the largest channel difference and the
/// diff image are the same on one core or many.
public struct RowBands: Sendable {
    /// Calls `body(band)` for every `band` in `0..<count`, on any threads, and returns
    /// once every call has returned.
    public typealias Runner = @Sendable (_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> Void

    /// How many threads `run` may use at most (1: the calling thread alone).
    public let workers: Int
    private let runner: Runner?

    /// A runner using up to `workers` threads through `run`.
    public init(workers: Int, run: @escaping Runner) {
        self.workers = max(1, workers)
        runner = run
    }

    private init() {
        workers = 1
        runner = nil
    }

    /// Every band on the calling thread, in order.
    public static let serial = RowBands()

    /// Pixels a band holds at most: 2¹⁶ (256 KiB of RGBA per image, within a core's L2
    /// cache), so that the bands of a 1000 × 667 image (11) share out evenly over the
    /// threads (3 bands of 2¹⁸ left one thread idle a third of the time).
    public static let bandPixels = 1 << 16

    /// Bands an image needs before threads are used: below 4 (2¹⁸ pixels; pixelmatch's
    /// 512 × 256 fixtures), starting a thread costs more than it saves.
    public static let parallelBands = 4

    /// Rows in each band of an image `width` pixels wide (the last band may hold fewer).
    public static func bandRows(width: Int) -> Int { max(1, bandPixels / max(1, width)) }

    /// Runs `body` for every band of `rows` in bands of `bandRows` rows (the first from
    /// `rows.lowerBound`, the last may hold fewer): on the calling thread when there
    /// are fewer than `parallelBands` bands or one worker, else through the runner.
    func forEachBand(
        rows: Range<Int>, bandRows: Int, _ body: @escaping @Sendable (_ band: Int, _ rows: Range<Int>) -> Void
    ) {
        let count = (rows.count + bandRows - 1) / bandRows
        let first = rows.lowerBound
        let end = rows.upperBound
        let bandBody: @Sendable (Int) -> Void = { band in
            body(band, (first + band * bandRows)..<min(end, first + (band + 1) * bandRows))
        }
        guard count >= Self.parallelBands, workers > 1, let runner else {
            for band in 0..<count { bandBody(band) }
            return
        }
        runner(count, bandBody)
    }
}
