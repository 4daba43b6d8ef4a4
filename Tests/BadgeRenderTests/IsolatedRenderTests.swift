import BadgeCore
import Foundation
import TestSupport
import Testing

@testable import BadgeRender

/// The vector render in the isolated child: the request and errors cross intact,
/// and the child draws the bytes this process would.
@Suite struct IsolatedRenderTests {
    static func everyFieldSet() -> RenderRequest {
        var request = TestRequest(
            iconPath: "/icons/a b/ü.svg", content: .image(path: "-"),
            labelRules: LabelRules(maxCount: 999, maxSuffix: "…", showZero: true, maxCharacters: 7), scale: 2.5,
            font: .file(path: "/fonts/x.ttc", index: 3), fontFeatures: ["tnum", "-liga"],
            iconMask: .rounded(radius: 4.25))
        request.style.height = .auto
        request.style.minHeight = 1.5
        request.style.minWidth = 2.5
        request.style.padding = Padding(horizontal: 3.25, vertical: 0.125)
        request.style.radius = .points(0.1 + 0.2)
        request.style.fontSize = .percent(13)
        request.style.dotSize = 9
        request.style.imageSize = LengthSize(width: 11, height: .percent(12))
        request.style.background = Color(red: 1, green: 2, blue: 3, alpha: 4)
        request.style.textColor = Color(red: 5, green: 6, blue: 7, alpha: 8)
        request.style.borderColor = Color(red: 9, green: 10, blue: 11, alpha: 12)
        request.style.borderWidth = 1.75
        request.style.anchor = .bottomLeft
        request.style.badgeAnchor = .top
        request.style.offset = Offset(dx: .percent(-20), dy: .points(3))
        request.style.overflow = .expand
        request.fallbackFonts = ["/f/1.ttf", "/f/2.otf"]
        request.systemFallback = false
        request.strictGlyphs = true
        request.limits.maxSide = 100
        request.limits.maxPixels = 5000
        request.limits.maxRasterBytes = 77
        request.limits.maxSVGBytes = 88
        request.limits.maxMetadataChunk = 99
        request.limits.svgTimeLimit = 0.25
        request.iconSize = Size(width: 33, height: 44)
        request.iconRasterScale = 3
        request.platform = .androidLegacy
        request.smallText = .hide
        request.minimumTextPixels = 9.5
        request.minimumDotPixels = 2
        request.ring = .auto
        request.backdrop = "/layers/backdrop.png"
        request.style.nominalHeight = 16
        request.style.nominalFontSize = 11
        request.iconFilters = [
            .greyscale, .desaturate(IconFilter.Amount(tenThousandths: 1)), .dim(.full),
            .tint(Color(red: 13, green: 14, blue: 15, alpha: 16), IconFilter.Amount(tenThousandths: 3333)),
        ]
        request.frame = BadgeFrameState(scale: 1.3125, opacity: 0.25, showsOldValue: true)
        request.animationRoom = 1.5
        request.previousContent = .value("12")
        request.labelRules.verbatim = true
        request.greyscaleBadges = true
        request.knockoutText = true
        request.dropsUnfittingText = true
        var second = TestRequest(iconPath: "", content: .value("3"), font: .bundled(.regular))
        second.style.shape = .ribbon
        second.smallText = .keep
        request.moreBadges = [second, TestRequest(iconPath: "", content: .dot)]
        return request.built
    }

