import BadgeCore
import BadgeSystem
import Foundation
import TestSupport
import Testing

/// The writer's rules, in process: no write through a symbolic link inside the
/// working folder or below a root, links outside the working folder followed, atomic
/// replacement with no temporary file left, set-ID bits dropped.
///
/// The test process's working folder is the package root, so `Paths.scratch` folders
/// are inside it, and folders under /tmp are outside it.
@Suite struct OutputFileTests {
    let bytes: [UInt8] = Array("new".utf8)

    func contents(_ path: String) -> String? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    func entries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    func expectCannotCreate(_ body: () throws(BadgeError) -> Void, containing text: String) {
        do throws(BadgeError) {
            try body()
            Issue.record("expected exit 73 (\(text))")
        } catch {
            #expect(error.exitCode == .cannotCreate, "\(error)")
            #expect(error.message.contains(text), "\(error.message)")
        }
    }

    @Test func writesAtomicallyAndLeavesNoTemporaryFile() throws {
        let folder = Paths.scratch("write")
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/a.png"))
        try OutputFile.write(bytes, to: folder + "/a.png")
        #expect(contents(folder + "/a.png") == "new")
        #expect(entries(folder) == ["a.png"])
    }

    @Test func aLinkAsTheFileIsRefusedAndItsTargetKept() throws {
        let folder = Paths.scratch("link-file")
        try Data("victim".utf8).write(to: URL(fileURLWithPath: folder + "/victim.sh"))
        #expect(chmod(folder + "/victim.sh", 0o4755) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder + "/a.actual.png", withDestinationPath: "victim.sh")
        expectCannotCreate(
            { () throws(BadgeError) in try OutputFile.write(bytes, to: folder + "/a.actual.png") },
            containing: "is a symbolic link")
        #expect(contents(folder + "/victim.sh") == "victim")
        var info = stat()
        #expect(stat(folder + "/victim.sh", &info) == 0 && info.st_mode & 0o7777 == 0o4755)
    }

    @Test func aLinkedFolderInsideTheWorkingFolderIsRefused() throws {
        let folder = Paths.scratch("link-folder")
        let outside = Paths.scratch("link-outside")
        try FileManager.default.createSymbolicLink(atPath: folder + "/sub", withDestinationPath: outside)
        expectCannotCreate(
            { () throws(BadgeError) in try OutputFile.write(bytes, to: folder + "/sub/x.png") },
            containing: "sub\" is a symbolic link")
        expectCannotCreate(
            { () throws(BadgeError) in
                try OutputFile.write(bytes, to: folder + "/sub/deeper/x.png", creatingFolders: true)
            }, containing: "is a symbolic link")
        #expect(entries(outside).isEmpty)
    }

    @Test func aLinkedFolderOutsideTheWorkingFolderIsFollowed() throws {
        let base = NSTemporaryDirectory() + "iconbadge-outside-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/real")
        try OutputFile.write(bytes, to: base + "/link/x.png")
        #expect(contents(base + "/real/x.png") == "new")
        // Below a root named by the caller, no link is followed, wherever the root is.
        let location = OutputLocation(root: base, components: ["link", "y.png"])
        expectCannotCreate(
            { () throws(BadgeError) in try OutputFile.write(bytes, to: location) },
            containing: "is a symbolic link")
        #expect(contents(base + "/real/y.png") == nil)
    }

    @Test func setIDBitsAreDroppedAndPermissionsKept() throws {
        let folder = Paths.scratch("mode")
        let path = folder + "/a.png"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o6750) == 0)
        try OutputFile.write(bytes, to: path)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o750)
    }

    @Test func foldersAreMadeBelowARootAndAFileInTheWayIsNamed() throws {
        let root = Paths.scratch("root")
        try OutputFile.write(
            bytes, to: OutputLocation(root: root, components: ["a", "b", "c.png"]), creatingFolders: true)
        #expect(contents(root + "/a/b/c.png") == "new")
        try Data().write(to: URL(fileURLWithPath: root + "/file"))
        expectCannotCreate(
            { () throws(BadgeError) in
                try OutputFile.write(
                    bytes, to: OutputLocation(root: root, components: ["file", "x.png"]), creatingFolders: true)
            }, containing: "it is a file, not a folder")
    }

    @Test func rootsConfineWhatHostileDataNames() throws {
        let root = OutputRoot("out")
        #expect(try root.location(of: "a/./b//c.png").relative.components == ["a", "b", "c.png"])
        #expect(try root.location(of: "x/../c.png").relative.components == ["c.png"])
        #expect(throws: OutputRoot.Escape.climbs) { try root.location(of: "../c.png") }
        #expect(throws: OutputRoot.Escape.climbs) { try root.location(of: "a/../../c.png") }
        #expect(throws: OutputRoot.Escape.absolute) { try root.location(of: "/etc/c.png") }
        #expect(throws: OutputRoot.Escape.noName) { try root.location(of: "a/..") }
        let working = OutputRoot(".")
        let cwd = FileManager.default.currentDirectoryPath
        #expect(try working.location(of: cwd + "/x/y.png").relative.components == ["x", "y.png"])
    }

    @Test func identityIsTheFileNotItsSpelling() throws {
        let folder = Paths.scratch("identity")
        try Data().write(to: URL(fileURLWithPath: folder + "/icon.png"))
        #expect(FileIdentity.key(folder + "/nx/../icon.png") == FileIdentity.key(folder + "/icon.png"))
        let spellings = ["fresh/a.png", "fresh/./a.png", "fresh//a.png", "fresh/x/../a.png"].map {
            FileIdentity.key(folder + "/" + $0)
        }
        #expect(Set(spellings).count == 1)
        #expect(FileIdentity.key(folder + "/fresh/a.png") != FileIdentity.key(folder + "/fresh/b.png"))
    }
}
