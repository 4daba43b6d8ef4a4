import BadgeCore

/// The render command's limit options (`RenderOptions.limits`, `.svgLimit`) on a
/// command with settings of its own (`compare`, `batch`, `preview`, `merge-reports`):
/// the same names, values, checks and help, writing that command's limits.
package enum LimitOptions {
    /// `specs` writing `limits` of another command's settings. Each is given on the
    /// command line only (`fromEnvironment` false: a variable would reach commands
    /// whose defaults differ); `defaultSide` replaces `--max-side`'s default in help
    /// (`compare`: 32767); `given` is called with the option's name once it applied.
    package static func lifted<Settings>(
        _ specs: [OptionSpec<RenderSettings>], onto limits: WritableKeyPath<Settings, ImageLimits> & Sendable,
        defaultSide: Int? = nil, given: (@Sendable (inout Settings, String) -> Void)? = nil
    ) -> [OptionSpec<Settings>] {
        specs.map { spec in
            OptionSpec<Settings>(
                name: spec.name, short: spec.short, kind: spec.kind, group: spec.group, help: spec.help,
                defaultText: spec.name == "max-side"
                    ? defaultSide.map(String.init) ?? spec.defaultText : spec.defaultText,
                completion: spec.completion, fromEnvironment: false, repeatable: spec.repeatable
            ) { settings, text throws(BadgeError) in
                var render = RenderSettings()
                render.limits = settings[keyPath: limits]
                try spec.apply(&render, text)
                settings[keyPath: limits] = render.limits
                given?(&settings, spec.name)
            }
        }
    }
}
