import BadgeCore
import CCairo
import Foundation
import TestSupport
import Testing

@testable import BadgeRender

#if canImport(Glibc)
    import Glibc
#endif

/// A ribbon's text is laid out as a line: its glyphs keep their exact positions along
/// the rotated baseline, one subpixel rule for both directions of the canvas, and are
/// filled as outlines there, not snapped to device pixels glyph by glyph ("DEB UG":
/// the U-G gap closed and B-U opened). The gaps between letters along the band are
/// the unrotated text's.
@Suite struct RotatedTextTests {
    /// Text colour's share in a pixel over iOS's #FF3B30 fill: its green channel,
    /// 59 in the fill, 255 in the white text.
    static func ink(_ color: Color) -> Double { min(1, max(0, (Double(color.green) - 59) / 196)) }

    /// The gaps between the letters' ink along the line through `centre` at `angle`
    /// (pixels): the pixels are sampled bilinearly every 1/8 px along the line and
    /// across it (within `halfWidth`), so a rotated and an unrotated image are measured
    /// the same way; a step whose cross-section holds less than 1/4 px of ink is
    /// empty, and a gap is a run of empty steps between inked ones.
    static func gaps(_ pixels: PixelBuffer, centre: Point, angle: Double, halfWidth: Double) -> [Double] {
        func sample(_ x: Double, _ y: Double) -> Double {
            let fx = x - 0.5
            let fy = y - 0.5
            let x0 = Int(fx.rounded(.down))
            let y0 = Int(fy.rounded(.down))
            let ax = fx - Double(x0)
            let ay = fy - Double(y0)
            func at(_ x: Int, _ y: Int) -> Double {
                x < 0 || y < 0 || x >= pixels.width || y >= pixels.height ? 0 : ink(pixels[x, y])
            }
            return at(x0, y0) * (1 - ax) * (1 - ay) + at(x0 + 1, y0) * ax * (1 - ay) + at(x0, y0 + 1) * (1 - ax) * ay
                + at(x0 + 1, y0 + 1) * ax * ay
        }
        let step = 0.125
        let c = cos(angle)
        let s = sin(angle)
        var empty: [Bool] = []
        for i in -960...960 {
            let t = Double(i) * step
            var across = 0.0
            var u = -halfWidth
            while u <= halfWidth {
                across += sample(centre.x + t * c - u * s, centre.y + t * s + u * c) * step
                u += step
            }
            empty.append(across < 0.25)
        }
        guard let first = empty.firstIndex(of: false), let last = empty.lastIndex(of: false) else { return [] }
        var gaps: [Double] = []
        var run = 0
        for isEmpty in empty[first...last] {
            if isEmpty {
                run += 1
            } else if run > 0 {
                gaps.append(Double(run) * step)
                run = 0
            }
        }
        return gaps
    }

    /// The DEBUG ribbon on NewPipe's 192 px legacy icon (the case), over every
    /// corner (both diagonals, read upward and downward): the gaps between its letters
    /// along the band are within 1 px of the same shaped text's gaps drawn unrotated
    /// (the bound), and in fact within 1/2 px.
    @Test(arguments: [Anchor.topRight, .bottomLeft, .topLeft, .bottomRight])
    func ribbonGapsMatchTheUnrotatedText(corner: Anchor) throws {
        var request = TestRequest(
            iconPath: Paths.fixture("android/newpipe/res/mipmap-xxxhdpi/ic_launcher.png"), content: .value("DEBUG"))
        request.platform = .androidLegacy
        request.style.shape = .ribbon
        request.style.anchor = corner
        request.style.height = .fixed(.percent(16))
        let scene = try Renderer().compose(request)
        let layout = try #require(scene.badge.layout)
        let band = try #require(layout.band)
        let text = try #require(scene.badge.text)
        let origin = try #require(band.textOrigin)
        #expect(text.exactPositions)
        #expect(abs(abs(band.angle) - Double.pi / 4) < 1e-9)
        let rotated = Self.gaps(
            try scene.pixels(), centre: band.centre, angle: band.angle, halfWidth: band.thickness / 2 - 1)
        // The same shaped text, unrotated: drawn by the same painter on the same fill.
        let surface = try ImageSurface(width: 160, height: 60)
        let cr = try #require(cairo_create(surface.surface))
        BadgePainter.setColor(cr, .systemRed)
        cairo_paint(cr)
        let centre = Point(x: 80, y: 30)
        BadgePainter.paintText(
            text, at: Point(x: centre.x + origin.x, y: centre.y + origin.y), color: .white, into: cr,
            alongRotatedBaseline: true)
        cairo_destroy(cr)
        cairo_surface_flush(surface.surface)
        let flat = Self.gaps(surface.pixelBuffer(), centre: centre, angle: 0, halfWidth: band.thickness / 2 - 1)
        // D|E, E|B, B|U, U|G.
        #expect(flat.count == 4, "\(flat)")
        #expect(rotated.count == 4, "\(corner): \(rotated), unrotated \(flat)")
        for (along, unrotated) in zip(rotated, flat) {
            #expect(abs(along - unrotated) <= 0.5, "\(corner): along the band \(rotated), unrotated \(flat)")
        }
    }
}
