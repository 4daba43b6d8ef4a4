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
