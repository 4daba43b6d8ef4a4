import BadgeCore
import BadgeJobs
import BadgeSystem

/// Writes a run's results (`--results PATH`): the entries' images and artifacts made
/// relative to the file's own folder, so that the folder, uploaded whole by a CI job
/// and downloaded elsewhere, still finds them (`merge-reports`).
enum ResultsFile {
    /// Writes `results` to `path`; `html` is the run's HTML report (its images are the
    /// report's), `artifacts` the artifacts folder as given (the images of changed
    /// entries when there is no report).
    ///
    /// - Throws: 73/74 when the file cannot be written.
    static func write(
        _ results: RunResults, to path: String, html: HTMLReportFile?, artifacts: String?, io: CommandIO
    ) throws(BadgeError) {
        let folder = LexicalPath(path).folder.description
        func inside(_ file: String) -> String? { RunResults.relativePath(of: file, inside: folder) }
        var results = results
        results.artifactsFolder = artifacts
        if let artifacts {
            results.artifactsFromResults =
                LexicalPath(artifacts).absolute() == LexicalPath(folder).absolute() ? "." : inside(artifacts)
        }
        var outside = false
        for position in results.entries.indices {
            var entry = results.entries[position]
            let shown = entry.artifacts
            // Artifacts relative to their folder: ROOT/REL as OutputLocation shows them.
            if let artifacts {
                let prefix = artifacts == "." ? "" : (artifacts.hasSuffix("/") ? artifacts : artifacts + "/")
                entry.artifacts = shown.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
            }
            var images = CheckEntry.Assets()
            if let html {
                func located(_ name: String?) -> String? {
                    guard let name else { return nil }
                    guard let relative = inside(html.assetsPath + "/" + name) else {
                        outside = true
                        return nil
                    }
                    return relative
                }
                images = CheckEntry.Assets(
                    actual: located(entry.assets.actual), expected: located(entry.assets.expected),
                    diff: located(entry.assets.diff))
            } else {
                for file in shown {
                    guard let relative = inside(file) else {
                        outside = true
                        continue
                    }
                    if file.hasSuffix(".actual.png") { images.actual = relative }
                    if file.hasSuffix(".diff.png") { images.diff = relative }
                }
            }
            entry.assets = images
            results.entries[position] = entry
        }
        try OutputFile.write(Array(results.json.utf8), to: path, creatingFolders: true)
        io.writeErr("iconbadge: results: \(Shown(path))\n")
        if outside {
            io.note(
                "--results \(Quoted(path)): some images are outside the results file's folder, so merge-reports cannot show them; write the report and artifacts inside \(Quoted(folder))"
            )
        }
    }
}
