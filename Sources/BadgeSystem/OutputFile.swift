import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes outputs atomically and never through a symbolic link.
///
/// The folder is opened by `DirectoryWalk` (no link followed inside the working folder
/// or below a root), the bytes go to a temporary file created *in that folder through
/// the same open handle*, which is then renamed over the target with `renameat`. On
/// Linux the temporary file is unnamed (`O_TMPFILE`) until the moment it is linked and
/// renamed, so even SIGKILL leaves nothing behind; elsewhere it is a named
/// `.iconbadge-` file (12 random letters), removed on any failure and on SIGINT/SIGTERM/SIGHUP.
///
/// A failure never leaves a half-written output and never truncates an existing file
/// (Cairo 1.16's own PNG writer truncates the target on a full disk; docs/DESIGN.md).
///
/// Only regular files are replaced: a link, folder, device, FIFO or socket at the
/// target is refused (exit 73), never followed or replaced (as root, `-o /dev/null`
/// would otherwise replace the device node). An existing file keeps its permission
/// bits, without set-user-ID, set-group-ID or sticky bits; one this process may not
/// write (read-only) is refused, as `cp` would refuse it.
public enum OutputFile {
    /// Checks that the path the caller wrote can be written, before any work is done.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73): see `checkWritable(_:creatingFolders:)`.
    public static func checkWritable(_ path: String) throws(BadgeError) {
        guard path != "-" else { return }
        try checkWritable(OutputLocation(commandLine: path))
    }

    /// Checks that `location` can be written: its folders exist (or, with
    /// `creatingFolders`, can be made: the existing part is walked) with no link where
    /// none may be, and the file is absent or a writable regular file.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) naming the link, the missing folder, or
    ///   what the target is (folder, device, FIFO, link, read-only file).
    public static func checkWritable(_ location: OutputLocation, creatingFolders: Bool = false) throws(BadgeError) {
        // A folder that is only missing is fine when it will be made.
        guard let folder = try DirectoryWalk.folder(of: location, missing: creatingFolders ? .stop : .fail) else {
            return
        }
        _ = try targetMode(in: folder, location)
    }

    /// Writes `bytes` to the path the caller wrote, atomically, or to standard output
    /// for `-`. With `creatingFolders`, missing folders are made first (`mkdir -p`):
    /// for files whose folders a CI option names (JUnit reports), not for a single
    /// `-o`, where a missing folder is more likely a typo.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) when the path cannot be written (see
    ///   `checkWritable`); `BadgeError.ioError` (74) when writing fails part way (a
    ///   full disk, `ulimit -f`).
    public static func write(_ bytes: [UInt8], to path: String, creatingFolders: Bool = false) throws(BadgeError) {
        if path == "-" {
            let code = bytes.withUnsafeBytes { Platform.writeAll(1, $0) }
            if code != 0 { throw .ioError(path: "-", reason: SystemError.text(code)) }
            return
        }
        try write(bytes, to: OutputLocation(commandLine: path), creatingFolders: creatingFolders)
    }

    /// Writes `bytes` to `location`, atomically; see the type's rules.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) naming the link, folder or file that
    ///   stops it; `BadgeError.ioError` (74) when writing fails part way.
    public static func write(_ bytes: [UInt8], to location: OutputLocation, creatingFolders: Bool = false)
        throws(BadgeError)
    {
        let folder = try DirectoryWalk.folder(of: location, creating: creatingFolders)
        let mode = try targetMode(in: folder, location)
        try write(bytes, into: folder, name: location.name!, mode: mode, shown: location.description)
    }

    /// Writes `bytes` as `name` in the open `folder`, atomically, with `mode`;
    /// `shown` names the file in messages.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) when no temporary file can be made or
    ///   renamed; `BadgeError.ioError` (74) when writing fails part way.
    static func write(_ bytes: [UInt8], into folder: FolderHandle, name: String, mode: mode_t, shown: String)
        throws(BadgeError)
    {
        if let anonymous = Platform.openAnonymousFile(in: folder.descriptor, mode: mode) {
            if try writeAnonymous(bytes, anonymous, mode: mode, into: folder, as: name, shown: shown) { return }
        }
        let (fd, temporary) = try TemporaryFiles.create(in: folder, mode: mode, for: shown)
        var done = false
        defer {
            if !done { unlinkat(folder.descriptor, temporary, 0) }
            TemporaryFiles.unregister(folder, temporary)
        }
        try fill(fd, with: bytes, mode: mode, shown: shown)
        guard renameat(folder.descriptor, temporary, folder.descriptor, name) == 0 else {
            throw .cannotCreate(path: shown, reason: SystemError.text(errno))
        }
        done = true
    }

