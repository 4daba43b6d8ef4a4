import BadgeCore

/// One image of a golden check as the reports list it (`compare DIR DIR`, `batch
/// --check`): its path, what was found, and the PNG files the HTML report shows.
package struct CheckEntry: Sendable, Equatable {
    /// What a check found for one image; the reports' vocabulary (reg-cli's, plus
    /// `error`).
    package enum Status: String, Sendable, CaseIterable {
        /// The pixels match (within the budget).
        case passed
        /// The pixels differ beyond the budget, or the sizes differ.
        case changed
        /// In the actual folder only: no golden yet.
        case new
        /// In the expected folder only: the golden's image was not produced.
        case deleted
        /// The pair could not be compared (unreadable, corrupt, over a limit).
        case error
    }

    /// The PNG files of one entry, as names inside the report's assets folder (never
    /// derived from the image's own path, which may be hostile); nil when absent.
    package struct Assets: Sendable, Equatable {
        /// The actual image, decoded and written as PNG (straight RGBA).
        package var actual: String?
        /// The expected image (the golden), decoded and written as PNG.
        package var expected: String?
        /// The diff image (same size as both), for a changed pair of one size.
        package var diff: String?

        /// Assets from their names.
        package init(actual: String? = nil, expected: String? = nil, diff: String? = nil) {
            self.actual = actual
            self.expected = expected
            self.diff = diff
        }
    }

    /// The image's path relative to the compared folders, `/`-separated, as found on
    /// disk (untrusted: escape it wherever it is printed).
    package var path: String
    /// What was found.
    package var status: Status
    /// The comparison, for `passed` and `changed`.
    package var report: ComparisonReport?
    /// One line: the comparison's line, or the error's message.
    package var message: String
    /// The images the HTML report shows.
    package var assets: Assets
    /// Why the golden was written by an update (`missing`: it did not exist;
    /// `changed`: it failed the comparison), or nil when it was not written.
    package var goldenWritten: String?
    /// The error's exit code, for `error`.
    package var errorCode: ExitCode?
    /// The job that made it (`jobs[3]@2x`, batch), or "" (an image of a folder).
    package var label = ""
    /// Its JUnit test case's name when it is not `path` (batch: the golden's path as
    /// given, `goldens/icon.png`), else nil.
    package var name: String?
    /// Whether the report's images of it could not be found (a merged report whose
    /// shard's artifacts were not uploaded).
    package var imagesMissing = false
    /// Its position in the whole run's list (every shard's items, in path order for
    /// a directory check, in job order for a batch): what shards' results are merged by.
    package var index = 0
    /// The artifacts written for it (`REL.actual.png`, `REL.diff.png`), as their paths
    /// are shown.
    package var artifacts: [String] = []

    /// An entry from its parts.
    package init(
        path: String, status: Status, report: ComparisonReport?, message: String, assets: Assets = Assets(),
        goldenWritten: String? = nil, errorCode: ExitCode? = nil
    ) {
        self.path = path
        self.status = status
        self.report = report
        self.message = message
        self.assets = assets
        self.goldenWritten = goldenWritten
        self.errorCode = errorCode
    }

    /// The checks' one summary, for `compare DIR DIR` and `batch --check` alike:
    /// `12 images: 10 passed, 1 changed, 1 new, 0 deleted, 0 errors` (`1 error`), then `; 2 goldens
    /// written` when an update wrote any.
    package static func summary(_ entries: [CheckEntry]) -> String {
        let parts = Status.allCases.map { status in
            let count = entries.filter { $0.status == status }.count
            return "\(count) \(status == .error ? (count == 1 ? "error" : "errors") : status.rawValue)"
        }
        var line = "\(entries.count) image\(entries.count == 1 ? "" : "s"): " + parts.joined(separator: ", ")
        let written = entries.filter { $0.goldenWritten != nil }.count
        if written > 0 { line += "; \(written) golden\(written == 1 ? "" : "s") written" }
        return line
    }

    /// The entry's line in the checks' one vocabulary: `changed sub/two.png: 62 of 2304
    /// pixels differ …` (a batch's entry by its golden as given, then its job:
    /// `changed goldens/a.png (jobs[3]@2x): …`, as the HTML report shows it), the path
    /// escaped, then a `  wrote PATH` line for each artifact.
    package var line: String {
        var text = "\(status.rawValue) \(Shown(name ?? path))\(job): \(message)"
        for artifact in artifacts { text += "\n  wrote \(Shown(artifact))" }
        return text
    }

    /// ` (jobs[3]@2x)`: the job that made the entry, escaped; "" for an image of a folder.
    var job: String { label.isEmpty ? "" : " (\(Shown(label)))" }

    /// Whether this entry fails the check: `changed` unless its golden was rewritten,
    /// `new` or `deleted` when `failOn` names them (a created golden passes), `error`
    /// always.
    package func fails(failOn: [Status]) -> Bool {
        switch status {
        case .passed: return false
        case .changed: return goldenWritten == nil
        case .new, .deleted: return goldenWritten == nil && failOn.contains(status)
        case .error: return true
        }
    }
}
