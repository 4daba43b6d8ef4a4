import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Cairo keeps pixels premultiplied, and at low alpha many straight colours share
/// one premultiplied value: PngSuite's basn4a08 (grey with alpha) has 453 of 1024
/// pixels whose colour does not survive the round trip. A render must still give
/// the icon's own samples wherever the badge does not draw.
@Suite struct StraightAlphaTests {
    static var greyAlpha: String { get throws { try Corpus.path("pngsuite/basn4a08.png") } }

    /// Straight → premultiplied → straight, Cairo's rounding both ways (cairo-png.c).
    static func premultipliedRoundTrip(_ pixels: PixelBuffer) -> PixelBuffer {
        var bytes = pixels.bytes
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let a = UInt32(bytes[i + 3])
            for c in 0..<3 {
                if a == 0 {
                    bytes[i + c] = 0
                } else if a < 255 {
                    let t = a * UInt32(bytes[i + c]) + 0x80
                    let premultiplied = (t + (t >> 8)) >> 8
                    bytes[i + c] = UInt8((premultiplied * 255 + a / 2) / a)
                }
            }
        }
        return PixelBuffer(width: pixels.width, height: pixels.height, bytes: bytes)
    }

    /// The problem is real for this file: without the restore, pixels would change.
    @Test func premultiplicationLosesColours() throws {
        let source = try ImageFile.pixels(at: Self.greyAlpha)
        let roundTrip = Self.premultipliedRoundTrip(source)
        let changed = (0..<source.height).flatMap { y in (0..<source.width).map { (x: $0, y: y) } }
            .filter { source[$0.x, $0.y] != roundTrip[$0.x, $0.y] }.count
        #expect(changed == 453)
    }

    @Test(arguments: ["pngsuite/basn4a08.png", "pngsuite/basn6a08.png"])
    func hiddenBadgeGivesTheIconsSamples(name: String) throws {
        let path = try Corpus.path(name)
        let source = try ImageFile.pixels(at: path)
        let composition = try Renderer().compose(RenderRequest(iconPath: path, content: .value("")))
        #expect(composition.badge.hidden != nil)
        #expect(try composition.pixels() == source)
        let written = try composition.pngData(consumingIcon: true)
        #expect(try ImageFile.pixels(of: written, path: "out.png") == source)
    }

    /// Outside the badge's rectangle (one pixel of antialiasing around it), every
    /// pixel is the icon's, also when `expand` moves the icon on a larger canvas
    /// and when a batch shares the decoded icon through an `IconCache`.
    @Test(arguments: [Overflow.clamp, .expand]) func pixelsOutsideTheBadgeAreTheIcons(overflow: Overflow) throws {
        let source = try ImageFile.pixels(at: Self.greyAlpha)
        var request = TestRequest(iconPath: try Self.greyAlpha, content: .value("7"))
        request.style.overflow = overflow
        request.style.offset = Offset(dx: .points(4), dy: .points(-4))
        let renderer = try Renderer()
        let single = try renderer.compose(request)
        let cached = try renderer.compose(request, cache: IconCache())
        let layout = try #require(single.badge.layout)
        let icon = layout.iconRect
        if overflow == .expand { #expect(icon.x == 0 && icon.y > 0) }
        let badge = layout.badgeRect
        var outside = 0
        var differ = 0
        let pixels = try PixelBuffer.decodePNG(single.pngData(consumingIcon: true))
        #expect(try cached.pixels() == pixels)
        for y in 0..<source.height {
            for x in 0..<source.width {
                let cx = x + Int(icon.x)
                let cy = y + Int(icon.y)
                let near =
                    Double(cx) >= badge.minX - 1 && Double(cx) < badge.maxX + 1 && Double(cy) >= badge.minY - 1
                    && Double(cy) < badge.maxY + 1
                if near { continue }
                outside += 1
                if pixels[cx, cy] != source[x, y] { differ += 1 }
            }
        }
        #expect(outside > 500)
        #expect(differ == 0)
    }

    /// What goldens go through: straight pixels written as PNG and read back.
    @Test func writingStraightPixelsIsExact() throws {
        let source = try ImageFile.pixels(at: Self.greyAlpha)
        for compression in PNGCompression.allCases {
            let bytes = try ImageFile.pngData(of: source, compression: compression)
            #expect(try ImageFile.pixels(of: bytes, path: "again.png") == source)
        }
    }
}

extension PixelBuffer {
    fileprivate static func decodePNG(_ bytes: [UInt8]) throws -> PixelBuffer {
        try ImageFile.pixels(of: bytes, path: "render.png")
    }
}
