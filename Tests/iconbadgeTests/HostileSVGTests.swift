import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// Small PNG and SVG makers for hostile documents, generated into scratch folders.
enum HostileFiles {
    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    /// zlib data of `count` zero bytes (see `zlibRun`).
    static func zlibZeros(_ count: Int) -> [UInt8] { zlibRun(of: 0, count) }

    /// zlib data of `count` copies of `byte` (≤ 143): one fixed-Huffman block holding
    /// the literal, then matches of length 258 at distance 1 (RFC 1951, 3.2.6), 13 bits
    /// each, about 1 : 160.
    static func zlibRun(of byte: UInt8, _ count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var buffer: UInt64 = 0
        var filled = 0
        func bits(_ value: Int, _ n: Int) {
            buffer |= UInt64(value) << UInt64(filled)
            filled += n
            while filled >= 8 {
                out.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                filled -= 8
            }
        }
        func code(_ value: Int, _ n: Int) {  // Huffman codes go most significant bit first
            var reversed = 0
            for i in 0..<n { reversed |= (value >> i & 1) << (n - 1 - i) }
            bits(reversed, n)
        }
        let literal = 0x30 + Int(byte)  // literals 0–143 are 8-bit codes from 0x30
        bits(1, 1)  // BFINAL
        bits(1, 2)  // fixed Huffman
        code(literal, 8)
        var left = count - 1
        while left >= 258 {
            code(0xC5, 8)  // length 258 (code 285)
            code(0, 5)  // distance 1
            left -= 258
        }
        for _ in 0..<left { code(literal, 8) }
        code(0, 7)  // end of block
        if filled > 0 { out.append(UInt8(buffer & 0xFF)) }
        // Adler-32 (RFC 1950): a = 1 + Σ byte, b = Σ a after each byte.
        let modulus = 65521
        let v = Int(byte)
        let a = (1 + v * (count % modulus)) % modulus
        let triangle =
            count % 2 == 0
            ? (count / 2 % modulus) * ((count + 1) % modulus) : (count % modulus) * ((count + 1) / 2 % modulus)
        let b = (count % modulus + v * (triangle % modulus)) % modulus
        return out + be32(b << 16 | a)
    }

    /// A valid, black, 1-bit greyscale PNG of `side`² pixels, a few kilobytes.
    static func blackPNG(side: Int) -> [UInt8] {
        let raw = side * (1 + (side + 7) / 8)
        return PNGPreflight.signature + chunk("IHDR", be32(side) + be32(side) + [1, 0, 0, 0, 0])
            + chunk("IDAT", zlibZeros(raw)) + chunk("IEND", [])
    }

