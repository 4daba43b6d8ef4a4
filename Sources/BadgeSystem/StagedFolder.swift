import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A hidden folder (`.iconbadge-` and 12 random letters, mode 0700) where a command that writes
/// all or nothing (an asset catalog, an Android `res/` overlay) writes every file
/// first. Only when all are written does `commit` move them into place, under the
/// same lock as the signal cleanup, so SIGINT/SIGTERM/SIGHUP lands before the commit
/// (the folder is removed, the destination is as it was) or after it (whole).
///
/// The staging folder is made on the destination's file system, so the commit is a
/// `renameat` (never a copy):
/// - `beside(_:)`, for a new folder (`--out`): in the destination's parent, and
///   committed by renaming the whole folder;
/// - `inside(_:)`, for files replaced in place (`--in-place`): in the destination
///   folder itself (no write permission on its parent is needed), and committed by
///   renaming each file over the one it replaces.
///
/// A failure, or `discard()`, removes the staging folder and everything in it.
public final class StagedFolder: Sendable, Equatable {
    public static func == (a: StagedFolder, b: StagedFolder) -> Bool { a === b }

    /// The folder the staging folder is in.
    let parent: FolderHandle
    /// The staging folder's own name in `parent`.
    let name: String
    /// The destination, for messages.
    public let destination: String
    /// The staging folder's path, for reading back what was staged (an input made
    /// for a render, such as a blank canvas).
    public let path: String
    /// For `beside`: the destination as an output, when its parent folders are still
    /// to be made at commit (the staging folder is then in their nearest existing
    /// ancestor, on the same file system).
    let missingParents: OutputLocation?

    private init(
        parent: FolderHandle, name: String, destination: String, parentPath: String,
        missingParents: OutputLocation? = nil
    ) {
        self.parent = parent
        self.name = name
        self.destination = destination
        path = (parentPath == "/" ? "" : parentPath) + "/" + name
        self.missingParents = missingParents
    }

    /// A staging folder beside the folder `destination` will be. Missing parent
    /// folders are made at commit (`mkdir -p`, following the walk's link rules), so a
    /// failed run leaves no new empty folder either; until then the staging folder
    /// is in the nearest folder that exists.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) naming the destination and the folder
    ///   on the way that is a link or not a folder.
    public static func beside(_ destination: OutputLocation) throws(BadgeError) -> StagedFolder {
        let shown = destination.description
        if let folder = try DirectoryWalk.folder(of: destination, missing: .stop) {
            let name = try TemporaryFiles.createFolder(in: folder, for: shown)
            return StagedFolder(
                parent: folder, name: name, destination: shown, parentPath: OutputFile.parentFolder(of: shown))
        }
        var ancestor = OutputFile.parentFolder(of: shown)
        for _ in 0..<256 {
            ancestor = OutputFile.parentFolder(of: ancestor)
            let probe = OutputLocation(commandLine: (ancestor == "/" ? "" : ancestor) + "/x")
            if let folder = try DirectoryWalk.folder(of: probe, missing: .stop) {
                let name = try TemporaryFiles.createFolder(in: folder, for: shown)
                return StagedFolder(
                    parent: folder, name: name, destination: shown, parentPath: ancestor, missingParents: destination)
            }
            if ancestor == "." || ancestor == "/" { break }
        }
        throw .cannotCreate(path: shown, reason: "no folder on its path exists")
    }

