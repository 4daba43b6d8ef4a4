import Foundation

/// The shared test corpus, `../shared/corpus` beside the checkout (its SOURCES.md says
/// where each folder comes from and under which licence). It is not part of the
/// project, so every test that reads it goes through here and fails with a message
/// saying what is missing and what to do, instead of a bare "file not found" or,
/// worse, a loop over nothing. What must travel with the project is copied into
/// `Fixtures/corpus-subset/` (`Paths.subset`).
public enum Corpus {
    /// The corpus folder: `../shared/corpus` relative to the package root.
    public static let root = Paths.root + "/../shared/corpus"

    /// The error a corpus test fails with when the corpus, one of its folders or one
    /// of its files is not there.
    public struct Missing: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The path of `relative` (a file or a folder) in the shared corpus.
    ///
    /// - Throws: `Missing`, naming the corpus folder the test reads, when it is not there.
    public static func path(_ relative: String) throws -> String {
        try path(relative, inCorpusAt: root)
    }

    /// `path(_:)` for a corpus at `root` (tests of the messages use a missing one).
    public static func path(_ relative: String, inCorpusAt root: String) throws -> String {
        let path = root + "/" + relative
        guard !FileManager.default.fileExists(atPath: path) else { return path }
        let folder = relative.split(separator: "/").first.map(String.init) ?? relative
        guard FileManager.default.fileExists(atPath: root) else {
            throw Missing(
                description: "this test reads ../shared/corpus/\(folder) (see ../shared/corpus/SOURCES.md); "
                    + "put the shared corpus beside the checkout: \(standardised(root)) does not exist")
        }
        throw Missing(
            description: "this test reads ../shared/corpus/\(relative), which is missing from "
                + "\(standardised(root)): the shared corpus there is not the one SOURCES.md describes")
    }

    /// The sorted names of the regular files directly inside the corpus folder
    /// `folder` (subfolders and their files are left out).
    ///
    /// - Throws: `Missing` when the folder is not there.
    public static func files(in folder: String) throws -> [String] {
        try regularFiles(in: try path(folder))
    }

    private static func standardised(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// The sorted names of the regular files directly inside `folder` (symbolic links to
/// files count; subfolders do not).
///
/// - Throws: when the folder cannot be listed (a missing folder is an error, never an
///   empty list, so that a test looping over it cannot pass by looping over nothing).
public func regularFiles(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { name in
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
            && !isFolder.boolValue
    }.sorted()
}
