import BadgeCore
import BadgeRender

/// The render command's option table: parsing, help, completions, environment
/// variables and manifest keys all come from this list.
package enum RenderOptions {
    package typealias Spec = OptionSpec<RenderSettings>

    package static let anchorNames = Anchor.allCases.map(\.rawValue)

    /// Every option, each noting in `RenderSettings.given` that it was given.
    package static let all: [Spec] =
        (content + labels + placement + shape + smallSizes + colours + icon + fonts + fallback + output
        + animation + limits + svgLimit + check).map { $0.noted(in: \.given) }

    /// The options of the whole render rather than of one badge: the icon's shape,
    /// size, scale, filters and mask, the output, the limits and the check. With
    /// several badges (`--and`, a manifest's "badges") they are given once; every
    /// other option belongs to the badge it is given with.
    package static let renderWideNames: [String] =
        ["platform", "scale", "scales", "icon-mask", "icon-filter"]
        + (output + animation + limits + svgLimit + check).map(\.name)

    /// The options one badge of several takes (`--and`, a manifest's "badges").
    package static let perBadge: [Spec] = all.filter { !renderWideNames.contains($0.name) }

    package static let check: [Spec] =
        [
            Spec(
                name: "check", kind: .value(placeholder: "GOLDEN"), group: "Golden check",
                help:
                    "render in memory and compare with GOLDEN: exit 0 passed, 1 changed (artifacts written); with -o the render is also written",
                completion: .file, fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.check = text },
            Spec(
                name: "update", kind: .flag, group: "Golden check",
                help:
                    "with --check: write the golden when it is missing (missing), fails (changed), or either (all, the bare flag); ICONBADGE_UPDATE sets it too, except on CI",
                completion: .choices(UpdateMode.words, exhaustive: false), fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.update = try UpdateMode.parse(text, option: "--update")
            },
            Spec(
                name: "artifacts", kind: .value(placeholder: "DIR"), group: "Golden check",
                help:
                    "where a failed check writes NAME.actual.png and NAME.diff.png (NAME the golden's file name, icon.png.diff.png), made if missing (default: iconbadge-artifacts)",
                completion: .folder, fromEnvironment: false
            ) { settings, text throws(BadgeError) in settings.artifacts = text },
        ] + CompareSettings.options.map { $0.lifted(\RenderSettings.compare) }

    package static let content: [Spec] = [
        Spec(
            name: "value", kind: .value(placeholder: "TEXT"), group: "Badge",
            help: "count or text to show: 3, 150 (shown as 99+), NEW; 0 and \"\" hide the badge",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.value = text },
        Spec(
            name: "text", kind: .value(placeholder: "TEXT"), group: "Badge",
            help:
                "text to show as written, never a count: a build number 1234 or 0042 stays so (--value 1234 shows 99+); only \"\" hides the badge",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.text = text },
        Spec(
            name: "dot", kind: .flag, group: "Badge", help: "draw a plain dot with no text",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.dot = try ValueParsers.bool(text, option: "--dot") },
        Spec(
            name: "image", kind: .value(placeholder: "PATH"), group: "Badge",
            help: "use an image (any format iconbadge reads) as the badge instead of a drawn shape", completion: .file,
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.image = text },
        Spec(
            name: "style", kind: .value(placeholder: "NAME"), group: "Badge",
            help: "preset look, applied before every other option", defaultText: "ios",
            completion: .choices(Preset.allCases.map(\.rawValue))
        ) { settings, text throws(BadgeError) in
            try ValueParsers.choice(text, option: "--style", as: Preset.self).apply(to: &settings)
        },
    ]

    package static let labels: [Spec] = [
        Spec(
            name: "max", kind: .value(placeholder: "N"), group: "Label",
            help: "counts above N show as N followed by --max-suffix; 0 means no limit", defaultText: "99"
        ) { settings, text throws(BadgeError) in
            settings.labelRules.maxCount = try ValueParsers.integer(text, option: "--max", range: 0...999_999_999)
        },
        Spec(
            name: "max-suffix", kind: .value(placeholder: "TEXT"), group: "Label",
            help: "text after a count clamped by --max ('' for none)", defaultText: "+"
        ) { settings, text throws(BadgeError) in
            guard text.count <= 8 else {
                throw .invalidValue(
                    option: "--max-suffix", value: text, problem: "is too long (use at most 8 characters)")
            }
            settings.labelRules.maxSuffix = text
        },
        Spec(
            name: "show-zero", kind: .flag, group: "Label", help: "draw the badge for a count of 0 instead of hiding it"
        ) { settings, text throws(BadgeError) in
            settings.labelRules.showZero = try ValueParsers.bool(text, option: "--show-zero")
        },
        Spec(
            name: "max-chars", kind: .value(placeholder: "N"), group: "Label",
            help: "longer text keeps N-1 characters and ends in …"
        ) { settings, text throws(BadgeError) in
            settings.labelRules.maxCharacters = try ValueParsers.integer(text, option: "--max-chars", range: 1...1000)
        },
    ]

    package static let placement: [Spec] = [
        Spec(
            name: "platform", kind: .value(placeholder: "SHAPE"), group: "Placement",
            help:
                "the shape the icon is shown in: anchors and % refer to it, clamp keeps the badge inside it (manual: platforms.md)",
            defaultText: "canvas", completion: .choices(IconPlatform.allCases.map(\.rawValue)),
            // Per icon, like its output: a variable set for one render would silently
            // override every slot's own shape in a catalog.
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.platform = try ValueParsers.choice(text, option: "--platform", as: IconPlatform.self)
        },
        Spec(
            name: "anchor", kind: .value(placeholder: "POINT"), group: "Placement",
            help: "the point on the icon the badge is placed on", defaultText: "top-right",
            completion: .choices(anchorNames)
        ) { settings, text throws(BadgeError) in
            settings.style.anchor = try ValueParsers.choice(text, option: "--anchor", as: Anchor.self)
        },
        Spec(
            name: "badge-anchor", kind: .value(placeholder: "POINT"), group: "Placement",
            help: "the point of the badge put on the anchor", defaultText: "center",
            completion: .choices(anchorNames)
        ) { settings, text throws(BadgeError) in
            settings.style.badgeAnchor = try ValueParsers.choice(text, option: "--badge-anchor", as: Anchor.self)
        },
        Spec(
            name: "offset", kind: .value(placeholder: "DX,DY"), group: "Placement",
            help:
                "then move by DX,DY: pt, or % of the reference box's shorter side (see --platform); +x right, +y down",
            defaultText: "0,0"
        ) { settings, text throws(BadgeError) in
            settings.style.offset = try ValueParsers.offset(text, option: "--offset")
        },
        Spec(
            name: "overflow", kind: .value(placeholder: "MODE"), group: "Placement",
            help: "clamp: move inside; clip: cut at the edge; expand: grow the canvas", defaultText: "clamp",
            completion: .choices(Overflow.allCases.map(\.rawValue))
        ) { settings, text throws(BadgeError) in
            settings.style.overflow = try ValueParsers.choice(text, option: "--overflow", as: Overflow.self)
        },
        Spec(
            name: "avoid-content", kind: .flag, group: "Placement",
            help:
                "then move the clamped badge, inside the shape and its anchor's quadrant, to the nearest place covering the fewest of the icon's opaque pixels (--report says how many)"
        ) { settings, text throws(BadgeError) in
            settings.style.avoidsContent = try ValueParsers.bool(text, option: "--avoid-content")
        },
    ]

    package static let shape: [Spec] = [
        Spec(
            name: "shape", kind: .value(placeholder: "SHAPE"), group: "Size and shape",
            help:
                "pill (iOS's badge); ribbon: a band across the --anchor corner; banner: a band along the top or bottom edge; shield: LABEL|MESSAGE in two colours",
            defaultText: "pill", completion: .choices(BadgeShape.allCases.map(\.rawValue))
        ) { settings, text throws(BadgeError) in
            settings.style.shape = try ValueParsers.choice(text, option: "--shape", as: BadgeShape.self)
        },
        Spec(
            name: "ribbon-distance", kind: .value(placeholder: "PT|N%"), group: "Size and shape",
            help: "how far from its corner a ribbon's centre line meets each edge",
            defaultText: "40%, more on round shapes"
        ) { settings, text throws(BadgeError) in
            settings.style.ribbonDistance = try ValueParsers.length(
                text[...], whole: text, option: "--ribbon-distance", range: 0...10_000, percentRange: 0...100,
                positive: true)
        },
        Spec(
            name: "banner-ends", kind: .value(placeholder: "ENDS"), group: "Size and shape",
            help:
                "shape: a banner's ends follow the icon's outline; straight: they stand where its inner edge meets the outline",
            defaultText: "shape", completion: .choices(BandEnds.allCases.map(\.rawValue))
        ) { settings, text throws(BadgeError) in
            settings.style.bandEnds = try ValueParsers.choice(text, option: "--banner-ends", as: BandEnds.self)
        },
        Spec(
            name: "height", kind: .value(placeholder: "PT|N%|auto"), group: "Size and shape",
            help:
                "badge height: pt, or N% of the reference box's shorter side (the whole badge then scales with it); auto = max(line height, --min-height) + 2 × vertical padding",
            defaultText: "18"
        ) { settings, text throws(BadgeError) in
            settings.style.height =
                text.lowercased() == "auto"
                ? .auto
                : .fixed(
                    try ValueParsers.length(
                        text[...], whole: text, option: "--height", range: 0...10_000, positive: true))
        },
        Spec(
            name: "min-height", kind: .value(placeholder: "PT|N%"), group: "Size and shape",
            help: "smallest text-box height for --height auto (UIBarButtonItem+Badge's minimum size)", defaultText: "0"
        ) { settings, text throws(BadgeError) in
            settings.style.minHeight = try ValueParsers.length(
                text[...], whole: text, option: "--min-height", range: 0...10_000)
        },
        Spec(
            name: "min-width", kind: .value(placeholder: "PT|N%"), group: "Size and shape",
            help: "smallest outer width; width = max(advance + 2 × padding, height, this)", defaultText: "0"
        ) { settings, text throws(BadgeError) in
            settings.style.minWidth = try ValueParsers.length(
                text[...], whole: text, option: "--min-width", range: 0...10_000)
        },
        Spec(
            name: "padding", kind: .value(placeholder: "H[,V]"), group: "Size and shape",
            help: "space between text and edge, per side (V is used by --height auto)", defaultText: "4,2"
        ) { settings, text throws(BadgeError) in
            settings.style.padding = try ValueParsers.padding(text, option: "--padding")
        },
        Spec(
            name: "radius", kind: .value(placeholder: "PT|N%"), group: "Size and shape",
            help: "corner radius, at most half the shorter side; 0 gives a rectangle", defaultText: "height/2"
        ) { settings, text throws(BadgeError) in
            settings.style.radius = try ValueParsers.length(
                text[...], whole: text, option: "--radius", range: 0...10_000)
        },
        Spec(
            name: "font-size", kind: .value(placeholder: "PT|N%"), group: "Size and shape",
            help: "text size (em)", defaultText: "12"
        ) { settings, text throws(BadgeError) in
            settings.style.fontSize = try ValueParsers.length(
                text[...], whole: text, option: "--font-size", range: 0...4096, positive: true)
        },
        Spec(
            name: "dot-size", kind: .value(placeholder: "PT|N%"), group: "Size and shape",
            help: "diameter of a --dot badge (never below --min-dot-px)", defaultText: "8"
        ) { settings, text throws(BadgeError) in
            settings.style.dotSize = try ValueParsers.length(
                text[...], whole: text, option: "--dot-size", range: 0...10_000, positive: true)
        },
        Spec(
            name: "image-size", kind: .value(placeholder: "WxH"), group: "Size and shape",
            help: "size of an --image badge, pt or % (default: the height, keeping the aspect ratio)"
        ) { settings, text throws(BadgeError) in
            settings.style.imageSize = try ValueParsers.lengthSize(text, option: "--image-size")
        },
        Spec(
            name: "scale", kind: .value(placeholder: "N"), group: "Size and shape",
            help: "pixels per point: 1, 2, 3 for @1x, @2x, @3x (any positive number)", defaultText: "1"
        ) { settings, text throws(BadgeError) in
            settings.scale = try ValueParsers.positive(text, option: "--scale", max: 1000, unit: "×")
        },
        Spec(
            name: "scales", kind: .value(placeholder: "LIST"), group: "Size and shape",
            help: "render at each scale, e.g. 1,2,3; -o must be a template with {scale} or {@scale}",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.scales = try JobPlanner.parseScaleList(text, option: "--scales")
        },
        Spec(
            name: "icon-mask", kind: .value(placeholder: "SHAPE"), group: "Size and shape",
            help: "clip the icon itself: none, circle, or rounded:R (R in pt)", defaultText: "none",
            completion: .choices(["none", "circle", "rounded:"], exhaustive: false)
        ) { settings, text throws(BadgeError) in
            settings.iconMask = try iconMask(text)
        },
    ]

    package static let smallSizes: [Spec] = [
        Spec(
            name: "small-text", kind: .value(placeholder: "RULE"), group: "Small sizes",
            help: "text under --min-text-px becomes a dot, is hidden (with a note), or is kept", defaultText: "dot",
            completion: .choices(SmallTextRule.allCases.map(\.rawValue))
        ) { settings, text throws(BadgeError) in
            settings.smallText = try ValueParsers.choice(text, option: "--small-text", as: SmallTextRule.self)
        },
        Spec(
            name: "min-text-px", kind: .value(placeholder: "PX"), group: "Small sizes",
            help: "the smallest legible text, as an em size in pixels", defaultText: "7"
        ) { settings, text throws(BadgeError) in
            settings.minimumTextPixels = try ValueParsers.number(
                text, option: "--min-text-px", range: 0...1000, unit: "px")
        },
        Spec(
            name: "min-dot-px", kind: .value(placeholder: "PX"), group: "Small sizes",
            help: "the smallest dot drawn, in pixels", defaultText: "4"
        ) { settings, text throws(BadgeError) in
            settings.minimumDotPixels = try ValueParsers.number(
                text, option: "--min-dot-px", range: 0...1000, unit: "px")
        },
        Spec(
            name: "ring", kind: .value(placeholder: "RULE"), group: "Small sizes",
            help:
                "a white or black ring where the badge is close in colour to the icon around it: on dots that stand in for text, on every badge (auto), or never (none)",
            defaultText: "dots", completion: .choices(RingRule.allCases.map(\.rawValue))
        ) { settings, text throws(BadgeError) in
            settings.ring = try ValueParsers.choice(text, option: "--ring", as: RingRule.self)
        },
    ]

    package static let colours: [Spec] = [
        Spec(
            name: "background", kind: .value(placeholder: "COLOR"), group: "Colour",
            help: "fill: #RGB, #RGBA, #RRGGBB, #RRGGBBAA, rgb(), rgba(), hsl(), hsla(), a CSS name",
            defaultText: "#FF3B30"
        ) { settings, text throws(BadgeError) in
            settings.style.background = try ValueParsers.color(text, option: "--background")
        },
        Spec(
            name: "label-background", kind: .value(placeholder: "COLOR"), group: "Colour",
            help: "a shield's left (label) part; --background fills the right (message) part",
            defaultText: "#555555"
        ) { settings, text throws(BadgeError) in
            settings.style.labelBackground = try ValueParsers.color(text, option: "--label-background")
        },
        Spec(
            name: "color", kind: .value(placeholder: "COLOR"), group: "Colour", help: "text colour",
            defaultText: "white"
        ) { settings, text throws(BadgeError) in
            settings.style.textColor = try ValueParsers.color(text, option: "--color")
        },
        Spec(
            name: "border-color", kind: .value(placeholder: "COLOR"), group: "Colour", help: "border colour",
            defaultText: "white"
        ) { settings, text throws(BadgeError) in
            settings.style.borderColor = try ValueParsers.color(text, option: "--border-color")
        },
        Spec(
            name: "border-width", kind: .value(placeholder: "PT|N%"), group: "Colour",
            help: "border width, drawn inside the badge's bounds", defaultText: "0"
        ) { settings, text throws(BadgeError) in
            settings.style.borderWidth = try ValueParsers.length(
                text[...], whole: text, option: "--border-width", range: 0...10_000, percentRange: 0...50)
        },
    ]

    /// What is done to the icon itself (the badge is never filtered).
    package static let icon: [Spec] = [
        Spec(
            name: "icon-filter", kind: .value(placeholder: "FILTER"), group: "Icon",
            help:
                "filter the icon, not the badge, in the order given: greyscale, desaturate:AMOUNT, dim:AMOUNT or tint:COLOR[:AMOUNT] (AMOUNT 0 to 1 or 0% to 100%; tint's is 1 unless given); none drops those before it; an SVG icon is then drawn as pixels in SVG and PDF (manual: looks.md)",
            completion: .choices(["greyscale", "desaturate:", "dim:", "tint:", "none"], exhaustive: false),
            repeatable: true
        ) { settings, text throws(BadgeError) in
            if let filter = try IconFilter.parse(text, option: "--icon-filter") {
                // Each filter is a pass over every pixel: a list from a manifest must
                // not make one render take minutes.
                guard settings.iconFilters.count < RenderSettings.maxIconFilters else {
                    throw .invalidValue(
                        option: "--icon-filter", value: text,
                        problem: "is one filter too many: at most \(RenderSettings.maxIconFilters) are applied")
                }
                settings.iconFilters.append(filter)
            } else {
                settings.iconFilters.removeAll()
            }
        }
    ]

    package static let fonts: [Spec] = [
        Spec(
            name: "font", kind: .value(placeholder: "FAMILY"), group: "Font",
            help: "a fontconfig family, e.g. \"DejaVu Sans:bold\"; exit 69 if it is not installed",
            defaultText: "bundled DejaVu Sans Bold"
        ) { settings, text throws(BadgeError) in
            guard !text.isEmpty else {
                throw .invalidValue(option: "--font", value: text, problem: "is empty (give a family name)")
            }
            // fontconfig parses and matches a pattern in time that grows faster than its
            // length (a 4 MB manifest value took minutes); real ones are under 100 bytes.
            guard text.utf8.count <= RenderSettings.maxFontPatternBytes else {
                throw .invalidValue(
                    option: "--font", value: text,
                    problem:
                        "is \(text.utf8.count) bytes, over the \(RenderSettings.maxFontPatternBytes)-byte limit for a font pattern"
                )
            }
            guard FontConfig.isPattern(text) else {
                throw .invalidValue(
                    option: "--font", value: text,
                    problem: "is not a fontconfig pattern (use e.g. \"DejaVu Sans:bold\")")
            }
            settings.fontFamily = text
        },
        Spec(
            name: "font-file", kind: .value(placeholder: "PATH"), group: "Font",
            help: "a TrueType/OpenType font file", completion: .file
        ) { settings, text throws(BadgeError) in settings.fontFile = text },
        Spec(
            name: "font-index", kind: .value(placeholder: "N"), group: "Font",
            help: "face of a font collection (.ttc) for --font-file", defaultText: "0"
        ) { settings, text throws(BadgeError) in
            settings.fontIndex = try ValueParsers.integer(text, option: "--font-index", range: 0...65535)
        },
        Spec(
            name: "font-weight", kind: .value(placeholder: "WEIGHT"), group: "Font",
            help: "regular (400), bold (700), or a CSS weight from 100 to 900", defaultText: "bold",
            completion: .choices(["regular", "bold"], exhaustive: false)
        ) { settings, text throws(BadgeError) in
            switch text.lowercased() {
            case "regular", "normal": settings.fontWeight = 400
            case "bold": settings.fontWeight = 700
            default:
                guard let weight = DecimalNumber.parseInteger(text, in: 100...900) else {
                    throw .invalidValue(
                        option: "--font-weight", value: text,
                        problem: "is not a weight (use regular, bold, or 100 to 900)")
                }
                settings.fontWeight = weight
            }
        },
        Spec(
            name: "font-features", kind: .value(placeholder: "LIST"), group: "Font",
            help: "OpenType features, comma-separated, e.g. \"tnum,-liga\"", defaultText: "tnum"
        ) { settings, text throws(BadgeError) in
            let features = text.split(separator: ",").map { String($0.trimmingSpaces()) }
            for feature in features where !TextShaper.isValidFeature(feature) {
                throw .invalidValue(
                    option: "--font-features", value: text,
                    problem: "has \(Quoted(feature)), not an OpenType feature (use e.g. tnum, -liga, kern=0)")
            }
            settings.fontFeatures = features
        },
    ]

    package static let fallback: [Spec] = [
        Spec(
            name: "fallback-font", kind: .value(placeholder: "PATH"), group: "Font",
            help: "a font file tried, in order, for glyphs the chosen font lacks", completion: .file,
            repeatable: true
        ) { settings, text throws(BadgeError) in settings.fallbackFonts.append(text) },
        Spec(
            name: "no-system-fonts", kind: .flag, group: "Font",
            help: "never ask fontconfig for fallback glyphs: only the chosen font and --fallback-font files"
        ) { settings, text throws(BadgeError) in
            settings.systemFallback = !(try ValueParsers.bool(text, option: "--no-system-fonts"))
        },
        Spec(
            name: "strict-glyphs", kind: .flag, group: "Font",
            help: "a code point no font has is an error (exit 69) instead of a warning"
        ) { settings, text throws(BadgeError) in
            settings.strictGlyphs = try ValueParsers.bool(text, option: "--strict-glyphs")
        },
    ]

    package static let output: [Spec] = [
        Spec(
            name: "force", kind: .flag, group: "Output",
            help: "write PNG or PDF bytes to standard output even when it is a terminal", fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.force = try ValueParsers.bool(text, option: "--force") },
        Spec(
            name: "output", short: "o", kind: .value(placeholder: "PATH"), group: "Output",
            help: "where to write the image (.png, .webp, .svg, .pdf); - for standard output", completion: .file,
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.output = text },
        Spec(
            name: "format", kind: .value(placeholder: "FORMAT"), group: "Output",
            help: "png, webp, svg or pdf; default: from the output's extension (png for -)",
            completion: .choices(OutputFormat.allCases.map(\.rawValue))
        ) { settings, text throws(BadgeError) in
            settings.format = try ValueParsers.choice(text, option: "--format", as: OutputFormat.self)
        },
        Spec(
            name: "in-place", kind: .flag, group: "Output",
            help: "replace the icon itself, atomically (instead of -o)", fromEnvironment: false
        ) { settings, text throws(BadgeError) in settings.inPlace = try ValueParsers.bool(text, option: "--in-place") },
        Spec(
            name: "size", kind: .value(placeholder: "WxH"), group: "Output",
            help:
                "resize the icon to WxH at 1x (or N for N×N; pixels = WxH × scale): raster resampled, SVG rendered at that size"
        ) { settings, text throws(BadgeError) in
            let size = try ValueParsers.size(text, option: "--size", range: 1...32767, unit: "pt")
            guard size.width == size.width.rounded(), size.height == size.height.rounded() else {
                throw .invalidValue(
                    option: "--size", value: text, problem: "is not whole points (use e.g. 180x180 or 60)")
            }
            settings.iconSize = size
        },
        Spec(
            name: "report", kind: .flag, group: "Output",
            help: "print the layout as JSON on standard output (manual: geometry.md)"
        ) { settings, text throws(BadgeError) in settings.report = try ValueParsers.bool(text, option: "--report") },
        Spec(
            name: "png-compression", kind: .value(placeholder: "LEVEL"), group: "Output",
            help: "fast, default or best: PNG size against speed; pixels are the same", defaultText: "default",
            completion: .choices(PNGCompression.allCases.map(\.rawValue))
        ) { settings, text throws(BadgeError) in
            settings.pngCompression = try ValueParsers.choice(
                text, option: "--png-compression", as: PNGCompression.self)
        },
    ]

    /// The animation's timing options: each goes with `--animate`.
    package static let animationTiming = ["duration", "fps", "easing", "loop"]

    package static let animation: [Spec] = [
        Spec(
            name: "animate", kind: .value(placeholder: "KIND"), group: "Animation",
            help:
                "animate the badge: bounce (from 1.5 × to its size, 0.2 s, overshooting), fade-out or fade-in (0.2 s), or pop (the --from value fades out, then this one bounces in, 0.4 s); writes APNG (.png), animated WebP or SVG, or one file a frame with {frame} in -o (manual: animation.md)",
            completion: .choices(BadgeAnimationKind.allCases.map(\.rawValue)), fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.animate = try ValueParsers.choice(text, option: "--animate", as: BadgeAnimationKind.self)
        },
        Spec(
            name: "duration", kind: .value(placeholder: "SECONDS"), group: "Animation",
            help: "how long the animation lasts, 0.001 to 10 s (default: 0.2, pop 0.4)", fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            let seconds = try ValueParsers.number(
                text, option: "--duration", range: BadgeAnimation.minDuration...BadgeAnimation.maxDuration, unit: "s")
            settings.animationDuration = seconds
        },
        Spec(
            name: "fps", kind: .value(placeholder: "N"), group: "Animation",
            help: "frames a second, 1 to 240; frame k shows t = k / N", defaultText: "60",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            settings.animationFPS = try ValueParsers.integer(text, option: "--fps", range: 1...BadgeAnimation.maxFPS)
        },
        Spec(
            name: "easing", kind: .value(placeholder: "CURVE"), group: "Animation",
            help:
                "the timing curve instead of the animation's own: linear, ease, ease-in, ease-out, ease-in-out or cubic-bezier(x1, y1, x2, y2) with x in 0 to 1 (CSS)",
            completion: .choices(Easing.names.map(\.key) + ["cubic-bezier("], exhaustive: false),
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            let easing: Easing
            do throws(EasingError) {
                easing = try Easing.parse(text)
            } catch {
                throw .invalidValue(option: "--easing", value: text, problem: error.problem)
            }
            guard abs(easing.y1) <= BadgeAnimation.maxEasingY, abs(easing.y2) <= BadgeAnimation.maxEasingY else {
                throw .invalidValue(
                    option: "--easing", value: text,
                    problem:
                        "has a y value beyond ±\(Easing.shortest(BadgeAnimation.maxEasingY)) (the badge would be drawn past any canvas)"
                )
            }
            settings.animationEasing = easing
        },
        Spec(
            name: "loop", kind: .value(placeholder: "N"), group: "Animation",
            help: "how many times the animation plays, 1 to 65535, or forever", defaultText: "1",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            if text.lowercased() == "forever" {
                settings.animationLoops = 0
            } else {
                guard let plays = DecimalNumber.parseInteger(text, in: 1...65535) else {
                    throw .invalidValue(
                        option: "--loop", value: text, problem: "is not a number of plays (use 1 to 65535, or forever)")
                }
                settings.animationLoops = plays
            }
        },
        Spec(
            name: "from", kind: .value(placeholder: "TEXT"), group: "Animation",
            help: "with --animate pop: the old value, shown as --value shows it (0 or \"\" for none)",
            fromEnvironment: false
        ) { settings, text throws(BadgeError) in
            guard text.utf8.count <= RenderSettings.maxValueBytes else {
                throw .invalidValue(
                    option: "--from", value: String(text.prefix(32)) + "…",
                    problem:
                        "is \(text.utf8.count) bytes long, over the \(RenderSettings.maxValueBytes >> 10) KiB limit")
            }
            settings.animateFrom = text
        },
    ]

    package static let limits: [Spec] = [
        Spec(
            name: "max-side", kind: .value(placeholder: "PX"), group: "Limits",
            help: "refuse images with a side longer than this (up to 32767)", defaultText: "8192"
        ) { settings, text throws(BadgeError) in
            settings.limits.maxSide = try ValueParsers.integer(
                text, option: "--max-side", range: 1...ImageLimits.cairoMaxSide)
        },
        Spec(
            name: "max-pixels", kind: .value(placeholder: "N"), group: "Limits",
            help: "refuse images with more pixels than this", defaultText: "67108864"
        ) { settings, text throws(BadgeError) in
            settings.limits.maxPixels = try ValueParsers.integer(
                text, option: "--max-pixels", range: 1...(32767 * 32767))
        },
    ]

    package static let svgLimit: [Spec] = [
        Spec(
            name: "svg-time-limit", kind: .value(placeholder: "SECONDS"), group: "Limits",
            help: "give up (exit 65) on an SVG that takes longer to render; 0 for no limit", defaultText: "4"
        ) { settings, text throws(BadgeError) in
            let seconds = try ValueParsers.number(text, option: "--svg-time-limit", range: 0...3600, unit: "s")
            guard seconds == 0 || seconds >= 0.01 else {
                throw .invalidValue(
                    option: "--svg-time-limit", value: text,
                    problem: "is too short (use 0 for no limit, or 0.01 to 3600 s)")
            }
            settings.limits.svgTimeLimit = seconds
        }
    ]

    package static func iconMask(_ text: String) throws(BadgeError) -> IconMask {
        let lower = text.lowercased()
        if lower == "none" { return .none }
        if lower == "circle" { return .circle }
        if lower.hasPrefix("rounded:"), let radius = DecimalNumber.parse(lower.dropFirst("rounded:".count)),
            (0...10_000).contains(radius)
        {
            return .rounded(radius: radius)
        }
        throw .invalidValue(
            option: "--icon-mask", value: text,
            problem: "is not a mask (use none, circle or rounded:R with R in pt, e.g. rounded:12)")
    }
}
