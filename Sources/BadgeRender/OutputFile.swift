import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes outputs atomically: the bytes go to a temporary file in the target's
/// folder, which is closed (write and close errors, such as a full disk, are
/// caught) and renamed over the target. A failure at any step removes the
/// temporary file, so no half-written output appears and an existing file is
/// never truncated (Cairo 1.16's own PNG writer truncates the target on a full
/// disk; DESIGN.md).
///
/// Only regular files are written: an existing device, FIFO or socket at the path
/// is refused, never replaced (as root, `-o /dev/null` would otherwise replace the
/// device node). A symbolic link is followed, so the file it names is replaced and
/// the link stays. An existing file keeps its permissions; one this process may not
/// write (read-only) is refused, as `cp` would refuse it.
public enum OutputFile {
    /// Checks that `path` can be written, before any work is done.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) when it is a folder, a device, a FIFO
    ///   or a socket, is read-only, or its folder is missing or read-only.
    public static func checkWritable(_ path: String) throws(BadgeError) {
        guard path != "-" else { return }
        _ = try target(of: path)
    }

    /// The regular file a write to `path` replaces or creates (symbolic links
    /// followed), with the permissions the new file gets.
    private static func target(of path: String) throws(BadgeError) -> (path: String, mode: mode_t) {
        guard !path.isEmpty, !path.utf8.contains(0) else {
            throw .cannotCreate(path: path, reason: "is not a usable file name")
        }
        var resolved = path
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            guard let real = realpath(path, nil) else {
                throw .cannotCreate(path: path, reason: "is a symbolic link to nothing")
            }
            resolved = String(cString: real)
            free(real)
        }
        let mask = umask(0)
        umask(mask)
        var mode = 0o666 & ~mask
        if stat(resolved, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                guard access(resolved, W_OK) == 0 else {
                    throw .cannotCreate(path: path, reason: "is read-only")
                }
                mode = info.st_mode & 0o7777
            case S_IFDIR:
                throw .cannotCreate(path: path, reason: "is a directory")
            case S_IFCHR, S_IFBLK:
                throw .cannotCreate(
                    path: path, reason: "is a device; write to a regular file (or - for standard output)")
            case S_IFIFO:
                throw .cannotCreate(path: path, reason: "is a FIFO; write to a regular file (or - for standard output)")
            default:
                throw .cannotCreate(path: path, reason: "is not a regular file")
            }
        }
        let folder = parentFolder(of: resolved)
        if stat(folder, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
            throw .cannotCreate(path: path, reason: "folder \(Quoted(folder)) does not exist")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            throw .cannotCreate(path: path, reason: "folder \(Quoted(folder)): permission denied")
        }
        return (resolved, mode)
    }

    /// Writes `bytes` to `path` atomically, or to standard output for `-`. With
    /// `creatingFolders`, missing folders on the way are made first (`mkdir -p`): for
    /// files whose folders a manifest or a CI option names (batch outputs, golden
    /// artifacts, JUnit reports), not for a single `-o`, where a missing folder is
    /// more likely a typo.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) when the path cannot be written (see
    ///   `checkWritable`) or a folder cannot be made; `BadgeError.ioError` (74) when
    ///   writing fails part way.
    public static func write(_ bytes: [UInt8], to path: String, creatingFolders: Bool = false) throws(BadgeError) {
        if path == "-" {
            try writeAll(fd: 1, bytes: bytes, path: "-")
            return
        }
        if creatingFolders { try makeFolder(parentFolder(of: path), for: path) }
        let (resolved, mode) = try target(of: path)
        let folder = parentFolder(of: resolved)
        let (fd, temporary) = try TemporaryFiles.shared.create(in: folder, for: path)
        var done = false
        defer {
            if !done { unlink(temporary) }
            TemporaryFiles.shared.unregister(temporary)
        }
        fchmod(fd, mode)
        do {
            try writeAll(fd: fd, bytes: bytes, path: path)
        } catch {
            close(fd)
            throw error
        }
        // No fsync: the rename makes the replacement atomic for every reader and
        // against any failure of this process (crash, kill, full disk); fsync would
        // add durability across power loss at about 20 ms a file, more than a whole
        // render, which build tools that regenerate their outputs do not need.
        if close(fd) != 0 {
            throw .ioError(path: path, reason: SystemError.text(errno))
        }
        guard rename(temporary, resolved) == 0 else {
            throw .cannotCreate(path: path, reason: SystemError.text(errno))
        }
        done = true
    }

    private static func writeAll(fd: Int32, bytes: [UInt8], path: String) throws(BadgeError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .ioError(path: path, reason: SystemError.text(code))
            }
            offset += written
        }
    }

    /// Makes `folder` and its missing parents, mode 0777 less the umask.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) naming `path` and the part of the
    ///   folder that is not a folder or cannot be made.
    private static func makeFolder(_ folder: String, for path: String) throws(BadgeError) {
        var info = stat()
        if stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        var prefix = folder.hasPrefix("/") ? "/" : ""
        for part in folder.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            if mkdir(prefix, 0o777) == 0 { continue }
            let code = errno
            if code == EEXIST, stat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { continue }
            let reason = code == EEXIST ? "it is a file, not a folder" : SystemError.text(code)
            throw .cannotCreate(path: path, reason: "cannot make folder \(Quoted(prefix)): \(reason)")
        }
    }

    /// The folder part of `path` (`.` when there is none).
    public static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}

/// The temporary files being written right now, so that an interrupted run can
/// remove them before the process exits (no temporary file is left by Ctrl-C).
final class TemporaryFiles: @unchecked Sendable {
    static let shared = TemporaryFiles()
    private var lock = pthread_mutex_t()
    /// At most one per output being written at once (batch workers): a list, as a
    /// Set<String> costs the Swift runtime a conformance scan at each start (callgrind).
    private var paths: [String] = []

    private init() { pthread_mutex_init(&lock, nil) }

    /// Creates a temporary file in `folder` and registers it, under the lock the
    /// cleanup takes too, so no file exists unregistered even for an instant.
    ///
    /// - Throws: `BadgeError.cannotCreate` naming `output` when it cannot be made.
    func create(in folder: String, for output: String) throws(BadgeError) -> (Int32, String) {
        // mkstemp replaces the six trailing X with a unique suffix.
        var template = Array((folder + "/.iconbadge-" + String(repeating: "X", count: 6)).utf8CString)
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            let code = errno
            let reason = code == ENOENT ? "folder \(Quoted(folder)) does not exist" : SystemError.text(code)
            throw .cannotCreate(path: output, reason: reason)
        }
        let path = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        paths.append(path)
        return (fd, path)
    }

    func unregister(_ path: String) {
        pthread_mutex_lock(&lock)
        paths.removeAll { $0 == path }
        pthread_mutex_unlock(&lock)
    }

    /// Removes every registered file; called when SIGINT or SIGTERM arrives, just
    /// before the process exits. The lock is kept: a worker that would make a new
    /// temporary file after the cleanup waits for the exit instead (found by a
    /// signal test: 1 run in 60 left a file).
    func removeAll() {
        pthread_mutex_lock(&lock)
        for path in paths { unlink(path) }
        paths.removeAll()
    }
}
