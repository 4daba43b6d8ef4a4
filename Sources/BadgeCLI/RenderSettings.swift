import BadgeCore
import BadgeRender

/// The render command's settings as options set them, before they become a
/// `RenderRequest`. Presets, `ICONBADGE_*` variables, flags and manifest keys all
/// write here through the option table.
struct RenderSettings {
    var icon: String?
    var output: String?
    var value: String?
    var dot = false
    var image: String?
    var labelRules = LabelRules()
    var style = BadgeStyle()
    var scale = 1.0
    /// Whether --scale (or ICONBADGE_SCALE) was given: the render command refuses
    /// it beside --scales, which would silently override it.
    var scaleGiven = false
    var fontFamily: String?
    var fontFile: String?
    var fontIndex = 0
    var fontWeight: Int?
    var fontFeatures: [String] = TextShaper.defaultFeatures
    var fallbackFonts: [String] = []
    var systemFallback = true
    var strictGlyphs = false
    var iconMask = IconMask.none
    var limits = ImageLimits()
    var report = false
    var inPlace = false
    var pngCompression = PNGCompression.default
    var format: OutputFormat?
    var iconSize: Size?
    var scales: [Double]?
    var check: String?
    var update = false
    var artifacts: String?
    var compare = CompareSettings()

    /// The request these settings describe, with the icon given.
    ///
    /// - Throws: `BadgeError.usage` when the content is missing or given twice, or
    ///   font options conflict.
    func request(icon: String) throws(BadgeError) -> RenderRequest {
        let contents = [value != nil, dot, image != nil].filter { $0 }.count
        guard contents == 1 else {
            if contents == 0 {
                throw .usage("nothing to draw: give --value TEXT, --dot or --image PATH")
            }
            throw .usage("--value, --dot and --image are exclusive: give one")
        }
        let content: BadgeContent
        if let value {
            content = .value(value)
        } else if let image {
            content = .image(path: image)
        } else {
            content = .dot
        }
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
        var request = RenderRequest(
            iconPath: icon, content: content, labelRules: labelRules, style: style, scale: scale, font: font,
            fontFeatures: fontFeatures, iconMask: iconMask, limits: limits)
        request.fallbackFonts = fallbackFonts
        request.systemFallback = systemFallback
        request.strictGlyphs = strictGlyphs
        request.iconSize = iconSize
        return request
    }

    /// Every file a render with these settings reads, the icon first: outputs must
    /// not be any of them.
    func inputFiles(icon: String) -> [String] {
        [icon] + (image.map { [$0] } ?? []) + (fontFile.map { [$0] } ?? []) + fallbackFonts
    }

    /// Refuses options that do nothing in the combination given, rather than
    /// ignoring them.
    ///
    /// - Throws: `BadgeError.usage` naming the option and what it needs.
    func checkCombinations() throws(BadgeError) {
        if fontIndex != 0, fontFile == nil { throw .usage("--font-index goes with --font-file (a face of that file)") }
        if update, check == nil { throw .usage("--update goes with --check GOLDEN") }
        if artifacts != nil, check == nil { throw .usage("--artifacts goes with --check GOLDEN") }
        if inPlace, check != nil {
            throw .usage("--check GOLDEN renders in memory; it does not go with --in-place (use -o to keep the render)")
        }
        if check == nil, compare != CompareSettings() {
            throw .usage("the comparison options (--tolerance, --threshold, ...) go with --check GOLDEN")
        }
        try compare.checkCombinations()
    }

    /// CSS weight (100-900) to fontconfig's weight scale (fontconfig.h FC_WEIGHT_*).
    static func fontconfigWeight(_ css: Int) -> Int {
        let table: [(Int, Int)] = [
            (100, 0), (200, 40), (300, 50), (400, 80), (500, 100), (600, 180), (700, 200), (800, 205), (900, 210),
        ]
        return table.min(by: { abs($0.0 - css) < abs($1.0 - css) })!.1
    }
}
