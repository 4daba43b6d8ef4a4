import BadgeCLI
import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Ribbons, banners and shields drawn: they change only their own pixels, follow the
/// icon's shape, shrink their text to fit, and stay vectors in SVG and PDF.
@Suite struct BadgeShapeTests {
    static let ios = Paths.fixture("icons/app-ios-180.png")
    static let android = Paths.fixture("icons/app-android-foreground-432.png")
    static let folder = Paths.fixture("icons/folder-132x132.png")

    static func request(
        _ icon: String, _ shape: BadgeShape, _ text: String, platform: IconPlatform = .canvas,
        anchor: Anchor = .topRight, thickness: Double = 16
    ) -> TestRequest {
        var style = BadgeStyle()
        style.shape = shape
        style.anchor = anchor
        style.height = .fixed(.percent(thickness))
        var rules = LabelRules()
        rules.verbatim = true
        var request = TestRequest(iconPath: icon, content: .value(text), labelRules: rules, style: style)
        request.platform = platform
        return request
    }

    /// The icon as drawn with no badge: the same request with its text emptied.
    static func iconAlone(_ request: TestRequest) throws -> PixelBuffer {
        var bare = request
        bare.content = .value("")
        return try Renderer().compose(bare).pixels()
    }

    /// Whether pixel (x, y)'s square can meet the band: within half the thickness
    /// (and a pixel's half-diagonal) of its centre line, or inside a banner's box.
    static func touches(_ band: BandLayout, x: Int, y: Int) -> Bool {
        let px = Double(x) + 0.5 - band.centre.x
        let py = Double(y) + 0.5 - band.centre.y
        let across = abs(-sin(band.angle) * px + cos(band.angle) * py)
        return across <= band.thickness / 2 + 0.75
    }

    @Test(arguments: [
        (ios, BadgeShape.ribbon, IconPlatform.ios, Anchor.topLeft), (ios, .banner, .ios, .bottom),
        (android, .ribbon, .androidAdaptive, .topRight), (android, .banner, .androidAdaptive, .top),
        (folder, .ribbon, .canvas, .topRight), (folder, .banner, .canvas, .bottom),
        (ios, .ribbon, .watchos, .bottomRight),
    ])
    func bandChangesOnlyItsOwnPixels(icon: String, shape: BadgeShape, platform: IconPlatform, anchor: Anchor)
        throws
    {
        let request = Self.request(icon, shape, "BETA", platform: platform, anchor: anchor)
        let composition = try Renderer().compose(request)
        let band = try #require(composition.badge.layout?.band)
        let drawn = try composition.pixels()
        let alone = try Self.iconAlone(request)
        var changed = 0
        var strays: [(Int, Int)] = []
        for y in 0..<drawn.height {
            for x in 0..<drawn.width where drawn[x, y] != alone[x, y] {
                changed += 1
                if !Self.touches(band, x: x, y: y) { strays.append((x, y)) }
            }
        }
        #expect(changed > drawn.width, "the band is drawn (\(changed) pixels changed)")
        #expect(strays.isEmpty, "pixels outside the band changed: \(strays.prefix(5))")
    }

    @Test func bandIsCutToThePlatformShapeAndTheIconsAlpha() throws {
        // iOS: nothing is drawn on the corner pixels the squircle hides.
        let ios = try Renderer().compose(Self.request(Self.ios, .ribbon, "BETA", platform: .ios)).pixels()
        let alone = try Self.iconAlone(Self.request(Self.ios, .ribbon, "BETA", platform: .ios))
        #expect(ios[179, 0] == alone[179, 0], "the squircle hides the top-right corner pixel")
        #expect(ios[150, 30] != alone[150, 30], "the band is drawn inside the shape")
        // The plain canvas: a transparent pixel of the icon stays transparent.
        let folder = try Renderer().compose(Self.request(Self.folder, .ribbon, "BETA")).pixels()
        let bare = try Self.iconAlone(Self.request(Self.folder, .ribbon, "BETA"))
        var transparentKept = 0
        for y in 0..<bare.height {
            for x in 0..<bare.width where bare[x, y].alpha == 0 {
                #expect(folder[x, y].alpha == 0, "pixel \(x),\(y)")
                transparentKept += 1
            }
        }
        #expect(transparentKept > 100, "the folder icon has transparent margins")
    }

