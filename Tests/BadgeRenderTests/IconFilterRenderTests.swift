import BadgeCore
import Foundation
import TestSupport
import Testing

@testable import BadgeRender

/// `--icon-filter` in the renderer: every pixel the badge does not cover is the
/// filtered icon, the badge is the unfiltered render's, shared icons are never
/// changed, and SVG and PDF outputs carry the filtered icon.
@Suite struct IconFilterRenderTests {
    static let blue = Color(rgb: 0x007AFF)

    struct Case: CustomTestStringConvertible, Sendable {
        let icon: String
        let platform: IconPlatform
        let scale: Double
        /// --size in points, nil for the icon's own pixels.
        var size: Double? = nil
        let filters: [IconFilter]
        var testDescription: String {
            "\(icon) \(platform.rawValue) \(Int(scale))x \(filters.map(\.description).joined(separator: " "))"
        }

        func request(_ value: String, filters: [IconFilter]? = nil) -> TestRequest {
            var request = TestRequest(
                iconPath: Paths.fixture("icons/\(icon)"), content: .value(value), scale: scale)
            if platform != .canvas { request.style.height = .fixed(.percent(28)) }
            request.platform = platform
            if let size { request.iconSize = Size(width: size * scale, height: size * scale) }
            request.iconFilters = filters ?? self.filters
            return request
        }
    }

    static let filterSets: [[IconFilter]] = [
        [.greyscale], [.desaturate(IconFilter.Amount(0.5))], [.dim(IconFilter.Amount(0.4))], [.tint(blue, .full)],
        [
            .tint(Color(red: 255, green: 149, blue: 0, alpha: 128), IconFilter.Amount(0.7)),
            .dim(IconFilter.Amount(0.2)),
        ],
    ]

    static let cases: [Case] = filterSets.flatMap { filters in
        [1.0, 2, 3].flatMap { scale in
            [
                Case(icon: "app-ios-180.png", platform: .ios, scale: scale, filters: filters),
                Case(
                    icon: "app-android-foreground-432.png", platform: .androidAdaptive, scale: scale, filters: filters),
                Case(icon: "user-trash-256x256.png", platform: .canvas, scale: scale, size: 64, filters: filters),
            ]
        }
    }

    /// The render with the badge equals the filtered icon alone (a hidden badge,
    /// `--value 0`) outside the badge's rectangle; inside it, wherever the badge
    /// covers the icon (the render is the same over the icon and over black), it
    /// equals the unfiltered render: the badge is never filtered.
    @Test(arguments: cases)
    func outsideTheBadgeIsTheFilteredIcon(_ testCase: Case) throws {
        let badged = try Renderer().compose(testCase.request("3"))
        let layout = try #require(badged.badge.layout)
        let withBadge = try badged.pixels()
        let alone = try Renderer().compose(testCase.request("0")).pixels()
        let unfiltered = try Renderer().compose(testCase.request("3", filters: [])).pixels()
        let overBlack = try Renderer().compose(testCase.request("3", filters: [.dim(.full)])).pixels()
        #expect(withBadge.width == alone.width && withBadge.height == alone.height)
        let rect = layout.badgeRect
        let (x0, y0) = (Int(rect.minX.rounded(.down)), Int(rect.minY.rounded(.down)))
        let (x1, y1) = (Int(rect.maxX.rounded(.up)), Int(rect.maxY.rounded(.up)))
        var outsideDiffering = 0
        var covered = 0
        var coveredDiffering = 0
        for y in 0..<withBadge.height {
            for x in 0..<withBadge.width {
                if x < x0 || x >= x1 || y < y0 || y >= y1 {
                    if withBadge[x, y] != alone[x, y] { outsideDiffering += 1 }
                } else if unfiltered[x, y] == overBlack[x, y] {
                    covered += 1
                    if withBadge[x, y] != unfiltered[x, y] { coveredDiffering += 1 }
                }
            }
        }
        #expect(outsideDiffering == 0)
        #expect(coveredDiffering == 0)
        // Most of the badge's rectangle is badge (a circle covers π/4 of its square).
        #expect(Double(covered) >= 0.6 * rect.width * rect.height, "\(covered) of \(rect)")
        // And the filter did something outside the badge.
        let changed = alone != (try Renderer().compose(testCase.request("0", filters: [])).pixels())
        #expect(changed)
    }

