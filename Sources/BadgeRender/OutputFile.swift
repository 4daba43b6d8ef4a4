import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes outputs atomically: the bytes go to a temporary file in the target's
/// folder, which is closed (write and close errors, such as a full disk, are
/// caught) and renamed over the target. A
/// failure at any step removes the temporary file, so no half-written output
/// appears and an existing file is never truncated (Cairo 1.16's own PNG writer
/// truncates the target on a full disk; DESIGN.md).
public enum OutputFile {
    /// Writes `bytes` to `path` atomically, or to standard output for `-`.
    ///
    /// The new file gets mode 0666 minus the umask, like any file a shell creates.
    /// - Throws: `BadgeError.cannotCreate` (73) when the folder is missing, read-only
    ///   or `path` is a folder; `BadgeError.ioError` (74) when writing fails part way.
    public static func write(_ bytes: [UInt8], to path: String) throws(BadgeError) {
        if path == "-" {
            try writeAll(fd: 1, bytes: bytes, path: "-")
            return
        }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw .cannotCreate(path: path, reason: "is a directory")
        }
        let folder = parentFolder(of: path)
        // mkstemp replaces the six trailing X with a unique suffix.
        var template = Array((folder + "/.iconbadge-" + String(repeating: "X", count: 6)).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            let code = errno
            let reason = code == ENOENT ? "folder \(Quoted(folder)) does not exist" : SystemError.text(code)
            throw .cannotCreate(path: path, reason: reason)
        }
        let temporary = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
        var done = false
        defer {
            if !done { unlink(temporary) }
        }
        TemporaryFiles.shared.register(temporary)
        defer { TemporaryFiles.shared.unregister(temporary) }
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
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
        guard rename(temporary, path) == 0 else {
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

    /// The folder part of `path` (`.` when there is none).
    public static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}

/// The temporary files being written right now, so a signal handler can remove
/// them before the process exits (no temp file is left behind by Ctrl-C).
final class TemporaryFiles: @unchecked Sendable {
    static let shared = TemporaryFiles()
    private var lock = pthread_mutex_t()
    private var paths: Set<String> = []

    private init() { pthread_mutex_init(&lock, nil) }

    func register(_ path: String) {
        pthread_mutex_lock(&lock)
        paths.insert(path)
        pthread_mutex_unlock(&lock)
    }

    func unregister(_ path: String) {
        pthread_mutex_lock(&lock)
        paths.remove(path)
        pthread_mutex_unlock(&lock)
    }

    /// Removes every registered file; called on SIGINT/SIGTERM.
    func removeAll() {
        pthread_mutex_lock(&lock)
        for path in paths { unlink(path) }
        paths.removeAll()
        pthread_mutex_unlock(&lock)
    }
}
