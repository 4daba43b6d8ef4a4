#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few operating-system calls that differ between Linux and macOS, in one place.
///
/// Linux is what CI runs and every branch here is tested there. The macOS branches
/// follow Apple's manual pages and are **untested** (no macOS machine in CI): where a
/// feature has no macOS equivalent the branch returns nil and the caller takes its
/// portable fallback, so a mistake there costs a feature, not safety.
public enum Platform {
    #if os(Linux)
        // Glibc's Swift module leaves out these GNU flags (they need _GNU_SOURCE);
        // values from the kernel's include/uapi/asm-generic/fcntl.h, the same on
        // x86_64 and arm64 (O_DIRECTORY, which differs, comes from Glibc).
        private static let openPath: Int32 = 0o10000000
        private static let openTemporaryFile: Int32 = 0o20000000 | O_DIRECTORY
    #endif

    /// Flags to open a folder only as a starting point for `openat`, `mkdirat`,
    /// `renameat` and `linkat`: `O_PATH` on Linux needs no read permission on the
    /// folder (search permission is enough, as for a path walk by the kernel).
    static var directoryFlags: Int32 {
        #if os(Linux)
            return openPath | O_DIRECTORY | O_CLOEXEC
        #else
            return O_RDONLY | O_DIRECTORY | O_CLOEXEC
        #endif
    }

    /// The path the kernel has for an open file or folder, or nil when it cannot say
    /// (Linux: `/proc/self/fd/N`; macOS: `fcntl(F_GETPATH)`).
    static func path(of descriptor: Int32) -> String? {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
            guard length > 0, buffer[0] == 0x2F else { return nil }  // "/"
            return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN) + 1)
            guard fcntl(descriptor, F_GETPATH, &buffer) == 0 else { return nil }
            return String(cString: buffer)
        #endif
    }

    /// Opens an unnamed regular file in the folder `directory` (Linux `O_TMPFILE`):
    /// it has no name until `linkAnonymous` gives it one, so a process killed while
    /// writing it (even by SIGKILL) leaves nothing behind. nil where the system or the
    /// file system does not support it (macOS, some network file systems).
    static func openAnonymousFile(in directory: Int32, mode: mode_t) -> Int32? {
        #if os(Linux)
            let fd = openat(directory, ".", openTemporaryFile | O_WRONLY | O_CLOEXEC, mode)
            return fd >= 0 ? fd : nil
        #else
            return nil
        #endif
    }

    /// Gives the unnamed file `descriptor` the name `name` in `directory`; false when
    /// the system refuses (then the caller writes a named temporary file instead).
    /// `linkat` through `/proc/self/fd` needs no privilege, unlike `AT_EMPTY_PATH`.
    static func linkAnonymous(_ descriptor: Int32, into directory: Int32, as name: String) -> Bool {
        #if os(Linux)
            return linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", directory, name, AT_SYMLINK_FOLLOW) == 0
        #else
            return false
        #endif
    }

    /// The running executable's path, or nil when the system cannot say (Linux:
    /// `/proc/self/exe`; macOS: `_NSGetExecutablePath`, then resolved).
    public static func executablePath() -> String? {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard length > 0 else { return nil }
            return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            var size: UInt32 = 4096
            var buffer = [CChar](repeating: 0, count: Int(size))
            guard _NSGetExecutablePath(&buffer, &size) == 0, let real = realpath(buffer, nil) else { return nil }
            defer { free(real) }
            return String(cString: real)
        #endif
    }

    /// Writes `count` bytes from `bytes` to `descriptor` once (the system's `write`).
    @inline(__always)
    static func writeOnce(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.write(descriptor, bytes, count)
        #else
            return Darwin.write(descriptor, bytes, count)
        #endif
    }

    /// Writes all of `bytes` to `descriptor`, retrying after EINTR and short writes.
    ///
    /// - Returns: 0, or the `errno` of the failed write.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = writeOnce(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// The working folder's real path (no symbolic links), or nil when it was removed.
    public static func workingFolder() -> String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }

    /// Raises the soft limit on open files to the hard limit: a catalog of thousands
    /// of sets holds a folder open for each until they are committed together.
    public static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(RLIMIT_NOFILE_VALUE, &limit)
    }

    #if os(Linux)
        private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
    #endif
}
