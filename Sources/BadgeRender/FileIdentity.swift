#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which file a path names, so an output can be refused when it is one of the
/// inputs however it is spelled (`./a.png`, `dir//a.png`, a symbolic link, a hard
/// link).
public enum FileIdentity {
    /// A key equal for two paths that name the same file: the device and inode of
    /// an existing file, else the canonical folder and the file name. `-` is
    /// standard input: the file behind it when it is one (`< icon.png`).
    public static func key(_ path: String) -> String {
        var info = stat()
        if path == "-" {
            guard fstat(0, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return "stdin" }
            return "inode:\(info.st_dev):\(info.st_ino)"
        }
        if stat(path, &info) == 0 { return "inode:\(info.st_dev):\(info.st_ino)" }
        let folder = OutputFile.parentFolder(of: path)
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let real = realpath(folder, nil) else { return "path:" + path }
        defer { free(real) }
        return "path:" + String(cString: real) + "/" + name
    }

    /// Whether `a` and `b` name the same file.
    public static func same(_ a: String, _ b: String) -> Bool {
        a == b || key(a) == key(b)
    }
}
