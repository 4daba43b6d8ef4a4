import BadgeCore
import BadgeSystem

/// The machine-readable results of one run of a check (`--results PATH` on `compare
/// DIR DIR` and `batch --check`): every item's status, comparison and regions, and its
/// images as paths relative to the results file's folder; what `merge-reports` joins
/// into the whole run's reports when the run was split with `--shard K/N`.
///
/// **Format** (JSON, `"kind": "results"`, `"schema": 1`; keys are only ever added
/// within a schema): `command` (`compare` or `batch`), `title` (the HTML report's),
/// `run` (what must be equal in every shard of one run: folders, manifest, the
/// comparison settings, `--fail-on`, `--update`), `shard` (`{"index":2,"count":3}` or
/// null), `total` (the items of the whole run), `failOn`, `exitCode` (this run's),
/// `artifacts` (`folder` as given, `fromResults` relative to the results file's folder
/// or null) and `items`, each with its `index` in the whole run, `path`, `label`, `name` (its
/// JUnit test case), `status`, `fails`, `message`, `errorCode`, `goldenWritten`,
/// `comparison` (as `compare --json`, with `regions`), `artifacts` (relative to the
/// artifacts folder) and `images` (`actual`, `expected`, `diff`: relative paths or null).
package struct RunResults: Sendable {
    /// Which command made the results.
    package enum Command: String, Sendable {
        /// `compare ACTUAL_DIR EXPECTED_DIR`.
        case compare
        /// `batch MANIFEST --check DIR`.
        case batch

        /// The JUnit suite's name, as the command's own report has it.
        package var suite: String { self == .compare ? "iconbadge compare" : "iconbadge batch --check" }
    }

    /// The schema this iconbadge writes and reads.
    package static let schema = 1

    /// Which command made them.
    package var command: Command
    /// The HTML report's title.
    package var title: String
    /// What must be equal in every shard of one run.
    package var run: JSONValue
    /// The part of the run, nil for a whole run.
    package var shard: Shard?
    /// The items of the whole run (every shard's).
    package var total: Int
    /// Statuses besides `changed` that fail.
    package var failOn: [CheckEntry.Status]
    /// This run's exit code.
    package var exitCode: ExitCode
    /// The items, in index order; their `artifacts` relative to the artifacts folder,
    /// their `assets` (`images`) relative to the results file's folder.
    package var entries: [CheckEntry]
    /// The artifacts folder as the command line gave it (`iconbadge-artifacts` by
    /// default for a batch), nil without one.
    package var artifactsFolder: String?
    /// The artifacts folder relative to the results file's folder (`.` when it is that
    /// folder), nil when it is not inside it.
    package var artifactsFromResults: String?

    /// Results from their parts.
    package init(
        command: Command, title: String, run: JSONValue, shard: Shard?, total: Int, failOn: [CheckEntry.Status],
        exitCode: ExitCode, entries: [CheckEntry]
    ) {
        self.command = command
        self.title = title
        self.run = run
        self.shard = shard
        self.total = total
        self.failOn = failOn
        self.exitCode = exitCode
        self.entries = entries
    }

    /// The `run` member of a check: its command's identity and the comparison's
    /// settings (`--ignore` rectangles as written, the mask's path).
    package static func identity(_ members: [(String, JSONValue)], compare: CompareSettings) -> JSONValue {
        let comparison: JSONValue = .object([
            ("mode", .string(compare.threshold == nil ? "exact" : "perceptual")),
            ("tolerance", .number(Double(compare.tolerance))),
            ("threshold", compare.threshold.map { .number($0) } ?? .null),
            ("includeAntialiased", .bool(compare.includeAntialiased)),
            ("maxDiffPixels", compare.maxDiffPixels.map { .number(Double($0)) } ?? .null),
            ("maxDiffRatio", compare.maxDiffRatio.map { .number($0) } ?? .null),
            ("ignore", .array(compare.ignore.map { .string($0.description) })),
            ("mask", compare.mask.map { .string($0) } ?? .null),
            ("storedColor", .bool(compare.storedColor)),
        ])
        return .object(members + [("comparison", comparison)])
    }

    /// The document, one line of JSON and a newline.
    package var json: String {
        let items: [JSONValue] = entries.map { entry in
            .object([
                ("index", .number(Double(entry.index))),
                ("path", .string(entry.path)),
                ("label", .string(entry.label)),
                ("name", .string(entry.name ?? entry.path)),
                ("status", .string(entry.status.rawValue)),
                ("fails", .bool(entry.fails(failOn: failOn))),
                ("message", .string(entry.message)),
                ("errorCode", entry.errorCode.map { .number(Double($0.rawValue)) } ?? .null),
                ("goldenWritten", entry.goldenWritten.map { .string($0) } ?? .null),
                ("comparison", entry.report?.json ?? .null),
                ("artifacts", .array(entry.artifacts.map { .string($0) })),
                (
                    "images",
                    .object([
                        ("actual", entry.assets.actual.map { .string($0) } ?? .null),
                        ("expected", entry.assets.expected.map { .string($0) } ?? .null),
                        ("diff", entry.assets.diff.map { .string($0) } ?? .null),
                    ])
                ),
            ])
        }
        let document: JSONValue = .object([
            ("schema", .number(Double(Self.schema))),
            ("kind", .string("results")),
            ("command", .string(command.rawValue)),
            ("title", .string(title)),
            ("run", run),
            (
                "shard",
                shard.map { .object([("index", .number(Double($0.index))), ("count", .number(Double($0.count)))]) }
                    ?? .null
            ),
            ("total", .number(Double(total))),
            ("failOn", .array(failOn.map { .string($0.rawValue) })),
            ("exitCode", .number(Double(exitCode.rawValue))),
            (
                "artifacts",
                .object([
                    ("folder", artifactsFolder.map { .string($0) } ?? .null),
                    ("fromResults", artifactsFromResults.map { .string($0) } ?? .null),
                ])
            ),
            ("items", .array(items)),
        ])
        return document.serialized() + "\n"
    }

    /// The path of `file` (as the command line or an output location spells it)
    /// relative to `folder`, `/`-separated, when it lies inside it; nil otherwise
    /// (merge-reports reads nothing outside a results file's folder).
    package static func relativePath(of file: String, inside folder: String) -> String? {
        guard let components = LexicalPath(file).absolute().relative(to: LexicalPath(folder).absolute()),
            !components.isEmpty
        else { return nil }
        return components.joined(separator: "/")
    }
}
