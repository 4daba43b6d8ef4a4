import BadgeCore
import BadgeRender
import TestSupport
import Testing

/// Digits are centred on their ink: the gaps between the text's ink and the badge's
/// edge differ by at most 1 px left vs right and top vs bottom (issue 2).
@Suite struct CentringTests {
    struct Gaps: Equatable {
        var left: Int, right: Int, top: Int, bottom: Int
    }

    /// Measures the white ink inside the badge on a pixel buffer: pixels whose green
    /// channel is well above the fill's (#FF3B30 has green 0x3B).
    static func gaps(in pixels: PixelBuffer, badge: Rect) -> Gaps? {
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for y in Int(badge.minY)..<Int(badge.maxY) {
            for x in Int(badge.minX)..<Int(badge.maxX) where pixels[x, y].green > 0x3B + 48 && pixels[x, y].alpha == 255
            {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard minX <= maxX else { return nil }
        return Gaps(
            left: minX - Int(badge.minX), right: Int(badge.maxX) - 1 - maxX, top: minY - Int(badge.minY),
            bottom: Int(badge.maxY) - 1 - maxY)
    }

    static let values = (0...9).map(String.init) + ["42", "99+"]

    @Test(arguments: [1.0, 2.0, 3.0], [FontWeight.bold, .regular])
    func digitsAreCentredOnTheirInk(scale: Double, weight: FontWeight) throws {
        for value in Self.values {
            var rules = LabelRules()
            rules.showZero = true
            let request = RenderRequest(
                iconPath: Paths.fixture("icons/folder-512x512.png"), content: .value(value == "99+" ? "100" : value),
                labelRules: rules, scale: scale, font: .bundled(weight))
            let composition = try Renderer().compose(request)
            let layout = try #require(composition.layout)
            let gaps = try #require(
                Self.gaps(in: try composition.pixels(), badge: layout.badgeRect), "no ink for \(value)")
            #expect(abs(gaps.left - gaps.right) <= 1, "\(value) @\(scale)x \(weight): \(gaps)")
            #expect(abs(gaps.top - gaps.bottom) <= 1, "\(value) @\(scale)x \(weight): \(gaps)")
        }
    }
}