    /// A PNG whose header claims `width` × `height` and whose data is cut short.
    static func lyingPNG(_ width: Int, _ height: Int) -> [UInt8] {
        PNGPreflight.signature + chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF]) + chunk("IEND", [])
    }

    /// A 64 px SVG: a green square with `image` (a data: URL) over it.
    static func svg(embedding href: String, side: Int = 64) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"\(side)\" height=\"\(side)\">"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#33aa33\"/>"
            + "<image x=\"8\" y=\"8\" width=\"48\" height=\"48\" xlink:href=\"\(href)\"/></svg>"
    }

    static func dataURL(_ bytes: [UInt8], type: String = "image/png") -> String {
        "data:\(type);base64,\(Data(bytes).base64EncodedString())"
    }

    static func write(_ text: String, _ path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// Issue 15, item 4: every render of untrusted SVG, for every output format and every
/// badge image, runs under the same limits at the size it is finally drawn at.
@Suite struct HostileSVGTests {
    static let formats = ["png", "svg", "pdf"]

    /// Pixels of an output: PNG and SVG through iconbadge's own decoder, PDF through
    /// poppler's pdftocairo at 72 dpi (one pixel a point, as the canvas).
    static func pixels(of path: String) throws -> PixelBuffer {
        guard path.hasSuffix(".pdf") else { return try ImageFile.pixels(at: path) }
        let base = String(path.dropLast(4)) + "-pdf"
        let run = try runIconbadgeWith(
            executable: "/usr/bin/pdftocairo", ["-png", "-transp", "-r", "72", "-singlefile", path, base])
        #expect(run.status == 0, "pdftocairo (poppler-utils, installed by make deps): \(run.stderr)")
        return try ImageFile.pixels(at: base + ".png")
    }

    /// Channels that differ by more than 24 (anti-aliasing differs between Cairo
    /// and poppler on edges), as a fraction of all.
    static func differing(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        guard a.width == b.width, a.height == b.height else { return 1 }
        var count = 0
        for i in 0..<a.bytes.count where abs(Int(a.bytes[i]) - Int(b.bytes[i])) > 24 { count += 1 }
        return Double(count) / Double(a.bytes.count)
    }

    /// The same SVG as PNG, SVG and PDF: all exit 65 with one message, or all draw
    /// the same picture.
    static func expectAgreement(
        _ icon: String, _ folder: String, badge: [String] = ["--dot"], extra: [String] = [], _ note: String
    ) throws -> Int32 {
        var statuses: [Int32] = []
        var messages: [String] = []
        for format in formats {
            let run = try runIconbadge([icon] + badge + extra + ["-o", "\(folder)/out.\(format)"])
            statuses.append(run.status)
            messages.append(run.stderr)
        }
        #expect(Set(statuses).count == 1, "\(note): exits \(statuses): \(messages)")
        #expect(Set(messages).count == 1, "\(note): \(messages)")
        if statuses.allSatisfy({ $0 == 0 }) {
            let png = try pixels(of: "\(folder)/out.png")
            for format in ["pdf", "svg"] {
                let other = try pixels(of: "\(folder)/out.\(format)")
                #expect(Self.differing(png, other) < 0.02, "\(note): \(format) differs from png")
            }
        }
        return statuses[0]
    }

    /// The child used to drop an embedded image it could not allocate (1 GiB), while
    /// the vector outputs drew it in this process: a 12000² image was green in PNG and
    /// black in PDF. Now both are refused; a small image is drawn alike in all three.
    @Test func rasterAndVectorOutputsAgreeOrBothFail() throws {
        let folder = Paths.scratch("agree")
        let huge = HostileFiles.blackPNG(side: 12000)
        try HostileFiles.write(HostileFiles.svg(embedding: HostileFiles.dataURL(huge)), folder + "/huge.svg")
        #expect(try Self.expectAgreement(folder + "/huge.svg", folder, "12000² image") == 65)
        let run = try runIconbadge([folder + "/huge.svg", "--dot", "-o", folder + "/out.pdf"])
        #expect(run.stderr.contains("holds an embedded PNG of 12000 × 12000 px, over the 8192 px limit for a side"))
        // Within the side limit and over the pixel limit: the same for all three.
        #expect(
            try Self.expectAgreement(folder + "/huge.svg", folder, extra: ["--max-side", "12000"], "pixel limit")
                == 65)

        let small = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.fixture("icons/folder-48x48.png"))))
        try HostileFiles.write(HostileFiles.svg(embedding: HostileFiles.dataURL(small)), folder + "/small.svg")
        #expect(try Self.expectAgreement(folder + "/small.svg", folder, "48 px image") == 0)
        // Drawn at all, not left out: the folder's pixels are there in every output.
        let png = try ImageFile.pixels(at: folder + "/out.png")
        #expect(png[32, 40] != Color(rgb: 0x33AA33))
    }

    /// 519 KB of SVG held a 20000² PNG: 3.15 GB and 20-50 s for SVG and PDF outputs.
    /// The header alone now refuses it, for every format, however it is referenced.
    @Test func embeddedImagesOverTheLimitsAreRefusedForEveryFormat() throws {
        let folder = Paths.scratch("embedded")
        let url = HostileFiles.dataURL(HostileFiles.lyingPNG(20000, 20000))
        let base64 = String(url.dropFirst("data:image/png;base64,".count))
        let inner = HostileFiles.svg(embedding: url)
        let documents = [
            "plain": HostileFiles.svg(embedding: url),
            "character reference": HostileFiles.svg(embedding: "&#100;ata:image/png;base64," + base64),
            "nested svg": HostileFiles.svg(embedding: HostileFiles.dataURL(Array(inner.utf8), type: "image/svg+xml")),
            "css":
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\"><style>rect { fill: url('\(url)') }</style><rect width=\"9\" height=\"9\"/></svg>",
        ]
        for (name, text) in documents.sorted(by: { $0.key < $1.key }) {
            try HostileFiles.write(text, folder + "/in.svg")
            for format in Self.formats {
                let run = try runIconbadge([folder + "/in.svg", "--value", "3", "-o", "\(folder)/out.\(format)"])
                #expect(run.status == 65, "\(name) \(format): \(run.status) \(run.stderr)")
                #expect(
                    run.stderrLines == [
                        "iconbadge: error: \"\(folder)/in.svg\": holds an embedded PNG of 20000 × 20000 px, over the 8192 px limit for a side (the limits are set with --max-side and --max-pixels)"
                    ], "\(name) \(format)")
                #expect(!FileManager.default.fileExists(atPath: "\(folder)/out.\(format)"))
            }
        }
        // From standard input too (read once, drawn as pixels and as vectors).
        let stdin = Data(HostileFiles.svg(embedding: url).utf8)
        let run = try runIconbadge(["-", "--value", "3", "--format", "pdf", "-o", "-"], stdin: stdin)
        #expect(run.status == 65 && run.stderr.contains("20000 × 20000"), "\(run.stderr)")
        let benign = Data(HostileFiles.svg(embedding: "#none").utf8)
        let fromStdin = try runIconbadge(["-", "--value", "3", "--format", "pdf", "-o", "-"], stdin: benign)
        try benign.write(to: URL(fileURLWithPath: folder + "/benign.svg"))
        let fromFile = try runIconbadge([folder + "/benign.svg", "--value", "3", "--format", "pdf", "-o", "-"])
        #expect(fromStdin.status == 0 && fromStdin.stdout == fromFile.stdout, "\(fromStdin.stderr)")
    }

    /// An SVG whose size cannot be read inside the document is refused in every
    /// format, not drawn in one and dropped in another.
    @Test func unreadableEmbeddedImagesAreRefused() throws {
        let folder = Paths.scratch("unreadable")
        let xpm = Array("/* XPM */\nstatic char *x[] = {\"30000 30000 1 1\", \"a c #ff0000\"};".utf8)
        try HostileFiles.write(HostileFiles.svg(embedding: HostileFiles.dataURL(xpm, type: "")), folder + "/x.svg")
        for format in Self.formats {
            let run = try runIconbadge([folder + "/x.svg", "--dot", "-o", "\(folder)/out.\(format)"])
            #expect(run.status == 65, "\(format): \(run.stderr)")
            #expect(run.stderr.contains("whose size cannot be read (an XPM, XBM or PNM image"), "\(run.stderr)")
        }
    }

    /// librsvg's pattern billion-laughs: cheap as pixels, 1.28 GB drawn as vectors in
    /// the parent before. Recorded by iconbadge-loader for the vector output, its 62 MB
    /// of nested patterns stop at the recording's limit (`IsolatedLoader.scriptLimit`,
    /// 22 MiB here), 65, before the capped child would have to replay them.
    @Test(
        .enabled(
            if: IsolatedLoader.memoryCapEnforced,
            "a sanitizer build: the isolated loader runs without its memory cap (RLIMIT_DATA), which ASan/TSan shadow memory would pass"
        )) func patternBillionLaughsStopsAtTheCap() throws
    {
        let folder = Paths.scratch("laughs")
        let icon = try Corpus.path("librsvg/errors/bug515-pattern-billion-laughs.svg")
        for format in ["svg", "pdf"] {
            let run = try runIconbadge([icon, "--value", "3", "--svg-time-limit", "0", "-o", "\(folder)/o.\(format)"])
            #expect(run.status == 65, "\(format): \(run.status) \(run.stderr)")
            #expect(
                run.stderrLines.count == 1
                    && run.stderr.contains(
                        "SVG too complex: drawing it as vectors takes more than 22 MiB of drawing commands"),
                "\(run.stderr)")
        }
    }

    /// An SVG badge of 1 px was checked at 1 px and drawn at 500 px in the parent (4.1
    /// GB). It is drawn at its drawn size now: in a raster that shows its detail, in
    /// vectors in the capped child.
    @Test func svgBadgeIsRenderedAtItsDrawnSize() throws {
        let folder = Paths.scratch("badge-size")
        // 1 × 1 px, left half red and right half blue: a 1 px render is purple.
        try HostileFiles.write(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\" viewBox=\"0 0 10 10\">"
                + "<rect width=\"5\" height=\"10\" fill=\"#ff0000\"/><rect x=\"5\" width=\"5\" height=\"10\" fill=\"#0000ff\"/></svg>",
            folder + "/badge.svg")
        let icon = Paths.fixture("icons/folder-48x48.png")
        let run = try runIconbadge([
            icon, "--image", folder + "/badge.svg", "--image-size", "40x40", "--anchor", "center", "-o",
            folder + "/out.png",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let pixels = try ImageFile.pixels(at: folder + "/out.png")
        #expect(pixels[10, 24] == Color(rgb: 0xFF0000), "\(pixels[10, 24])")
        #expect(pixels[37, 24] == Color(rgb: 0x0000FF), "\(pixels[37, 24])")
        // Raster and vector outputs agree.
        #expect(
            try Self.expectAgreement(
                icon, folder, badge: ["--image", folder + "/badge.svg", "--image-size", "40x40"], "badge") == 0)

        // The limits apply at the drawn size: 40 × 40 is over 1,000 pixels.
        try HostileFiles.write(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"20\"><rect width=\"20\" height=\"20\"/></svg>",
            folder + "/icon.svg")
        for format in Self.formats {
            let limited = try runIconbadge([
                folder + "/icon.svg", "--image", folder + "/badge.svg", "--image-size", "40x40", "--overflow", "clip",
                "--max-pixels", "1000", "-o", "\(folder)/limited.\(format)",
            ])
            #expect(limited.status == 65, "\(format): \(limited.stderr)")
            #expect(limited.stderr.contains("40 × 40 = 1600 px, over the 1000 pixel limit"), "\(limited.stderr)")
        }
    }

    /// The 1 px badge whose content explodes when drawn large (a pattern
    /// billion-laughs): refused in the vector outputs at its drawn size, by the limit of
    /// its recording (`IsolatedLoader.scriptLimit`, which grows with the canvas).
    @Test(
        .enabled(
            if: IsolatedLoader.memoryCapEnforced,
            "a sanitizer build: the isolated loader runs without its memory cap (RLIMIT_DATA), which ASan/TSan shadow memory would pass"
        )) func hostileSVGBadgeStopsAtTheCapAtItsDrawnSize() throws
    {
        let folder = Paths.scratch("badge-laughs")
        let laughs = try String(
            contentsOfFile: try Corpus.path("librsvg/errors/bug515-pattern-billion-laughs.svg"), encoding: .utf8)
        try HostileFiles.write(
            laughs.replacingOccurrences(of: "width=\"40cm\" height=\"20cm\"", with: "width=\"1\" height=\"1\""),
            folder + "/badge.svg")
        for format in ["svg", "pdf"] {
            let run = try runIconbadge([
                Paths.fixture("icons/folder-512x512.png"), "--image", folder + "/badge.svg", "--image-size", "500x500",
                "--svg-time-limit", "0", "-o", "\(folder)/out.\(format)",
            ])
            #expect(run.status == 65, "\(format): \(run.status) \(run.stderr)")
            #expect(
                run.stderr.contains(
                    "badge.svg\": SVG too complex: drawing it as vectors takes more than 17 MiB of drawing commands"),
                "\(run.stderr)")
        }
    }

    /// 177 bytes of nested mix-blend-mode at 4096 px made Cairo's SVG surface draw
    /// 17067² fallback images (2.3 GB; at 8192 px, exit 70 "no error has occurred").
    /// The fallback image now stays within 2048² pixels; here at 1024 px (was 4267²).
    @Test func svgFallbackImagesStayWithinTheirBudget() throws {
        let folder = Paths.scratch("blend")
        try HostileFiles.write(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1024\" height=\"1024\"><g style=\"mix-blend-mode:multiply\"><g style=\"mix-blend-mode:screen\"><rect width=\"1\" height=\"1\"/></g></g></svg>",
            folder + "/blend.svg")
        let run = try runIconbadge([folder + "/blend.svg", "--value", "3", "-o", folder + "/out.svg"])
        #expect(run.status == 0, "\(run.stderr)")
        let svg = try String(contentsOfFile: folder + "/out.svg", encoding: .utf8)
        let sizes = svg.matches(of: /<image[^>]*? width="(\d+)" height="(\d+)"/).map { (Int($0.1)!, Int($0.2)!) }
        #expect(!sizes.isEmpty)
        for (width, height) in sizes { #expect(width * height <= 2048 * 2048, "\(width) × \(height)") }
    }

    /// A document of many tiny elements costs librsvg about 2.5 KB an element: 3.6 MB
    /// of `<g/>` needed 1.1 GB. Its cap grows with its size only.
    @Test(
        .enabled(
            if: IsolatedLoader.memoryCapEnforced,
            "a sanitizer build: the isolated loader runs without its memory cap (RLIMIT_DATA), which ASan/TSan shadow memory would pass"
        )) func elementBombStopsAtTheCap() throws
    {
        let folder = Paths.scratch("elements")
        try HostileFiles.write(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\">"
                + String(repeating: "<g/>", count: 900_000) + "</svg>", folder + "/many.svg")
        let run = try runIconbadge([
            folder + "/many.svg", "--value", "3", "--svg-time-limit", "0", "-o", folder + "/o.pdf",
        ])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("decoding it ran out of memory"), "\(run.stderr)")
    }

    /// A 349-byte SVG whose gradient repeats every 10⁻⁸ px: Cairo's PDF writer wrote one
    /// reference a repetition (2 GB in 73 s). The output stops at its limit
    /// (`Scene.outputLimit`, 64 MiB and 8 bytes a pixel), 65, nothing written; with a
    /// period Cairo writes compactly the same SVG is drawn.
    @Test func aPDFThatWouldGrowWithoutBoundStopsAtTheOutputLimit() throws {
        let folder = Paths.scratch("repeat-gradient")
        func svg(_ x2: String) -> String {
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\" viewBox=\"0 0 64 64\"><defs>"
                + "<linearGradient id=\"g\" x1=\"0\" x2=\"\(x2)\" spreadMethod=\"repeat\"><stop offset=\"0\" stop-color=\"red\"/>"
                + "<stop offset=\"1\" stop-color=\"blue\"/></linearGradient></defs>"
                + "<rect width=\"64\" height=\"64\" fill=\"url(#g)\"/></svg>"
        }
        try HostileFiles.write(svg("0.00000001"), folder + "/repeat.svg")
        let run = try runIconbadge([folder + "/repeat.svg", "--value", "3", "-o", folder + "/o.pdf"])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(
            run.stderr.contains("repeat.svg\": SVG too complex: drawing it as PDF writes more than 65 MiB"),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/o.pdf"))
        try HostileFiles.write(svg("0.25"), folder + "/tame.svg")
        let tame = try runIconbadge([folder + "/tame.svg", "--value", "3", "-o", folder + "/t.pdf"])
        #expect(tame.status == 0, "\(tame.stderr)")
    }
}
