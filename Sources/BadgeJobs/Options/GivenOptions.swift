/// Which options were given: the one record of provenance beside the plain values of
/// `RenderSettings`. The option table writes it (`RenderOptions`), whatever the source
/// (a flag, an `ICONBADGE_*` variable, a manifest key, `batch --set`); the rules that
/// depend on whether an option was given (a ribbon's own height, a banner's anchor,
/// `--scale` beside `--scales`, "goes with --animate") read it.
package struct GivenOptions: Sendable, Equatable {
    /// The options applied, by long name (`badge-anchor`), in the order first given.
    package private(set) var names: [String] = []
    /// The options given for this badge itself: its flags, its manifest job's or badge
    /// entry's own keys. Values from the environment, a manifest's defaults, `batch
    /// --set` or the batch command's flags are shared by every render: a ribbon then
    /// takes its own defaults over a shared anchor or height, and ignores a shared
    /// offset rather than refusing it. nil (a library caller): every option applied is
    /// this badge's own.
    package var own: [String]?

    /// Nothing given.
    package init() {}

    /// Whether `name` was applied, from any source.
    package func contains(_ name: String) -> Bool { names.contains(name) }

    /// The first of `candidates` applied, in the order given.
    package func first(among candidates: [String]) -> String? {
        names.first { candidates.contains($0) }
    }

    /// Whether `name` was given for this badge itself; `fallback` when that is unknown
    /// (`own` nil).
    package func isOwn(_ name: String, fallback: Bool) -> Bool {
        own.map { $0.contains(name) } ?? fallback
    }

    /// Records that `name` was applied; `own`: given for this badge itself too.
    package mutating func note(_ name: String, own isOwn: Bool = false) {
        if !names.contains(name) { names.append(name) }
        if isOwn { own?.append(name) }
    }

    /// Forgets that `name` was applied: a later option replaced its value
    /// (`--relative-size` over `ICONBADGE_HEIGHT`).
    package mutating func forget(_ name: String) {
        names.removeAll { $0 == name }
    }
}
