import BadgeCore
import BadgeRender

/// The render command's settings as options set them, before they become a
/// `RenderRequest`. Presets, `ICONBADGE_*` variables, flags and manifest keys all
/// write here through the option table.
package struct RenderSettings {
    /// The longest `--font` pattern accepted (UTF-8 bytes): 1024, ten times a long
    /// real one ("Noto Sans CJK JP:style=Bold:lang=ja"), short enough that fontconfig's
    /// parse and match stay instant.
    package static let maxFontPatternBytes = 1024
    /// The most `--icon-filter`s one render applies: 8, more than any look needs
    /// (greyscale then dim is two), each a pass over the icon's pixels.
    package static let maxIconFilters = 8
    /// The longest `--value` or `--text` accepted (UTF-8 bytes): 64 KiB. Text longer
    /// than 1024 code points is refused when drawn anyway; this refuses at once,
    /// before a batch plans thousands of jobs that each would carry it.
    package static let maxValueBytes = 64 << 10

    package var icon: String?
    package var output: String?
    package var value: String?
    /// `--text`: text drawn as given, never a count.
    package var text: String?
    package var dot = false
    package var image: String?
    package var labelRules = LabelRules()
    package var style = BadgeStyle()
    package var scale = 1.0
    package var fontFamily: String?
    package var fontFile: String?
    package var fontIndex = 0
    package var fontWeight: Int?
    package var fontFeatures: [String] = TextShaper.defaultFeatures
    package var fallbackFonts: [String] = []
    package var systemFallback = true
    package var strictGlyphs = false
    package var iconMask = IconMask.none
    /// `--icon-filter`, in the order given.
    package var iconFilters: [IconFilter] = []
    package var platform = IconPlatform.canvas
    package var smallText = SmallTextRule.dot
    package var minimumTextPixels = 7.0
    package var minimumDotPixels = 4.0
    /// `--ring`: where a contrasting ring is drawn.
    package var ring = RingRule.dots
    /// What a launcher shows under this layer, for measuring the badges' contrast
    /// (`RenderRequest.Icon.backdrop`; set by `android` for a badge layer).
    package var backdrop: String?
    package var limits = ImageLimits()
    package var report = false
    package var inPlace = false
    package var pngCompression = PNGCompression.default
    package var format: OutputFormat?
    /// `--animate`: how the badge moves, or nil for a still image.
    package var animate: BadgeAnimationKind?
    /// `--duration`, seconds; nil: the animation's own.
    package var animationDuration: Double?
    /// `--fps`.
    package var animationFPS = BadgeAnimation.defaultFPS
    /// `--easing`; nil: the animation's own curve.
    package var animationEasing: Easing?
    /// `--loop`: plays, 0 for forever.
    package var animationLoops = BadgeAnimation.defaultLoops
    /// `--from`: the value a `pop` changes from.
    package var animateFrom: String?
    package var iconSize: Size?
    package var scales: [Double]?
    package var check: String?
    package var update: UpdateMode?
    package var artifacts: String?
    package var compare = CompareSettings()
    /// Whether text that cannot fit its band or shield even at `--min-text-px` follows
    /// `--small-text` (set by the catalog commands) instead of failing with 65.
    package var dropsUnfittingText = false
    /// Whether every badge is drawn in greys: an app icon set's tinted appearance
    /// (set by `appiconset`).
    package var greyscaleBadges = false
    /// Whether the badges' text is cut out of them: an Android adaptive icon's
    /// monochrome layer (set by `android`).
    package var knockoutText = false
    /// Whether the icon is cleared under each badge's footprint: an Android adaptive
    /// icon's monochrome layer (set by `android`).
    package var clearsUnderBadges = false
    /// Which parts of the scene the output holds: an Android adaptive icon's badge
    /// layer or filtered background (set by `android`).
    package var outputLayers = RenderRequest.Output.Layers.all
    /// Which options were given, and which of them for this badge itself: the option
    /// table notes each (`RenderOptions.all`); a catalog notes `relative-size`.
    package var given = GivenOptions()
    /// Whether --platform was given: catalogs otherwise pick each image's platform
    /// from its idiom.
    package var platformGiven: Bool { given.contains("platform") }
    /// Whether --height (or ICONBADGE_HEIGHT) was given: catalogs otherwise size the
    /// badge relative to each image.
    package var heightGiven: Bool { given.contains("height") }
    /// Whether a catalog's `--relative-size` was given: it then sizes ribbons, banners
    /// and shields too.
    package var relativeSizeGiven: Bool { given.contains("relative-size") }

    /// The badges drawn after this one (`--and`, a manifest's "badges"): only their
    /// per-badge options (`RenderOptions.perBadge`) are used.
    package var moreBadges: [RenderSettings] = []
    /// `--force`: write image bytes to standard output even when it is a terminal.
    package var force = false

    /// The defaults (iOS's look).
    package init() {}

    /// The request these settings describe, with the icon given, built whole:
    /// `iconSize` (pixels) replaces the settings' own, `rasterScale` resamples a raster
    /// icon (`--scales`), `animation` is the frame the render shows.
    ///
    /// - Throws: `BadgeError.usage` when the content is missing or given twice, or
    ///   font options conflict; which badge of several, for `--and`'s.
    package func request(
        icon: String, iconSize: Size? = nil, rasterScale: Double = 1, animation: RenderRequest.Animation = .still
    ) throws(BadgeError) -> RenderRequest {
        let first = try badgeRequest()
        if !moreBadges.isEmpty, ([self] + moreBadges).contains(where: { $0.style.overflow == .expand }) {
            throw .usage("--overflow expand grows the canvas for one badge; with several badges use clamp or clip")
        }
        var more: [RenderRequest.Badge] = []
        for (number, badge) in zip(2..., moreBadges) {
            do throws(BadgeError) {
                more.append(try badge.badgeRequest())
            } catch {
                // Say which badge of several the problem is in.
                switch error {
                case .usage(let text): throw .usage("badge \(number): \(text)")
                case .invalidValue(let option, let value, let problem):
                    throw .invalidValue(option: "badge \(number): \(option)", value: value, problem: problem)
                default: throw error
                }
            }
        }
        return assembled(
            icon: icon, iconSize: iconSize, rasterScale: rasterScale, badge: first, moreBadges: more,
            animation: animation)
    }

    /// The request of these settings' render-wide fields as they stand, around badges
    /// already made: the one place where such a field becomes the request's (the
    /// tests' `TestRequest` builds through it too). `iconSize` (pixels) replaces the
    /// settings' own.
    package func assembled(
        icon: String, iconSize: Size?, rasterScale: Double, badge: RenderRequest.Badge,
        moreBadges: [RenderRequest.Badge], animation: RenderRequest.Animation
    ) -> RenderRequest {
        RenderRequest(
            icon: RenderRequest.Icon(
                path: icon, size: iconSize ?? self.iconSize, rasterScale: rasterScale, mask: iconMask,
                filters: iconFilters, platform: platform, backdrop: backdrop),
            badge: badge, moreBadges: moreBadges,
            output: RenderRequest.Output(
                scale: scale, greyscaleBadges: greyscaleBadges, knockoutText: knockoutText,
                dropsUnfittingText: dropsUnfittingText, clearsUnderBadges: clearsUnderBadges, layers: outputLayers),
            limits: limits, animation: animation)
    }

    /// This badge's part of a request from its fields as they stand, with its content,
    /// label rules, style and font already resolved: the one place where a badge's
    /// field becomes the request's.
    package func assembledBadge(
        content: BadgeContent, labelRules: LabelRules, style: BadgeStyle, font: FontChoice
    ) -> RenderRequest.Badge {
        RenderRequest.Badge(
            content: content, labelRules: labelRules, style: style, font: font, fontFeatures: fontFeatures,
            fallbackFonts: fallbackFonts, systemFallback: systemFallback, strictGlyphs: strictGlyphs,
            smallText: smallText, minimumTextPixels: minimumTextPixels, minimumDotPixels: minimumDotPixels,
            ring: ring)
    }

    /// This badge's part of a request: its content, label rules, style, fonts and
    /// small-size rules.
    ///
    /// - Throws: `BadgeError.usage` when the content is missing or given twice, or
    ///   font options conflict.
    private func badgeRequest() throws(BadgeError) -> RenderRequest.Badge {
        for (option, given) in [("--value", value), ("--text", text)] {
            if let given, given.utf8.count > Self.maxValueBytes {
                throw .invalidValue(
                    option: option, value: String(given.prefix(32)) + "…",
                    problem: "is \(given.utf8.count) bytes long, over the \(Self.maxValueBytes >> 10) KiB limit")
            }
        }
        let contents = [value != nil, text != nil, dot, image != nil].filter { $0 }.count
        guard contents == 1 else {
            if contents == 0 {
                throw .usage("nothing to draw: give --value TEXT, --text TEXT, --dot or --image PATH")
            }
            throw .usage("--value, --text, --dot and --image are exclusive: give one")
        }
        let content: BadgeContent
        var labelRules = labelRules
        if let value {
            content = .value(value)
        } else if let text {
            content = .value(text)
            labelRules.verbatim = true
        } else if let image {
            content = .image(path: image)
        } else {
            content = .dot
        }
        var style = style
        try applyShapeRules(to: &style, labelRules: &labelRules)
        let font: FontChoice
        if let fontFile {
            guard fontFamily == nil else { throw .usage("--font and --font-file are exclusive: give one") }
            guard fontWeight == nil else {
                throw .usage("--font-weight applies to --font and the bundled font, not to --font-file")
            }
            font = .file(path: fontFile, index: fontIndex)
        } else if let fontFamily {
            font = .family(
                fontWeight.map { "\(fontFamily):weight=\(RenderSettings.fontconfigWeight($0))" } ?? fontFamily)
        } else {
            font = .bundled((fontWeight ?? 700) >= 600 ? .bold : .regular)
        }
        return assembledBadge(content: content, labelRules: labelRules, style: style, font: font)
    }

    /// Sizes every badge not given a `--height` at `percent` of its reference box (a
    /// catalog's `--relative-size`); a ribbon, banner or shield keeps its own default.
    package mutating func defaultHeight(percent: Double) {
        defaultHeight(percent: percent, explicit: relativeSizeGiven)
    }

    private mutating func defaultHeight(percent: Double, explicit: Bool) {
        if !heightGiven {
            style.height = .fixed(.percent(percent))
            // An explicit relative size is a height for every shape.
            if explicit { given.note("height", own: true) }
        }
        for index in moreBadges.indices { moreBadges[index].defaultHeight(percent: percent, explicit: explicit) }
    }

    /// Every file a render with these settings reads, the icon first: outputs must
    /// not be any of them.
    /// The value or text shown (`{value}` in templates), nil for a dot or an image.
    package var shownValue: String? { value ?? text }

    package func inputFiles(icon: String) -> [String] {
        [icon] + (image.map { [$0] } ?? []) + (fontFile.map { [$0] } ?? []) + fallbackFonts
            + moreBadges.flatMap { $0.inputFiles(icon: icon).dropFirst() }
    }

    /// Refuses options that do nothing in the combination given, rather than
    /// ignoring them.
    ///
    /// - Throws: `BadgeError.usage` naming the option and what it needs.
    package func checkCombinations() throws(BadgeError) {
        if fontIndex != 0, fontFile == nil { throw .usage("--font-index goes with --font-file (a face of that file)") }
        if update != nil, check == nil { throw .usage("--update goes with --check GOLDEN") }
        if artifacts != nil, check == nil { throw .usage("--artifacts goes with --check GOLDEN") }
        if inPlace, check != nil {
            throw .usage("--check GOLDEN renders in memory; it does not go with --in-place (use -o to keep the render)")
        }
        try checkAnimationCombinations()
        if check == nil, compare != CompareSettings() {
            throw .usage("the comparison options (--tolerance, --threshold, ...) go with --check GOLDEN")
        }
        try compare.checkCombinations()
    }

    /// Refuses animation options that do nothing or miss their partner: timing without
    /// `--animate`, `pop` without `--from`, `--from` without `pop`. Manifests check
    /// their entries with it too.
    ///
    /// - Throws: `BadgeError.usage` naming the option.
    package func checkAnimationCombinations() throws(BadgeError) {
        if animate == nil, let option = given.first(among: RenderOptions.animationTiming) {
            throw .usage("--\(option) goes with --animate (bounce, fade-out, fade-in or pop)")
        }
        if animate == .pop, animateFrom == nil {
            throw .usage(
                "--animate pop changes the badge from an old value: give it with --from (e.g. --from 2 --value 3)")
        }
        if animateFrom != nil, animate != .pop {
            throw .usage("--from is the old value of --animate pop; the other animations show one value")
        }
    }

    /// The animation asked for, or nil for a still image.
    ///
    /// - Throws: `BadgeError.invalidValue` (64) naming `--fps` or `--duration` when the
    ///   frames would be more than `BadgeAnimation.maxFrames`.
    package func animation() throws(BadgeError) -> BadgeAnimation? {
        guard let animate else { return nil }
        let animation = BadgeAnimation(
            kind: animate, duration: animationDuration, fps: animationFPS, easing: animationEasing,
            loops: animationLoops)
        guard animation.frameCount <= BadgeAnimation.maxFrames else {
            let option = given.contains("fps") ? "--fps" : "--duration"
            let value = option == "--fps" ? "\(animationFPS)" : Easing.shortest(animation.duration)
            throw .invalidValue(
                option: option, value: value,
                problem:
                    "makes \(animation.frameCount) frames (\(Easing.shortest(animation.duration)) s at \(animationFPS) a second); at most \(BadgeAnimation.maxFrames) are drawn"
            )
        }
        return animation
    }

    /// CSS weight (100-900) to fontconfig's weight scale (fontconfig.h FC_WEIGHT_*).
    package static func fontconfigWeight(_ css: Int) -> Int {
        let table: [(Int, Int)] = [
            (100, 0), (200, 40), (300, 50), (400, 80), (500, 100), (600, 180), (700, 200), (800, 205), (900, 210),
        ]
        return table.min(by: { abs($0.0 - css) < abs($1.0 - css) })!.1
    }
}
