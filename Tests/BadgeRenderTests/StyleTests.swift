import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Colours, borders, masks and image badges, checked pixel by pixel on solid icons.
@Suite struct StyleTests {
    /// Writes a solid `size` × `size` icon and returns its path.
    static func solidIcon(_ color: Color, size: Int = 40) throws -> String {
        let path = Paths.scratch("style") + "/solid.png"
        let png = try ImageFile.pngData(of: PixelBuffer(width: size, height: size, fill: color))
        try Data(png).write(to: URL(fileURLWithPath: path))
        return path
    }

    func render(
        _ icon: String, _ content: BadgeContent = .dot, mask: IconMask = .none, _ configure: (inout BadgeStyle) -> Void
    )
        throws -> (BadgeLayout, PixelBuffer)
    {
        var style = BadgeStyle()
        configure(&style)
        let composition = try Renderer().compose(
            RenderRequest(iconPath: icon, content: content, style: style, iconMask: mask))
        return (try #require(composition.badge.layout), try composition.pixels())
    }

    func renderHidden(_ icon: String, mask: IconMask) throws -> PixelBuffer {
        let composition = try Renderer().compose(RenderRequest(iconPath: icon, content: .value(""), iconMask: mask))
        #expect(composition.badge.hidden == .empty)
        return try composition.pixels()
    }

    static func close(_ a: Color, _ b: Color, within tolerance: Int = 1) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
            && abs(Int(a.blue) - Int(b.blue)) <= tolerance && abs(Int(a.alpha) - Int(b.alpha)) <= tolerance
    }

    @Test func translucentFillCompositesWithPremultipliedAlpha() throws {
        let red50 = Color(red: 255, green: 0, blue: 0, alpha: 128)
        let (layout, onBlue) = try render(try Self.solidIcon(Color(rgb: 0x0000FF))) {
            $0.dotSize = 20
            $0.background = red50
        }
        let centre = onBlue[Int(layout.badgeRect.center.x), Int(layout.badgeRect.center.y)]
        // OVER: 0.5 × red + 0.5 × blue, opaque.
        #expect(Self.close(centre, Color(red: 128, green: 0, blue: 127)), "\(centre)")

        let (_, onClear) = try render(try Self.solidIcon(.transparent)) {
            $0.dotSize = 20
            $0.background = red50
        }
        let alone = onClear[Int(layout.badgeRect.center.x), Int(layout.badgeRect.center.y)]
        #expect(Self.close(alone, red50), "\(alone)")
    }

    @Test func borderIsDrawnInsideTheBounds() throws {
        let icon = try Self.solidIcon(Color(rgb: 0x00FF00))
        let (layout, pixels) = try render(icon) {
            $0.dotSize = 20
            $0.radius = 0
            $0.borderWidth = 2
            $0.borderColor = .white
            $0.anchor = .center
        }
        let rect = layout.badgeRect
        let y = Int(rect.center.y)
        #expect(pixels[Int(rect.minX) - 1, y] == Color(rgb: 0x00FF00))
        #expect(pixels[Int(rect.minX), y] == .white)
        #expect(pixels[Int(rect.minX) + 1, y] == .white)
        #expect(pixels[Int(rect.minX) + 2, y] == .systemRed)
        #expect(pixels[Int(rect.maxX) - 1, y] == .white)
        #expect(pixels[Int(rect.maxX), y] == Color(rgb: 0x00FF00))
    }

    @Test func borderAtTheCanvasEdgeIsNotCut() throws {
        let (layout, pixels) = try render(try Self.solidIcon(Color(rgb: 0x00FF00))) {
            $0.dotSize = 20
            $0.radius = 0
            $0.borderWidth = 1
            $0.borderColor = .black
        }
        #expect(layout.badgeRect.maxX == 40 && layout.badgeRect.minY == 0)
        #expect(pixels[39, 10] == .black)
        #expect(pixels[30, 0] == .black)
    }