    @Test func ribbonTextIsRotatedCentredAndShrunkToFit() throws {
        let short = try Renderer().compose(Self.request(Self.ios, .ribbon, "BETA", platform: .ios))
        let nominal = try #require(short.badge.textPixels)
        // 16 % of 180 px is 28.8 px; the text is 12/18 of it.
        #expect(abs(nominal - 28.8 * 12 / 18) < 1e-9)
        let long = try Renderer().compose(Self.request(Self.ios, .ribbon, "CANDIDATE", platform: .ios))
        let shrunk = try #require(long.badge.textPixels)
        #expect(shrunk < nominal && shrunk >= 7, "\(shrunk)")
        let band = try #require(long.badge.layout?.band)
        let room = try #require(band.textRoom)
        #expect(try #require(long.badge.textAdvance) <= room, "the shrunk text fits its room")
        // Text that cannot fit even at the minimum size is 65, naming the sizes.
        #expect {
            try Renderer().compose(
                Self.request(Self.ios, .ribbon, "A VERY LONG RELEASE CANDIDATE NAME", platform: .ios))
        } throws: { error in
            guard let error = error as? BadgeError, error.exitCode == .dataError else { return false }
            return ErrorWording.message(error).contains("does not fit the ribbon even at 7 px (--min-text-px 7)")
                && ErrorWording.message(error).contains("--min-text-px")
        }
    }

    @Test func tinyIconsDrawTheBandWithoutText() throws {
        var request = Self.request(Paths.fixture("icons/user-trash-32x32.png"), .ribbon, "BETA")
        let composition = try Renderer().compose(request)
        #expect(composition.badge.layout?.band != nil && composition.badge.textPixels == nil)
        #expect(
            composition.badge.notes.contains { if case .smallText(_, _, .bandWithoutText) = $0 { true } else { false } }
        )
        request.smallText = .hide
        #expect(try Renderer().compose(request).badge.layout == nil)
    }

    @Test func shieldHasTwoPartsInTwoColours() throws {
        var request = Self.request(Self.ios, .shield, "1.4.2|beta", platform: .ios, anchor: .bottom, thickness: 20)
        request.style.badgeAnchor = .bottom
        request.style.background = Color(red: 0, green: 0x80, blue: 0)
        let composition = try Renderer().compose(request)
        let layout = try #require(composition.badge.layout)
        let shield = try #require(layout.shield)
        #expect(shield.labelRect.maxX == shield.messageRect.minX)
        #expect(shield.labelRect.union(shield.messageRect) == layout.badgeRect)
        #expect(shield.labelOrigin.y == shield.messageOrigin.y, "one baseline")
        let pixels = try composition.pixels()
        // Just inside each part's inner top corner, away from the text.
        let label = pixels[Int(shield.labelRect.maxX) - 2, Int(shield.labelRect.minY) + 2]
        let message = pixels[Int(shield.messageRect.minX) + 1, Int(shield.messageRect.minY) + 2]
        #expect(label == Color(red: 0x55, green: 0x55, blue: 0x55))
        #expect(message == Color(red: 0, green: 0x80, blue: 0))
        #expect(layout.badgeRect.maxY <= 180 && layout.badgeRect.minY > 100, "at the bottom: \(layout.badgeRect)")
    }

    @Test func ribbonTextStaysVectorInSVGAndPDF() throws {
        let composition = try Renderer().compose(Self.request(Self.ios, .ribbon, "BETA", platform: .ios))
        let svg = String(decoding: try composition.svgData(), as: UTF8.self)
        // The glyphs are paths; the only image is the raster icon.
        #expect(svg.contains("<symbol"))
        #expect(svg.components(separatedBy: "data:image/png;base64").count == 2)
        let png = try composition.pixels()
        let reread = try ImageFile.pixels(of: try composition.svgData(), path: "out.svg")
        var over16 = 0
        for i in 0..<png.bytes.count where abs(Int(png.bytes[i]) - Int(reread.bytes[i])) > 16 { over16 += 1 }
        #expect(over16 <= png.bytes.count / 200, "\(over16) channels differ by more than 16")
        let pdf = try composition.pdfData()
        #expect(pdf.starts(with: Array("%PDF".utf8)))
        #expect(try Renderer().compose(Self.request(Self.ios, .ribbon, "BETA", platform: .ios)).pdfData() == pdf)
    }

    @Test func severalBadgesAreDrawnInOrderEachWithItsLayout() throws {
        var ribbon = Self.request(Self.ios, .ribbon, "BETA", platform: .ios, anchor: .topLeft)
        var count = TestRequest(iconPath: "unused", content: .value("3"))
        count.style.height = .fixed(.percent(28))
        ribbon.moreBadges = [count]
        let both = try Renderer().compose(ribbon)
        #expect(both.badges.count == 2)
        let countLayout = try #require(both.badges.dropFirst().first?.layout)
        #expect(countLayout.badgeRect.minX > 90, "the count at the top right: \(countLayout.badgeRect)")
        // The same pixels as drawing the count onto the ribbon's output.
        var alone = count
        alone.iconPath = Self.ios
        alone.platform = .ios
        let ribbonOnly = try Renderer().compose(
            Self.request(Self.ios, .ribbon, "BETA", platform: .ios, anchor: .topLeft))
        let pixels = try both.pixels()
        let ribbonPixels = try ribbonOnly.pixels()
        let countPixels = try Renderer().compose(alone).pixels()
        let iconPixels = try Self.iconAlone(Self.request(Self.ios, .ribbon, "BETA", platform: .ios, anchor: .topLeft))
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let expected = countPixels[x, y] != iconPixels[x, y] ? countPixels[x, y] : ribbonPixels[x, y]
                if countLayout.badgeRect.contains(Rect(x: Double(x), y: Double(y), width: 1, height: 1)) { continue }
                #expect(pixels[x, y] == expected, "pixel \(x),\(y)")
            }
        }
        // A hidden first badge (a count of 0) does not hide the others.
        var zero = TestRequest(iconPath: Self.ios, content: .value("0"))
        zero.moreBadges = [count]
        let second = try Renderer().compose(zero)
        #expect(second.badge.layout == nil && second.badges[1].layout != nil)
        // Expand grows the canvas for one badge only.
        var expanding = zero
        expanding.style.overflow = .expand
        #expect(throws: BadgeError.self) { try Renderer().compose(expanding) }
    }
}

