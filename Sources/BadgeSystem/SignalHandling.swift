import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ends the process cleanly on SIGINT, SIGTERM and SIGHUP: the temporary files
/// being written are removed and the exit status is 128 + the signal (130 for
/// Ctrl-C, 143 for SIGTERM), as shells report it. Outputs already renamed into
/// place are whole; the one being written is never left half-written.
///
/// The signals are blocked in every thread and received by one thread with
/// `sigwait`, so the cleanup runs as ordinary code, not in a signal handler
/// (where taking a lock or calling `unlink` through Swift would not be safe).
public enum SignalHandling {
    /// Blocks the signals in the calling thread (call it before any other thread
    /// starts, so all inherit the mask) and starts the waiting thread.
    public static func install() {
        // A write over `ulimit -f` then fails with EFBIG (exit 74, temporary file
        // removed) instead of killing the process with SIGXFSZ (153) mid-write.
        signal(SIGXFSZ, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        var thread = pthread_t()
        let pointer = UnsafeMutablePointer<sigset_t>.allocate(capacity: 1)
        pointer.initialize(to: set)
        let result = pthread_create(
            &thread, nil,
            { argument in
                let set = argument!.assumingMemoryBound(to: sigset_t.self)
                var received: Int32 = 0
                while sigwait(set, &received) != 0 {}
                let name = received == SIGINT ? "SIGINT" : (received == SIGTERM ? "SIGTERM" : "SIGHUP")
                TemporaryFiles.removeAllAndExit(
                    message: "iconbadge: interrupted by \(name); unfinished outputs removed\n", status: 128 + received)
            }, pointer)
        if result == 0 { pthread_detach(thread) }
    }
}
