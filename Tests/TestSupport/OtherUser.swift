import Foundation

/// Running the built binary as another user, uid and gid 65534 ("nobody"), for tests of
/// what an unprivileged user may not do (the tests run as root, who may do anything).
///
/// That user must reach the binary and every file a test gives it, but the checkout
/// may lie where it cannot: in a `mktemp -d` folder (mode 0700) or a private home
/// folder. So each such test works in a folder of its own under `/tmp` (not `TMPDIR`,
/// which may be private too), mode 0755, holding a copy of the binary, and removed
/// when the test ends.
public enum OtherUser {
    /// The other user's uid and gid (`nobody` on Debian).
    public static let id: UInt32 = 65534

    /// Runs `body` with a new folder `/tmp/iconbadge-NAME-XXXXXX` (mode 0755) that holds
    /// `iconbadge`, a copy of the built binary, and its `iconbadge-loader`; removes the folder afterwards, whatever
    /// its modes and owners by then.
    ///
    /// - Throws: `TestFailure` when the folder cannot be made or `/tmp` does not allow
    ///   running programs (mounted `noexec`); whatever `body` throws.
    public static func withFolder<T>(_ name: String, _ body: (String) throws -> T) throws -> T {
        var info = statvfs()
        let noexec: UInt = 8  // ST_NOEXEC of <sys/statvfs.h>, an enum Swift does not import
        if statvfs("/tmp", &info) == 0, info.f_flag & noexec != 0 {
            throw TestFailure(description: "/tmp is mounted noexec: the binary cannot run from there as uid \(id)")
        }
        var template = Array("/tmp/iconbadge-\(name)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw TestFailure(description: "cannot make a folder in /tmp: \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        guard chmod(folder, 0o755) == 0 else {
            throw TestFailure(description: "chmod \(folder): \(String(cString: strerror(errno)))")
        }
        try Executables.copyWithLoader(to: folder)
        return try body(folder)
    }

    /// Runs `folder/iconbadge` (a folder of `withFolder`) as the other user, with no
    /// supplementary groups and standard input from /dev/null.
    public static func run(_ arguments: [String], in folder: String) throws -> RunResult {
        try runIconbadgeWith(
            executable: "/usr/bin/setpriv",
            ["--reuid=\(id)", "--regid=\(id)", "--clear-groups", folder + "/iconbadge"] + arguments)
    }

    /// Makes the other user the owner of `path` and, for a folder, of everything in it.
    public static func own(_ path: String) throws {
        let owner = [FileAttributeKey.ownerAccountID: id, .groupOwnerAccountID: id]
        try FileManager.default.setAttributes(owner, ofItemAtPath: path)
        if let walker = FileManager.default.enumerator(atPath: path) {
            while let name = walker.nextObject() as? String {
                try FileManager.default.setAttributes(owner, ofItemAtPath: path + "/" + name)
            }
        }
    }
}
