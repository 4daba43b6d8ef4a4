import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Copies of the built programs for tests that run them from another folder.
public enum Executables {
    /// iconbadge-loader beside the binary under test (`make build`, `make test`).
    public static let loader = URL(fileURLWithPath: Paths.binary).deletingLastPathComponent()
        .appendingPathComponent("iconbadge-loader").path

    /// Copies the executable at `source` to `destination` (mode 0755, replacing it)
    /// through a `cp` child, so that running the copy can never fail with "Text file
    /// busy" (ETXTBSY) because a child of this process still holds it open.
    ///
    /// - Throws: `TestFailure` naming the file and the reason; Foundation's error
    ///   when `cp` cannot be started.
    public static func copy(_ source: String, to destination: String) throws {
        unlink(destination)
        // Written by a cp child, so this process never holds a descriptor open for
        // writing on the copy: a child forked meanwhile (a loader's fork server, which
        // never execs) would keep such a descriptor, close-on-exec or not, and running
        // the copy would fail with "Text file busy" for as long as it lives.
        let cp = Process()
        cp.executableURL = URL(fileURLWithPath: "/bin/cp")
        cp.arguments = ["--", source, destination]
        try cp.run()
        cp.waitUntilExit()
        guard cp.terminationStatus == 0 else {
            throw TestFailure(description: "cannot copy \(source) to \(destination): cp exited \(cp.terminationStatus)")
        }
        guard chmod(destination, 0o755) == 0 else {
            throw TestFailure(description: "cannot chmod \(destination): \(String(cString: strerror(errno)))")
        }
    }

    /// Copies the binary under test to `folder/name` and its loader beside it.
    public static func copyWithLoader(to folder: String, name: String = "iconbadge") throws {
        try copy(Paths.binary, to: folder + "/" + name)
        try copy(loader, to: folder + "/iconbadge-loader")
    }
}
