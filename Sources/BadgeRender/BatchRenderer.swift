import BadgeCore
import BadgeSystem
internal import CPngCodec
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A job's result: what `deliver` returned, or why it failed. Swift's `Result` would
/// do, but its `Failure: Error` requirement makes the runtime scan every protocol
/// conformance the first time it is instantiated, 5 % of a lone render (callgrind).
public enum RenderResult<Report: Sendable>: Sendable {
    /// The job ran to the end.
    case success(Report)
    /// The job failed.
    case failure(BadgeError)
}

/// Composes many render requests in parallel: the worker pool under every command.
///
/// Workers pull indexes from an atomic counter (no lock in the hot path); each worker
/// has its own `Renderer`, so its own FreeType library and faces. With more than one
/// request, icons and badge images are decoded once for all of them (`IconCache`);
/// a lone request's scene owns its icon (`IconPixels.owned`), so its badges can be
/// painted onto the decoded icon itself. Each request's bytes are exactly what it
/// makes alone.
public enum BatchRenderer {
    /// The CPUs this process may run on (its affinity mask: `taskset` and cpusets
    /// count), at least 1: the default number of workers.
    public static var availableCPUs: Int { max(1, Int(ib_available_cpus())) }

    /// Builds the scenes of `requests` on `workers` threads; `deliver` gets each scene
    /// on the worker that built it (to paint and write, or to compare), with the index
    /// of its request and the encoder threads it may use, and returns what to report.
    /// `progress` is called after each request with the number done; it must be
    /// thread-safe. Results come back in request order.
    public static func run<Report: Sendable>(
        _ requests: [RenderRequest], workers: Int, cache: IconCache? = nil,
        deliver: @escaping @Sendable (Int, Scene, _ encoderThreads: Int) throws(BadgeError) -> Report,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> [RenderResult<Report>] {
        if requests.count == 1 {
            // A lone request runs here, on the calling thread: no pool, no result box
            // (whose generic metadata costs a conformance scan at start, callgrind).
            do throws(BadgeError) {
                let renderer = try Renderer()
                let scene = try renderer.compose(requests[0])
                let report = try deliver(0, scene, availableCPUs)
                progress(1)
                return [.success(report)]
            } catch {
                progress(1)
                return [.failure(error)]
            }
        }
        let results = ResultSlots<RenderResult<Report>>(count: requests.count)
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let threads = max(1, min(workers, requests.count))
        // The CPUs are shared between the workers; a large PNG may use a worker's share.
        let encoderThreads = max(1, availableCPUs / threads)
        let shared: IconCache? = requests.count > 1 ? (cache ?? IconCache()) : nil
        WorkerThreads.run(count: threads) {
            let renderer: Renderer
            do throws(BadgeError) {
                renderer = try Renderer()
            } catch {
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < requests.count else { return }
                    results.set(index, .failure(error))
                }
            }
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < requests.count else { break }
                do throws(BadgeError) {
                    let scene = try renderer.compose(requests[index], cache: shared)
                    results.set(index, .success(try deliver(index, scene, encoderThreads)))
                } catch {
                    results.set(index, .failure(error))
                }
                progress(done.add(1, ordering: .relaxed).newValue)
            }
        }
        return results.values { _ in .failure(.internalError("a batch job was not run")) }
    }
}

/// Runs a body on `count` threads (the calling one and `count - 1` new ones) and
/// waits for all. Plain pthreads: libdispatch's `concurrentPerform`, statically
/// linked here, ran every iteration on the calling thread (measured: two workers
/// took as long as one).
enum WorkerThreads {
    /// `@unchecked Sendable`: only an immutable `@Sendable` closure, handed to pthreads
    /// as a retained pointer.
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
