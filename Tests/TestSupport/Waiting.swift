import Foundation

// Waiting for something a child process does, without sleeping a fixed time and
// without asserting a duration: block on an event (inotify, a pidfd) where Linux has
// one, and give up only after `watchdogSeconds`, failing the test with a message.

/// Watches a folder with inotify for names that appear in it (created, or renamed
/// into it), so a test can block until a process it started has written something.
public final class FolderWatch {
    private let fd: Int32
    public let folder: String

    /// Starts watching `folder`; create it before starting the process to watch, so
    /// that no event is missed.
    public init(_ folder: String) throws {
        self.folder = folder
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { throw TestFailure(description: "inotify_init1: \(String(cString: strerror(errno)))") }
        let mask = UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE)
        guard inotify_add_watch(fd, folder, mask) >= 0 else {
            close(fd)
            throw TestFailure(description: "inotify_add_watch \(folder): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    /// Blocks until `condition` holds for the folder's entry names, re-checking it
    /// after each batch of inotify events.
    ///
    /// - Throws: `WatchdogExpired` when `watchdogSeconds` pass without it (the
    ///   condition is checked first, so one already true returns at once), and
    ///   `TestFailure` when the process `writer` (the one expected to write) ends first.
    public func wait(
        until description: String, whileRunning writer: pid_t, _ condition: ([String]) -> Bool
    ) throws {
        let start = DispatchTime.now()
        let writerEnded = try pidfd(writer)
        defer { if writerEnded >= 0 { close(writerEnded) } }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            if condition(names) { return }
            let spent = Int((DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000)
            let left = watchdogSeconds * 1000 - spent
            var pollers = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: writerEnded, events: Int16(POLLIN), revents: 0),
            ]
            let ready = left > 0 ? poll(&pollers, nfds_t(writerEnded >= 0 ? 2 : 1), Int32(left)) : 0
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else {
                throw WatchdogExpired(
                    description:
                        "\(folder): still not \(description) after \(watchdogSeconds) s (\(names.count) entries)")
            }
            if pollers[1].revents != 0 {
                let last = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                if condition(last) { return }
                throw TestFailure(
                    description: "\(folder): the writing process \(writer) ended before the folder was \(description)")
            }
            _ = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        }
    }
}

/// A pidfd for `pid` (Linux 5.3): readable once the process has ended. -1 if it has
/// already ended and been reaped.
func pidfd(_ pid: pid_t) throws -> Int32 {
    typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
    // glibc 2.36 has pidfd_open, but Swift's Glibc module does not import sys/pidfd.h.
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else {
        throw TestFailure(description: "this C library has no pidfd_open (glibc 2.36 or later is needed)")
    }
    let fd = unsafeBitCast(symbol, to: PidfdOpen.self)(pid, 0)
    if fd < 0 && errno != ESRCH {
        throw TestFailure(description: "pidfd_open(\(pid)): \(String(cString: strerror(errno)))")
    }
    return fd
}

/// Blocks until process `pid` (any process, not only a child of this one) has ended,
/// on a pidfd (Linux 5.3); returns at once if it has already ended.
///
/// - Throws: `WatchdogExpired` when it is still running after `watchdogSeconds`.
public func waitForEnd(of pid: pid_t, _ description: String) throws {
    let fd = try pidfd(pid)
    guard fd >= 0 else { return }  // already gone
    defer { close(fd) }
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    var ready: Int32
    repeat { ready = poll(&poller, 1, Int32(watchdogSeconds * 1000)) } while ready < 0 && errno == EINTR
    guard ready > 0 else {
        throw WatchdogExpired(
            description: "\(description) (process \(pid)) was still running after \(watchdogSeconds) s")
    }
}

/// Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER)
/// or stops it being one: a grandchild whose parent dies then becomes this process's
/// child, so a test can wait for it and read how it ended.
public func setChildSubreaper(_ on: Bool) throws {
    // prctl is variadic in C, which Swift does not import; its fixed five-argument form
    // is what the kernel takes (glibc reads the integer arguments from registers).
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else {
        throw TestFailure(description: "this C library has no prctl")
    }
    let prctl = unsafeBitCast(symbol, to: Prctl.self)
    let PR_SET_CHILD_SUBREAPER: Int32 = 36
    guard prctl(PR_SET_CHILD_SUBREAPER, on ? 1 : 0, 0, 0, 0) == 0 else {
        throw TestFailure(description: "PR_SET_CHILD_SUBREAPER: \(String(cString: strerror(errno)))")
    }
}

/// Waits for `pid`, a child of this process that Foundation's `Process` does not
/// manage (an orphan reparented to this subreaper), and returns its wait status.
///
/// - Throws: `WatchdogExpired` when it is still running after `watchdogSeconds`.
public func waitForChild(_ pid: pid_t, _ description: String) throws -> Int32 {
    try waitForEnd(of: pid, description)
    var status: Int32 = 0
    var result: pid_t
    repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
    guard result == pid else {
        throw TestFailure(description: "waitpid(\(pid)) for \(description): \(String(cString: strerror(errno)))")
    }
    return status
}
