import BadgeCore
import CCairo
import Foundation
import TestSupport
import Testing

@testable import BadgeRender

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SVG and PDF outputs that draw an SVG document: drawn in this process from the
/// scene, the document recorded by iconbadge-loader and replayed here within its bounds.
@Suite struct VectorRenderTests {
    /// Cairo's fallback images keep 300 ppi for icon sizes (their bytes unchanged),
    /// and never pass 2048² pixels for a canvas under that.
    @Test func fallbackResolutionIsBounded() {
        #expect(Scene.fallbackResolution(canvasPixels: 64 * 64) == 300)
        #expect(Scene.fallbackResolution(canvasPixels: 491 * 491) == 300)
        #expect(Scene.fallbackResolution(canvasPixels: 1024 * 1024) == 144)
        #expect(Scene.fallbackResolution(canvasPixels: 8192 * 8192) == 72)
        for side in [492, 700, 1024, 2048] {
            #expect(Scene.fallbackPixels(canvasPixels: side * side) <= 2048 * 2048 + 1, "\(side)")
        }
    }

    /// Text drawn as written (`--text`) is drawn as text in the SVG too: a build number
    /// on an SVG icon is 1234, not the count 99+.
    @Test func verbatimTextIsDrawnAsWritten() throws {
        var request = TestRequest(
            iconPath: Paths.fixture("icons/mail-unread-symbolic.svg"), content: .value("1234"), scale: 16)
        request.labelRules.verbatim = true
        request.style.height = .fixed(3)
        request.style.fontSize = 2
        request.style.padding = Padding(horizontal: 1, vertical: 1)
        let verbatim = try Renderer().compose(request)
        #expect(verbatim.badge.label == "1234")
        request.labelRules.verbatim = false
        let count = try Renderer().compose(request)
        #expect(count.badge.label == "99+")
        #expect(try verbatim.svgData() != (try count.svgData()))
    }

    /// A scene drawn twice gives the same bytes, for SVG and PDF, with an SVG icon and
    /// with an SVG badge: nothing of the first replay is left in Cairo's caches that
    /// changes the second.
    @Test func aSceneDrawsTheSameBytesTwice() throws {
        let folder = Paths.scratch("vector-twice")
        try
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"12\" height=\"12\"><circle cx=\"6\" cy=\"6\" r=\"5\" fill=\"#0a0\"/></svg>"
            .write(toFile: folder + "/badge.svg", atomically: true, encoding: .utf8)
        let requests = [
            RenderRequest(iconPath: try Corpus.path("icons/papirus-svg/firefox.svg"), content: .value("42"), scale: 2),
            RenderRequest(
                iconPath: Paths.fixture("icons/folder-48x48.png"), content: .image(path: folder + "/badge.svg")),
        ]
        for request in requests {
            let scene = try Renderer().compose(request)
            #expect(scene.drawsSVG)
            let svg = try scene.svgData()
            #expect(svg.count > 100)
            #expect(try scene.svgData() == svg, "\(request.icon.path)")
            #expect(try Renderer().compose(request).svgData() == svg, "\(request.icon.path)")
            let pdf = try scene.pdfData(creationDate: "2023-11-14T22:13:20Z")
            #expect(try scene.pdfData(creationDate: "2023-11-14T22:13:20Z") == pdf, "\(request.icon.path)")
        }
    }

