import BadgeCore
import Synchronization

/// Runs independent work items on a pool of threads: the directory check's pairs.
/// Items are taken from an atomic counter, as `BatchRenderer` takes its jobs.
public enum ParallelMap {
    /// `body(index)` for every index in `0..<count`, on up to `workers` threads (the
    /// calling one included); results in index order. `body` must be thread-safe.
    public static func map<Value: Sendable>(
        count: Int, workers: Int, _ body: @escaping @Sendable (Int) -> Value
    ) -> [Value] {
        guard count > 0 else { return [] }
        let slots = ResultSlots<Value>(count: count)
        let next = Atomic<Int>(0)
        WorkerThreads.run(count: max(1, min(workers, count))) {
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                slots.set(index, body(index))
            }
        }
        return slots.values { _ in preconditionFailure("every index is taken by a worker") }
    }
}

/// One slot per item, each written by the one worker that took its index and read
/// after every worker has finished (`WorkerThreads.run` joins them), so no lock is
/// needed (hence `@unchecked Sendable`). `ParallelMap` and `BatchRenderer` keep their
/// results here.
final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func set(_ index: Int, _ value: Value) { slots[index] = value }

    /// The values in index order; `missing` stands in for a slot never set.
    func values(missing: (Int) -> Value) -> [Value] {
        slots.enumerated().map { $0.element ?? missing($0.offset) }
    }
}

extension ParallelMap {
    /// `ImageDiff`'s bands of rows on up to `workers` threads of this pool (the calling
    /// one included): for one large comparison, such as `compare A B`. A directory
    /// check, which already compares pairs in parallel, keeps `RowBands.serial`.
    public static func rowBands(workers: Int) -> RowBands {
        RowBands(workers: workers) { count, body in
            _ = map(count: count, workers: workers) { body($0) }
        }
    }
}
