import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// PNG, SVG and PDF out: the same drawing, vector where it can be, and the same
/// bytes every time.
@Suite struct OutputFormatTests {
    static func request(_ icon: String = Paths.fixture("icons/folder-132x132.png")) -> RenderRequest {
        RenderRequest(iconPath: icon, content: .value("42"), scale: 3)
    }

    @Test func svgAndPdfAreTheSameBytesTwiceInOneProcess() throws {
        for format in [OutputFormat.svg, .pdf] {
            let first = try Renderer().compose(Self.request()).data(format: format)
            let second = try Renderer().compose(Self.request()).data(format: format)
            #expect(first == second, "\(format)")
        }
    }

    @Test func svgIdsStartFromOneWhateverCameBefore() throws {
        let svg = String(decoding: try Renderer().compose(Self.request()).svgData(), as: UTF8.self)
        #expect(svg.contains("id=\"id1\""))
        #expect(!svg.contains("surface"))
        #expect(svg.contains("width=\"132px\" height=\"132px\""))
        // The text is glyph symbols (vectors), the raster icon one embedded PNG.
        #expect(svg.contains("<symbol"))
        #expect(svg.components(separatedBy: "data:image/png;base64").count == 2)
    }

    @Test func svgOutputRenderedAgainMatchesThePNG() throws {
        let composition = try Renderer().compose(Self.request(try Corpus.path("icons/papirus-svg/firefox.svg")))
        let png = try composition.pixels()
        let reread = try ImageFile.pixels(of: try composition.svgData(), path: "out.svg")
        #expect(reread.width == png.width && reread.height == png.height)
        var worst = 0
        var over8 = 0
        for i in 0..<png.bytes.count {
            let delta = abs(Int(png.bytes[i]) - Int(reread.bytes[i]))
            worst = max(worst, delta)
            if delta > 8 { over8 += 1 }
        }
        #expect(worst <= 48, "largest channel difference \(worst)")
        #expect(over8 <= png.width * png.height / 200, "\(over8) channels differ by more than 8")
    }

    @Test func svgIconStaysVector() throws {
        let svg = String(
            decoding: try Renderer().compose(Self.request(try Corpus.path("icons/papirus-svg/firefox.svg"))).svgData(),
            as: UTF8.self)
        #expect(!svg.contains("data:image/png"))
        #expect(svg.contains("<path"))
    }

    @Test func pdfHasNoDateUnlessGiven() throws {
        let composition = try Renderer().compose(Self.request())
        let plain = String(decoding: try composition.pdfData(), as: UTF8.self)
        #expect(plain.hasPrefix("%PDF-1.5"))
        #expect(!plain.contains("CreationDate"))
        let dated = String(decoding: try composition.pdfData(creationDate: "2023-11-14T22:13:20Z"), as: UTF8.self)
        #expect(dated.contains("/CreationDate (20231114221320Z)"))
    }

    @Test func resizeHasNoDarkFringe() throws {
        // A white square on transparent, downscaled: every visible pixel stays white
        // (straight alpha), because Cairo filters premultiplied pixels.
        var pixels = PixelBuffer(width: 64, height: 64, fill: .transparent)
        for y in 16..<48 { for x in 16..<48 { pixels[x, y] = .white } }
        let path = Paths.scratch("fringe") + "/square.png"
        try Data(try ImageFile.pngData(of: pixels)).write(to: URL(fileURLWithPath: path))
        var request = TestRequest(iconPath: path, content: .value(""))
        request.iconSize = Size(width: 27, height: 27)
        let result = try Renderer().compose(request).pixels()
        #expect(result.width == 27)
        var translucent = 0
        for y in 0..<27 {
            for x in 0..<27 where result[x, y].alpha > 0 {
                let p = result[x, y]
                #expect(p.red >= 250 && p.green >= 250 && p.blue >= 250, "dark fringe at \(x),\(y): \(p)")
                if p.alpha < 255 { translucent += 1 }
            }
        }
        #expect(translucent > 0)
    }

    @Test func viewBoxOnlySVGKeepsItsAspectRatio() throws {
        let folder = Paths.scratch("viewbox")
        let svg =
            ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20" height="10" fill="#00f"/></svg>"##
        try svg.write(toFile: folder + "/wide.svg", atomically: true, encoding: .utf8)
        let natural = try Renderer().compose(
            RenderRequest(iconPath: folder + "/wide.svg", content: .value(""), scale: 3))
        #expect(natural.canvasWidth == 60 && natural.canvasHeight == 30)
        var request = TestRequest(iconPath: folder + "/wide.svg", content: .value(""))
        request.iconSize = Size(width: 40, height: 40)
        let boxed = try Renderer().compose(request).pixels()
        #expect(boxed[20, 2].alpha == 0)  // letterboxed: the 2:1 drawing is centred
        #expect(boxed[20, 20] == Color(rgb: 0x0000FF))
    }
}
