import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// The examples of Fixtures/examples (shown in the manual), each run for real.
@Suite struct ExamplesTests {
    /// Runs a shell command line in `folder` with the built binary as $ICONBADGE.
    func shell(_ command: String, in folder: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        environment["ICONBADGE"] = Paths.binary
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    func copyIcons(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in ["folder-48x48.png", "user-trash-32x32.png", "mail-unread-symbolic.svg"] {
            try FileManager.default.copyItem(atPath: Paths.fixture("icons/\(name)"), toPath: "\(folder)/\(name)")
        }
    }

    @Test func makefileRuleBadgesDebugIcons() throws {
        let folder = Paths.scratch("example-make")
        try copyIcons(to: folder + "/icons")
        try FileManager.default.copyItem(
            atPath: Paths.fixture("examples/Makefile.debug-icons"), toPath: folder + "/Makefile")
        let (status, output) = try shell("make debug-icons ICONBADGE=\"$ICONBADGE\"", in: folder)
        #expect(status == 0, "\(output)")
        for name in ["folder-48x48.png", "user-trash-32x32.png"] {
            let badged = try ImageFile.pixels(at: "\(folder)/build/debug-icons/\(name)")
            #expect(badged != (try ImageFile.pixels(at: Paths.fixture("icons/\(name)"))))
        }
        let (again, rerun) = try shell("make debug-icons ICONBADGE=\"$ICONBADGE\"", in: folder)
        #expect(again == 0 && rerun.contains("Nothing to be done"), "\(rerun)")
    }

    @Test func shellLoopBadgesAFolder() throws {
        let folder = Paths.scratch("example-loop")
        try copyIcons(to: folder + "/assets")
        let script = Paths.fixture("examples/badge-folder.sh")
        let (status, output) = try shell("'\(script)' assets badged 7", in: folder)
        #expect(status == 0, "\(output)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/badged").sorted() == [
                "folder-48x48.png", "mail-unread-symbolic.png", "user-trash-32x32.png",
            ])
    }

    @Test func ciJobPassesOnTheCommittedGoldensAndFailsWithArtifacts() throws {
        let folder = Paths.scratch("example-ci")
        let script = Paths.fixture("examples/ci-golden-check.sh")
        let (pass, passOutput) = try shell(
            "'\(script)' Fixtures/examples/goldens.json Fixtures/examples/goldens '\(folder)/artifacts'", in: Paths.root
        )
        #expect(pass == 0, "\(passOutput)")
        // A golden that no longer matches: the job fails and leaves the artifacts.
        try FileManager.default.copyItem(atPath: Paths.fixture("examples/goldens"), toPath: folder + "/goldens")
        #expect(
            try runIconbadge([
                Paths.fixture("icons/folder-132x132.png"), "--value", "4", "--scale", "3", "-o",
                folder + "/goldens/count-3.png",
            ]).status == 0)
        let (fail, failOutput) = try shell(
            "'\(script)' Fixtures/examples/goldens.json '\(folder)/goldens' '\(folder)/artifacts2'", in: Paths.root)
        #expect(fail == 1, "\(failOutput)")
        let artifacts = try FileManager.default.contentsOfDirectory(atPath: folder + "/artifacts2").sorted()
        #expect(artifacts == ["count-3.png.actual.png", "count-3.png.diff.png", "junit.xml"])
    }

    @Test func batchManifestMakesOneTwoAndThreeX() throws {
        let folder = Paths.scratch("example-assets")
        let manifest = try String(contentsOfFile: Paths.fixture("examples/assets.json"), encoding: .utf8)
            .replacingOccurrences(of: "out/assets/", with: folder + "/")
            .replacingOccurrences(of: "Fixtures/", with: Paths.root + "/Fixtures/")
        try manifest.write(toFile: folder + "/assets.json", atomically: true, encoding: .utf8)
        let run = try runIconbadge(["batch", folder + "/assets.json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ImageFile.pixels(at: folder + "/folder-44x44.png").width == 44)
        #expect(try ImageFile.pixels(at: folder + "/folder-44x44@2x.png").width == 88)
        #expect(try ImageFile.pixels(at: folder + "/folder-44x44@3x.png").width == 132)
        #expect(try ImageFile.pixels(at: folder + "/mail-unread-symbolic@3x.png").width == 48)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 10)
    }
}
