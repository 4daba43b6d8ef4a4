import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// `appiconset` writes all or nothing: every image is rendered into a staging folder
/// beside the destination and moved into place only when all succeeded. A failure
/// in the last image, a full disk or SIGTERM in the middle leaves the destination
/// byte-identical, with no staging folder left.
@Suite struct CatalogTransactionTests {
    /// A macOS-style set of `count` 512 px slots, each a copy of a real icon.
    static func makeSet(in folder: String, count: Int) throws -> String {
        let set = folder + "/Mac.appiconset"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        let icon = try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("icons/folder-512x512.png")))
        var entries: [String] = []
        for index in 0..<count {
            try icon.write(to: URL(fileURLWithPath: "\(set)/icon-\(index).png"))
            entries.append(
                "{ \"filename\" : \"icon-\(index).png\", \"idiom\" : \"mac\", \"scale\" : \"1x\", \"size\" : \"512x512\" }"
            )
        }
        try ("{ \"images\" : [ " + entries.joined(separator: ", ") + " ], \"info\" : { \"version\" : 1 } }").write(
            toFile: set + "/Contents.json", atomically: true, encoding: .utf8)
        return set
    }

    /// Every file below `folder`, with its bytes (hidden ones included).
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
        while let name = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
            files[name] = isFolder.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    /// The last image fails (a badge that fits 512 px and not the 48 px image put
    /// last): in place and as a copy over an earlier copy, nothing changes.
    @Test func aFailureInTheLastImageChangesNothing() throws {
        let folder = Paths.scratch("catalog-last-fails")
        let set = try Self.makeSet(in: folder, count: 4)
        // A first, good copy; then the last slot is replaced by a 48 px image.
        #expect(try runIconbadge(["appiconset", set, "--value", "7", "--out", folder + "/out"]).status == 0)
        try FileManager.default.removeItem(atPath: set + "/icon-3.png")
        try FileManager.default.copyItem(atPath: Paths.fixture("icons/folder-48x48.png"), toPath: set + "/icon-3.png")
        let before = try Self.snapshot(folder)
        #expect(before.count == 13)  // 3 folders (the set, out, its copy), 5 files in each set
        for destination in [["--in-place"], ["--out", folder + "/out"]] {
            let run = try runIconbadge(["appiconset", set, "--value", "BETA", "--height", "60"] + destination)
            #expect(run.status == 64, "\(run.stderr)")
            #expect(run.stderrLines.first?.contains("icon-3.png") == true, "\(run.stderr)")
            #expect(run.stderrLines.last == "iconbadge: appiconset: nothing written: 1 of 4 images failed")
            #expect(try Self.snapshot(folder) == before)
        }
    }

    /// A copy into an existing copy replaces it whole: a file the old copy had and
    /// the set no longer lists is gone. A folder holding anything but files is not
    /// replaced (73, nothing changed).
    @Test func aCopyReplacesTheEarlierCopyWhole() throws {
        let folder = Paths.scratch("catalog-replace")
        let set = try Self.makeSet(in: folder, count: 2)
        let out = folder + "/build/beta"
        var run = try runIconbadge(["appiconset", set, "--value", "1", "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        try Data("stale".utf8).write(to: URL(fileURLWithPath: out + "/Mac.appiconset/old.png"))
        run = try runIconbadge(["appiconset", set, "--value", "2", "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out + "/Mac.appiconset").sorted() == [
                "Contents.json", "icon-0.png", "icon-1.png",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["Mac.appiconset"])
        try FileManager.default.createDirectory(
            atPath: out + "/Mac.appiconset/sub", withIntermediateDirectories: true)
        let before = try Self.snapshot(folder)
        run = try runIconbadge(["appiconset", set, "--value", "3", "--out", out])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("\"sub\", which is not a regular file"), "\(run.stderr)")
        #expect(try Self.snapshot(folder) == before)
    }

    /// Missing parent folders of `--out` are made, and only when the set is written.
    @Test func missingParentsAreMadeOnlyOnSuccess() throws {
        let folder = Paths.scratch("catalog-parents")
        let set = try Self.makeSet(in: folder, count: 2)
        var run = try runIconbadge(["appiconset", set, "--value", "ABCDEFGHIJKLMNOP", "--out", folder + "/a/b/c"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/a"))
        run = try runIconbadge(["appiconset", set, "--value", "3", "--out", folder + "/a/b/c"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/a/b/c/Mac.appiconset/Contents.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["Mac.appiconset", "a"])
    }

    /// A full disk (a small tmpfs in a private mount namespace) while the images are
    /// staged: exit 74, the set in place and the earlier copy unchanged.
    @Test func aFullDiskChangesNothing() throws {
        let folder = Paths.scratch("catalog-disk-full")
        let mount = folder + "/mnt"
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let icon = Paths.fixture("icons/folder-512x512.png")
        let script = """
            set -u
            mount -t tmpfs -o size=160k tmpfs '\(mount)' || exit 99
            mkdir '\(mount)/A.appiconset'
            for i in 0 1 2 3 4 5 6 7; do cp '\(icon)' "\(mount)/A.appiconset/i$i.png"; done
            printf '{"images":[' > '\(mount)/A.appiconset/Contents.json'
            for i in 0 1 2 3 4 5 6; do printf '{"filename":"i%s.png","idiom":"mac"},' $i >> '\(mount)/A.appiconset/Contents.json'; done
            printf '{"filename":"i7.png","idiom":"mac"}]}' >> '\(mount)/A.appiconset/Contents.json'
            before=$(cd '\(mount)' && find . -type f | sort | xargs sha1sum | sha1sum)
            '\(Paths.binary)' appiconset '\(mount)/A.appiconset' --value 3 --in-place --jobs 1
            echo "status=$?"
            again=$(cd '\(mount)' && find . -type f | sort | xargs sha1sum | sha1sum)
            [ "$before" = "$again" ] && echo same=yes
            echo "hidden=$(find '\(mount)' -name '.iconbadge-*' | wc -l)"
            """
        var run = try runIconbadgeWith(executable: "/usr/bin/unshare", ["-m", "/bin/sh", "-c", script])
        if run.status != 0 {
            run = try runIconbadgeWith(executable: "/usr/bin/unshare", ["-rm", "/bin/sh", "-c", script])
        }
        #expect(run.stdoutText.contains("status=74"), "\(run.stdoutText) \(run.stderr)")
        #expect(run.stdoutText.contains("same=yes"), "\(run.stdoutText)")
        #expect(run.stdoutText.contains("hidden=0"), "\(run.stdoutText)")
        #expect(run.stderr.contains("no space left on device"), "\(run.stderr)")
    }

    /// SIGTERM once some images are staged: exit 143, the destination as it was and
    /// no staging folder left, in place and as a copy.
    @Test(arguments: [true, false])
    func sigtermInTheMiddleChangesNothing(inPlace: Bool) throws {
        let folder = Paths.scratch("catalog-sigterm")
        let set = try Self.makeSet(in: folder, count: 40)
        let out = folder + "/out"
        #expect(try runIconbadge(["appiconset", set, "--value", "1", "--out", out]).status == 0)
        let before = try Self.snapshot(folder)
        // The staging folder appears in the set (in place) or beside the copy.
        let stagingParent = inPlace ? set : out
        let watch = try FolderWatch(stagingParent)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary)
        process.arguments =
            ["appiconset", set, "--value", "2", "--jobs", "1"] + (inPlace ? ["--in-place"] : ["--out", out])
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var staging = ""
        try watch.wait(until: "holding a staging folder", whileRunning: process.processIdentifier) { names in
            staging = names.first { $0.hasPrefix(".iconbadge-") } ?? ""
            return !staging.isEmpty
        }
        let inside = try FolderWatch(stagingParent + "/" + staging)
        try inside.wait(until: "holding 2 staged images", whileRunning: process.processIdentifier) { names in
            names.filter { $0.hasSuffix(".png") }.count >= 2
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        #expect(try Self.snapshot(folder) == before)
    }
}