extension BadgeShapeTests {
    /// An SVG icon to SVG or PDF is drawn as vectors: a band on it is masked by the
    /// icon's own vector drawing, and agrees with the PNG.
    @Test func bandOnAnSVGIconStaysVectorAndMatchesThePNG() throws {
        var request = Self.request(try Corpus.path("icons/papirus-svg/accessories-calculator.svg"), .banner, "DEV")
        request.iconSize = Size(width: 256, height: 256)
        let composition = try Renderer().compose(request)
        let png = try composition.pixels()
        let svg = try composition.svgData()
        #expect(!String(decoding: svg, as: UTF8.self).contains("data:image/png"), "no pixels in the SVG")
        let reread = try ImageFile.pixels(of: svg, path: "out.svg")
        var over16 = 0
        for i in 0..<png.bytes.count where abs(Int(png.bytes[i]) - Int(reread.bytes[i])) > 16 { over16 += 1 }
        #expect(over16 <= png.bytes.count / 100, "\(over16) channels differ by more than 16")
        #expect(try composition.pdfData().starts(with: Array("%PDF".utf8)))
    }
}

extension BadgeShapeTests {
    /// With an icon filter, outside the band every pixel is the filtered icon's.
    @Test(arguments: [BadgeShape.ribbon, .banner])
    func bandOverAFilteredIconKeepsTheFilteredPixels(shape: BadgeShape) throws {
        var request = Self.request(Self.ios, shape, "BETA", platform: .ios, anchor: shape == .ribbon ? .topLeft : .top)
        request.iconFilters = [.greyscale]
        let composition = try Renderer().compose(request)
        let band = try #require(composition.badge.layout?.band)
        let drawn = try composition.pixels()
        let alone = try Self.iconAlone(request)
        #expect(alone[90, 170].red == alone[90, 170].green && alone[90, 170].green == alone[90, 170].blue, "grey")
        var strays = 0
        for y in 0..<drawn.height {
            for x in 0..<drawn.width where drawn[x, y] != alone[x, y] && !Self.touches(band, x: x, y: y) { strays += 1 }
        }
        #expect(strays == 0)
        // The band itself is not filtered: it keeps its red.
        let centre = drawn[Int(band.centre.x), Int(band.centre.y) + Int(band.thickness / 2) - 2]
        #expect(centre.red > 200 && centre.green < 100, "\(centre)")
    }

    @Test func bandBorderFontFallbackAndSameBytes() throws {
        var request = Self.request(Self.ios, .banner, "新着", platform: .ios, anchor: .top)
        request.style.borderWidth = .points(2)
        request.style.borderColor = Color(red: 0, green: 0, blue: 0)
        request.fallbackFonts = [SystemFonts.notoCJKBold]
        request.systemFallback = false
        let composition = try Renderer().compose(request)
        #expect(composition.badge.missingGlyphs.isEmpty)
        #expect(composition.badge.fontsUsed.contains { $0.name.contains("Noto Sans CJK") })
        let band = try #require(composition.badge.layout?.band)
        let pixels = try composition.pixels()
        // The border runs along the band's inner edge, inside the band.
        let edge = Int((band.centre.y + band.thickness / 2).rounded(.down)) - 1
        #expect(pixels[90, edge] == Color(red: 0, green: 0, blue: 0), "\(pixels[90, edge])")
        for format in [OutputFormat.png, .svg, .pdf] {
            let again = try Renderer().compose(request).data(format: format)
            #expect(try composition.data(format: format) == again, "\(format)")
        }
    }
}
