import BadgeCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open folder used as the starting point of `*at` calls; closed with its owner.
final class FolderHandle: Sendable {
    let descriptor: Int32
    init(_ descriptor: Int32) { self.descriptor = descriptor }
    deinit { close(descriptor) }
}

/// Opens the folder an output goes into, one component at a time with `openat`, so
/// that what is checked is what is used (no path is resolved twice).
///
/// Rules (SECURITY.md): below an `OutputLocation.root`, anywhere inside the working
/// folder, and in every component of a relative path, a symbolic link is refused
/// (exit 73, naming it); outside the working folder, on an absolute path the caller
/// wrote, links are followed. Linux's `openat2`
/// with `RESOLVE_NO_SYMLINKS` would check the same in one call, but it needs Linux
/// 5.6 and cannot express "follow outside the working folder", so the walk is done
/// here, the same way on every kernel.
enum DirectoryWalk {
    /// What the walk does at a folder that does not exist.
    enum Missing {
        /// Refuse the output (73, naming the folder).
        case fail
        /// Make it (`mkdir -p`), mode 0777 less the umask.
        case create
        /// Stop there: `folder` returns nil (a check before folders are made).
        case stop
    }

    /// The folder `location` goes into, made first where missing when `creating`.
    ///
    /// - Throws: `BadgeError.cannotCreate` (73) naming the output and the component
    ///   that is a link, not a folder, missing (without `creating`), or cannot be made.
    static func folder(of location: OutputLocation, creating: Bool) throws(BadgeError) -> FolderHandle {
        try folder(of: location, missing: creating ? .create : .fail)!
    }

    /// The folder `location` goes into; nil when `missing` is `.stop` and a folder on
    /// the way does not exist yet.
    ///
    /// - Throws: as `folder(of:creating:)`.
    static func folder(of location: OutputLocation, missing: Missing) throws(BadgeError) -> FolderHandle? {
        let shown = location.description
        let working = Platform.workingFolder()
        var walk: Walk
        if let root = location.root {
            let rootPath = LexicalPath(root)
            walk = try Walk(start: rootPath, working: working, output: shown)
            // The root is made too where missing (an artifacts folder named for CI).
            guard try walk.descend(rootPath, strictOnly: false, missing: missing, working: working, output: shown)
            else { return nil }
            // Messages show the folders as the manifest spelled them (an absolute
            // path inside the root keeps its absolute form).
            if let spelling = location.spelling {
                let spelled = LexicalPath(spelling)
                let below = location.relative.components.count
                if spelled.components.count >= below,
                    Array(spelled.components.suffix(below)) == location.relative.components
                {
                    var prefix = spelled
                    prefix.components.removeLast(below)
                    let text = prefix.description
                    walk.walked = text == "." ? "" : text
                }
            }
            // Below a root, every component is hostile data.
            guard
                try walk.descend(
                    location.relative.folder, strictOnly: true, missing: missing, working: working, output: shown)
            else { return nil }
        } else {
            let folder = location.relative.folder
            walk = try Walk(start: folder, working: working, output: shown)
            guard try walk.descend(folder, strictOnly: false, missing: missing, working: working, output: shown)
            else { return nil }
        }
        return walk.handle
    }

    /// Whether the folder open at `descriptor` is the working folder or inside it; true
    /// when the system cannot say (then links are refused: the safe side).
    static func isInside(_ descriptor: Int32, working: String?) -> Bool {
        guard let working, let path = Platform.path(of: descriptor) else { return true }
        if working == "/" || path == working { return true }
        return path.hasPrefix(working + "/")
    }

    private struct Walk {
        var handle: FolderHandle
        /// Whether the current folder is the working folder or inside it.
        var inside: Bool
        /// Whether the path is relative: then no component is a link, even after a
        /// `..` that leaves the working folder. The working folder is often a folder
        /// of the checked-out tree (`repo/app`), so `../out` is still in the tree a
        /// pull request controls. An absolute path outside the working folder is the
        /// caller's own, and its links are followed.
        let relative: Bool
        /// The components walked so far, for messages.
        var walked: String

        init(start path: LexicalPath, working: String?, output: String) throws(BadgeError) {
            let start = path.isAbsolute ? "/" : "."
            let fd = open(start, Platform.directoryFlags)
            guard fd >= 0 else {
                throw .cannotCreate(path: output, reason: "cannot open \(Quoted(start)): \(SystemError.text(errno))")
            }
            handle = FolderHandle(fd)
            inside = !path.isAbsolute || working == "/"
            relative = !path.isAbsolute
            walked = path.isAbsolute ? "/" : ""
        }

        /// Walks `path`'s `..` and components from the current folder; false when it
        /// stopped at a missing folder (`missing == .stop`).
        mutating func descend(
            _ path: LexicalPath, strictOnly: Bool, missing: Missing, working: String?, output: String
        ) throws(BadgeError) -> Bool {
            for _ in 0..<path.parents {
                guard try step("..", strict: false, missing: .fail, working: working, output: output) else {
                    return false
                }
            }
            for component in path.components {
                guard
                    try step(
                        component, strict: strictOnly || inside || relative, missing: missing, working: working,
                        output: output)
                else { return false }
            }
            return true
        }

        private mutating func step(_ name: String, strict: Bool, missing: Missing, working: String?, output: String)
            throws(BadgeError) -> Bool
        {
            let here = walked.isEmpty || walked.hasSuffix("/") ? walked + name : walked + "/" + name
            var info = stat()
            if fstatat(handle.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
                let code = errno
                if code == ENOENT, missing == .stop { return false }
                guard code == ENOENT, missing == .create else {
                    // The whole folder is named: that is what the caller wrote.
                    let reason =
                        code == ENOENT
                        ? "folder \(Quoted(OutputFile.parentFolder(of: output))) does not exist"
                        : "\(Quoted(here)): \(SystemError.text(code))"
                    throw .cannotCreate(path: output, reason: reason)
                }
                if mkdirat(handle.descriptor, name, 0o777) != 0, errno != EEXIST {
                    throw .cannotCreate(
                        path: output, reason: "cannot make folder \(Quoted(here)): \(SystemError.text(errno))")
                }
            } else if info.st_mode & S_IFMT == S_IFLNK {
                if strict {
                    throw .cannotCreate(
                        path: output,
                        reason:
                            "\(Quoted(here)) is a symbolic link; iconbadge follows no link in a relative path, inside the working folder or below an output folder (write to the real folder)"
                    )
                }
            } else if info.st_mode & S_IFMT != S_IFDIR {
                let reason =
                    missing == .create
                    ? "cannot make folder \(Quoted(here)): it is a file, not a folder"
                    : "\(Quoted(here)) is not a folder"
                throw .cannotCreate(path: output, reason: reason)
            }
            let flags = Platform.directoryFlags | (strict ? O_NOFOLLOW : 0)
            let next = openat(handle.descriptor, name, flags)
            guard next >= 0 else {
                let code = errno
                let reason =
                    code == ELOOP || code == ENOTDIR
                    ? "\(Quoted(here)) is a symbolic link or not a folder"
                    : "\(Quoted(here)): \(SystemError.text(code))"
                throw .cannotCreate(path: output, reason: reason)
            }
            handle = FolderHandle(next)
            walked = here
            // ".." may leave the working folder; a followed link may enter it.
            if name == ".." || !inside { inside = DirectoryWalk.isInside(next, working: working) }
            return true
        }
    }
}
