import BadgeCore
import BadgeSystem
internal import CPngCodec
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One job of a batch: a render request and where its result goes.
public struct BatchJob: Sendable {
    /// Position in the manifest (0-based), for messages (`jobs[3]`).
    public var index: Int
    /// What to render.
    public var request: RenderRequest
    /// Where to write it (already expanded from any template).
    public var output: String
    /// The output format.
    public var format: OutputFormat
    /// The PNG encoder's setting.
    public var compression: PNGCompression
    /// PDF `CreationDate` (ISO 8601), or nil for none.
    public var creationDate: String?
    /// Threads for this job's PNG encoder (0: one per available CPU); `BatchRenderer`
    /// sets it so that workers × encoder threads stay near the CPU count. The bytes
    /// do not depend on it.
    public var encoderThreads = 0

    /// Creates a job.
    public init(
        index: Int, request: RenderRequest, output: String, format: OutputFormat, compression: PNGCompression,
        creationDate: String?
    ) {
        self.index = index
        self.request = request
        self.output = output
        self.format = format
        self.compression = compression
        self.creationDate = creationDate
    }
}

extension BatchJob {
    /// Encodes `composition` as this job asks and writes it atomically to `output`,
    /// making the folders a manifest names.
    ///
    /// - Throws: the encoder's errors (70), and 73/74 when the file cannot be written.
    public func write(_ composition: Composition) throws(BadgeError) {
        let bytes = try composition.data(
            format: format, compression: compression, creationDate: creationDate, encoderThreads: encoderThreads)
        try OutputFile.write(bytes, to: output, creatingFolders: true)
    }
}

/// Renders many jobs in parallel, as `iconbadge batch` does.
///
/// Workers pull job indexes from an atomic counter (no lock in the hot path);
/// each worker has its own `Renderer`, so its own FreeType library and faces;
/// icons and badge images are decoded once for the whole batch (`IconCache`).
/// Each job's bytes are exactly what the render command makes for it alone.
public enum BatchRenderer {
    /// The CPUs this process may run on (its affinity mask: `taskset` and cpusets
    /// count), at least 1: the default number of workers.
    public static var availableCPUs: Int { max(1, Int(ib_available_cpus())) }

    /// Runs `jobs` on `workers` threads; `deliver` gets each job's composition on
    /// the worker that made it (to encode and write, or to compare) and returns what
    /// to report.
    /// `progress` is called after each job with the number done; it must be
    /// thread-safe. Results come back in job order.
    public static func run<Report: Sendable>(
        _ jobs: [BatchJob], workers: Int, cache: IconCache = IconCache(),
        deliver: @escaping @Sendable (BatchJob, Composition) throws(BadgeError) -> Report,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> [Result<Report, BadgeError>] {
        let results = ResultBox<Report>(count: jobs.count)
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let threads = max(1, min(workers, jobs.count))
        // The CPUs are shared between the workers; a large PNG may use a worker's share.
        let encoderThreads = max(1, availableCPUs / threads)
        WorkerThreads.run(count: threads) {
            let renderer: Renderer
            do throws(BadgeError) {
                renderer = try Renderer()
            } catch {
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < jobs.count else { return }
                    results.set(index, .failure(error))
                }
            }
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < jobs.count else { break }
                var job = jobs[index]
                job.encoderThreads = encoderThreads
                let result = Result { () throws(BadgeError) -> Report in
                    let composition = try renderer.compose(job.request, cache: cache)
                    return try deliver(job, composition)
                }
                results.set(index, result)
                progress(done.add(1, ordering: .relaxed).newValue)
            }
        }
        return results.values
    }
}

/// Runs a body on `count` threads (the calling one and `count - 1` new ones) and
/// waits for all. Plain pthreads: libdispatch's `concurrentPerform`, statically
/// linked here, ran every iteration on the calling thread (measured: two workers
/// took as long as one).
enum WorkerThreads {
    private final class Work: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static func run(count: Int, _ body: @escaping @Sendable () -> Void) {
        var threads: [pthread_t] = []
        for _ in 1..<max(1, count) {
            let work = Unmanaged.passRetained(Work(body)).toOpaque()
            var thread = pthread_t()
            let created = pthread_create(
                &thread, nil,
                { argument in
                    let work = Unmanaged<Work>.fromOpaque(argument!).takeRetainedValue()
                    work.body()
                    return nil
                }, work)
            if created == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Work>.fromOpaque(work).release()
            }
        }
        body()
        for thread in threads { pthread_join(thread, nil) }
    }
}

/// Per-job result slots. Each slot is written by exactly one worker (the one that
/// took its index from the atomic counter) and read only after every worker has
/// finished, so no lock is needed.
private final class ResultBox<Report: Sendable>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Result<Report, BadgeError>?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func set(_ index: Int, _ result: Result<Report, BadgeError>) { slots[index] = result }

    var values: [Result<Report, BadgeError>] {
        slots.map { $0 ?? .failure(.internalError("a batch job was not run")) }
    }
}