    @Test func roundedIconMaskClearsTheCorners() throws {
        let icon = try Self.solidIcon(Color(rgb: 0x336699))
        let pixels = try renderHidden(icon, mask: .rounded(radius: 10))
        #expect(pixels[0, 0].alpha == 0)
        #expect(pixels[39, 39].alpha == 0)
        #expect(pixels[20, 0] == Color(rgb: 0x336699))
        #expect(pixels[0, 20] == Color(rgb: 0x336699))
    }

    @Test func imageBadgeIsScaledIntoItsRect() throws {
        let icon = try Self.solidIcon(Color(rgb: 0xFFFFFF), size: 60)
        let (layout, pixels) = try render(icon, .image(path: Paths.fixture("icons/star-badge.png"))) {
            $0.imageSize = LengthSize(width: 24, height: 24)
            $0.anchor = .center
        }
        #expect(layout.badgeRect == Rect(x: 18, y: 18, width: 24, height: 24))
        let centre = pixels[30, 30]
        #expect(centre.red > 200 && centre.blue < 100, "\(centre)")
        #expect(pixels[17, 30] == .white)
    }

    @Test func missingImageBadgeIs66() {
        #expect(throws: BadgeError.missingInput(path: "/no/badge.png", reason: "no such image file")) {
            _ = try Renderer().compose(
                RenderRequest(iconPath: Paths.fixture("icons/folder-48x48.png"), content: .image(path: "/no/badge.png"))
            )
        }
    }
}

/// Fonts chosen by family (fontconfig), by file and by collection index.
@Suite struct FontChoiceTests {
    static let icon = Paths.fixture("icons/folder-48x48.png")

    func faces(_ font: FontChoice, _ value: String = "3") throws(BadgeError) -> [String] {
        try Renderer().compose(RenderRequest(iconPath: Self.icon, content: .value(value), font: font)).badge.fontsUsed
            .map(\.name)
    }

    @Test func bundledFontIsTheDefault() throws {
        #expect(try faces(.bundled(.bold)) == ["DejaVu Sans Bold (bundled:DejaVuSans-Bold.ttf#0)"])
        #expect(try faces(.bundled(.regular)) == ["DejaVu Sans Book (bundled:DejaVuSans.ttf#0)"])
    }

    @Test func familyNotInstalledIs69NamingIt() {
        do {
            _ = try faces(.family("No Such Family 12345"))
            Issue.record("resolved a missing family")
        } catch {
            #expect(error.exitCode == .unavailable)
            #expect(error.message.contains("family \"No Such Family 12345\" is not installed"))
        }
    }

    @Test func fontFileByPathAndIndex() throws {
        let collection = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
        try #require(FileManager.default.fileExists(atPath: collection), "make deps installs fonts-noto-cjk")
        let first = try faces(.file(path: collection, index: 0), "新")
        let second = try faces(.file(path: collection, index: 1), "新")
        #expect(first != second)
        #expect(first.first?.contains("#0)") == true && second.first?.contains("#1)") == true)
    }

    @Test func badFontFilesAreNamed() throws {
        let notAFont = Self.icon
        #expect(
            throws: BadgeError.badInput(
                path: notAFont, reason: "is not a font file (no OpenType or TrueType signature)")
        ) {
            _ = try faces(.file(path: notAFont, index: 0))
        }
        #expect(throws: BadgeError.missingInput(path: "/no/font.ttf", reason: "no such font file")) {
            _ = try faces(.file(path: "/no/font.ttf", index: 0))
        }
        #expect(
            throws: BadgeError.badInput(
                path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                reason: "has 1 face(s), numbered 0 to 0; there is no face 3")
        ) {
            _ = try faces(.file(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", index: 3))
        }
    }

    @Test func truncatedFontIs65NeverEmptyGlyphs() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
        let path = Paths.scratch("truncated") + "/cut.ttf"
        try whole.prefix(300_000).write(to: URL(fileURLWithPath: path))
        #expect(
            throws: BadgeError.badInput(
                path: path, reason: "is a truncated font: its \"glyf\" table runs past the end of the file")
        ) {
            _ = try faces(.file(path: path, index: 0))
        }
    }
}
