import Foundation

/// Where the tests find the project's files and the built binary (the test corpus: `Corpus`).
public enum Paths {
    /// The package root (the folder holding Package.swift).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// `Fixtures/` in the package.
    public static func fixture(_ relative: String) -> String { root + "/Fixtures/" + relative }

    /// The folder tests may write scratch files to, made fresh per call.
    public static func scratch(_ name: String) -> String {
        let path = root + "/.build/test-scratch/" + name + "-" + UUID().uuidString.prefix(8)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Where failing golden tests put the actual image and the diff.
    public static let goldenFailures = root + "/.build/golden-failures"

    /// The built `iconbadge` binary next to the test bundle.
    public static let binary: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "iconbadge"
            ).path,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("iconbadge").path,
            root + "/.build/debug/iconbadge",
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates.last!
    }()
}
