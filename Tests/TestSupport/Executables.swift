import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Copies of the built programs for tests that run them from another folder.
public enum Executables {
    /// iconbadge-loader beside the binary under test (`make build`, `make test`).
    public static let loader = URL(fileURLWithPath: Paths.binary).deletingLastPathComponent()
        .appendingPathComponent("iconbadge-loader").path

    /// Copies the executable at `source` to `destination` (mode 0755, replacing it),
    /// written through a descriptor closed on exec: a child another test starts
    /// meanwhile does not inherit it, which would make running the copy fail with
    /// "Text file busy" for as long as that child lives (FileManager.copyItem's
    /// descriptor is inherited).
    ///
    /// - Throws: `TestFailure` naming the file and the system's reason.
    public static func copy(_ source: String, to destination: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        unlink(destination)
        let fd = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else {
            throw TestFailure(description: "cannot create \(destination): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw TestFailure(description: "cannot write \(destination): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        guard fchmod(fd, 0o755) == 0 else {
            throw TestFailure(description: "cannot chmod \(destination): \(String(cString: strerror(errno)))")
        }
    }

    /// Copies the binary under test to `folder/name` and its loader beside it.
    public static func copyWithLoader(to folder: String, name: String = "iconbadge") throws {
        try copy(Paths.binary, to: folder + "/" + name)
        try copy(loader, to: folder + "/iconbadge-loader")
    }
}
