import Foundation

/// The test corpus in the repository, `Fixtures/corpus`: public test data (PngSuite,
/// libpng's, image-png's, librsvg's and resvg's test files, JPEG test images, Adwaita
/// and Papirus icons, pixelmatch's fixtures, one of odiff's images), each file an
/// unchanged copy from the origin its `SOURCES.md` names, with the same relative path as
/// there and its licence beside it. `SHA256SUMS` lists every file (`CorpusTests` checks
/// it). Every test that reads the corpus goes through here, so that a missing file fails
/// the test with its path named, never as a bare "file not found" or, worse, a loop over
/// nothing.
public enum Corpus {
    /// The corpus folder: `Fixtures/corpus` in the package.
    public static let root = Paths.root + "/Fixtures/corpus"

    /// The error a test fails with when a corpus file or folder it reads is not there.
    public struct Missing: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The path of `relative` (a file or a folder, as `pngsuite/basn6a08.png`) in the corpus.
    ///
    /// - Throws: `Missing`, naming the missing path, when it is not there.
    public static func path(_ relative: String) throws -> String {
        try path(relative, inCorpusAt: root)
    }

    /// `path(_:)` for a corpus at `root` (the test of the message uses another one).
    ///
    /// - Throws: `Missing`, naming the missing path, when it is not there.
    public static func path(_ relative: String, inCorpusAt root: String) throws -> String {
        let path = root + "/" + relative
        guard !FileManager.default.fileExists(atPath: path) else { return path }
        throw Missing(
            description: "this test reads \(standardised(path)), which is missing: the repository's test corpus "
                + "is incomplete (Fixtures/corpus/SOURCES.md says where each file comes from, SHA256SUMS lists them)")
    }

    /// Checks the paths among `arguments` that lie in the corpus (test cases built
    /// before a test runs name them as `Corpus.root + "/pngsuite/x.png"`).
    ///
    /// - Throws: `Missing`, naming the first of them that is not there.
    public static func check(_ arguments: [String]) throws {
        for argument in arguments where argument.hasPrefix(root + "/") {
            _ = try path(String(argument.dropFirst(root.count + 1)))
        }
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
