import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks a folder a command reads (an Android `res/` folder, an asset catalog) before
/// it is listed: a folder this user may not search or list would otherwise look
/// missing or empty, and be reported as such.
public enum InputFolder {
    /// Checks that `path` is a folder this process may list and search.
    ///
    /// - Parameter missing: the reason given when nothing is there, or a file that is
    ///   not a folder (`"no such res/ folder"`).
    /// - Throws: `BadgeError.missingInput` (66): `missing` when `path`, or a folder on
    ///   the way, does not exist, or `path` is not a folder; `"cannot open: "` and the
    ///   system's reason (`permission denied`) when a folder on the way may not be
    ///   searched or `path` may not be listed or searched, as `InputFile` says for a
    ///   file it may not open.
    public static func check(_ path: String, missing: String) throws(BadgeError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missingInput(path: path, reason: missing) }
            throw .missingInput(path: path, reason: "cannot open: \(SystemError.text(code))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .missingInput(path: path, reason: missing) }
        // AT_EACCESS: the effective user's rights (set-user-ID runs, `setpriv`).
        guard faccessat(AT_FDCWD, path, R_OK | X_OK, AT_EACCESS) == 0 else {
            throw .missingInput(path: path, reason: "cannot open: \(SystemError.text(errno))")
        }
    }

    /// Whether `path` is a folder (not a link to one) holding anything: a destination
    /// that would be replaced whole loses what it holds, so a catalog replaces one
    /// only when it can tell it wrote it. An unreadable folder counts as holding
    /// something.
    public static func holdsAnything(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
        guard let folder = opendir(path) else { return true }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { return true }
        }
        return false
    }
}
