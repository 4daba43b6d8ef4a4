import Foundation
import TestSupport
import Testing

/// The licence and the version are stated in one place each, and every file that
/// repeats them agrees: LICENSE, the packages' copyright template, the README's last
/// section, CHANGELOG.md and `iconbadge --version`.
@Suite struct LicenceTests {
    func file(_ relative: String) throws -> String {
        try String(contentsOfFile: Paths.root + "/" + relative, encoding: .utf8)
    }

    /// LICENSE is the MIT licence, and the copyright file of the packages states MIT for
    /// iconbadge's own files, with the relinking note for the LGPL libraries.
    @Test func licenceIsMITEverywhere() throws {
        let licence = try file("LICENSE")
        #expect(licence.hasPrefix("MIT License\n\nCopyright (c) "))
        #expect(licence.contains("Permission is hereby granted, free of charge"))
        let copyright = try file("packaging/copyright.in")
        let ownParagraph = try #require(copyright.components(separatedBy: "\n\n").first { $0.contains("Files: *\n") })
        #expect(ownParagraph.contains("\nLicense: MIT\n"), "\(ownParagraph)")
        #expect(ownParagraph.contains("make release LINKAGE=shared"))
        #expect(!copyright.contains("unstated"))
        // The licence's own words, paragraph for paragraph (DEP-5 indents them by one space).
        for sentence in [
            "The above copyright notice and this permission notice shall be included in all",
            "FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.",
        ] {
            #expect(licence.contains(sentence) && ownParagraph.contains(sentence), "\(sentence)")
        }
        let readme = try file("README.md")
        let lastSection = try #require(readme.components(separatedBy: "\n## ").last)
        #expect(lastSection.hasPrefix("Licence\n"), "\(lastSection.prefix(40))")
        #expect(lastSection.contains("MIT ([LICENSE](LICENSE))"))
    }

    /// No source file carries a licence header of its own (they would contradict LICENSE).
    @Test func noFileStatesAnotherLicence() throws {
        let folders = ["Sources", "Tests", "scripts", "bench", "fuzz", "tests", "linker"]
        var checked = 0
        for folder in folders {
            let enumerator = try #require(FileManager.default.enumerator(atPath: Paths.root + "/" + folder))
            for case let relative as String in enumerator {
                let path = Paths.root + "/" + folder + "/" + relative
                guard [".swift", ".c", ".h", ".sh", ".py", ".s", ".modulemap"].contains(where: relative.hasSuffix),
                    let text = try? String(contentsOfFile: path, encoding: .utf8)
                else { continue }
                checked += 1
                let head = text.prefix(600)
                for marker in [
                    "SPDX-License-Identifier", "Licensed under", "GNU General Public License", "All rights reserved",
                ] {
                    #expect(!head.contains(marker), "\(folder)/\(relative) has a licence header (\(marker))")
                }
            }
        }
        #expect(checked > 300)
    }

    /// CHANGELOG.md's newest release is the version `--version` prints (Version.swift).
    @Test func changelogNamesTheBinarysVersion() throws {
        let version = try runIconbadge(["--version"]).stdoutText.split(separator: "\n").first.map(String.init)
        let number = try #require(version?.split(separator: " ").last.map(String.init))
        #expect(version == "iconbadge \(number)")
        let changelog = try file("CHANGELOG.md")
        #expect(changelog.hasPrefix("# Changelog\n"))
        #expect(changelog.contains("\n## [Unreleased]\n"))
        let releases = changelog.split(separator: "\n").filter {
            $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]")
        }
        let newest = try #require(releases.first)
        #expect(newest.hasPrefix("## [\(number)] - "), "\(newest)")
        // Keep a Changelog's date form.
        #expect(newest.range(of: #"^## \[[0-9.]+\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$"#, options: .regularExpression) != nil)
    }
}
