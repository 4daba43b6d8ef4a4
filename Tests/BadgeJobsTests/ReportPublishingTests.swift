import BadgeCore
import BadgeSystem
import Foundation
import TestSupport
import Testing

@testable import BadgeJobs

/// The one publisher of a checking run's reports (`batch --check`, `compare`,
/// `merge-reports`): each report written independently, in order, and the exit code
/// after them.
@Suite struct ReportPublishingTests {
    static func results(_ code: ExitCode) -> RunResults {
        RunResults(
            command: .compare, title: "t", run: .object([]), shard: nil, total: 0, failOn: [], exitCode: code,
            entries: [])
    }

    /// A JUnit report that cannot be written (its path is a folder) is said, the
    /// results file after it is still written, with the failure's exit code (73)
    /// instead of the run's 1.
    @Test func aReportThatFailsGivesItsCodeAndTheNextIsStillWritten() throws {
        let folder = Paths.scratch("publish-fails")
        var given: [ExitCode] = []
        let (published, code) = ReportPublishing.publish(
            [], title: "t", html: nil, junit: .init(path: folder, failOn: [], suite: "s"),
            results: .init(path: folder + "/r.json", artifacts: nil) { code in
                given.append(code)
                return Self.results(code)
            }, exitCode: .different, environment: [:])
        #expect(code == .cannotCreate)
        #expect(given == [.cannotCreate])
        #expect(published.count == 2)
        guard case .failed(let error) = published.first else {
            Issue.record("the JUnit report did not fail: \(published)")
            return
        }
        #expect(error.exitCode == .cannotCreate)
        #expect(published.last == .results(path: folder + "/r.json", imagesOutside: false, folder: folder))
        #expect(FileManager.default.fileExists(atPath: folder + "/r.json"))
    }

    /// An earlier error's code (65) stands over a report's failure; reports written
    /// are listed in order.
    @Test func theFirstErrorsCodeStands() throws {
        let folder = Paths.scratch("publish-first")
        let (failing, code) = ReportPublishing.publish(
            [], title: "t", html: nil, junit: .init(path: folder, failOn: [], suite: "s"), results: nil,
            exitCode: .dataError, environment: [:])
        #expect(code == .dataError)
        #expect(failing.count == 1)
        let (written, passed) = ReportPublishing.publish(
            [], title: "t", html: nil, junit: .init(path: folder + "/j.xml", failOn: [], suite: "s"),
            results: .init(path: folder + "/r.json", artifacts: nil) { Self.results($0) }, exitCode: .success,
            environment: [:])
        #expect(passed == .success)
        #expect(
            written == [
                .junit(path: folder + "/j.xml"),
                .results(path: folder + "/r.json", imagesOutside: false, folder: folder),
            ])
    }
}
