import BadgeCore
import BadgeJobs

/// What the catalog commands (`appiconset`, `android`) take alike: the badge's size
/// relative to each image, workers, the hidden-badge rule and `--replace`.
struct CatalogSettings {
    /// Badge height as a fraction of each image's reference box.
    var relativeSize = 0.3
    /// Whether `--relative-size` (or its variable) was given: it then sizes ribbons,
    /// banners and shields too, which otherwise keep their own default sizes.
    var relativeSizeGiven = false
    /// Images rendered at once.
    var jobs = BatchCommand.cores
    /// A hidden badge is 64 instead of 0.
    var failIfHidden = false
    /// Replace what is at the destination though iconbadge did not write it.
    var replace = false
}

enum CatalogOptions {
    /// The shared options, in `group`; `replaceHelp` says what `--replace` replaces.
    static func options(group: String, replaceHelp: String) -> [OptionSpec<CatalogSettings>] {
        [
            OptionSpec(
                name: "relative-size", kind: .value(placeholder: "F"), group: group,
                help:
                    "badge height as a fraction of each image's reference box: the same as --height F×100%; by default a label too wide for some images shrinks every badge to fit (not below 0.15)",
                defaultText: "0.3"
            ) { settings, text throws(BadgeError) in
                settings.relativeSize = try ValueParsers.positive(text, option: "--relative-size", max: 1, unit: "")
                settings.relativeSizeGiven = true
            },
            OptionSpec(
                name: "replace", kind: .flag, group: group, help: replaceHelp, fromEnvironment: false
            ) { settings, text throws(BadgeError) in
                settings.replace = try ValueParsers.bool(text, option: "--replace")
            },
            OptionSpec(
                name: "fail-if-hidden", kind: .flag, group: group,
                help:
                    "exit 64 instead of 0 when the badge is hidden (a value of 0 or empty): nothing is written either way"
            ) { settings, text throws(BadgeError) in
                settings.failIfHidden = try ValueParsers.bool(text, option: "--fail-if-hidden")
            },
            OptionSpec(
                name: "jobs", short: "j", kind: .value(placeholder: "N"), group: group,
                help: "render N images at once", defaultText: "the number of cores"
            ) { settings, text throws(BadgeError) in
                settings.jobs = try ValueParsers.integer(text, option: "--jobs", range: 1...256)
            },
        ]
    }

    /// Applies the flag rules both commands share: `--relative-size` and `--height`
    /// are one setting (64 for both), a `--relative-size` flag overrides
    /// `ICONBADGE_HEIGHT`, and mistyped `ICONBADGE_*` variables get a warning. A set is
    /// all or nothing, and its small images already draw a ribbon without text that
    /// would be too small: text that cannot fit its band or shield even at
    /// `--min-text-px` follows the small-text rule too, with a note, instead of failing
    /// the whole set (`RenderSettings.dropsUnfittingText`).
    ///
    /// - Throws: `BadgeError.usage` (64) for `--relative-size` with `--height`.
    static func applyFlagRules(
        flags: [String], render: inout RenderSettings, catalog: CatalogSettings, knownVariables: [String],
        io: CommandIO
    ) throws(BadgeError) {
        render.dropsUnfittingText = true
        if catalog.relativeSizeGiven { render.given.note("relative-size") }
        if flags.contains("relative-size"), flags.contains("height") {
            throw .usage(
                "--relative-size and --height both set the badge's height; give one (--height 30% is --relative-size 0.3)"
            )
        }
        if flags.contains("relative-size") { render.given.forget("height") }
        EnvironmentCheck.warnAboutUnknownVariables(io.environment, io: io, alsoKnown: knownVariables)
    }
}
