#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which file a path names, so an output can be refused when it is one of the inputs,
/// or when two outputs are one file, however they are spelled (`./a.png`,
/// `dir//a.png`, `x/../a.png`, a symbolic link, a hard link).
public enum FileIdentity {
    /// A value equal for two paths that name the same file.
    public enum Key: Hashable, Sendable {
        /// An existing file: its device and inode (links of every kind compare equal).
        case inode(device: UInt64, inode: UInt64)
        /// A file that does not exist yet: the real path of its deepest existing folder
        /// joined with the rest of the path normalised lexically, which is how
        /// iconbadge's writer reaches it (`LexicalPath`, `DirectoryWalk`).
        case path(String)
        /// Standard input that is not a regular file (a pipe).
        case standardInput
    }

    /// The key of `path`; `-` is standard input (the file behind it when it is one, as
    /// with `< icon.png`).
    public static func key(_ path: String) -> Key {
        var info = stat()
        if path == "-" {
            guard fstat(0, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .standardInput }
            return .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
        return key(LexicalPath(path))
    }

    /// The key of an output's location.
    public static func key(_ location: OutputLocation) -> Key {
        guard let root = location.root else { return key(location.relative) }
        return key(LexicalPath(root).appending(location.relative))
    }

    /// The key of a normalised path: the inode when the file exists, else the real
    /// path of its deepest existing folder plus the rest.
    public static func key(_ path: LexicalPath) -> Key {
        var info = stat()
        let text = path.description
        if stat(text, &info) == 0 { return .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) }
        var folder = path
        var rest: [String] = []
        while !folder.components.isEmpty {
            rest.insert(folder.components.removeLast(), at: 0)
            if let real = realPath(folder.description) {
                return .path(LexicalPath(real).appending(LexicalPath(isAbsolute: false, components: rest)).description)
            }
        }
        // Only ".." components or "/" remain: those always resolve.
        let base = realPath(folder.description) ?? folder.description
        return .path(LexicalPath(base).appending(LexicalPath(isAbsolute: false, components: rest)).description)
    }

    /// The inode key of the file at `path` (standard input for `-`) when it exists, else
    /// nil: a cheaper key for files that must exist to matter (no path is resolved).
    public static func existingKey(_ path: String) -> Key? {
        var info = stat()
        if path == "-" {
            guard fstat(0, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
        guard stat(path, &info) == 0 else { return nil }
        return .inode(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The inode key of an output's location when the file exists, else nil.
    public static func existingKey(_ location: OutputLocation) -> Key? {
        guard let root = location.root else { return existingKey(location.relative.description) }
        return existingKey(LexicalPath(root).appending(location.relative).description)
    }

    /// Whether `a` and `b` name the same file.
    public static func same(_ a: String, _ b: String) -> Bool {
        a == b || key(a) == key(b)
    }

    /// The path with every link resolved (`realpath`), or nil when it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
