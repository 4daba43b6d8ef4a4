/// The tool's version, printed by `--version` and in reports.
enum Version {
    static let tool = "0.1.0"
}
