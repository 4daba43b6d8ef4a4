import BadgeCore

extension CheckEntry {
    /// The entries of a checked batch, one per job in job order, for its reports: a
    /// matched (or unchanged) golden is `passed`, a different one `changed`, a created
    /// one `new` and an updated one `changed`, both with `goldenWritten`; a job that
    /// failed is `error`. Each is the golden's path below the goldens folder, its job's
    /// label, its JUnit name (the golden as given), its artifacts, and its index in
    /// the whole run: `indexes[i]` for `jobs[i]` (a shard's jobs are some of the run's).
    package static func entries(of outcomes: [JobOutcome], jobs: [RenderJob], indexes: [Int]? = nil) -> [CheckEntry] {
        var entries: [CheckEntry] = []
        for index in jobs.indices {
            let job = jobs[index]
            let golden = job.check?.golden
            let path = golden.map { $0.relative.components.joined(separator: "/") } ?? job.label
            var entry: CheckEntry
            switch outcomes[index].result {
            case .failure(let error):
                entry = CheckEntry(
                    path: path, status: .error, report: nil, message: error.message, errorCode: error.exitCode)
            case .success(let done):
                guard let check = done.check else { continue }
                let detail = check.report?.detail ?? ""
                switch check.status {
                case .matched, .unchanged:
                    entry = CheckEntry(path: path, status: .passed, report: check.report, message: detail)
                case .different:
                    entry = CheckEntry(path: path, status: .changed, report: check.report, message: detail)
                case .created:
                    entry = CheckEntry(
                        path: path, status: .new, report: nil, message: "golden created (it was missing)",
                        goldenWritten: "missing")
                case .updated:
                    entry = CheckEntry(
                        path: path, status: .changed, report: check.report,
                        message: "golden updated: " + (check.report?.detail ?? check.reason ?? "the pixels differed"),
                        goldenWritten: "changed")
                }
                entry.assets = check.assets
                entry.artifacts = check.artifacts.map(\.description)
            }
            entry.label = job.label
            entry.name = golden?.description
            entry.index = indexes?[index] ?? index
            entries.append(entry)
        }
        return entries
    }
}
