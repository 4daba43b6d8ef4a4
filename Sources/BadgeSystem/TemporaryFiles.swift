import BadgeCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The named temporary files being written right now, so that an interrupted run can
/// remove them before the process exits (Ctrl-C leaves no `.iconbadge-*` file).
///
/// One lock orders creating, publishing (link and rename) and the signal cleanup: the
/// cleanup takes it and never gives it back (the process exits holding it), so no
/// worker can make a new file after the cleanup ran (a signal test once found 1 run
/// in 60 leaving a file when that was not so).
enum TemporaryFiles {
    /// One registered file: its folder (a duplicate descriptor, closed on unregister)
    /// and its name there.
    private struct Entry {
        var folder: Int32
        var name: String
        /// A staging folder (`StagedFolder`): removed with everything in it.
        var isFolder = false
    }

    /// At most one entry per output being written at once (batch workers): a list, as
    /// a Set costs the Swift runtime a conformance scan at each start (callgrind).
    private static let entries = Mutex<[Entry]>([])

    /// `.iconbadge-` and 12 random letters and digits.
    static func randomName() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return ".iconbadge-" + String((0..<12).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// Creates a named temporary file in `folder` with `mode` and registers it, under
    /// the lock the cleanup takes too, so no file exists unregistered even for an
    /// instant. `O_EXCL | O_NOFOLLOW`: never an existing file, never through a link.
    ///
    /// - Throws: `BadgeError.cannotCreate` naming `output` when it cannot be made.
    static func create(in folder: FolderHandle, mode: mode_t, for output: String) throws(BadgeError) -> (
        Int32, String
    ) {
        try entries.withLock { (list) throws(BadgeError) -> (Int32, String) in
            for _ in 0..<16 {
                let name = randomName()
                let fd = openat(
                    folder.descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
                if fd >= 0 {
                    list.append(Entry(folder: dup(folder.descriptor), name: name))
                    return (fd, name)
                }
                if errno != EEXIST { throw .cannotCreate(path: output, reason: SystemError.text(errno)) }
            }
            throw .cannotCreate(path: output, reason: "no free temporary file name in its folder")
        }
    }

    /// Makes a staging folder (mode 0700) in `folder` and registers it, under the
    /// cleanup's lock: an interrupted run removes it with everything in it.
    ///
    /// - Throws: `BadgeError.cannotCreate` naming `output` when it cannot be made.
    static func createFolder(in folder: FolderHandle, for output: String) throws(BadgeError) -> String {
        try entries.withLock { (list) throws(BadgeError) -> String in
            for _ in 0..<16 {
                let name = randomName()
                if mkdirat(folder.descriptor, name, 0o700) == 0 {
                    list.append(Entry(folder: dup(folder.descriptor), name: name, isFolder: true))
                    return name
                }
                if errno != EEXIST {
                    throw .cannotCreate(
                        path: output, reason: "cannot make a staging folder beside it: \(SystemError.text(errno))")
                }
            }
            throw .cannotCreate(path: output, reason: "no free staging folder name beside it")
        }
    }

    /// Removes the folder `name` in `parent` and everything below it, following no
    /// link (a link inside is removed as a link). Depth is bounded: staging folders
    /// hold at most a few levels (`res/mipmap-hdpi/x.png`).
    static func removeTree(_ parent: Int32, _ name: String, depth: Int = 0) {
        guard depth < 8 else { return }
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            unlinkat(parent, name, 0)
            return
        }
        guard let stream = fdopendir(fd) else {
            close(fd)
            return
        }
        var names: [(String, Bool)] = []
        while let entry = readdir(stream) {
            let child = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if child == "." || child == ".." { continue }
            names.append((child, Int32(entry.pointee.d_type) == Int32(DT_DIR)))
        }
        for (child, isFolder) in names {
            if isFolder {
                removeTree(dirfd(stream), child, depth: depth + 1)
            } else {
                unlinkat(dirfd(stream), child, 0)
            }
        }
        closedir(stream)
        unlinkat(parent, name, AT_REMOVEDIR)
    }

    /// Forgets a file made by `create` (renamed into place, or removed).
    static func unregister(_ folder: FolderHandle, _ name: String) {
        entries.withLock { list in
            list.removeAll { entry in
                guard entry.name == name else { return false }
                close(entry.folder)
                return true
            }
        }
        _ = folder
    }

    /// Runs `body` (which links a finished file under a temporary name and renames it
    /// into place) holding the lock, so a signal's cleanup runs before or after it,
    /// never between the link and the rename.
    static func publishing<T>(_ body: () throws(BadgeError) -> T) throws(BadgeError) -> T {
        try entries.withLock { (_) throws(BadgeError) -> T in try body() }
    }

    /// Runs `body` holding the lock (as `publishing`) and, when it returns, forgets
    /// the staging folder `name` (renamed into place, or removed by `body`).
    static func publishingFolder<T>(_ name: String, _ body: () throws(BadgeError) -> T) throws(BadgeError) -> T {
        try publishingFolders([name], body)
    }

    /// As `publishingFolder`, for several staging folders committed together.
    static func publishingFolders<T>(_ names: [String], _ body: () throws(BadgeError) -> T) throws(BadgeError) -> T {
        try entries.withLock { (list) throws(BadgeError) -> T in
            let result = try body()
            list.removeAll { entry in
                guard entry.isFolder, names.contains(entry.name) else { return false }
                close(entry.folder)
                return true
            }
            return result
        }
    }

    /// Removes every registered file, prints `message` and exits with `status`, holding
    /// the lock to the end. Called by the signal-handling thread.
    static func removeAllAndExit(message: String, status: Int32) -> Never {
        entries.withLock { list -> Never in
            for entry in list {
                if entry.isFolder {
                    // A worker still rendering may make a subfolder between the listing and
                    // the folder's own removal (which then fails, not empty); once the
                    // folder is gone nothing can be made in it, so it is removed again
                    // until it is.
                    var info = stat()
                    for _ in 0..<64 {
                        removeTree(entry.folder, entry.name)
                        if fstatat(entry.folder, entry.name, &info, AT_SYMLINK_NOFOLLOW) != 0 { break }
                    }
                } else {
                    unlinkat(entry.folder, entry.name, 0)
                }
            }
            _ = message.withCString { Platform.writeOnce(2, $0, strlen($0)) }
            _exit(status)
        }
    }
}