    /// What the child is sent beside the request crosses exactly too: the painting
    /// (format, frame, layers, date), the canvas, the icon's opaque pixels, the files
    /// and a filtered icon's pixels.
    @Test func ordersCrossExactly() throws {
        let orders = [
            IsolatedRenderer.Order(
                request: Self.everyFieldSet(),
                painting: VectorPainting(
                    format: .svg, frame: BadgeFrameState(scale: 1.25, opacity: 0.5, showsOldValue: true),
                    layers: .moving, creationDate: nil),
                canvasWidth: 33, canvasHeight: 44, contentShape: ContentShape(rows: [[], [0..<3, 5..<9], [2..<4]]),
                files: ["-": [1, 2, 3], "/a/b.svg": Array("<svg/>".utf8)],
                iconPixels: (2, 1, [1, 2, 3, 4, 5, 6, 7, 8]),
                contrasts: [BadgeContrast(deltaE: 0.112, ratio: 1.55, surroundLuminance: 0.14, pixels: 310), nil]),
            IsolatedRenderer.Order(
                request: RenderRequest(iconPath: "i.png", content: .dot),
                painting: VectorPainting(
                    format: .pdf, frame: .rest, layers: .still, creationDate: "2023-11-14T22:13:20Z"),
                canvasWidth: 1, canvasHeight: 1, contentShape: nil, files: [:], iconPixels: nil, contrasts: []),
        ]
        for order in orders {
            var writer = WireWriter()
            order.write(to: &writer)
            var reader = WireReader(writer.bytes)
            #expect(try IsolatedRenderer.Order(from: &reader) == order)
            #expect(reader.isAtEnd)
            for length in stride(from: 0, to: writer.bytes.count, by: 5) {
                var cut = WireReader(Array(writer.bytes.prefix(length)))
                #expect(throws: WireReader.Malformed.self) { try IsolatedRenderer.Order(from: &cut) }
            }
        }
    }

    @Test func requestsCrossExactly() throws {
        var requests = [Self.everyFieldSet(), RenderRequest(iconPath: "i.png", content: .dot)]
        requests.append(RenderRequest(iconPath: "i.png", content: .value("99+"), font: .family("Noto Sans:bold")))
        requests.append(
            RenderRequest(iconPath: "i.png", content: .value(""), font: .bundled(.regular), iconMask: .circle))
        for request in requests {
            var writer = WireWriter()
            request.write(to: &writer)
            var reader = WireReader(writer.bytes)
            #expect(try RenderRequest(from: &reader) == request)
            #expect(reader.isAtEnd)
            // Cut anywhere, it is malformed, never a trap.
            for length in stride(from: 0, to: writer.bytes.count, by: 7) {
                var cut = WireReader(Array(writer.bytes.prefix(length)))
                #expect(throws: WireReader.Malformed.self) { try RenderRequest(from: &cut) }
            }
        }
    }

