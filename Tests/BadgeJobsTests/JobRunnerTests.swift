import BadgeCore
import BadgeRender
import BadgeSystem
import Foundation
import TestSupport
import Testing

@testable import BadgeJobs

/// The runner's own guarantees, in process.
@Suite struct JobRunnerTests {
    /// A job whose render differs in size from the size it must have (a catalog
    /// slot's) fails with 70 and writes nothing: a set's image is never replaced by
    /// one of another size.
    @Test func aRenderOfTheWrongSizeIsAnInternalErrorAndNotWritten() throws {
        let folder = Paths.scratch("runner-size")
        var settings = RenderSettings()
        settings.value = "3"
        let output = OutputLocation(root: folder, components: ["out.png"])
        var job = RenderJob(
            label: "icon.png", request: try settings.request(icon: Paths.fixture("icons/folder-48x48.png")),
            output: .file(output, creatingFolders: false), check: nil,
            encoding: Encoding(format: .png, compression: .default, creationDate: nil), inputs: [])
        job.requiredSize = (48, 47)
        let outcomes = JobRunner.run([job], workers: 1)
        guard case .failure(let error) = outcomes[0].result else {
            Issue.record("the job succeeded")
            return
        }
        #expect(error.exitCode == .software)
        #expect(error.message.contains("48×48 px for a 48×47 px slot"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
        job.requiredSize = (48, 48)
        guard case .success = JobRunner.run([job], workers: 1)[0].result else {
            Issue.record("the job of the right size failed")
            return
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/out.png"))
    }
}
