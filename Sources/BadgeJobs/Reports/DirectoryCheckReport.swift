import BadgeCore

/// The results of a directory check (`compare ACTUAL_DIR EXPECTED_DIR`) as one summary
/// line and as the JSON `--json` prints; schema 1, documented in docs/manual/golden-checks.md.
package struct DirectoryCheckReport: Sendable {
    /// Every image, in path order.
    package var entries: [CheckEntry]
    /// The folder of fresh images.
    package var actual: String
    /// The goldens' folder.
    package var expected: String
    /// Statuses besides `changed` that fail.
    package var failOn: [CheckEntry.Status]
    /// The update mode the check ran with.
    package var update: UpdateMode
    /// Links found in either folder, skipped.
    package var links: [String]

    /// A report from its parts.
    package init(
        entries: [CheckEntry], actual: String, expected: String, failOn: [CheckEntry.Status], update: UpdateMode,
        links: [String]
    ) {
        self.entries = entries
        self.actual = actual
        self.expected = expected
        self.failOn = failOn
        self.update = update
        self.links = links
    }

    /// How many entries have `status`.
    package func count(_ status: CheckEntry.Status) -> Int { entries.filter { $0.status == status }.count }

    /// Whether every entry passes (none fails under `failOn`).
    package var passes: Bool { !entries.contains { $0.fails(failOn: failOn) } }

    /// The exit code: the first error's code, else 1 when an entry fails, else 0.
    package var exitCode: ExitCode {
        if let error = entries.first(where: { $0.status == .error }) { return error.errorCode ?? .dataError }
        return passes ? .success : .different
    }

    /// `compare: 12 images: 10 passed, 1 changed, 1 new, 0 deleted, 0 errors`, with the
    /// goldens written when there are any (`CheckEntry.summary`).
    package var summary: String { "compare: " + CheckEntry.summary(entries) }

    /// `--json`.
    package var json: JSONValue {
        var counts: [(String, JSONValue)] = CheckEntry.Status.allCases.map {
            ($0.rawValue, .number(Double(count($0))))
        }
        counts.append(("total", .number(Double(entries.count))))
        let images: [JSONValue] = entries.map { entry in
            .object([
                ("path", .string(entry.path)),
                ("status", .string(entry.status.rawValue)),
                ("fails", .bool(entry.fails(failOn: failOn))),
                ("message", .string(entry.message)),
                ("goldenWritten", entry.goldenWritten.map { .string($0) } ?? .null),
                ("comparison", entry.report?.json ?? .null),
            ])
        }
        let written: [JSONValue] = entries.compactMap { entry in
            entry.goldenWritten.map { .object([("path", .string(entry.path)), ("reason", .string($0))]) }
        }
        return .object([
            ("schema", .number(1)),
            ("kind", .string("directory")),
            ("equal", .bool(passes)),
            ("actual", .string(actual)),
            ("expected", .string(expected)),
            ("failOn", .array(failOn.map { .string($0.rawValue) })),
            ("update", .string(update.rawValue)),
            ("counts", .object(counts)),
            ("written", .array(written)),
            ("skippedLinks", .array(links.map { .string($0) })),
            ("images", .array(images)),
        ])
    }
}
