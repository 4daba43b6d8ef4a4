import Foundation
import TestSupport
import Testing

/// `scripts/check-test-tools.sh`, which `make test` runs first: a tool the suite needs
/// that is missing stops the run with one line naming it and its Debian package, so a
/// test disabled for want of it never lets the run pass unnoticed.
@Suite struct TestToolsTests {
    static let script = Paths.root + "/scripts/check-test-tools.sh"

    /// With no PATH, every tool looked up by name is missing: one line each, naming the
    /// tool, the tests that need it and the package; exit 1.
    @Test func aMissingToolIsNamedWithItsPackage() throws {
        let run = try runIconbadgeWith(executable: "/bin/sh", [Self.script], environment: ["PATH": "/nonexistent"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdoutText.isEmpty)
        let lines = run.stderrLines
        #expect(
            lines.contains(
                "make test: rsvg-convert is missing (AndroidLayerTests): apt-get install librsvg2-bin, or run make deps"
            ),
            "\(lines)")
        #expect(lines.contains { $0.hasPrefix("make test: chromium is missing") && $0.contains("install chromium") })
        #expect(lines.contains { $0.hasPrefix("make test: ffprobe is missing") && $0.contains("install ffmpeg") })
        #expect(lines.allSatisfy { $0.hasPrefix("make test: ") && $0.hasSuffix(", or run make deps") }, "\(lines)")
    }

    /// On CI every tool is there (scripts/install-deps.sh installs them on Debian 12):
    /// the check passes, so no test of the suite was disabled for want of one.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CI"] == "true", "runs on CI (CI=true) only"))
    func everyToolIsThereOnCI() throws {
        let run = try runIconbadgeWith(executable: "/bin/sh", [Self.script])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty)
    }
}