    /// Writes into an unnamed file, then names and renames it into place under the
    /// temporary-file lock (so an interrupting signal's cleanup cannot fall between the
    /// two). Returns false, having written nothing visible, when the system cannot name
    /// the file: the caller then writes a named temporary file.
    private static func writeAnonymous(
        _ bytes: [UInt8], _ fd: Int32, mode: mode_t, into folder: FolderHandle, as name: String, shown: String
    ) throws(BadgeError) -> Bool {
        var closed = false
        defer { if !closed { close(fd) } }
        let code = bytes.withUnsafeBytes { Platform.writeAll(fd, $0) }
        if code != 0 { throw .ioError(path: shown, reason: SystemError.text(code)) }
        fchmod(fd, mode)
        return try TemporaryFiles.publishing { () throws(BadgeError) -> Bool in
            let temporary = TemporaryFiles.randomName()
            guard Platform.linkAnonymous(fd, into: folder.descriptor, as: temporary) else { return false }
            closed = true
            if close(fd) != 0 {
                let code = errno
                unlinkat(folder.descriptor, temporary, 0)
                throw .ioError(path: shown, reason: SystemError.text(code))
            }
            guard renameat(folder.descriptor, temporary, folder.descriptor, name) == 0 else {
                let code = errno
                unlinkat(folder.descriptor, temporary, 0)
                throw .cannotCreate(path: shown, reason: SystemError.text(code))
            }
            return true
        }
    }

    /// Writes `bytes` to the named temporary file `fd` and closes it (a full disk or a
    /// quota shows at close on some file systems).
    private static func fill(_ fd: Int32, with bytes: [UInt8], mode: mode_t, shown: String) throws(BadgeError) {
        let code = bytes.withUnsafeBytes { Platform.writeAll(fd, $0) }
        guard code == 0 else {
            close(fd)
            throw .ioError(path: shown, reason: SystemError.text(code))
        }
        fchmod(fd, mode)
        // No fsync: the rename makes the replacement atomic for every reader and
        // against any failure of this process; fsync would add durability across power
        // loss at about 20 ms a file, more than a whole render, which build tools that
        // regenerate their outputs do not need.
        if close(fd) != 0 { throw .ioError(path: shown, reason: SystemError.text(errno)) }
    }

    /// The permission bits the new file gets: an existing regular file's (without
    /// set-ID and sticky bits), else 0666 less the umask.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) when the target is a link, a folder, a
    ///   device, a FIFO, a socket or read-only, or the location names no file.
    static func targetMode(in folder: FolderHandle, _ location: OutputLocation) throws(BadgeError) -> mode_t {
        let shown = location.description
        guard let name = location.name, !name.utf8.contains(0) else {
            throw .cannotCreate(path: shown, reason: "is not a usable file name")
        }
        var info = stat()
        guard fstatat(folder.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            let code = errno
            guard code == ENOENT else { throw .cannotCreate(path: shown, reason: SystemError.text(code)) }
            return newFileMode
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard faccessat(folder.descriptor, name, W_OK, 0) == 0 else {
                throw .cannotCreate(path: shown, reason: "is read-only")
            }
            return info.st_mode & 0o777
        case S_IFLNK:
            throw .cannotCreate(
                path: shown,
                reason: "is a symbolic link; iconbadge never writes through a link (remove it, or write elsewhere)")
        case S_IFDIR:
            throw .cannotCreate(path: shown, reason: "is a directory")
        case S_IFCHR, S_IFBLK:
            throw .cannotCreate(path: shown, reason: "is a device; write to a regular file (or - for standard output)")
        case S_IFIFO:
            throw .cannotCreate(path: shown, reason: "is a FIFO; write to a regular file (or - for standard output)")
        default:
            throw .cannotCreate(path: shown, reason: "is not a regular file")
        }
    }

    /// The mode a new file gets: 0666 less the umask.
    static var newFileMode: mode_t {
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }

    /// The folder part of `path` (`.` when there is none).
    public static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}
