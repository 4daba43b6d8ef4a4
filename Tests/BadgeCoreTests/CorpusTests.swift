import Foundation
import TestSupport
import Testing

/// Fixtures/corpus, the test data in the repository: every file listed with its SHA-256
/// in SHA256SUMS, every folder and licence named in SOURCES.md.
@Suite struct CorpusTests {
    /// The top-level folders, with how many files each holds (subfolders included).
    static let folders: KeyValuePairs<String, Int> = [
        "icons": 33, "image-png-extra": 30, "image-png-fuzz": 1217, "libjpeg-turbo-testimages": 7,
        "libpng-testpngs": 140, "librsvg": 173, "odiff-bench": 2, "pixelmatch": 17, "pngsuite": 177, "resvg": 334,
    ]

    /// The licence files beside the data, each named in SOURCES.md.
    static let licences = [
        "icons/GPL-3", "icons/LGPL-3", "icons/adwaita-icon-theme.copyright", "icons/papirus-icon-theme.copyright",
        "image-png-extra/LICENSE-APACHE", "image-png-extra/LICENSE-MIT", "image-png-extra/bugfixes/License.toml",
        "image-png-fuzz/LICENSE-APACHE", "image-png-fuzz/LICENSE-MIT", "libjpeg-turbo-testimages/LICENSE.md",
        "libjpeg-turbo-testimages/LICENSE.txt", "libjpeg-turbo-testimages/README.ijg", "libpng-testpngs/LICENSE.md",
        "librsvg/COPYING.LIB", "odiff-bench/LICENSE.txt", "pixelmatch/LICENSE", "pngsuite/PngSuite.LICENSE",
        "resvg/LICENSE-APACHE", "resvg/LICENSE-MIT",
    ]

    /// The relative paths of the regular files under the corpus, sorted, without
    /// SOURCES.md and SHA256SUMS.
    static func filesOnDisk() throws -> [String] {
        let root = try Corpus.path("")
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw Corpus.Missing(description: "cannot list \(root)")
        }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder), !isFolder.boolValue
            else { continue }
            if path != "SOURCES.md" && path != "SHA256SUMS" { files.append(path) }
        }
        return files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// SHA256SUMS lists exactly the files that are there, in the folders counted above.
    @Test func theListingIsTheFolder() throws {
        let listing = try String(contentsOfFile: try Corpus.path("SHA256SUMS"), encoding: .utf8)
        let lines = listing.split(separator: "\n")
        #expect(lines.count == 2130)
        let listed = lines.map { String($0.dropFirst(66)) }
        for line in lines {
            #expect(line.prefix(64).allSatisfy(\.isHexDigit) && line.dropFirst(64).hasPrefix("  "), "\(line)")
        }
        let files = try Self.filesOnDisk()
        #expect(files.count == 2130)
        #expect(Set(files).subtracting(listed).sorted() == [], "files not in SHA256SUMS")
        #expect(Set(listed).subtracting(files).sorted() == [], "files of SHA256SUMS that are missing")
        #expect(
            zip(listed, listed.dropFirst()).allSatisfy { $0.0.utf8.lexicographicallyPrecedes($0.1.utf8) },
            "SHA256SUMS is not sorted by path (LC_ALL=C sort)")
        for (folder, count) in Self.folders {
            #expect(files.filter { $0.hasPrefix(folder + "/") }.count == count, "\(folder)")
        }
        #expect(Self.folders.reduce(0) { $0 + $1.value } == 2130)
    }

    /// Every file has the SHA-256 that SHA256SUMS gives it: they are the copies that
    /// SOURCES.md describes, unchanged.
    @Test func everyFileHasItsListedHash() throws {
        let run = try runIconbadgeWith(
            executable: "/bin/sh",
            ["-c", "cd \"$1\" && exec sha256sum --check --strict --quiet SHA256SUMS", "sh", try Corpus.path("")])
        #expect(run.status == 0, "\(run.stdoutText)\(run.stderr)")
        #expect(run.stdoutText.isEmpty && run.stderr.isEmpty, "\(run.stdoutText)\(run.stderr)")
    }

    /// SOURCES.md has a row for every folder and names every folder that holds files
    /// and every licence file, and the licence files are there.
    @Test func sourcesNameEveryFolderAndLicence() throws {
        let sources = try String(contentsOfFile: try Corpus.path("SOURCES.md"), encoding: .utf8)
        for (folder, _) in Self.folders {
            #expect(sources.contains("| `\(folder)/"), "SOURCES.md has no row for \(folder)/")
        }
        let folders = Set(
            try Self.filesOnDisk().compactMap { path -> String? in
                guard let slash = path.lastIndex(of: "/") else { return nil }
                return String(path[..<slash])
            })
        #expect(folders.count == 37)
        for folder in folders {
            // Named as a whole or by its last components ("`loading/subdir/`" in librsvg's row).
            let parts = folder.split(separator: "/")
            let names = parts.indices.map { parts[$0...].joined(separator: "/") }
            #expect(names.contains { sources.contains("`\($0)/`") }, "SOURCES.md does not name \(folder)/")
        }
        for licence in Self.licences {
            _ = try Corpus.path(licence)
            let name = licence.split(separator: "/").last.map(String.init) ?? licence
            #expect(sources.contains("`\(licence)`") || sources.contains("`\(name)`"), "SOURCES.md: \(licence)")
        }
    }

    /// A test whose corpus file is missing fails, naming the missing path.
    @Test func aMissingFileIsNamed() throws {
        let root = Corpus.root
        #expect(
            throws: Corpus.Missing(
                description: "this test reads \(Paths.root)/Fixtures/corpus/pngsuite/none.png, which is missing: the "
                    + "repository's test corpus is incomplete (Fixtures/corpus/SOURCES.md says where each file comes "
                    + "from, SHA256SUMS lists them)")
        ) {
            try Corpus.path("pngsuite/none.png")
        }
        #expect(throws: Corpus.Missing.self) {
            try Corpus.path("x", inCorpusAt: Paths.scratch("no-corpus") + "/corpus")
        }
        #expect(throws: Corpus.Missing.self) { try Corpus.files(in: "no-such-folder") }
        #expect(throws: Corpus.Missing.self) { try Corpus.check(["-o", root + "/pngsuite/none.png"]) }
        try Corpus.check(["-o", root + "/pngsuite/basn6a08.png", "/elsewhere/none.png"])
        #expect(try Corpus.path("pngsuite/basn6a08.png") == root + "/pngsuite/basn6a08.png")
    }
}