    /// A recorded drawing's compressed strings (images and fonts) are inflated within
    /// `inflatedLimit` in all, checked on their declared lengths before anything is
    /// allocated: a deflated string can claim a thousand times its size, which the
    /// script's own limit does not bound. It was bounded by the memory cap of the child
    /// that replayed it; replayed here, it is refused at the limit (65).
    @Test func inflatedStringsStayWithinTheirLimit() throws {
        let string = Self.compressedString(zeros: 1000)
        let one = "%!CairoScript\n" + string + " pop\n"
        let two = "%!CairoScript\n" + string + " pop\n" + string + " pop\n"
        // Within the limit: replayed.
        try Self.replay(one, limit: 1000)
        try Self.replay(two, limit: 2000)
        // One byte over, for one string or for both together.
        for (script, limit) in [(one, 999), (two, 1999)] {
            #expect(
                throws: BadgeError.badInput(
                    path: "x.svg",
                    reason: "SVG too complex: drawing it as vectors inflates to more than 1 MiB of images and fonts"
                )
            ) { try Self.replay(script, limit: limit) }
        }
        // A string that claims 4 GiB is refused by its claim, not inflated.
        let claim = "%!CairoScript\n" + Self.compressedString(zeros: 10, claiming: 0xFFFF_FFF0) + " pop\n"
        #expect(
            throws: BadgeError.badInput(
                path: "x.svg",
                reason: "SVG too complex: drawing it as vectors inflates to more than 64 MiB of images and fonts"
            )
        ) { try Self.replay(claim, limit: 64 << 20) }
    }

    /// A compressed string whose base85 holds runs of `z` (four zero bytes each, one
    /// character: deflated zeros, as a filter's result holds) is replayed. Its room was
    /// sized at four bytes for five characters, and a filter-heavy SVG's PDF was
    /// refused as "the recorded drawing is malformed".
    @Test func zeroRunsInACompressedStringAreReplayed() throws {
        let string = Self.compressedString(zeros: 4000)
        #expect(string.filter { $0 == "z" }.count >= 990)
        try Self.replay("%!CairoScript\n" + string + " pop\n", limit: 4000)
    }

    /// The limit: four times the script's, which replaying had in the child.
    @Test func inflatedLimitIsFourTimesTheScriptLimit() {
        #expect(
            IsolatedLoader.inflatedLimit(extentPixels: 64 * 64, embeddedPixels: 0)
                == 4 * ((16 << 20) + 6 * 64 * 64))
        #expect(
            IsolatedLoader.inflatedLimit(extentPixels: 0, embeddedPixels: 100)
                == 4 * ((16 << 20) + 600))
    }

    /// A drawing's commands (all but its images and fonts) are held to
    /// `commandLimit` bytes before the interpreter runs, whatever the canvas or the
    /// document's size: a padded pattern billion-laughs had lifted the recording's
    /// limit and took 1.4 GB to replay. A comment is a command here: at the limit it
    /// replays (drawing nothing), one byte over it is refused.
    @Test func drawingCommandsAreBoundedBeforeReplay() throws {
        let header = "%!CairoScript\n%"
        let atLimit = header + String(repeating: "x", count: IsolatedLoader.commandLimit - header.utf8.count)
        try Self.replay(atLimit, limit: 0)
        #expect {
            try Self.replay(atLimit + "x", limit: 0)
        } throws: { error in
            guard case .badInput(_, let reason) = error as? BadgeError else { return false }
            return reason == "SVG too complex: drawing it as vectors takes more than 16 MiB of drawing commands"
        }
    }

    /// Gradient colour stops are counted before replay: one over `colorStopLimit` is
    /// refused whatever follows; at the limit the script goes to the interpreter
    /// (which refuses these bare operators for its own reason).
    @Test func colourStopsAreBoundedBeforeReplay() {
        let stops = { (count: Int) in "%!CairoScript\n" + String(repeating: "add-color-stop\n", count: count) }
        #expect {
            try Self.replay(stops(IsolatedLoader.colorStopLimit + 1), limit: 0)
        } throws: { error in
            guard case .badInput(_, let reason) = error as? BadgeError else { return false }
            return reason == "SVG too complex: drawing it as vectors takes more than 16384 gradient colour stops"
        }
        #expect {
            try Self.replay(stops(IsolatedLoader.colorStopLimit), limit: 0)
        } throws: { error in
            "\(error)".contains("colour stops") == false
        }
    }

    /// Replays `script` onto a 4 × 4 image surface with `limit` bytes for its
    /// inflated strings.
    static func replay(_ script: String, limit: Int) throws(BadgeError) {
        let bytes = Array(script.utf8)
        let copy = malloc(bytes.count)!.assumingMemoryBound(to: UInt8.self)
        copy.update(from: bytes, count: bytes.count)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        try SVGSource.replay(
            IsolatedLoader.RecordedDrawing(script: copy, size: bytes.count, replayMatrix: [1, 0, 0, 1, 0, 0]),
            into: cr, inflatedLimit: limit, path: "x.svg")
    }

    /// A Cairo script compressed string, `<|` base85 of a 4-byte big-endian length and
    /// zlib data `~>`, of `zeros` zero bytes in a stored (uncompressed) deflate block
    /// (its groups of four zero bytes written `z`, as Cairo writes them);
    /// `claiming` writes another length.
    static func compressedString(zeros: Int, claiming: UInt32? = nil) -> String {
        let data = [UInt8](repeating: 0, count: zeros)
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let adler = b << 16 | a
        let length = UInt16(zeros)
        var zlib: [UInt8] = [
            0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8),
        ]
        zlib += data
        zlib += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
        let declared = claiming ?? UInt32(zeros)
        let packed = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: declared >> $0) } + zlib
        var text = "<|"
        var index = 0
        while index < packed.count {
            let group = Array(packed[index..<min(index + 4, packed.count)])
            var value: UInt32 = 0
            for k in 0..<4 { value = value << 8 | UInt32(k < group.count ? group[k] : 0) }
            // Four zero bytes are `z`, as Cairo writes them.
            if value == 0, group.count == 4 {
                text += "z"
                index += 4
                continue
            }
            var chars = [Character](repeating: "!", count: 5)
            for k in stride(from: 4, through: 0, by: -1) {
                chars[k] = Character(UnicodeScalar(UInt8(33 + value % 85)))
                value /= 85
            }
            text += String(chars.prefix(group.count + 1))
            index += 4
        }
        return text + "~>"
    }
}

