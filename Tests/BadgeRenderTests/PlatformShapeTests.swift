import BadgeCore
import Foundation
import TestSupport
import Testing

@testable import BadgeRender

/// Shape-aware placement, measured on pixels: for every platform, at every app-icon
/// size from 16 to 1024 px, a count, a four-letter label and a dot at `--height 28%`
/// have no pixel outside the platform's visible shape (rasterised here, independently
/// of the renderer), sit at the shape's top-right corner, and have the same size
/// relative to the icon at every size.
@Suite struct PlatformShapeTests {
    static let sizes = [16, 20, 29, 40, 58, 60, 76, 80, 87, 120, 152, 167, 180, 1024]
    static let contents: [(String, BadgeContent)] = [("count", .value("3")), ("label", .value("BETA")), ("dot", .dot)]

    /// The visible shape of each platform on an S × S canvas, as the platforms'
    /// templates draw it (the geometry of `IconPlatform`'s documentation, written
    /// again here): whether the point (x, y) in pixels is visible.
    static func visible(_ platform: IconPlatform, side s: Double, icon: PixelBuffer) -> (Double, Double) -> Bool {
        func superellipse(_ diameter: Double, _ n: Double) -> (Double, Double) -> Bool {
            let a = diameter / 2
            return { x, y in pow(abs(x - s / 2) / a, n) + pow(abs(y - s / 2) / a, n) <= 1 }
        }
        func opaque(_ x: Double, _ y: Double) -> Bool {
            let (px, py) = (Int(x), Int(y))
            guard px >= 0, py >= 0, px < icon.width, py < icon.height else { return false }
            return icon[px, py].alpha >= 128
        }
        switch platform {
        case .canvas: return { x, y in x >= 0 && y >= 0 && x <= s && y <= s }
        case .ios: return superellipse(s, 5)
        case .macos: return superellipse(s * 824 / 1024, 5)
        case .watchos, .circle: return superellipse(s, 2)
        case .androidAdaptive: return superellipse(s * 66 / 108, 2)
        case .androidRound: return superellipse(s * 44 / 48, 2)
        case .content: return opaque
        case .androidLegacy:
            let margin = s * 2 / 48
            return { x, y in x >= margin && y >= margin && x <= s - margin && y <= s - margin && opaque(x, y) }
        }
    }

    /// A test icon: opaque blue everywhere, or for the content-shaped platforms a
    /// blue squircle of 80 % of the side on transparency.
    static func icon(side: Int, shaped: Bool) -> PixelBuffer {
        var pixels = PixelBuffer(width: side, height: side, fill: Color(red: 0, green: 0, blue: 0, alpha: 0))
        let a = Double(side) * 0.4
        for y in 0..<side {
            for x in 0..<side {
                let dx = abs(Double(x) + 0.5 - Double(side) / 2) / a
                let dy = abs(Double(y) + 0.5 - Double(side) / 2) / a
                if !shaped || pow(dx, 5) + pow(dy, 5) <= 1 { pixels[x, y] = Color(rgb: 0x2878DC) }
            }
        }
        return pixels
    }

    struct Measured {
        var outside = 0
        var badge: Rect
        var kind: String
    }

    func render(_ platform: IconPlatform, side: Int, content: BadgeContent, folder: String) throws -> Measured {
        let shaped = platform.needsContent
        let iconPixels = Self.icon(side: side, shaped: shaped)
        let path = "\(folder)/icon-\(side)-\(shaped).png"
        if !FileManager.default.fileExists(atPath: path) {
            try Data(ImageFile.pngData(of: iconPixels)).write(to: URL(fileURLWithPath: path))
        }
        var request = TestRequest(iconPath: path, content: content)
        request.platform = platform
        request.style.height = .fixed(.percent(28))
        let composition = try Renderer().compose(request)
        let layout = try #require(composition.badge.layout)
        let out = try composition.pixels()
        let visible = Self.visible(platform, side: Double(side), icon: iconPixels)
        var outside = 0
        for y in 0..<side {
            for x in 0..<side where out[x, y] != iconPixels[x, y] {
                // A badge pixel: outside when any of 4 × 4 samples in it is not visible.
                var inside = true
                for sy in 0..<4 {
                    for sx in 0..<4
                    where !visible(Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4) {
                        inside = false
                    }
                }
                if !inside { outside += 1 }
            }
        }
        return Measured(outside: outside, badge: layout.badgeRect, kind: composition.badge.isDot ? "dot" : "text")
    }

