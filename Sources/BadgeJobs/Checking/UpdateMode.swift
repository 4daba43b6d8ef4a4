import BadgeCore

/// Which goldens a check may write instead of failing: Playwright's
/// `--update-snapshots missing|changed|all|none`.
package enum UpdateMode: String, Sendable, CaseIterable {
    /// Create goldens that do not exist; a changed golden still fails.
    case missing
    /// Rewrite goldens that fail the comparison; a missing golden is still an error.
    case changed
    /// Both: create the missing and rewrite the failing (a bare `--update`). A golden
    /// that passes is never rewritten, so an update makes no churn.
    case all
    /// Compare only (the default): a missing golden is an error, a changed one fails.
    case none

    /// Whether a missing golden is created.
    package var createsMissing: Bool { self == .missing || self == .all }
    /// Whether a golden that fails the comparison is rewritten.
    package var rewritesChanged: Bool { self == .changed || self == .all }

    /// The words `--update` takes after it (`--update missing`, `--update=changed`).
    package static let words = allCases.map(\.rawValue)

    /// `--update`'s value: a mode name, or a bare flag's `true` (all) / `false` (none);
    /// `ICONBADGE_UPDATE` also takes `1`/`yes` (all) and `0`/`no` (none).
    ///
    /// - Throws: 64 naming the value and the modes.
    package static func parse(_ text: String, option: String) throws(BadgeError) -> UpdateMode {
        switch text.lowercased() {
        case "true", "yes", "1", "": return .all
        case "false", "no", "0": return .none
        default:
            guard let mode = UpdateMode(rawValue: text.lowercased()) else {
                throw .invalidValue(
                    option: option, value: text,
                    problem:
                        "is not an update mode (use missing, changed or all; a bare \(option) means all)"
                        + (Suggestion.closest(to: text.lowercased(), among: words).map { " (did you mean \($0)?)" }
                            ?? ""))
            }
            return mode
        }
    }

    /// The environment variable that sets the mode when `--update` is not given.
    package static let environmentName = "ICONBADGE_UPDATE"

    /// The mode that applies: `--update` when given; else `ICONBADGE_UPDATE`, except
    /// on a CI machine (`CI` set, as GitHub Actions, GitLab CI, CircleCI, Travis,
    /// Buildkite and Azure Pipelines set it), where a variable left in the job's
    /// settings could turn every failing check into a silent update: there it is
    /// ignored, with a note, and only a `--update` written in the command counts.
    ///
    /// - Returns: the mode and, when the variable was ignored, the note to print.
    /// - Throws: 64 for a bad `ICONBADGE_UPDATE` value.
    package static func resolve(given: UpdateMode?, environment: [String: String]) throws(BadgeError) -> (
        UpdateMode, note: String?
    ) {
        if let given { return (given, nil) }
        guard let text = environment[environmentName], !text.isEmpty else { return (.none, nil) }
        let mode = try parse(text, option: environmentName)
        guard mode != .none, isCI(environment) else { return (mode, nil) }
        return (
            .none,
            "\(environmentName)=\(Quoted(text)) is ignored on a CI machine (\(ciVariables.first { environment[$0] != nil } ?? "CI") is set), so that a failing check cannot pass as an update; write --update \(mode.rawValue) in the command to update goldens there"
        )
    }

    /// Variables CI systems set that say "this is CI": `CI` (GitHub Actions, GitLab CI,
    /// CircleCI, Travis CI, Buildkite, Drone, Bitbucket, Azure Pipelines with its
    /// `TF_BUILD`) and those of systems that do not set `CI` (Jenkins's `JENKINS_URL`,
    /// TeamCity's `TEAMCITY_VERSION`, AWS CodeBuild's `CODEBUILD_BUILD_ID`).
    package static let ciVariables = [
        "CI", "GITHUB_ACTIONS", "GITLAB_CI", "TF_BUILD", "BUILDKITE", "CIRCLECI", "TRAVIS", "JENKINS_URL",
        "TEAMCITY_VERSION", "CODEBUILD_BUILD_ID", "BITBUCKET_BUILD_NUMBER", "DRONE",
    ]

    /// Whether `environment` is a CI machine's: one of `ciVariables` set to anything
    /// but empty, `false`, `0` or `no`.
    package static func isCI(_ environment: [String: String]) -> Bool {
        ciVariables.contains { name in
            guard let value = environment[name] else { return false }
            return !["", "false", "0", "no"].contains(value.lowercased())
        }
    }
}
