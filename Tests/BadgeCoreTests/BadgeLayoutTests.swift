import Testing

@testable import BadgeCore

/// Layout with made-up text metrics (pixels), so the rules are checked without fonts.
@Suite struct BadgeLayoutTests {
    /// A glyph 8 px wide with ink 1...7 × -9...0 (a digit at 12 px), cap height 9.
    static func digit(advance: Double = 8) -> TextMetrics {
        TextMetrics(
            advance: advance, inkBounds: Rect(x: 1, y: -9, width: advance - 2, height: 9), ascent: 11, descent: 3,
            capHeight: 9)
    }

    func layout(
        _ style: BadgeStyle = BadgeStyle(), metrics: TextMetrics = digit(), icon: (Int, Int) = (60, 60),
        scale: Double = 1
    ) throws -> BadgeLayout {
        try BadgeLayout.compute(iconWidth: icon.0, iconHeight: icon.1, style: style, body: .text(metrics), scale: scale)
    }

    @Test func oneGlyphIsACircleInTheTopRightCorner() throws {
        let result = try layout()
        #expect(result.badgeRect == Rect(x: 42, y: 0, width: 18, height: 18))
        #expect(result.cornerRadius == 9)
        #expect(result.canvasWidth == 60 && result.canvasHeight == 60)
    }

    @Test func moreGlyphsMakeAPill() throws {
        let result = try layout(metrics: Self.digit(advance: 24))
        #expect(result.badgeRect.width == 32)  // 24 + 2 × 4 padding
        #expect(result.badgeRect.height == 18)
        #expect(result.cornerRadius == 9)
    }

    @Test func scaleMultipliesEverySize() throws {
        var metrics = Self.digit()
        metrics.advance *= 3
        let result = try layout(metrics: metrics, icon: (180, 180), scale: 3)
        #expect(result.badgeRect == Rect(x: 126, y: 0, width: 54, height: 54))
    }

    @Test func clipKeepsTheCentreOnTheCorner() throws {
        var style = BadgeStyle()
        style.overflow = .clip
        let result = try layout(style)
        #expect(result.badgeRect == Rect(x: 51, y: -9, width: 18, height: 18))
        #expect(result.canvasWidth == 60)
    }

    @Test func expandGrowsTheCanvasAndMovesTheIcon() throws {
        var style = BadgeStyle()
        style.overflow = .expand
        let result = try layout(style)
        #expect(result.canvasWidth == 69 && result.canvasHeight == 69)
        #expect(result.iconRect == Rect(x: 0, y: 9, width: 60, height: 60))
        #expect(result.badgeRect == Rect(x: 51, y: 0, width: 18, height: 18))
    }

    /// Asset catalogs want @2x and @3x exactly 2× and 3× the @1x size; `expand`
    /// grows by whole points (this failed before: a 64 × 53 @1x gave a 191 × 159 @3x).
    @Test func expandedCanvasesScaleExactlyWithWholeNumberScales() throws {
        var checked = 0
        for advance in stride(from: 5.0, through: 40, by: 1.37) {
            for offset in stride(from: -6.0, through: 6, by: 0.7) {
                var style = BadgeStyle()
                style.overflow = .expand
                style.offset = Offset(dx: .points(offset), dy: .points(-offset / 2))
                style.fontSize = 12
                func canvas(_ scale: Double) throws -> (Int, Int, Rect) {
                    // The digit's metrics at this scale: ink 1 px in from each end, 9 px tall at 1x.
                    var metrics = Self.digit(advance: advance * scale)
                    metrics.inkBounds = Rect(x: scale, y: -9 * scale, width: (advance - 2) * scale, height: 9 * scale)
                    let result = try layout(
                        style, metrics: metrics, icon: (44 * Int(scale), 44 * Int(scale)), scale: scale)
                    return (result.canvasWidth, result.canvasHeight, result.badgeRect)
                }
                let one = try canvas(1)
                for scale in [2.0, 3.0] {
                    let (width, height, badge) = try canvas(scale)
                    #expect(
                        width == one.0 * Int(scale) && height == one.1 * Int(scale),
                        "advance \(advance), offset \(offset), @\(scale)x")
                    // The badge is never cut.
                    #expect(
                        badge.minX >= 0 && badge.minY >= 0 && badge.maxX <= Double(width)
                            && badge.maxY <= Double(height))
                }
                checked += 1
            }
        }
        #expect(checked > 400)
    }

    @Test func explicitZeroRadiusIsARectangle() throws {
        var style = BadgeStyle()
        style.radius = 0
        #expect(try layout(style).cornerRadius == 0)
    }

    @Test func textIsCentredOnItsInk() throws {
        let result = try layout()
        let ink = try #require(result.inkBounds)
        let badge = result.badgeRect
        #expect(abs((ink.minX - badge.minX) - (badge.maxX - ink.maxX)) <= 1)
        #expect(abs((ink.minY - badge.minY) - (badge.maxY - ink.maxY)) <= 1)
        #expect(result.textOrigin == Point(x: 47, y: 14))
    }

    @Test func descendersKeepTheCapitalBaseline() throws {
        // "gy": ink from x-height (-7) to the descender (+3); centred with the cap box.
        let gy = TextMetrics(
            advance: 14, inkBounds: Rect(x: 0, y: -7, width: 14, height: 10), ascent: 11, descent: 3, capHeight: 9)
        #expect(gy.centringBox == Rect(x: 0, y: -9, width: 14, height: 12))
    }

    @Test func percentOffsetFollowsTheIconSize() throws {
        // Seed 003: centre at (w - 0.2w, 0.2w) on a 100 pt icon: 20 pt circle.
        var style = BadgeStyle()
        style.height = .fixed(20)
        style.offset = Offset(dx: .percent(-20), dy: .percent(20))
        let result = try layout(style, icon: (100, 100))
        #expect(result.badgeRect.center == Point(x: 80, y: 20))
    }

    @Test func autoHeightFollowsSeed001() throws {
        // height = max(line height 14, min 6) + 2 × 2; width = max(8 + 4, 18) = 18.
        var style = BadgeStyle()
        style.height = .auto
        style.minHeight = 6
        style.padding = Padding(horizontal: 2, vertical: 2)
        let result = try layout(style)
        #expect(result.badgeRect.height == 18)
        #expect(result.badgeRect.width == 18)
    }

    @Test func dotAndImageSizes() throws {
        var style = BadgeStyle()
        style.dotSize = 8
        let dot = try BadgeLayout.compute(iconWidth: 60, iconHeight: 60, style: style, body: .dot, scale: 2)
        #expect(dot.badgeRect.width == 16 && dot.badgeRect.height == 16)
        style.imageSize = LengthSize(width: 8, height: 8)
        let image = try BadgeLayout.compute(
            iconWidth: 60, iconHeight: 60, style: style, body: .image(width: 64, height: 32), scale: 3)
        #expect(image.badgeRect.width == 24 && image.badgeRect.height == 24)
        style.imageSize = nil
        let natural = try BadgeLayout.compute(
            iconWidth: 60, iconHeight: 60, style: style, body: .image(width: 64, height: 32), scale: 1)
        #expect(natural.badgeRect.width == 36 && natural.badgeRect.height == 18)
    }

    @Test func clampRefusesABadgeLargerThanTheIcon() {
        #expect(throws: BadgeError.self) { try layout(icon: (16, 16)) }
    }

    @Test func hugeBadgeIsAnErrorNotAnAllocation() {
        var style = BadgeStyle()
        style.height = .fixed(10_000)
        style.overflow = .expand
        #expect(throws: BadgeError.self) { try layout(style, scale: 3) }
    }
}
