import BadgeCore
import Foundation
import TestSupport
import Testing

/// Headers of each raster format, as small as the scan needs (the pixels behind a
/// header are never read).
enum Headers {
    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func le16(_ value: Int) -> [UInt8] { [0, 8].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func le32(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static func png(_ width: Int, _ height: Int) -> [UInt8] {
        PNGPreflight.signature + be32(13) + Array("IHDR".utf8) + be32(width) + be32(height) + [8, 6, 0, 0, 0]
            + [0, 0, 0, 0]
    }
    /// SOI, an APP1 segment of `padding` bytes (EXIF lives there), then SOF2.
    static func jpeg(_ width: Int, _ height: Int, padding: Int = 300) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE1] + [UInt8((padding + 2) >> 8), UInt8(truncatingIfNeeded: padding + 2)]
            + [UInt8](repeating: 0x41, count: padding)
            + [
                0xFF, 0xC2, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8),
                UInt8(width & 0xFF),
            ]
            + [UInt8](repeating: 0, count: 12)
    }
    static func gif(_ width: Int, _ height: Int) -> [UInt8] {
        Array("GIF89a".utf8) + le16(width) + le16(height) + [0, 0, 0]
    }
    static func webpVP8X(_ width: Int, _ height: Int) -> [UInt8] {
        Array("RIFF".utf8) + le32(30) + Array("WEBPVP8X".utf8) + le32(10) + [0, 0, 0, 0]
            + Array(le32(width - 1).prefix(3)) + Array(le32(height - 1).prefix(3))
    }
    static func webpVP8L(_ width: Int, _ height: Int) -> [UInt8] {
        Array("RIFF".utf8) + le32(30) + Array("WEBPVP8L".utf8) + le32(10) + [0x2F]
            + le32((width - 1) | (height - 1) << 14) + [0, 0, 0, 0, 0]
    }
    static func webpVP8(_ width: Int, _ height: Int) -> [UInt8] {
        Array("RIFF".utf8) + le32(30) + Array("WEBPVP8 ".utf8) + le32(10) + [0, 0, 0, 0x9D, 0x01, 0x2A]
            + le16(width) + le16(height)
    }
    static func bmp(_ width: Int, _ height: Int) -> [UInt8] {
        Array("BM".utf8) + le32(54) + [0, 0, 0, 0] + le32(54) + le32(40) + le32(width) + le32(-height)
            + [UInt8](repeating: 0, count: 28)
    }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// An SVG whose one image is `href`.
    static func svg(href: String, attribute: String = "xlink:href", prolog: String = "") -> [UInt8] {
        Array(
            (prolog
                + "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"64\" height=\"64\">"
                + "<image width=\"64\" height=\"64\" \(attribute)=\"\(href)\"/></svg>").utf8)
    }
}

@Suite struct SVGEmbeddedImagesTests {
    let limits = ImageLimits()

    func scan(_ document: [UInt8], _ limits: ImageLimits = ImageLimits()) throws(SVGEmbeddedImagesProblem)
        -> SVGEmbeddedImages.Summary
    {
        try SVGEmbeddedImages.scan(document, limits: limits)
    }

    func image(_ format: SVGEmbeddedImage.Format, _ width: Int, _ height: Int, depth: Int = 0) -> SVGEmbeddedImage {
        SVGEmbeddedImage(format: format, width: width, height: height, depth: depth)
    }

    @Test func everyFormatIsSizedFromItsHeader() throws {
        let cases: [([UInt8], String, SVGEmbeddedImage)] = [
            (Headers.png(300, 200), "image/png", image(.png, 300, 200)),
            (Headers.jpeg(640, 480), "image/jpeg", image(.jpeg, 640, 480)),
            (Headers.jpeg(640, 480, padding: 60_000), "image/jpeg", image(.jpeg, 640, 480)),
            (Headers.gif(17, 5), "image/gif", image(.gif, 17, 5)),
            (Headers.webpVP8X(1000, 3), "image/webp", image(.webp, 1000, 3)),
            (Headers.webpVP8L(12, 16_000), "image/webp", image(.webp, 12, 16_000)),
            (Headers.webpVP8(77, 66), "image/webp", image(.webp, 77, 66)),
            (Headers.bmp(31, 29), "image/bmp", image(.bmp, 31, 29)),
        ]
        for (bytes, type, expected) in cases {
            var limits = ImageLimits()
            limits.maxSide = 16_000
            let summary = try scan(Headers.svg(href: "data:\(type);base64,\(Headers.base64(bytes))"), limits)
            #expect(summary.images == [expected], "\(type)")
            #expect(summary.totalPixels == expected.pixels)
        }
    }

