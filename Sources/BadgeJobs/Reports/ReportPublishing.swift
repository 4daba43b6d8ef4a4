import BadgeCore
import BadgeSystem

/// Publishes the reports of a checking run (`batch --check`, `compare`,
/// `merge-reports`): the HTML page with its assets, the JUnit XML, the results file,
/// in that order, each independently of the others' failures.
package enum ReportPublishing {
    /// What publishing one report did, in order, for the command line to say.
    package enum Published: Equatable {
        /// The HTML report is at `path`.
        case html(path: String)
        /// The JUnit report is at `path`.
        case junit(path: String)
        /// The results file is at `path`; `imagesOutside` when some of its images are
        /// outside `folder`, its own folder, so that `merge-reports` cannot show them.
        case results(path: String, imagesOutside: Bool, folder: String)
        /// A report could not be written.
        case failed(BadgeError)
    }

    /// The JUnit report asked for: its path, the statuses that fail, and its suite's name.
    package struct JUnit {
        package var path: String
        package var failOn: [CheckEntry.Status]
        package var suite: String

        package init(path: String, failOn: [CheckEntry.Status], suite: String) {
            self.path = path
            self.failOn = failOn
            self.suite = suite
        }
    }

    /// The results file asked for (`--results PATH`): its path, the artifacts folder
    /// as given, and the results of the run given its exit code once the reports
    /// before it were published.
    package struct Results {
        package var path: String
        package var artifacts: String?
        package var make: (ExitCode) -> RunResults

        package init(path: String, artifacts: String?, make: @escaping (ExitCode) -> RunResults) {
            self.path = path
            self.artifacts = artifacts
            self.make = make
        }
    }

    /// Publishes the reports of `entries` given: `html`, `junit`, then `results`. A
    /// report that cannot be written is said (`.failed`) and the next still written;
    /// its error's exit code replaces `exitCode` when that was a pass or a difference
    /// (0 or 1), else the first error's stands.
    ///
    /// - Returns: what each report did, in order, and the run's exit code after them.
    package static func publish(
        _ entries: [CheckEntry], title: String, html: HTMLReportFile?, junit: JUnit?, results: Results?,
        exitCode: ExitCode, environment: [String: String]
    ) -> (published: [Published], exitCode: ExitCode) {
        var code = exitCode
        var published: [Published] = []
        func failed(_ error: BadgeError) {
            published.append(.failed(error))
            code = code == .success || code == .different ? error.exitCode : code
        }
        if let html {
            do throws(BadgeError) {
                try html.publish(entries, title: title, environment: environment)
                published.append(.html(path: html.path))
            } catch {
                failed(error)
            }
        }
        if let junit {
            do throws(BadgeError) {
                let xml = JUnitReport.xml(entries, failOn: junit.failOn, suite: junit.suite)
                try OutputFile.write(Array(xml.utf8), to: junit.path, creatingFolders: true)
                published.append(.junit(path: junit.path))
            } catch {
                failed(error)
            }
        }
        if let results {
            do throws(BadgeError) {
                let folder = LexicalPath(results.path).folder.description
                let outside = try write(
                    results.make(code), to: results.path, html: html, artifacts: results.artifacts)
                published.append(.results(path: results.path, imagesOutside: outside, folder: folder))
            } catch {
                failed(error)
            }
        }
        return (published, code)
    }

    /// Writes a run's results (`--results PATH`) to `path`: the entries' images and
    /// artifacts made relative to the file's own folder, so that the folder, uploaded
    /// whole by a CI job and downloaded elsewhere, still finds them (`merge-reports`).
    /// `html` is the run's HTML report (its images are the report's), `artifacts` the
    /// artifacts folder as given (the images of changed entries when there is no
    /// report).
    ///
    /// - Returns: whether some images are outside the file's folder (left out).
    /// - Throws: 73/74 when the file cannot be written.
    static func write(_ results: RunResults, to path: String, html: HTMLReportFile?, artifacts: String?)
        throws(BadgeError) -> Bool
    {
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
        return outside
    }
}
