import BadgeCore
import BadgeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTML report being made: its page's path and its staged assets folder
/// (`report.html` and `report-assets/`), published together at the end: the assets
/// folder is renamed into place (replacing the last run's), then the page written.
package struct HTMLReportFile {
    /// The page's path.
    package let path: String
    /// The assets folder's name beside the page (`report-assets`).
    package let assetsName: String
    /// The assets folder's path, as the caller spelt the page's.
    package let assetsPath: String
    /// The staged assets folder, written by the checks.
    package let assets: StagedFolder

    /// Checks the page's path and stages its assets folder.
    ///
    /// - Throws: 64 when the page is not named `.html`; 73 when it or its folder
    ///   cannot be written.
    package init(_ path: String) throws(BadgeError) {
        guard path.hasSuffix(".html") || path.hasSuffix(".htm"), let name = LexicalPath(path).name,
            !name.hasPrefix(".")
        else {
            throw .usage("--html \(Quoted(path)): the report is an HTML page; name it NAME.html")
        }
        try OutputFile.checkWritable(OutputLocation(commandLine: path), creatingFolders: true)
        self.path = path
        assetsPath = String(path[..<path.lastIndex(of: ".")!]) + "-assets"
        let location = OutputLocation(commandLine: assetsPath)
        assetsName = location.name ?? "report-assets"
        // The assets folder is replaced whole at each run: only one this command made
        // (it holds the marker file) or an empty one, never a folder of the user's.
        if InputFile.exists(assetsPath), !InputFile.isRegularFile(assetsPath + "/" + Self.marker),
            !Self.isEmptyFolder(assetsPath)
        {
            throw .cannotCreate(
                path: assetsPath,
                reason:
                    "exists and is not the assets folder of an iconbadge report (no \(Self.marker) in it); name the report elsewhere, or remove the folder"
            )
        }
        assets = try StagedFolder.beside(location)
    }

    /// The file that marks an assets folder as a report's own.
    package static let marker = ".iconbadge-report"

    /// Whether `path` is a folder with nothing in it.
    static func isEmptyFolder(_ path: String) -> Bool {
        guard let stream = opendir(path) else { return false }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { return false }
        }
        return true
    }

    /// Publishes the report of `entries`: the assets folder, then the page. No date
    /// unless `SOURCE_DATE_EPOCH` is set.
    ///
    /// - Throws: 64 for a bad `SOURCE_DATE_EPOCH`; 73/74 when a file cannot be
    ///   written (the staged assets are then removed).
    package func publish(_ entries: [CheckEntry], title: String, environment: [String: String]) throws(BadgeError) {
        do throws(BadgeError) {
            let generated = try PDFDate.sourceDateEpoch(environment["SOURCE_DATE_EPOCH"])
            try assets.write(
                Array("iconbadge HTML report assets; replaced at each run\n".utf8), components: [Self.marker],
                shown: assetsPath + "/" + Self.marker)
            try assets.commit(as: assetsName)
            let page = HTMLReport.html(entries, title: title, assetsFolder: assetsName, generated: generated)
            try OutputFile.write(Array(page.utf8), to: path, creatingFolders: true)
        } catch {
            assets.discard()
            throw error
        }
    }

    /// Removes the staged assets (the check did not run).
    package func discard() { assets.discard() }
}