    @Test func anImageOverALimitIsNamedWithItsSize() {
        let big = Headers.svg(href: "data:image/png;base64,\(Headers.base64(Headers.png(20000, 20000)))")
        #expect(throws: SVGEmbeddedImagesProblem.sideTooLong(image(.png, 20000, 20000), limit: 8192)) {
            try scan(big)
        }
        var limits = ImageLimits()
        limits.maxPixels = 10_000
        let wide = Headers.svg(href: "data:image/gif;base64,\(Headers.base64(Headers.gif(200, 100)))")
        #expect(throws: SVGEmbeddedImagesProblem.tooManyPixels(image(.gif, 200, 100), limit: 10_000)) {
            try scan(wide, limits)
        }
        let reason = SVGEmbeddedImagesProblem.sideTooLong(image(.png, 20000, 20000), limit: 8192).reason
        #expect(reason == "holds an embedded PNG of 20000 × 20000 px, over the 8192 px limit for a side")
    }

    @Test func theSumOfAllImagesCounts() {
        let png = Headers.base64(Headers.png(6000, 6000))
        let one = "<image xlink:href=\"data:image/png;base64,\(png)\"/>"
        let document = Array(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\(one)\(one)</svg>"
                .utf8)
        #expect(throws: SVGEmbeddedImagesProblem.totalTooLarge(pixels: 72_000_000, count: 2, limit: 67_108_864)) {
            try scan(document)
        }
    }

    /// Every way XML, URLs and CSS let "data:" be spelt still finds the image.
    @Test func obfuscatedReferencesAreFound() throws {
        let png = Headers.base64(Headers.png(20000, 20000))
        let percentEncoded =
            png.prefix(4).unicodeScalars.map { String(format: "%%%02X", $0.value) }.joined()
            + png.dropFirst(4)
        let documents: [String: [UInt8]] = [
            "character reference": Headers.svg(href: "&#100;ata:image/png;base64,\(png)"),
            "hex character reference": Headers.svg(href: "&#x64;&#x41;ta:image/png;base64,\(png)"),
            "newline inside the scheme": Headers.svg(href: "da&#10;ta:image/png;base64,\(png)"),
            "leading spaces, upper case": Headers.svg(href: "  DATA:image/PNG;BASE64,\(png)"),
            "plain href": Headers.svg(href: "data:image/png;base64,\(png)", attribute: "href"),
            "base64 with line breaks": Headers.svg(
                href: "data:image/png;base64,\(png.prefix(10))\n  \(png.dropFirst(10))"),
            "percent-encoded base64": Headers.svg(href: "data:image/png;base64,\(percentEncoded)"),
            "no media type": Headers.svg(href: "data:;base64,\(png)"),
            "general entity": Headers.svg(
                href: "&img;", prolog: "<!DOCTYPE svg [<!ENTITY img \"data:image/png;base64,\(png)\">]>"),
            "entity split": Headers.svg(
                href: "&d;ata:image/png;base64,\(png)", prolog: "<!DOCTYPE svg [<!ENTITY d \"d\">]>"),
            "parameter entity": Headers.svg(
                href: "&img;",
                prolog: "<!DOCTYPE svg [<!ENTITY % p \"<!ENTITY img 'data:image/png;base64,\(png)'>\"> %p;]>"),
            "markup in an entity": Array(
                ("<!DOCTYPE svg [<!ENTITY pic \"&#60;image xlink:href='data:image/png;base64,\(png)'/>\">]>"
                    + "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">&pic;</svg>")
                    .utf8),
            "attlist default": Array(
                ("<!DOCTYPE svg [<!ATTLIST image href CDATA \"data:image/png;base64,\(png)\">]>"
                    + "<svg xmlns=\"http://www.w3.org/2000/svg\"><image/></svg>").utf8),
            "style url()": Array(
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect style=\"fill: url(data:image/png;base64,\(png))\"/></svg>"
                    .utf8),
            "css escapes": Array(
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect style='filter: \\75rl(\"\\64 ata:image/png;base64,\(png)\")'/></svg>"
                    .utf8),
            "style element, CDATA": Array(
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><style><![CDATA[rect { fill: url('data:image/png;base64,\(png)') }]]></style></svg>"
                    .utf8),
            "style element, quoted by entity": Array(
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><style>rect { fill: url(&quot;data:image/png;base64,\(png)&quot;) }</style></svg>"
                    .utf8),
            "xml-stylesheet importing CSS": Array(
                ("<?xml-stylesheet type=\"text/css\" href=\"data:text/css;base64,"
                    + Headers.base64(Array("rect { fill: url(data:image/png;base64,\(png)) }".utf8))
                    + "\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>").utf8),
        ]
        for (name, document) in documents.sorted(by: { $0.key < $1.key }) {
            do throws(SVGEmbeddedImagesProblem) {
                _ = try scan(document)
                Issue.record("\(name): not found")
            } catch {
                guard case .sideTooLong(let found, _) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(found.width == 20000 && found.height == 20000, "\(name)")
            }
        }
    }

    @Test func nestedDocumentsAreScannedToADepth() throws {
        var document = Headers.svg(href: "data:image/png;base64,\(Headers.base64(Headers.png(10, 10)))")
        for _ in 0..<3 {
            document = Headers.svg(href: "data:image/svg+xml;base64,\(Headers.base64(document))")
        }
        #expect(try scan(document).images == [image(.png, 10, 10, depth: 3)])
        let percentEncoded = Headers.svg(
            href: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E%3Cimage href='data:image/gif;base64,"
                + Headers.base64(Headers.gif(9, 9)) + "'/%3E%3C/svg%3E")
        #expect(try scan(percentEncoded).images == [image(.gif, 9, 9, depth: 1)])
        for _ in 0..<2 {
            document = Headers.svg(href: "data:image/svg+xml;base64,\(Headers.base64(document))")
        }
        #expect(throws: SVGEmbeddedImagesProblem.nestedTooDeep(limit: SVGEmbeddedImages.maxNestingDepth)) {
            try scan(document)
        }
    }

    /// What librsvg would decode without a size to check is refused, not dropped.
    @Test func unreadableContentIsRefused() {
        let cases: [(String, String)] = [
            ("data:image/png;base64,\(Headers.base64(Array(Headers.png(10, 10).prefix(20))))", "cut-short"),
            ("data:image/png;base64,\(Headers.base64([0x1F, 0x8B, 8, 0, 0, 0, 0, 0]))", "gzip"),
            ("data:image/tiff;base64,\(Headers.base64([0x49, 0x49, 0x2A, 0, 8, 0, 0, 0]))", "unknown kind"),
            (
                "data:;base64,\(Headers.base64(Array("<svg xmlns='http://www.w3.org/2000/svg' width='30000' height='30000'/>".utf8)))",
                "not image/svg+xml"
            ),
            (
                "data:;base64,\(Headers.base64(Array("/* XPM */\nstatic char *x[] = {\"30000 30000 1 1\"};".utf8)))",
                "XPM"
            ),
            ("data:image/png,just some text", "text, declared"),
            ("data:image/png;base64,iVBO!!!!", "base64 is invalid"),
        ]
        for (href, expected) in cases {
            do throws(SVGEmbeddedImagesProblem) {
                _ = try scan(Headers.svg(href: href))
                Issue.record("\(expected): accepted")
            } catch {
                guard case .unreadable(let what) = error else {
                    Issue.record("\(expected): \(error)")
                    continue
                }
                #expect(what.contains(expected), "\(what)")
                #expect(error.reason.hasSuffix("it is refused, not left out"))
            }
        }
    }

    @Test func whatLoadsNothingIsLeftAlone() throws {
        let documents = [
            Headers.svg(href: "#shape"),
            Headers.svg(href: "https://example.com/a.png"),
            Headers.svg(href: "data:image/png"),  // no comma: librsvg loads nothing
            Headers.svg(href: "data:text/plain,hello"),
            Array(
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><!-- data:image/png;base64,AAAA --><text>data: 3</text></svg>"
                    .utf8),
            Array(
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><metadata>see data:image/png;base64,AAAA</metadata></svg>"
                    .utf8),
        ]
        for document in documents {
            #expect(try scan(document).images.isEmpty, "\(String(decoding: document, as: UTF8.self))")
        }
    }

    @Test func encodingsAreReadOrRefused() throws {
        let text = String(
            decoding: Headers.svg(href: "data:image/gif;base64,\(Headers.base64(Headers.gif(5, 4)))"), as: UTF8.self)
        var utf16 = [UInt8]([0xFF, 0xFE])
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try scan(utf16).images == [image(.gif, 5, 4)])
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>".utf8) + Array(text.utf8)
        #expect(try scan(latin1).images == [image(.gif, 5, 4)])
        let utf7 = Array("<?xml version=\"1.0\" encoding=\"UTF-7\"?>".utf8) + Array(text.utf8)
        #expect(throws: SVGEmbeddedImagesProblem.unsupportedEncoding("UTF-7")) { try scan(utf7) }
        #expect(throws: SVGEmbeddedImagesProblem.unsupportedEncoding("UCS-4")) {
            try scan([0x3C, 0, 0, 0, 0x73, 0, 0, 0])
        }
    }

    @Test func entityExpansionIsBounded() {
        var prolog = "<!DOCTYPE svg [<!ENTITY a0 \"data:data:data:data:data:\">"
        for level in 1...12 {
            prolog += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        prolog += "]>"
        let document = Array((prolog + "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect class=\"&a12;\"/></svg>").utf8)
        #expect(throws: SVGEmbeddedImagesProblem.entitiesTooLarge(limit: SVGEmbeddedImages.maxEntityExpansion)) {
            try scan(document)
        }
    }

    /// The icon sets and test suites of the corpus: found images have their sizes,
    /// and only the documents made to be refused are.
    @Test func corpusDocumentsScan() throws {
        var scanned = 0
        var refused: [String] = []
        for folder in ["icons/adwaita-svg", "icons/papirus-svg", "resvg/structure/image", "librsvg/loading"] {
            let path = try Corpus.path(folder)
            for name in (try FileManager.default.contentsOfDirectory(atPath: path)).sorted()
            where name.hasSuffix(".svg") {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
                scanned += 1
                do throws(SVGEmbeddedImagesProblem) {
                    _ = try scan(bytes)
                } catch {
                    refused.append(name)
                }
            }
        }
        #expect(scanned > 50)
        #expect(refused.sorted() == ["embedded-svg-without-mime.svg", "embedded-svgz.svg"], "\(refused)")
    }
}
