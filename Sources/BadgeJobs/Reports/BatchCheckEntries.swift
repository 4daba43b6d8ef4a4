import BadgeCore

extension CheckEntry {
    /// The entries of a checked batch, one per job in job order, for the HTML report:
    /// a matched (or unchanged) golden is `passed`, a different one `changed`, a
    /// created one `new` and an updated one `changed`, both with `goldenWritten`; a
    /// job that failed is `error`.
    package static func entries(of outcomes: [JobOutcome], jobs: [RenderJob]) -> [CheckEntry] {
        var entries: [CheckEntry] = []
        for index in jobs.indices {
            let job = jobs[index]
            let golden = job.check?.golden
            let path = golden.map { $0.relative.components.joined(separator: "/") } ?? job.label
            let shown = job.label.isEmpty ? path : "\(path) (\(job.label))"
            switch outcomes[index].result {
            case .failure(let error):
                entries.append(
                    CheckEntry(
                        path: shown, status: .error, report: nil, message: error.message, errorCode: error.exitCode))
            case .success(let done):
                guard let check = done.check else { continue }
                let line = check.report?.line ?? ""
                var entry: CheckEntry
                switch check.status {
                case .matched, .unchanged:
                    entry = CheckEntry(path: shown, status: .passed, report: check.report, message: line)
                case .different:
                    entry = CheckEntry(path: shown, status: .changed, report: check.report, message: line)
                case .created:
                    entry = CheckEntry(
                        path: shown, status: .new, report: nil, message: "golden created (it was missing)",
                        goldenWritten: "missing")
                case .updated:
                    entry = CheckEntry(
                        path: shown, status: .changed, report: check.report, message: "golden updated: " + line,
                        goldenWritten: "changed")
                }
                entry.assets = check.assets
                entries.append(entry)
            }
        }
        return entries
    }
}
