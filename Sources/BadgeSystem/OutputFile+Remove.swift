import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension OutputFile {
    /// Removes the file at `location` if it is there: a stale artifact of a check that
    /// now passes. The folder is opened like a write's (`DirectoryWalk`: no link
    /// followed where none may be), and only a regular file or a link itself is
    /// unlinked, never what a link points to, never a folder.
    ///
    /// - Returns: whether a file was removed.
    /// - Throws: `BadgeError.cannotCreate` (73) when a folder on the way is a link or
    ///   not a folder, or the file cannot be removed.
    @discardableResult
    public static func removeIfPresent(_ location: OutputLocation) throws(BadgeError) -> Bool {
        guard let folder = try DirectoryWalk.folder(of: location, missing: .stop), let name = location.name,
            !name.utf8.contains(0)
        else { return false }
        var info = stat()
        guard fstatat(folder.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFLNK else { return false }
        guard unlinkat(folder.descriptor, name, 0) == 0 else {
            let code = errno
            if code == ENOENT { return false }
            throw .cannotCreate(path: location.description, reason: "cannot remove: \(SystemError.text(code))")
        }
        return true
    }
}