/// The `FONTCONFIG_FILE` check reads the variables it is given, found as fontconfig
/// finds the file: `~/` under HOME, a relative name in FONTCONFIG_PATH's folders.
@Suite struct FontConfigEnvironmentTests {
    @Test func theCheckReadsTheVariablesItIsGiven() throws {
        let folder = Paths.scratch("fontconfig-environment")
        try Data(count: FontConfig.maxConfigurationFileBytes + 1).write(to: URL(fileURLWithPath: folder + "/big.conf"))
        try Data("<fontconfig/>".utf8).write(to: URL(fileURLWithPath: folder + "/ok.conf"))
        let refused = [
            FontConfigEnvironment(file: "/dev/zero", home: nil, path: nil),
            FontConfigEnvironment(file: "big.conf", home: nil, path: "/nonexistent:" + folder),
            FontConfigEnvironment(file: "~/big.conf", home: folder, path: nil),
        ]
        for environment in refused {
            #expect(throws: BadgeError.self, "\(environment)") {
                try FontConfig.checkConfigurationFile(environment)
            }
        }
        do {
            try FontConfig.checkConfigurationFile(FontConfigEnvironment(file: "/dev/zero", home: nil, path: nil))
        } catch {
            #expect(
                error
                    == .unavailable(
                        resource: "fontconfig",
                        reason:
                            "FONTCONFIG_FILE=\"/dev/zero\" is not a regular file (a device, FIFO or folder); point it at a fonts.conf file, or unset it"
                    ))
        }
        let accepted = [
            FontConfigEnvironment(file: nil, home: nil, path: nil),
            FontConfigEnvironment(file: "", home: nil, path: nil),
            FontConfigEnvironment(file: "ok.conf", home: nil, path: folder),
            FontConfigEnvironment(file: "~/ok.conf", home: folder, path: nil),
        ]
        for environment in accepted { try FontConfig.checkConfigurationFile(environment) }
    }
}
