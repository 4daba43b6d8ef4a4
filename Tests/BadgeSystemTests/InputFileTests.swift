import BadgeCore
import Foundation
import Testing

@testable import BadgeSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Reading untrusted inputs: a file that would block is an error, never a wait.
@Suite struct InputFileTests {
    /// A symbolic link to `/proc/kmsg` (a "regular" file with no data until the kernel
    /// logs something) made iconbadge wait forever. Standing in for it: a non-blocking
    /// pipe whose writer stays open and silent. Read as a path, it is 66 at once; as
    /// standard input, the same bytes are waited for.
    @Test(.timeLimit(.minutes(1))) func aReadThatWouldBlockIsAnErrorForAPath() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        #expect(fcntl(ends[0], F_SETFL, O_NONBLOCK) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        #expect(
            throws: BadgeError.missingInput(
                path: "kmsg", reason: "cannot read: it would block (only ordinary files are read)")
        ) {
            try InputFile.readAll(
                fd: ends[0], path: "kmsg", expected: 0, limit: 1024, what: "file", waitsForData: false)
        }
        // Standard input waits: data written after the read began arrives.
        let writer = ends[1]
        let thread = Thread {
            _ = "late".withCString { write(writer, $0, 4) }
            close(writer)
        }
        thread.start()
        let bytes = try InputFile.readAll(
            fd: ends[0], path: "-", expected: 0, limit: 1024, what: "file", waitsForData: true)
        ends[1] = -1
        #expect(bytes == Array("late".utf8))
    }
}