    /// An icon filter's amount outside 0...1 on the wire is malformed, not clamped.
    @Test func anAmountOverOneIsMalformed() throws {
        var request = TestRequest(iconPath: "i.png", content: .dot)
        request.iconFilters = [.dim(IconFilter.Amount(tenThousandths: 7777))]
        var writer = WireWriter()
        request.built.write(to: &writer)
        // 7777 as a little-endian Int64 follows the filter's tag (2, dim).
        let amount: [UInt8] = [0x61, 0x1E, 0, 0, 0, 0, 0, 0]
        let at = try #require(
            (0...(writer.bytes.count - 9)).first {
                writer.bytes[$0] == 2 && Array(writer.bytes[($0 + 1)...($0 + 8)]) == amount
            })
        var bytes = writer.bytes
        bytes[at + 1] = 0x11
        bytes[at + 2] = 0x27  // 10001
        var reader = WireReader(bytes)
        #expect(throws: WireReader.Malformed.self) { try RenderRequest(from: &reader) }
        bytes[at + 1] = 0x10  // 10000: 1, accepted
        reader = WireReader(bytes)
        #expect(try RenderRequest(from: &reader).icon.filters == [.dim(.full)])
    }

    @Test func errorsCrossWordForWord() throws {
        let errors: [BadgeError] = [
            .invalidValue(option: "--x", value: "v", problem: "p"), .usage("u"),
            .overLimit(path: "x.png", .imageSide(width: 9000, height: 1, limit: 8192)),
            .overLimit(path: "", .renderSide(width: nil, height: 3)),
            .overLimit(path: "", .textPixels(points: 1.5, scale: 0.1, pixels: 0.15, limit: 4096)),
            .badInput(path: "a.svg", reason: "r"), .missingInput(path: "m", reason: "gone"),
            .unavailable(resource: "fontconfig", reason: "no"), .internalError("i"),
            .cannotCreate(path: "c", reason: "d"), .ioError(path: "e", reason: "f"),
            .render(.shapeHoldsText(.shield)), .render(.expandWithSeveralBadges, badge: 2), .render(.animationInPDF),
            .render(
                .badgeOutsideShape(
                    RenderProblem.OutsideShape(
                        badgeWidth: 40, badgeHeight: 40, platform: .ios, iconWidth: 32, iconHeight: 32,
                        largest: Size(width: 30, height: 30)))),
            .render(
                .bandTextDoesNotFit(
                    RenderProblem.BandText(
                        text: "BETA", shape: .banner, pixels: 7, floor: 7, floorIsMinimum: true, needed: 33.4,
                        textHeight: 5.1, room: 157.5, across: 0)), badge: 3),
            .render(.bandTooThick(shape: .ribbon, thickness: 60, across: 44)),
            .render(
                .shieldDoesNotFit(
                    RenderProblem.Shield(
                        text: "a|b", platform: .canvas, shapeWidth: 48, pixels: 6.5, floor: 6.5, floorIsMinimum: false,
                        width: 71.25))),
            .render(.embeddedImagesOverLimit(path: "e.svg", reason: "holds a big image")),
            .render(.svgRenderSide(path: "s.svg", width: 40000, height: 2)),
            .render(.overTimeLimit(path: "t.svg", reason: "SVG too complex: it took more than 4 s to decode")),
            .render(
                .outOfMemory(path: "m.svg", doing: "drawing it as PDF", budget: "an isolated render may use 1 MiB")),
        ]
        for error in errors {
            var writer = WireWriter()
            error.write(to: &writer)
            var reader = WireReader(writer.bytes)
            #expect(try BadgeError(from: &reader) == error)
            #expect(reader.isAtEnd)
        }
    }

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

    /// Text drawn as written (`--text`) crosses to the child as text: a build number on
    /// an SVG icon is 1234 in the SVG too, as in the PNG, not the count 99+ (the child
    /// was once sent the label rules without it).
    @Test func verbatimTextCrossesToTheChild() throws {
        var request = TestRequest(
            iconPath: Paths.fixture("icons/mail-unread-symbolic.svg"), content: .value("1234"), scale: 16)
        request.labelRules.verbatim = true
        request.style.height = .fixed(3)
        request.style.fontSize = 2
        request.style.padding = Padding(horizontal: 1, vertical: 1)
        let isolated = try Renderer().compose(request)
        #expect(isolated.badge.label == "1234")
        let here = try SceneBuilder(
            renderer: try Renderer(), request: request.built,
            images: ImageSupply(site: .inProcessVector, cache: nil, files: [:], limits: request.limits)
        ).build()
        #expect(try isolated.svgData() == (try here.svgData()))
        request.labelRules.verbatim = false
        #expect(try Renderer().compose(request).svgData() != (try here.svgData()), "a count is 99+")
    }

    /// What the child answers is what this process draws with the same code: the
    /// isolated bytes equal an in-process vector render, for SVG and PDF, with an SVG
    /// icon and with an SVG badge.
    @Test func theChildDrawsTheSameBytes() throws {
        let folder = Paths.scratch("isolated-bytes")
        try
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"12\" height=\"12\"><circle cx=\"6\" cy=\"6\" r=\"5\" fill=\"#0a0\"/></svg>"
            .write(toFile: folder + "/badge.svg", atomically: true, encoding: .utf8)
        let requests = [
            RenderRequest(iconPath: try Corpus.path("icons/papirus-svg/firefox.svg"), content: .value("42"), scale: 2),
            RenderRequest(
                iconPath: Paths.fixture("icons/folder-48x48.png"), content: .image(path: folder + "/badge.svg")),
        ]
        for request in requests {
            let isolated = try Renderer().compose(request)
            let here = try SceneBuilder(
                renderer: try Renderer(), request: request,
                images: ImageSupply(site: .inProcessVector, cache: nil, files: [:], limits: request.limits)
            ).build()
            #expect(isolated.site == .isolated && here.site == .inProcessVector)
            #expect(try isolated.svgData() == (try here.svgData()), "\(request.icon.path)")
            #expect(
                try isolated.pdfData(creationDate: "2023-11-14T22:13:20Z")
                    == (try here.pdfData(creationDate: "2023-11-14T22:13:20Z")), "\(request.icon.path)")
        }
    }
}
