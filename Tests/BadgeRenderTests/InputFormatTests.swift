import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Every input format, sniffed from the bytes, decoded to the pixels it holds.
@Suite struct InputFormatTests {
    static let source = Paths.fixture("icons/folder-48x48.png")

    @Test(arguments: ["bmp", "ico", "tiff"])
    func losslessFormatsGiveThePNGsPixels(ext: String) throws {
        // TIFF: gdk-pixbuf 2.42 returns premultiplied pixels for it; decoding them
        // as straight alpha would darken the translucent edge (tested here).
        let decoded = try ImageFile.pixels(at: Paths.fixture("formats/folder-48.\(ext)"))
        // gdk-pixbuf's pixels come through a premultiplied buffer; compare in that form.
        #expect(try decoded.samePremultiplied(as: ImageFile.pixels(at: Self.source)))
    }

    @Test func jpegDecodesClose() throws {
        let jpeg = try ImageFile.pixels(at: Paths.fixture("formats/folder-48.jpg"))
        #expect(jpeg.width == 48 && jpeg.height == 48)
        #expect(jpeg[24, 24].alpha == 255)
        let real = try ImageFile.pixels(at: try Corpus.path("libjpeg-turbo-testimages/testorig.jpg"))
        #expect(real.width == 227 && real.height == 149)
    }

    @Test func gifGivesItsFirstFrame() throws {
        let gif = try ImageFile.pixels(at: Paths.fixture("formats/red-then-blue.gif"))
        #expect(gif.width == 16)
        #expect(gif[8, 8] == Color(rgb: 0xFF0000))
    }

    @Test func webpDecodes() throws {
        let webp = try ImageFile.pixels(at: Paths.fixture("formats/resvg-image.webp"))
        #expect(webp.width > 0 && webp[webp.width / 2, webp.height / 2].alpha > 0)
    }

    @Test func svgAndSvgzRenderTheSame() throws {
        let svg = try ImageFile.pixels(at: try Corpus.path("resvg/resources/image.svg"))
        let svgz = try ImageFile.pixels(at: try Corpus.path("resvg/resources/image.svgz"))
        #expect(svg.width > 0)
        #expect(svg == svgz)
    }

    @Test func extensionIsOnlyAHint() throws {
        let folder = Paths.scratch("sniff")
        try FileManager.default.copyItem(
            atPath: Paths.fixture("formats/folder-48.jpg"), toPath: folder + "/really-a-jpeg.png")
        try FileManager.default.copyItem(atPath: Self.source, toPath: folder + "/really-a-png.jpg")
        #expect(try ImageFile.pixels(at: folder + "/really-a-jpeg.png").width == 48)
        #expect(try ImageFile.pixels(at: folder + "/really-a-png.jpg") == (try ImageFile.pixels(at: Self.source)))
    }

    @Test func unsupportedBytesAre65NamingTheFormats() {
        #expect(
            throws: BadgeError.badInput(
                path: Paths.root + "/Package.swift",
                reason: "is not a supported image (PNG, SVG, SVGZ, JPEG, WebP, GIF, BMP, TIFF or ICO)")
        ) {
            try ImageFile.pixels(at: Paths.root + "/Package.swift")
        }
    }

    @Test func externalReferencesAreNeverRead() throws {
        // librsvg's CVE-2023-38633 case: an XInclude of /etc/passwd. With no base
        // file, the include is refused and the fallback text is drawn, exactly as
        // in the reference document that has only the fallback.
        let hostile = try ImageFile.pixels(at: try Corpus.path("librsvg/loading/disallowed-996.svg"))
        let reference = try ImageFile.pixels(at: try Corpus.path("librsvg/loading/disallowed-996-ref.svg"))
        #expect(hostile == reference)
    }

    /// librsvg's bug515: 40,811 bytes of SVGZ that gunzip to 20,971,588 bytes (a
    /// million elements). Decompression stops at the SVG size limit, whichever it is,
    /// and librsvg never sees the document: the refusal names that limit.
    @Test func svgzBombStopsAtTheLimit() throws {
        let path = try Corpus.path("librsvg/errors/bug515-too-many-elements.svgz")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == 40_811)
        #expect(
            throws: BadgeError.badInput(
                path: path, reason: "decompresses to more than the 10485760-byte limit for an SVG")
        ) {
            try ImageFile.pixels(at: path)
        }
        var small = ImageLimits()
        small.maxSVGBytes = 1 << 20
        #expect(
            throws: BadgeError.badInput(
                path: path, reason: "decompresses to more than the 1048576-byte limit for an SVG")
        ) {
            try ImageFile.pixels(at: path, limits: small)
        }
    }

    @Test func pixbufSizeIsCheckedBeforeDecoding() throws {
        // A GIF whose header claims 30000 × 30000 pixels, in 35 bytes.
        var gif: [UInt8] = Array("GIF89a".utf8) + [0x30, 0x75, 0x30, 0x75, 0x00, 0x00, 0x00]
        gif += [0x2C, 0, 0, 0, 0, 0x30, 0x75, 0x30, 0x75, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        #expect(throws: BadgeError.self) { try ImageFile.pixels(of: gif, path: "huge.gif") }
        do {
            _ = try ImageFile.pixels(of: gif, path: "huge.gif")
        } catch {
            #expect(error.exitCode == .dataError)
            #expect(error.message.contains("30000 × 30000"), "\(error.message)")
        }
    }
}
