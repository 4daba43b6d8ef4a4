import Synchronization

/// The progress line on a terminal: done/total, rate and time left, redrawn at most
/// ten times a second, from any worker thread.
final class ProgressLine: Sendable {
    private let total: Int
    private let enabled: Bool
    private let io: CommandIO
    private let start = ContinuousClock.now
    private let lastDraw = Mutex(ContinuousClock.now)

    init(total: Int, enabled: Bool, io: CommandIO) {
        self.total = total
        self.enabled = enabled
        self.io = io
    }

    func update(done: Int) {
        guard enabled else { return }
        lastDraw.withLock { last in
            let now = ContinuousClock.now
            guard done == total || now - last > .milliseconds(100) else { return }
            last = now
            let elapsed =
                Double((now - start).components.seconds) + Double((now - start).components.attoseconds) / 1e18
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            let left = rate > 0 ? Double(total - done) / rate : 0
            io.writeErr("\r\u{1B}[K[\(done)/\(total)] \(Int(rate))/s, about \(Int(left.rounded(.up))) s left")
        }
    }

    func finish() {
        guard enabled else { return }
        io.writeErr("\r\u{1B}[K")
    }
}
