import BadgeCore
import BadgeRender
import TestSupport
import Testing

/// Renders compared with committed goldens on decoded pixels, exactly.
/// Regenerate with `make golden` only when a change is intended; look at them first.
@Suite struct GoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let request: RenderRequest
        var testDescription: String { name }

        init(name: String, request: RenderRequest) {
            self.name = name
            self.request = request
        }

        init(name: String, request: TestRequest) { self.init(name: name, request: request.built) }
    }

    static func request(
        _ icon: String, _ content: BadgeContent, scale: Double = 1, font: FontChoice = .bundled(.bold),
        rules: LabelRules = LabelRules(), _ configure: (inout BadgeStyle) -> Void = { _ in }
    ) -> TestRequest {
        var style = BadgeStyle()
        configure(&style)
        return TestRequest(
            iconPath: Paths.fixture("icons/\(icon)"), content: content, labelRules: rules, style: style, scale: scale,
            font: font)
    }

    /// Text with fallback fonts given by path and fontconfig off, so the golden does
    /// not depend on the machine's other fonts.
    static func text(_ name: String, _ value: String, scale: Double = 3) -> Case {
        var request = request("folder-132x132.png", .value(value), scale: scale) { $0.overflow = .expand }
        request.fallbackFonts = [SystemFonts.notoCJKBold, SystemFonts.notoColorEmoji]
        request.systemFallback = false
        return Case(name: name, request: request.built)
    }

    /// An app icon on its platform at `--height 28%`: a count, a label and a dot.
    static func platform(_ platform: IconPlatform, _ icon: String) -> [Case] {
        [("count", BadgeContent.value("3")), ("label", .value("BETA")), ("dot", .dot)].map { name, content in
            var request = request(icon, content) { $0.height = .fixed(.percent(28)) }
            request.platform = platform
            return Case(name: "platform-\(platform.rawValue)-\(name)", request: request.built)
        }
    }

    /// A ribbon, a banner, a shield, and a ribbon with a count, each at 1x, 2x and 3x
    /// on an iPhone app icon (60 pt) and an Android adaptive foreground (108 dp): the
    /// icon resampled to each size, as an asset pipeline does.
    static func shapes() -> [Case] {
        var cases: [Case] = []
        let platforms: [(String, IconPlatform, String, Double)] = [
            ("ios", .ios, "app-ios-180.png", 60), ("android", .androidAdaptive, "app-android-foreground-432.png", 108),
        ]
        for (name, platform, icon, points) in platforms {
            for scale in [1.0, 2, 3] {
                func make(_ shape: BadgeShape, _ text: String, _ configure: (inout BadgeStyle) -> Void = { _ in })
                    -> TestRequest
                {
                    var rules = LabelRules()
                    rules.verbatim = true
                    var request = request(icon, .value(text), scale: scale, rules: rules) {
                        $0.shape = shape
                        $0.height = .fixed(.percent(shape == .ribbon ? 16 : shape == .banner ? 18 : 20))
                        configure(&$0)
                    }
                    request.platform = platform
                    request.iconSize = Size(width: points * scale, height: points * scale)
                    return request
                }
                let suffix = "\(name)-\(Int(scale))x"
                var withCount = make(.ribbon, "BETA") { $0.anchor = .topLeft }
                var count = TestRequest(iconPath: "", content: .value("3"))
                count.style.height = .fixed(.percent(28))
                withCount.moreBadges = [count]
                cases += [
                    Case(name: "shape-ribbon-\(suffix)", request: make(.ribbon, "BETA").built),
                    Case(name: "shape-banner-\(suffix)", request: make(.banner, "DEBUG") { $0.anchor = .bottom }.built),
                    Case(
                        name: "shape-shield-\(suffix)",
                        request: make(.shield, "1.4.2|beta") {
                            $0.anchor = .bottom
                            $0.badgeAnchor = .bottom
                            $0.background = Color(rgb: 0xFF9500)
                        }.built),
                    Case(name: "shape-ribbon-count-\(suffix)", request: withCount.built),
                ]
            }
        }
        return cases
    }

    /// `--icon-filter` on the trash icon at --size 64 (64, 128, 192 px) with a count
    /// badge, at 1x, 2x and 3x: the icon filtered, the red badge not.
    static func filtered(_ name: String, _ filters: [IconFilter]) -> [Case] {
        [1.0, 2, 3].map { scale in
            var request = request("user-trash-256x256.png", .value("3"), scale: scale)
            request.iconSize = Size(width: 64 * scale, height: 64 * scale)
            request.iconFilters = filters
            return Case(name: "filter-\(name)-trash64-\(Int(scale))x", request: request.built)
        }
    }

    /// `--icon-filter` on an app icon in its platform's shape, with the platform
    /// goldens' count badge (`--height 28%`).
    static func filteredPlatform(_ platform: IconPlatform, _ icon: String, _ name: String, _ filters: [IconFilter])
        -> Case
    {
        var request = request(icon, .value("3")) { $0.height = .fixed(.percent(28)) }
        request.platform = platform
        request.iconFilters = filters
        return Case(name: "filter-\(name)-\(platform.rawValue)-count", request: request.built)
    }

    static let blue = Color(rgb: 0x007AFF)

    static let filterCases: [Case] =
        filtered("greyscale", [.greyscale]) + filtered("desaturate-0.5", [.desaturate(IconFilter.Amount(0.5))])
        + filtered("dim-0.4", [.dim(IconFilter.Amount(0.4))]) + filtered("tint-blue", [.tint(blue, .full)])
        + [
            filteredPlatform(.ios, "app-ios-180.png", "greyscale", [.greyscale]),
            filteredPlatform(
                .ios, "app-ios-180.png", "tint-orange-0.6", [.tint(Color(rgb: 0xFF9500), IconFilter.Amount(0.6))]),
            filteredPlatform(.androidAdaptive, "app-android-foreground-432.png", "greyscale", [.greyscale]),
            filteredPlatform(.androidAdaptive, "app-android-foreground-432.png", "tint-blue", [.tint(blue, .full)]),
            // In order: greyscale, then 30% darker.
            filteredPlatform(.ios, "app-ios-180.png", "greyscale-dim-0.3", [.greyscale, .dim(IconFilter.Amount(0.3))]),
        ]

    static let cases: [Case] =
        shapes() + filterCases + platform(.ios, "app-ios-180.png") + platform(.macos, "app-macos-256.png")
        + platform(.watchos, "app-watch-196.png") + platform(.androidAdaptive, "app-android-foreground-432.png") + [
            text("text-cjk-3x", "新着"),
            text("text-emoji-3x", "🔥"),
            text("text-emoji-zwj-3x", "👨‍👩‍👧"),
            text("text-new-3x", "NEW"),
            text("text-combining-3x", "e\u{0323}\u{0301}x\u{0308}"),
            text("text-hebrew-3x", "שלום"),
            text("text-arabic-3x", "مرحبا"),
            text("text-mixed-2x", "A新🔥", scale: 2),
            Case(name: "count-3-folder48", request: request("folder-48x48.png", .value("3"))),
            Case(name: "count-150-folder48", request: request("folder-48x48.png", .value("150"))),
            Case(name: "count-42-trash256-3x", request: request("user-trash-256x256.png", .value("42"), scale: 3)),
            Case(
                name: "count-7-trash256-2x-clip",
                request: request("user-trash-256x256.png", .value("7"), scale: 2) {
                    $0.overflow = .clip
                }),
            Case(
                name: "text-new-blue-folder48",
                request: request("folder-48x48.png", .value("NEW")) {
                    $0.background = Color(rgb: 0x007AFF)
                }),
            Case(name: "dot-trash32", request: request("user-trash-32x32.png", .dot)),
            Case(
                name: "translucent-border-folder48",
                request: request("folder-48x48.png", .value("5")) {
                    $0.background = Color(red: 255, green: 0, blue: 0, alpha: 128)
                    $0.borderColor = .white
                    $0.borderWidth = 2
                }),
            Case(
                name: "expand-regular-rect-folder48",
                request: request("folder-48x48.png", .value("12"), font: .bundled(.regular)) {
                    $0.overflow = .expand
                    $0.radius = 0
                }),
            Case(name: "hidden-zero-folder48", request: request("folder-48x48.png", .value("0"))),
            Case(
                name: "bottom-left-offset-trash256",
                request: request("user-trash-256x256.png", .value("99"), scale: 2) {
                    $0.anchor = .bottomLeft
                    $0.badgeAnchor = .bottomLeft
                    $0.offset = Offset(dx: .points(4), dy: .points(-4))
                }),
        ]

    @Test(arguments: cases)
    func matchesGolden(_ testCase: Case) throws {
        let png = try Renderer().compose(testCase.request).pngData()
        let failure = try Golden.check(testCase.name, png: png)
        #expect(failure == nil, "\(failure ?? "")")
    }
}