    /// The hidden-badge render is the decoded icon with the filters applied by
    /// `IconFilter` itself: alpha kept everywhere, colours exact where opaque.
    @Test(arguments: filterSets)
    func theIconAloneIsTheFormula(_ filters: [IconFilter]) throws {
        // basn6a08: straight colours at every alpha, many of which premultiplied
        // pixels cannot carry (the decoded icon keeps them aside, LostStraightPixels).
        let icons = [
            Paths.fixture("icons/app-ios-180.png"), Paths.fixture("icons/user-trash-256x256.png"),
            try Corpus.path("pngsuite/basn6a08.png"),
        ]
        for path in icons {
            let icon = (path as NSString).lastPathComponent
            let original = try ImageFile.pixels(at: path)
            var request = TestRequest(iconPath: path, content: .value("0"))
            request.iconFilters = filters
            let filtered = try Renderer().compose(request)
            let pixels = try filtered.pixels()
            for y in 0..<original.height {
                for x in 0..<original.width {
                    let before = original[x, y]
                    let after = pixels[x, y]
                    #expect(after.alpha == before.alpha)
                    // A grey stays grey un-premultiplied: the translucent edge too (not
                    // the decoded icon's own straight pixels written back).
                    if filters == [.greyscale], after.alpha > 0 {
                        #expect(after.red == after.green && after.green == after.blue, "\(icon) at \(x),\(y)")
                    }
                    guard before.alpha == 255 else { continue }
                    var word =
                        0xFF00_0000 | UInt32(before.red) << 16 | UInt32(before.green) << 8 | UInt32(before.blue)
                    // The filters as the scene applied them: a tint's colour in the icon's
                    // own colour space (basn6a08's gAMA 1.0), as the badge's colours.
                    for filter in filtered.icon.filters { word = filter.apply(toPremultiplied: word) }
                    #expect(
                        after
                            == Color(
                                red: UInt8(word >> 16 & 0xFF), green: UInt8(word >> 8 & 0xFF),
                                blue: UInt8(word & 0xFF)), "\(icon) at \(x),\(y)")
                }
            }
        }
    }

    /// A decoded PNG keeps aside the straight colours premultiplied pixels cannot
    /// carry, and writes them back where the canvas still has the decoded value. A
    /// filter can leave that value as it was and still change what it means: at alpha
    /// 2, straight (130, 120, 125) is premultiplied (1, 1, 1), already grey; greyscale
    /// keeps it, and the output must be the grey (128, 128, 128), not the colour.
    @Test func aFilterIsNotUndoneByTheIconsKeptStraightColours() throws {
        var pixels = PixelBuffer(width: 4, height: 1, fill: Color(red: 130, green: 120, blue: 125, alpha: 2))
        pixels[3, 0] = Color(red: 200, green: 100, blue: 50)
        let path = Paths.scratch("filter-straight") + "/faint.png"
        try Data(try ImageFile.pngData(of: pixels)).write(to: URL(fileURLWithPath: path))
        var request = TestRequest(iconPath: path, content: .value(""))
        #expect(try Renderer().compose(request).pixels()[0, 0] == Color(red: 130, green: 120, blue: 125, alpha: 2))
        request.iconFilters = [.greyscale]
        for consuming in [false, true] {
            let png = try Renderer().compose(request).pngData(consumingIcon: consuming)
            let out = try ImageFile.pixels(of: png, path: "faint.png")
            #expect(out[0, 0] == Color(red: 128, green: 128, blue: 128, alpha: 2), "\(out[0, 0])")
            #expect(out[3, 0] == Color(red: 118, green: 118, blue: 118))
        }
    }

    /// A batch shares decoded icons through `IconCache`: a filtered job filters a
    /// copy, so the next job on the same icon sees it unchanged.
    @Test func aSharedIconIsNeverFilteredInPlace() throws {
        let cache = IconCache()
        let path = Paths.fixture("icons/user-trash-256x256.png")
        var filtered = TestRequest(iconPath: path, content: .value("3"))
        filtered.iconFilters = [.greyscale]
        let plain = RenderRequest(iconPath: path, content: .value("3"))
        let renderer = try Renderer()
        let first = try renderer.compose(filtered, cache: cache)
        #expect(!first.icon.pixels.isOwned)
        let grey = try ImageFile.pixels(of: try first.pngData(consumingIcon: true), path: "grey.png")
        let after = try renderer.compose(plain, cache: cache).pixels()
        // Compared as Bools: a failing #expect would print every pixel.
        let unchanged = after == (try Renderer().compose(plain).pixels())
        let filteredAlike = grey == (try Renderer().compose(filtered).pixels())
        #expect(unchanged)
        #expect(filteredAlike)
        #expect(grey != after)
    }

    /// A composition that owns its icon filters it in place, and the one-output PNG
    /// path (the badge drawn onto the decoded icon) gives the same pixels.
    @Test func theInPlacePathGivesTheSamePixels() throws {
        var request = TestRequest(iconPath: Paths.fixture("icons/app-ios-180.png"), content: .value("7"))
        request.iconFilters = [.tint(Self.blue, IconFilter.Amount(0.8)), .dim(IconFilter.Amount(0.1))]
        let owned = try Renderer().compose(request)
        #expect(owned.icon.pixels.isOwned)
        let consumed = try ImageFile.pixels(of: try owned.pngData(consumingIcon: true), path: "x.png")
        #expect(owned.icon.spent)
        let same = consumed == (try Renderer().compose(request).pixels())
        #expect(same)
    }

    /// Alpha is kept, so `--platform content` places the badge by the same pixels.
    @Test func contentPlacementIsUnchanged() throws {
        var request = TestRequest(iconPath: Paths.fixture("icons/app-macos-256.png"), content: .value("12"))
        request.platform = .content
        let plain = try Renderer().compose(request)
        request.iconFilters = [.dim(.full)]
        let black = try Renderer().compose(request)
        #expect(black.badge.layout?.badgeRect == plain.badge.layout?.badgeRect)
        #expect(ContentShape(alphaOf: try black.icon.surface()) == ContentShape(alphaOf: try plain.icon.surface()))
    }

    /// A tint colour is sRGB, like the badge's colours: into an icon's own colour
    /// space with them.
    @Test func aTintColourIsConvertedWithTheBadgeColours() throws {
        var request = TestRequest(iconPath: Paths.fixture("icons/icon-generic-rgb-96.png"), content: .value("3"))
        request.iconFilters = [.greyscale, .tint(Self.blue, .full)]
        let composition = try Renderer().compose(request)
        let conversion = try #require(composition.colorConversion)
        #expect(conversion.convert(Self.blue) != Self.blue)
        #expect(composition.icon.filters == [.greyscale, .tint(conversion.convert(Self.blue), .full)])
        #expect(composition.badge.paint.background == conversion.convert(request.style.background))
    }

    /// Whether a straight pixel is a grey (channels within `slack`, for resampling).
    static func isGrey(_ color: Color, slack: Int = 2) -> Bool {
        let channels = [Int(color.red), Int(color.green), Int(color.blue)]
        return channels.max()! - channels.min()! <= slack
    }

    /// SVG output of a raster icon: the icon is embedded once, filtered (read back,
    /// grey), the badge red.
    @Test func svgAndPdfOfARasterIconCarryTheFilteredIcon() throws {
        var request = TestRequest(iconPath: Paths.fixture("icons/user-trash-256x256.png"), content: .value("3"))
        request.iconFilters = [.greyscale]
        let composition = try Renderer().compose(request)
        let svg = try composition.svgData()
        #expect(String(decoding: svg, as: UTF8.self).components(separatedBy: "data:image/png;base64").count == 2)
        let reread = try ImageFile.pixels(of: svg, path: "out.svg")
        let png = try composition.pixels()
        #expect(reread.width == png.width && reread.height == png.height)
        let layout = try #require(composition.badge.layout)
        #expect(reread[128, 180].alpha == 255 && Self.isGrey(reread[128, 180]), "\(reread[128, 180])")
        #expect(reread[128, 180] == png[128, 180])
        let centre = reread[Int(layout.badgeRect.minX) + 3, Int(layout.badgeRect.center.y)]
        #expect(centre == Color.systemRed, "\(centre)")
        let pdf = try composition.pdfData()
        #expect(pdf.starts(with: Array("%PDF-1.5".utf8)))
    }

    /// An SVG icon with a filter is drawn as its filtered pixels (at its pixel size)
    /// into SVG and PDF, not as vectors: grey where the vectors were coloured.
    @Test func aFilteredSVGIconIsDrawnAsPixels() throws {
        var request = TestRequest(
            iconPath: try Corpus.path("icons/papirus-svg/firefox.svg"), content: .value("42"), scale: 3)
        let coloured = try ImageFile.pixels(of: try Renderer().compose(request).svgData(), path: "c.svg")
        request.iconFilters = [.greyscale]
        let composition = try Renderer().compose(request)
        #expect(!composition.drawsSVG)
        let text = String(decoding: try composition.svgData(), as: UTF8.self)
        #expect(text.components(separatedBy: "data:image/png;base64").count == 2)
        let reread = try ImageFile.pixels(of: Array(text.utf8), path: "out.svg")
        let png = try composition.pixels()
        let rect = try #require(composition.badge.layout).badgeRect
        var colouredBefore = 0
        for y in 0..<reread.height {
            for x in 0..<reread.width where !rect.insetBy(-1).contains(Point(x: Double(x), y: Double(y))) {
                #expect(Self.isGrey(reread[x, y]), "\(x),\(y): \(reread[x, y])")
                #expect(reread[x, y] == png[x, y], "\(x),\(y)")
                if !Self.isGrey(coloured[x, y], slack: 20) { colouredBefore += 1 }
            }
        }
        #expect(colouredBefore > 1000)
        #expect(try composition.pdfData().starts(with: Array("%PDF-1.5".utf8)))
    }

    /// With an SVG badge image too (drawn as vectors), the filtered SVG icon is drawn
    /// as its filtered pixels: the icon grey, the badge image its own green.
    @Test func aFilteredSVGIconBesideAnSVGBadgeKeepsBoth() throws {
        let folder = Paths.scratch("filtered-svg-badge")
        try
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"12\" height=\"12\"><rect width=\"12\" height=\"12\" fill=\"#0a0\"/></svg>"
            .write(toFile: folder + "/badge.svg", atomically: true, encoding: .utf8)
        var request = TestRequest(
            iconPath: try Corpus.path("icons/papirus-svg/firefox.svg"), content: .image(path: folder + "/badge.svg"),
            scale: 3)
        // Not greyscale alone, which a second application would not change.
        request.iconFilters = [.greyscale, .dim(IconFilter.Amount(0.3))]
        let composition = try Renderer().compose(request)
        #expect(composition.drawsSVG && composition.icon.vector == nil)
        let reread = try ImageFile.pixels(of: try composition.svgData(), path: "out.svg")
        let png = try composition.pixels()
        let rect = try #require(composition.badge.layout).badgeRect
        #expect(reread[Int(rect.center.x), Int(rect.center.y)] == Color(rgb: 0x00AA00))
        var compared = 0
        for y in 0..<reread.height {
            for x in 0..<reread.width where !rect.insetBy(-1).contains(Point(x: Double(x), y: Double(y))) {
                #expect(reread[x, y] == png[x, y], "\(x),\(y)")
                #expect(Self.isGrey(reread[x, y]))
                compared += 1
            }
        }
        #expect(compared > 1000)
        let pdf = try composition.pdfData()
        #expect(pdf.starts(with: Array("%PDF-1.5".utf8)))
    }
}

extension Rect {
    /// The rectangle inset by `amount` on every side (grown for a negative one).
    fileprivate func insetBy(_ amount: Double) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    fileprivate func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }
}
