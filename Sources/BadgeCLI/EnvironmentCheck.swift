import BadgeCore
import BadgeJobs

/// `ICONBADGE_*` variables that iconbadge does not read are most likely misspelt
/// (`ICONBADGE_BACKGRUND`): say so once, with the nearest name, rather than ignore
/// them silently.
enum EnvironmentCheck {
    /// Variables read outside the option table.
    static let otherNames = ["ICONBADGE_UPDATE_GOLDENS", UpdateMode.environmentName]

    /// Prints one warning per unknown `ICONBADGE_*` variable in `environment`.
    /// `alsoKnown`: the variables of the command's own options (`ICONBADGE_RELATIVE_SIZE`).
    static func warnAboutUnknownVariables(
        _ environment: [String: String], io: CommandIO, alsoKnown: [String] = []
    ) {
        let set = environment.keys.filter { $0.utf8.starts(with: "ICONBADGE_".utf8) }
        guard !set.isEmpty else { return }
        let known = RenderOptions.all.filter(\.fromEnvironment).map(\.environmentName) + otherNames + alsoKnown
        let perRun = RenderOptions.all.filter { !$0.fromEnvironment }
        for name in set.sorted() where !known.contains(name) {
            if let option = perRun.first(where: { $0.environmentName == name }) {
                // Only name the manifest where it takes the key: --tolerance is the batch
                // command's own flag, not a job's.
                let manifest = Manifest.excludedKeys.contains(option.name) ? "" : " or in a manifest"
                io.warning(
                    "\(Quoted(name)) is ignored: \(option.flagName) is given per run, on the command line\(manifest), not by the environment"
                )
                continue
            }
            let guess = Suggestion.closest(to: name, among: known).map { " (did you mean \($0)?)" } ?? ""
            io.warning("\(Quoted(name)) is not a variable iconbadge reads, so it is ignored\(guess)")
        }
    }
}
