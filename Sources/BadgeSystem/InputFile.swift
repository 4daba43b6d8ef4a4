import BadgeCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads input files without trusting them: only regular files (a FIFO, device or
/// folder is refused at once, never waited on), only up to a size limit, checked
/// before reading.
public enum InputFile {
    /// The whole content of the regular file at `path`, or of standard input for `-`.
    ///
    /// - Parameter limit: the largest size accepted (bytes); `limitFlag` names
    ///   what raises it in the message, if anything does.
    /// - Throws: `BadgeError.missingInput` (66) when the path does not exist, is not
    ///   a regular file, or cannot be read; `BadgeError.badInput` (65) when it is over
    ///   `limit`.
    public static func bytes(at path: String, limit: Int, what: String = "file") throws(BadgeError) -> [UInt8] {
        if path == "-" { return try readStandardInput(limit: limit) }
        // O_NONBLOCK so that opening a FIFO with no writer returns at once.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .missingInput(path: path, reason: "no such \(what)") }
            throw .missingInput(path: path, reason: "cannot open: \(SystemError.text(code))")
        }
        return try readWhole(fd, path: path, limit: limit, what: what)
    }

    /// The whole content of the regular file at `location`, opened like an output
    /// (`DirectoryWalk`: no link followed inside the working folder or below a root),
    /// the file itself never a link: a golden, whose pixels a report publishes, must be
    /// the goldens folder's own file, not a link to one elsewhere.
    ///
    /// - Throws: `BadgeError.missingInput` (66) when it does not exist or is not a
    ///   regular file; `BadgeError.badInput` (65) when it or a folder on the way is a
    ///   link, or it is over `limit`.
    public static func bytes(at location: OutputLocation, limit: Int, what: String) throws(BadgeError) -> [UInt8] {
        let fd = try descriptor(at: location, what: what)
        return try readWhole(fd, path: location.description, limit: limit, what: what)
    }

    /// An open regular file, for reading it a piece at a time.
    public struct Opened: ~Copyable {
        /// The file descriptor (closed when this is dropped).
        public let descriptor: Int32
        /// Its size (bytes) when opened.
        public let size: Int
        /// Which file it is (device and inode): the same file reached by two paths has one.
        public let identity: FileIdentity.Key

        /// Up to `count` bytes from the start of the file (fewer when it is shorter).
        public func head(_ count: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            var got = 0
            while got < count {
                let step = bytes.withUnsafeMutableBytes {
                    pread(descriptor, $0.baseAddress! + got, count - got, off_t(got))
                }
                if step < 0, errno == EINTR { continue }
                if step <= 0 { break }
                got += step
            }
            return Array(bytes[..<got])
        }

        deinit { close(descriptor) }
    }

    /// The regular file at `location`, opened as `bytes(at:limit:what:)` opens it (no
    /// link followed), for a caller that streams it rather than holding it whole.
    ///
    /// - Throws: as `bytes(at:limit:what:)`, without the size limit.
    public static func opened(at location: OutputLocation, what: String) throws(BadgeError) -> Opened {
        let fd = try descriptor(at: location, what: what)
        var info = stat()
        do throws(BadgeError) {
            info = try regularFileInfo(fd, path: location.description, what: what)
        } catch {
            close(fd)
            throw error
        }
        return Opened(
            descriptor: fd, size: Int(info.st_size),
            identity: .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }

    /// The descriptor of the file at `location`, opened through the link-refusing walk.
    private static func descriptor(at location: OutputLocation, what: String) throws(BadgeError) -> Int32 {
        let shown = location.description
        let folder: FolderHandle?
        do throws(BadgeError) {
            folder = try DirectoryWalk.folder(of: location, missing: .stop)
        } catch {
            if case .cannotCreate(_, let reason) = error { throw .badInput(path: shown, reason: reason) }
            throw error
        }
        guard let folder, let name = location.name, !name.utf8.contains(0) else {
            throw .missingInput(path: shown, reason: "no such \(what)")
        }
        let fd = openat(folder.descriptor, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .missingInput(path: shown, reason: "no such \(what)") }
            if code == ELOOP {
                throw .badInput(
                    path: shown, reason: "is a symbolic link; \(article(what)) \(what) must be a file, not a link")
            }
            throw .missingInput(path: shown, reason: "cannot open: \(SystemError.text(code))")
        }
        return fd
    }

    /// Reads the open `fd` (closed here) of `path` whole: a regular file up to `limit`.
    private static func readWhole(_ fd: Int32, path: String, limit: Int, what: String) throws(BadgeError) -> [UInt8] {
        defer { close(fd) }
        let info = try regularFileInfo(fd, path: path, what: what)
        let size = Int(info.st_size)
        guard size <= limit else {
            throw .badInput(
                path: path, reason: "is \(size) bytes, over the \(limit)-byte limit for \(article(what)) \(what)")
        }
        return try readAll(fd: fd, path: path, expected: size, limit: limit, what: what, waitsForData: false)
    }

    /// The `stat` of the open `fd` of `path`, when it is a regular file.
    ///
    /// - Throws: 66 naming what it is instead (a folder, a FIFO, a device).
    private static func regularFileInfo(_ fd: Int32, path: String, what: String) throws(BadgeError) -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw .missingInput(path: path, reason: "cannot stat: \(SystemError.text(errno))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR:
            var name = Substring(path)
            while name.hasSuffix("/") { name = name.dropLast() }
            if name.hasSuffix(".appiconset") {
                throw .missingInput(
                    path: path,
                    reason: "is an Xcode app icon set, not \(article(what)) \(what): use iconbadge appiconset")
            }
            throw .missingInput(path: path, reason: "is a directory, not \(article(what)) \(what)")
        case S_IFIFO:
            throw .missingInput(path: path, reason: "is a FIFO; only regular files are read (use - for a pipe)")
        case S_IFCHR, S_IFBLK: throw .missingInput(path: path, reason: "is a device; only regular files are read")
        default: throw .missingInput(path: path, reason: "is not a regular file")
        }
        return info
    }

    /// Standard input, once read: a render at several scales (`- --scales 1,2`)
    /// reads its icon once per scale, and a pipe can be read only once.
    private static let standardInput = Mutex<[UInt8]?>(nil)

    private static func readStandardInput(limit: Int) throws(BadgeError) -> [UInt8] {
        let result: Result<[UInt8], BadgeError> = standardInput.withLock { cached in
            if let bytes = cached {
                guard bytes.count <= limit else {
                    return .failure(
                        .badInput(path: "-", reason: "is \(bytes.count) bytes, over the \(limit)-byte limit for a file")
                    )
                }
                return .success(bytes)
            }
            do throws(BadgeError) {
                let bytes = try readAll(fd: 0, path: "-", expected: 0, limit: limit, what: "file", waitsForData: true)
                cached = bytes
                return .success(bytes)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads `fd` to its end, at most `limit` bytes.
    ///
    /// - Parameter waitsForData: whether a read that would block (EAGAIN) waits for
    ///   data: only for standard input, which the caller may have made non-blocking.
    ///   A path is opened non-blocking by `bytes(at:)`, and a "regular" file that has
    ///   no data yet is a kernel interface (`/proc/kmsg`) that may never have any.
    /// - Throws: `BadgeError.missingInput` (66) when a read fails or would block on a
    ///   path; `BadgeError.badInput` (65) past `limit`.
    static func readAll(
        fd: Int32, path: String, expected: Int, limit: Int, what: String, waitsForData: Bool
    ) throws(BadgeError) -> [UInt8] {
        // A regular file's size is known: one read into a buffer of that size (plus
        // one byte to see a file that grew); standard input grows the buffer.
        var buffer = [UInt8](repeating: 0, count: expected > 0 ? expected + 1 : 65536)
        var count = 0
        while true {
            if count == buffer.count {
                guard buffer.count <= limit else {
                    throw .badInput(path: path, reason: "is over the \(limit)-byte limit for \(article(what)) \(what)")
                }
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
            let got = buffer.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress! + count, raw.count - count)
            }
            if got < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN, waitsForData {
                    // Standard input opened non-blocking by the caller: wait for data.
                    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&pfd, 1, -1)
                    continue
                }
                if code == EAGAIN {
                    throw .missingInput(
                        path: path, reason: "cannot read: it would block (only ordinary files are read)")
                }
                throw .missingInput(path: path, reason: "cannot read: \(SystemError.text(code))")
            }
            if got == 0 { break }
            count += got
            guard count <= limit else {
                throw .badInput(path: path, reason: "is over the \(limit)-byte limit for \(article(what)) \(what)")
            }
        }
        buffer.removeSubrange(count...)
        return buffer
    }
}

/// "a" or "an" before `noun`, for messages.
func article(_ noun: String) -> String {
    guard let first = noun.first else { return "a" }
    return "aeiou".contains(first) ? "an" : "a"
}

/// Text of C `errno` values, without Foundation.
public enum SystemError {
    /// The lowercased `strerror` text of `code`.
    public static func text(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message).lowercased()
    }
}

extension InputFile {
    /// Whether `path` names an existing regular file (following links).
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Whether `path` itself (not a link's target) is a regular file.
    public static func isPlainFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Whether `path` itself exists, as anything (a link counts, a dangling one too).
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
