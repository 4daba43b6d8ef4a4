import BadgeCore
import Foundation
import TestSupport
import Testing

@testable import BadgeRender

/// The centring rule (docs/manual/geometry.md, "Text centring"), checked on pixels at 1x, 2x and 3x
/// with two primary fonts: digits, capitals, CJK and emoji are centred on their ink,
/// within 1 px left vs right and top vs bottom; text with descenders (`gy`) is
/// centred on the union of its ink and the cap-height box.
@Suite struct CentringTests {
    struct Gaps: Equatable {
        var left: Int, right: Int, top: Int, bottom: Int
    }

    /// A transparent icon: with a transparent badge fill too, each pixel's alpha is
    /// the text's coverage, so ink can be read off exactly.
    static let icon: String = {
        let path = Paths.scratch("centring") + "/clear.png"
        let png = try! ImageFile.pngData(of: PixelBuffer(width: 200, height: 200, fill: .transparent))
        try! Data(png).write(to: URL(fileURLWithPath: path))
        return path
    }()

    /// Ink pixels inside `badge`: coverage of a quarter or more (alpha ≥ 64), the
    /// threshold the manual's rule names.
    static func gaps(in pixels: PixelBuffer, badge: Rect) -> Gaps? {
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for y in Int(badge.minY)..<Int(badge.maxY) {
            for x in Int(badge.minX)..<Int(badge.maxX) {
                if pixels[x, y].alpha >= 64 {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = max(maxY, y)
                }
            }
        }
        guard minX <= maxX else { return nil }
        return Gaps(
            left: minX - Int(badge.minX), right: Int(badge.maxX) - 1 - maxX, top: minY - Int(badge.minY),
            bottom: Int(badge.maxY) - 1 - maxY)
    }

    static let fonts: [FontChoice] = [
        .bundled(.bold), .bundled(.regular), .file(path: SystemFonts.notoCJKBold, index: 0),
    ]
    static let inkCentred = (0...9).map(String.init) + ["42", "100", "NEW", "新", "🔥"]

    func compose(_ value: String, font: FontChoice, scale: Double) throws -> Scene {
        var style = BadgeStyle()
        style.background = .transparent
        var request = TestRequest(
            iconPath: Self.icon, content: .value(value), labelRules: LabelRules(showZero: true), style: style,
            scale: scale, font: font)
        request.fallbackFonts = [SystemFonts.notoCJKBold, SystemFonts.notoColorEmoji]
        request.systemFallback = false
        return try Renderer().compose(request)
    }

    @Test(arguments: [1.0, 2.0, 3.0], fonts)
    func inkIsCentred(scale: Double, font: FontChoice) throws {
        for value in Self.inkCentred {
            let composition = try compose(value, font: font, scale: scale)
            let layout = try #require(composition.badge.layout)
            let gaps = try #require(
                Self.gaps(in: try composition.pixels(), badge: layout.badgeRect), "no ink for \(value)")
            #expect(abs(gaps.left - gaps.right) <= 1, "\(value) @\(scale)x \(font): \(gaps)")
            #expect(abs(gaps.top - gaps.bottom) <= 1, "\(value) @\(scale)x \(font): \(gaps)")
        }
    }

    @Test(arguments: [1.0, 2.0, 3.0], fonts)
    func descendersKeepTheCapitalBaseline(scale: Double, font: FontChoice) throws {
        let composition = try compose("gy", font: font, scale: scale)
        let layout = try #require(composition.badge.layout)
        let metrics = try #require(composition.badge.text?.metrics)
        let origin = try #require(layout.textOrigin)
        let gaps = try #require(Self.gaps(in: try composition.pixels(), badge: layout.badgeRect))
        #expect(abs(gaps.left - gaps.right) <= 1, "@\(scale)x \(font): \(gaps)")
        // The cap box's top to the badge's top equals the ink's bottom to the badge's bottom.
        let capTop = origin.y - metrics.capHeight
        let topGap = capTop - layout.badgeRect.minY
        #expect(abs(topGap - Double(gaps.bottom)) <= 1.5, "@\(scale)x \(font): cap gap \(topGap), \(gaps)")
        // And the x-height ink starts below the cap top: it is not centred on its own ink.
        #expect(Double(gaps.top) > topGap)
    }
}