    /// A staging folder inside the existing folder `destination` (a file's location
    /// in it picks the folder: `folder/any`).
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) as `beside`, or when it is missing.
    public static func inside(_ fileInDestination: OutputLocation) throws(BadgeError) -> StagedFolder {
        let folder = try DirectoryWalk.folder(of: fileInDestination, creating: false)
        let shown = OutputFile.parentFolder(of: fileInDestination.description)
        let name = try TemporaryFiles.createFolder(in: folder, for: shown)
        return StagedFolder(parent: folder, name: name, destination: shown, parentPath: shown)
    }

    /// Removes the staged file `components` (one made only for the render).
    public func remove(_ components: [String]) {
        guard let folder = try? open(name, in: parent, shown: destination) else { return }
        var current = folder
        for component in components.dropLast() {
            guard let next = try? open(component, in: current, shown: destination) else { return }
            current = next
        }
        if let last = components.last { unlinkat(current.descriptor, last, 0) }
    }

    /// Writes `bytes` as `components` below the staging folder (its subfolders are
    /// made as needed); `shown` names the final file in messages.
    ///
    /// - Throws: 73 when a file or folder cannot be made, 74 when writing fails part
    ///   way (a full disk).
    public func write(_ bytes: [UInt8], components: [String], shown: String) throws(BadgeError) {
        guard let last = components.last, !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else { throw .internalError("staged file \(Quoted(shown)) has no plain name") }
        var folder = try open(name, in: parent, shown: shown)
        for component in components.dropLast() {
            if mkdirat(folder.descriptor, component, 0o777) != 0, errno != EEXIST {
                throw .cannotCreate(path: shown, reason: "cannot make folder: \(SystemError.text(errno))")
            }
            folder = try open(component, in: folder, shown: shown)
        }
        try OutputFile.write(bytes, into: folder, name: last, mode: OutputFile.newFileMode, shown: shown)
    }

    /// Copies the open regular file `source`, from its start, as the new file `name` in
    /// the staging folder, 64 KiB at a time (never held whole), at most `limit` bytes;
    /// returns how many were copied. The staging folder is private until `commit`, so
    /// the file is written in place; a failure removes it. `inspect` sees each piece
    /// before it is written, then an empty one with `atEnd`; false stops the copy.
    ///
    /// - Throws: 65 naming `shown` when the file holds more than `limit` bytes (it grew
    ///   after it was sized) or `inspect` refuses it; 73 when the file cannot be made; 74 when a read or write
    ///   fails.
    public func copy(
        from source: borrowing InputFile.Opened, limit: Int, name: String, shown: String,
        inspect: (UnsafeRawBufferPointer, _ atEnd: Bool) -> Bool
    ) throws(BadgeError) -> Int {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
            throw .internalError("staged file \(Quoted(shown)) has no plain name")
        }
        let folder = try open(self.name, in: parent, shown: shown)
        let fd = openat(
            folder.descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, OutputFile.newFileMode)
        guard fd >= 0 else { throw .cannotCreate(path: shown, reason: SystemError.text(errno)) }
        var done = false
        defer {
            if !done { unlinkat(folder.descriptor, name, 0) }
        }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var copied = 0
        var failure: BadgeError?
        while failure == nil {
            let got = buffer.withUnsafeMutableBytes {
                pread(source.descriptor, $0.baseAddress!, $0.count, off_t(copied))
            }
            if got < 0 {
                if errno == EINTR { continue }
                failure = .ioError(path: shown, reason: "cannot read its source: \(SystemError.text(errno))")
                break
            }
            if got == 0 {
                if !inspect(UnsafeRawBufferPointer(start: nil, count: 0), true) {
                    failure = .badInput(path: shown, reason: "is not a whole PNG")
                }
                break
            }
            guard buffer.withUnsafeBytes({ inspect(UnsafeRawBufferPointer(rebasing: $0[..<got]), false) }) else {
                failure = .badInput(path: shown, reason: "is not a PNG (its chunks are not framed as one)")
                break
            }
            guard copied + got <= limit else {
                failure = .badInput(path: shown, reason: "is over the \(limit)-byte limit for one image")
                break
            }
            let code = buffer.withUnsafeBytes { Platform.writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[..<got])) }
            if code != 0 { failure = .ioError(path: shown, reason: SystemError.text(code)) }
            copied += got
        }
        if close(fd) != 0, failure == nil { failure = .ioError(path: shown, reason: SystemError.text(errno)) }
        if let failure { throw failure }
        done = true
        return copied
    }

    private func open(_ child: String, in folder: FolderHandle, shown: String) throws(BadgeError) -> FolderHandle {
        let fd = openat(folder.descriptor, child, Platform.directoryFlags | O_NOFOLLOW)
        guard fd >= 0 else { throw .cannotCreate(path: shown, reason: "staging folder: \(SystemError.text(errno))") }
        return FolderHandle(fd)
    }

    /// How a staging folder is moved into place.
    public enum Commit: Sendable {
        /// The staging folder becomes the folder `name` (see `commit(as:subfolders:)`).
        case folder(name: String, subfolders: [String])
        /// Each staged file replaces its namesake (see `commitFiles(_:)`), and the
        /// regular files at `removing` (paths below the same folder) are deleted.
        case files([[String]], removing: [[String]] = [])
    }

    /// Makes the staging folder the folder `finalName` in its parent. A folder already
    /// there is replaced only when it holds regular files alone, and `subfolders`
    /// holding regular files alone (a set or bundle written before): it is renamed
    /// aside, the new one renamed in, and the old one removed.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) when `finalName` is a link, a file, or
    ///   a folder holding anything but regular files (nothing is then changed).
    public func commit(as finalName: String, subfolders: [String] = []) throws(BadgeError) {
        try Self.commit([(self, .folder(name: finalName, subfolders: subfolders))])
    }

    /// Renames every staged file (`files`, paths of plain components below the
    /// staging folder) over the file at the same path in the folder the staging
    /// folder is in; a missing folder on the way (`Assets`) is made. Each file takes
    /// the permission bits of the file it replaces (without set-ID and sticky bits).
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) when a folder on the way is a link, a
    ///   folder cannot be made, or a rename is not allowed, all found before the first
    ///   rename; a rename that fails after passing those checks (an append-only folder,
    ///   a failing disk) leaves the files renamed before it replaced.
    public func commitFiles(_ files: [[String]], removing: [[String]] = []) throws(BadgeError) {
        try Self.commit([(self, .files(files, removing: removing))])
    }

    /// Checks, before any work, that `commit(as: finalName, subfolders:)` could
    /// replace what is there now.
    ///
    /// - Throws: as `commit(as:subfolders:)`.
    public func checkReplaceable(as finalName: String, subfolders: [String] = []) throws(BadgeError) {
        guard missingParents == nil else { return }
        try checkReplaceable(finalName, in: parent, subfolders: subfolders)
    }

    /// Commits several staging folders together (every set of a catalog): missing
    /// parent folders are made first, then every rename runs under one hold of the
    /// cleanup's lock, so SIGINT or SIGTERM lands before all of them or after all.
    /// Each destination is checked before the first rename.
    ///
    /// - Throws: as `commit(as:subfolders:)` and `commitFiles(_:)`.
    public static func commit(_ items: [(StagedFolder, Commit)]) throws(BadgeError) {
        var targets: [FolderHandle] = []
        for (staged, _) in items {
            // The parents, made last: a failure before this point leaves no new folder.
            targets.append(
                try staged.missingParents.map { (location) throws(BadgeError) in
                    try DirectoryWalk.folder(of: location, creating: true)
                } ?? staged.parent)
        }
        // Every rename is checked first (permission, a sticky folder's owner), so a
        // refusal comes before the first rename rather than after some.
        for (index, (staged, commit)) in items.enumerated() {
            try staged.preflight(commit, target: targets[index])
        }
        try TemporaryFiles.publishingFolders(items.map(\.0.name)) { () throws(BadgeError) in
            for (index, (staged, commit)) in items.enumerated() {
                if case .folder(let finalName, let subfolders) = commit {
                    try staged.checkReplaceable(finalName, in: targets[index], subfolders: subfolders)
                }
            }
            // Folders the files go into are made before any rename: running out of
            // inodes then changes nothing (the ones made are removed again).
            var made: [(FolderHandle, String)] = []
            for (staged, commit) in items {
                guard case .files(let files, _) = commit else { continue }
                do throws(BadgeError) {
                    try staged.makeFolders(for: files, made: &made)
                } catch {
                    for (folder, name) in made.reversed() { unlinkat(folder.descriptor, name, AT_REMOVEDIR) }
                    throw error
                }
            }
            for (index, (staged, commit)) in items.enumerated() {
                switch commit {
                case .folder(let finalName, _): try staged.renameFolder(as: finalName, into: targets[index])
                case .files(let files, let removing):
                    try staged.renameFiles(files)
                    staged.removeFiles(removing)
                }
            }
        }
    }

    /// Why `name` in `folder` cannot be renamed over (or into), or nil: the folder not
    /// writable, or a sticky folder (`/tmp`-like) where neither it nor the file is
    /// ours. Root passes both, as the kernel lets it.
    private static func renameProblem(in folder: FolderHandle, _ name: String) -> String? {
        guard faccessat(folder.descriptor, ".", W_OK | X_OK, AT_EACCESS) == 0 else {
            return "its folder is not writable (\(SystemError.text(errno)))"
        }
        var directory = stat()
        var file = stat()
        let euid = geteuid()
        if euid != 0, fstat(folder.descriptor, &directory) == 0, directory.st_mode & S_ISVTX != 0,
            fstatat(folder.descriptor, name, &file, AT_SYMLINK_NOFOLLOW) == 0, file.st_uid != euid,
            directory.st_uid != euid
        {
            return "it belongs to another user in a sticky folder"
        }
        return nil
    }

    /// Checks that every rename `commit` makes is allowed, before the first.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) naming the file and why.
    private func preflight(_ commit: Commit, target: FolderHandle) throws(BadgeError) {
        switch commit {
        case .folder(let finalName, _):
            if let problem = Self.renameProblem(in: target, finalName) {
                throw .cannotCreate(path: destination, reason: problem)
            }
            var info = stat()
            if fstatat(target.descriptor, finalName, &info, AT_SYMLINK_NOFOLLOW) == 0,
                info.st_mode & S_IFMT == S_IFDIR, faccessat(target.descriptor, finalName, W_OK | X_OK, AT_EACCESS) != 0
            {
                throw .cannotCreate(path: destination, reason: "is not writable (\(SystemError.text(errno)))")
            }
        case .files(let files, let removing):
            for components in files + removing {
                guard let file = components.last else { continue }
                var folder = parent
                var missing = false
                for component in components.dropLast() {
                    var info = stat()
                    guard fstatat(folder.descriptor, component, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                        missing = true
                        break
                    }
                    folder = try open(component, in: folder, shown: destination + "/" + component)
                }
                let shown = destination + "/" + components.joined(separator: "/")
                if let problem = Self.renameProblem(in: folder, missing ? "." : file) {
                    throw .cannotCreate(path: shown, reason: problem)
                }
            }
        }
    }

    /// Makes the folders below the staging folder's parent that `files` go into,
    /// recording each one made in `made`.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) when one cannot be made.
    private func makeFolders(for files: [[String]], made: inout [(FolderHandle, String)]) throws(BadgeError) {
        for components in files {
            var folder = parent
            for component in components.dropLast() {
                if mkdirat(folder.descriptor, component, 0o777) == 0 {
                    made.append((folder, component))
                } else if errno != EEXIST {
                    throw .cannotCreate(path: destination + "/" + component, reason: SystemError.text(errno))
                }
                folder = try open(component, in: folder, shown: destination + "/" + component)
            }
        }
    }

    /// Refuses to replace `finalName` in `target` unless it is missing or a folder of
    /// regular files (and `subfolders` of regular files).
    private func checkReplaceable(_ finalName: String, in target: FolderHandle, subfolders: [String])
        throws(BadgeError)
    {
        var info = stat()
        guard fstatat(target.descriptor, finalName, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .cannotCreate(
                path: destination,
                reason: info.st_mode & S_IFMT == S_IFLNK
                    ? "is a symbolic link; iconbadge never writes through a link (remove it, or write elsewhere)"
                    : "exists and is not a folder")
        }
        if let other = firstEntryNotAFile(finalName, in: target, subfolders: subfolders) {
            throw .cannotCreate(
                path: destination,
                reason:
                    "exists and holds \(Quoted(other)), which is not a regular file; iconbadge replaces a folder it wrote, not one holding folders or links (remove it, or write elsewhere)"
            )
        }
    }

    /// The staging folder becomes `finalName` in `target` (an old one renamed aside
    /// and removed), with the permission bits a new folder gets (it was made 0700).
    private func renameFolder(as finalName: String, into target: FolderHandle) throws(BadgeError) {
        let mask = umask(0)
        umask(mask)
        fchmodat(parent.descriptor, name, 0o777 & ~mask, 0)
        var info = stat()
        if fstatat(target.descriptor, finalName, &info, AT_SYMLINK_NOFOLLOW) == 0 {
            let aside = TemporaryFiles.randomName()
            guard renameat(target.descriptor, finalName, target.descriptor, aside) == 0 else {
                throw .cannotCreate(path: destination, reason: SystemError.text(errno))
            }
            guard renameat(parent.descriptor, name, target.descriptor, finalName) == 0 else {
                let code = errno
                renameat(target.descriptor, aside, target.descriptor, finalName)
                throw .cannotCreate(path: destination, reason: SystemError.text(code))
            }
            TemporaryFiles.removeTree(target.descriptor, aside)
        } else {
            guard renameat(parent.descriptor, name, target.descriptor, finalName) == 0 else {
                throw .cannotCreate(path: destination, reason: SystemError.text(errno))
            }
        }
    }

    /// Deletes the regular files at `paths` below the staging folder's parent (a
    /// resource another file now stands for), following no link on the way.
    private func removeFiles(_ paths: [[String]]) {
        for components in paths {
            guard let file = components.last else { continue }
            var folder = parent
            var reachable = true
            for component in components.dropLast() {
                guard let next = try? open(component, in: folder, shown: destination) else {
                    reachable = false
                    break
                }
                folder = next
            }
            var info = stat()
            if reachable, fstatat(folder.descriptor, file, &info, AT_SYMLINK_NOFOLLOW) == 0,
                info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFLNK
            {
                unlinkat(folder.descriptor, file, 0)
            }
        }
    }

    /// Each staged file over its namesake in the staging folder's parent.
    private func renameFiles(_ files: [[String]]) throws(BadgeError) {
        for components in files {
            guard let file = components.last else { continue }
            var staged = try open(name, in: parent, shown: destination)
            var target = parent
            for component in components.dropLast() {
                staged = try open(component, in: staged, shown: destination)
                if mkdirat(target.descriptor, component, 0o777) != 0, errno != EEXIST {
                    throw .cannotCreate(path: destination + "/" + component, reason: SystemError.text(errno))
                }
                target = try open(component, in: target, shown: destination + "/" + component)
            }
            var info = stat()
            if fstatat(target.descriptor, file, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG {
                fchmodat(staged.descriptor, file, info.st_mode & 0o777, 0)
            }
            guard renameat(staged.descriptor, file, target.descriptor, file) == 0 else {
                throw .cannotCreate(
                    path: destination + "/" + components.joined(separator: "/"), reason: SystemError.text(errno))
            }
        }
        TemporaryFiles.removeTree(parent.descriptor, name)
    }

    /// Removes the staging folder and everything in it.
    public func discard() {
        _ = try? TemporaryFiles.publishingFolder(name) { () throws(BadgeError) in
            TemporaryFiles.removeTree(parent.descriptor, name)
        }
    }

    /// The first entry of the folder `child` of `folder` that is not a regular file
    /// (nor one of `subfolders` holding regular files alone), or nil.
    private func firstEntryNotAFile(_ child: String, in folder: FolderHandle, subfolders: [String] = []) -> String? {
        let fd = openat(folder.descriptor, child, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0, let stream = fdopendir(fd) else {
            if fd >= 0 { close(fd) }
            return child
        }
        defer { closedir(stream) }
        let here = FolderHandle(dup(dirfd(stream)))
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard fstatat(dirfd(stream), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return name }
            if info.st_mode & S_IFMT == S_IFDIR, subfolders.contains(name) {
                if let inner = firstEntryNotAFile(name, in: here) { return name + "/" + inner }
                continue
            }
            guard info.st_mode & S_IFMT == S_IFREG else { return name }
        }
        return nil
    }
}
