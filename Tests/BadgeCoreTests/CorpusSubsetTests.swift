import Foundation
import TestSupport
import Testing

/// Fixtures/corpus-subset: the files copied from the shared corpus so that the tests
/// that matter most run without it (see its SOURCES.md), each an unchanged copy.
@Suite struct CorpusSubsetTests {
    static let files: KeyValuePairs<String, [String]> = [
        "pngsuite": [
            "PngSuite.LICENSE", "basi6a16.png", "basn0g08.png", "basn2c08.png", "basn4a08.png", "basn6a08.png",
            "basn6a16.png", "tbbn0g04.png", "xc1n0g08.png", "xc9n2c08.png", "xcrn0g04.png", "xcsn0g01.png",
            "xd0n2c08.png", "xd3n2c08.png", "xd9n2c08.png", "xdtn0g01.png", "xhdn0g08.png", "xlfn0g04.png",
            "xs1n0g01.png", "xs2n0g01.png", "xs4n0g01.png", "xs7n0g01.png",
        ],
        "libpng-testpngs": ["LICENSE"],
        "libpng-testpngs/crashers": ["huge_IDAT.png", "huge_bKGD_chunk.png", "huge_iTXt_chunk.png"],
        "pixelmatch": ["1a.png", "1b.png", "8a.png", "LICENSE"],
    ]

    /// Each folder holds what SOURCES.md lists, and every licence is beside its files.
    @Test func holdsTheListedFilesWithTheirLicences() throws {
        #expect(try regularFiles(in: Paths.subset("")) == ["SOURCES.md"])
        for (folder, names) in Self.files {
            #expect(try regularFiles(in: Paths.subset(folder)) == names, "\(folder)")
        }
        #expect(Self.files.reduce(0) { $0 + $1.value.count } == 30)
        let sources = try String(contentsOfFile: Paths.subset("SOURCES.md"), encoding: .utf8)
        for (folder, names) in Self.files {
            for name in names where name.hasSuffix(".png") {
                #expect(sources.contains(String(name.dropLast(4))), "SOURCES.md does not list \(folder)/\(name)")
            }
        }
    }

    /// The copies are the corpus's files, byte for byte (this one needs the shared corpus).
    @Test func copiesAreTheCorpusFiles() throws {
        for (folder, names) in Self.files {
            for name in names where name != "LICENSE" || folder == "pixelmatch" {
                let copy = try Data(contentsOf: URL(fileURLWithPath: Paths.subset("\(folder)/\(name)")))
                let original = try Data(contentsOf: URL(fileURLWithPath: try Corpus.path("\(folder)/\(name)")))
                #expect(copy == original, "\(folder)/\(name) differs from the corpus's")
            }
        }
    }

    /// A test that needs the shared corpus says which part and what to do when the
    /// corpus is missing, or when it lacks a file.
    @Test func aMissingCorpusIsNamedWithWhatToDo() throws {
        let missing = Paths.scratch("no-corpus") + "/corpus"
        #expect(
            throws: Corpus.Missing(
                description: "this test reads ../shared/corpus/pngsuite (see ../shared/corpus/SOURCES.md); "
                    + "put the shared corpus beside the checkout: \(missing) does not exist")
        ) {
            try Corpus.path("pngsuite/basn6a08.png", inCorpusAt: missing)
        }
        let present = Paths.subset("")
        #expect(
            throws: Corpus.Missing(
                description: "this test reads ../shared/corpus/pngsuite/none.png, which is missing from "
                    + "\(URL(fileURLWithPath: present).standardizedFileURL.path): the shared corpus there is not the "
                    + "one SOURCES.md describes")
        ) {
            try Corpus.path("pngsuite/none.png", inCorpusAt: present)
        }
        #expect(try Corpus.path("pngsuite/basn6a08.png", inCorpusAt: present) == present + "/pngsuite/basn6a08.png")
    }
}