    /// The point of the visible shape farthest toward the top-right, along the
    /// diagonal from the centre (for `content`, the corner of the test squircle).
    static func corner(_ platform: IconPlatform, side s: Double) -> Point {
        func diagonal(_ radius: Double, _ n: Double) -> Point {
            let d = radius * pow(2, -1 / n)
            return Point(x: s / 2 + d, y: s / 2 - d)
        }
        switch platform {
        case .canvas: return Point(x: s, y: 0)
        case .ios: return diagonal(s / 2, 5)
        case .macos: return diagonal(s * 412 / 1024, 5)
        case .watchos, .circle: return diagonal(s / 2, 2)
        case .androidAdaptive: return diagonal(s * 33 / 108, 2)
        case .androidRound: return diagonal(s * 22 / 48, 2)
        case .content, .androidLegacy: return diagonal(s * 0.4, 5)
        }
    }

    @Test(arguments: IconPlatform.allCases)
    func badgesStayInsideTheShapeAtTheCornerAtOneRelativeSize(_ platform: IconPlatform) throws {
        #expect(Self.sizes.count == 14)
        let folder = Paths.scratch("platform-\(platform.rawValue)")
        for (name, content) in Self.contents {
            var relative: [Double] = []
            for side in Self.sizes {
                let measured = try render(platform, side: side, content: content, folder: folder)
                #expect(
                    measured.outside == 0, "\(platform.rawValue) \(name) at \(side) px: \(measured.outside) outside")
                let box = platform.shape(width: side, height: side, content: nil).box
                // The reference box: the test squircle's bounds for `content`, else the
                // platform's box (the 44 dp live area for `android-legacy`).
                let reference = platform == .content ? Double(side) * 0.8 : min(box.width, box.height)
                let badge = measured.badge
                // The corner: the badge's centre is at most its half-diagonal (it touches
                // the edge there) plus a tenth of its height plus 2 px from it.
                let corner = Self.corner(platform, side: Double(side))
                let centre = badge.center
                let distance =
                    ((centre.x - corner.x) * (centre.x - corner.x) + (centre.y - corner.y) * (centre.y - corner.y))
                    .squareRoot()
                let halfDiagonal = (badge.width * badge.width + badge.height * badge.height).squareRoot() / 2
                #expect(
                    distance <= halfDiagonal + badge.height / 10 + 2,
                    "\(platform.rawValue) \(name) at \(side) px: centre \(centre) is \(distance) px from the corner \(corner)"
                )
                // The same size relative to the icon: 28 % of the reference side for a
                // label or count (a dot: 8/18 of that), within 1 px, unless the minimum
                // sizes took over (small text drawn as a dot of 22.8 % of the side, a dot
                // of at least 4 px).
                // Text too small to read becomes a dot sized to be seen (BadgeVisibility).
                let dot =
                    name == "dot"
                    ? max(4, reference * 0.28 * 8 / 18)
                    : max(4, reference * 0.28 * 8 / 18, BadgeVisibility.dotShare * reference)
                let expected = measured.kind == "dot" ? dot : reference * 0.28
                if measured.kind == "dot", name != "dot" {
                    #expect(
                        reference * 0.28 * 12 / 18 < 7, "\(name) became a dot at \(side) px though its text is legible")
                }
                #expect(
                    abs(badge.height - expected) <= 1,
                    "\(platform.rawValue) \(name) at \(side) px: \(badge.height) px tall, expected \(expected)")
                if measured.kind != "dot" || name == "dot" { relative.append(badge.height / reference) }
            }
            #expect(!relative.isEmpty)
        }
    }
}
