import BadgeCore
import TestSupport
import Testing

@testable import BadgeRender

/// The animated outputs, read back here chunk by chunk (APNG) or as text (SVG); the
/// independent decoders (Pillow, ffprobe, Chromium) read them in tests/animation.
@Suite struct AnimatedOutputTests {
    static let icon = Paths.fixture("icons/app-ios-180.png")

    static func composition(_ value: String = "3", previous: String? = nil) throws -> Composition {
        var request = RenderRequest(iconPath: icon, content: .value(value))
        request.previousContent = previous.map { .value($0) }
        return try Renderer().compose(request)
    }

    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    static func chunks(_ png: [UInt8]) -> [Chunk] {
        var list: [Chunk] = []
        var at = 8
        while at + 12 <= png.count {
            let length = Int(uint32(png, at))
            list.append(
                Chunk(
                    type: String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self),
                    data: Array(png[(at + 8)..<(at + 8 + length)])))
            #expect(uint32(png, at + 8 + length) == PNGCodec.crc32(png[(at + 4)..<(at + 8 + length)]), "CRC")
            at += 12 + length
        }
        #expect(at == png.count)
        return list
    }

    static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.appendBigEndian(UInt32(data.count))
        let body = Array(type.utf8) + data
        out += body
        out.appendBigEndian(PNGCodec.crc32(body[...]))
        return out
    }

    /// A frame's sub-rectangle as a PNG of its own: IHDR of its size, its fdAT data.
    static func subImage(width: Int, height: Int, data: [UInt8]) throws -> PixelBuffer {
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]
        let png =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", data)
            + chunk("IEND", [])
        return try ImageFile.pixels(of: png, path: "frame")
    }

    /// Every frame of the APNG, rebuilt as a viewer does (dispose NONE, blend SOURCE:
    /// the rectangle replaces the canvas's pixels), equals the frame drawn directly; the
    /// chunks are in order with consecutive sequence numbers, and the default image is
    /// the static render.
    @Test(arguments: [BadgeAnimationKind.bounce, .fadeOut, .fadeIn, .pop])
    func apngFramesRebuildToTheDrawnFrames(kind: BadgeAnimationKind) throws {
        let composition = try Self.composition(previous: kind == .pop ? "2" : nil)
        let animation = BadgeAnimation(kind: kind, loops: 3)
        let png = try composition.animatedData(format: .png, animation: animation)
        let list = Self.chunks(png)
        #expect(list.map(\.type).prefix(2) == ["IHDR", "acTL"])
        #expect(list.last?.type == "IEND")
        #expect(list[0].data[9] == 6, "colour type RGBA")
        #expect(Self.uint32(list[1].data, 0) == UInt32(animation.frameCount))
        #expect(Self.uint32(list[1].data, 4) == 3)
        // The default image: IDAT before any fcTL.
        let firstIDAT = list.firstIndex { $0.type == "IDAT" }!
        let firstFrame = list.firstIndex { $0.type == "fcTL" }!
        #expect(firstIDAT < firstFrame)
        let defaultImage = try Self.subImage(
            width: composition.canvasWidth, height: composition.canvasHeight,
            data: list.filter { $0.type == "IDAT" }.flatMap(\.data))
        #expect(defaultImage == (try composition.pixels()))

        var canvas = PixelBuffer(
            width: composition.canvasWidth, height: composition.canvasHeight,
            bytes: [UInt8](repeating: 0, count: composition.canvasWidth * composition.canvasHeight * 4))
        var sequence: UInt32 = 0
        var index = firstFrame
        var frame = 0
        let delays = animation.delays
        while list[index].type == "fcTL" {
            let control = list[index].data
            #expect(Self.uint32(control, 0) == sequence)
            sequence += 1
            let (w, h, x, y) = (
                Int(Self.uint32(control, 4)), Int(Self.uint32(control, 8)), Int(Self.uint32(control, 12)),
                Int(Self.uint32(control, 16))
            )
            #expect(Int(control[20]) << 8 | Int(control[21]) == delays[frame].numerator)
            #expect(Int(control[22]) << 8 | Int(control[23]) == delays[frame].denominator)
            #expect(control[24] == 0 && control[25] == 0, "dispose NONE, blend SOURCE")
            if frame == 0 { #expect(w == canvas.width && h == canvas.height && x == 0 && y == 0) }
            #expect(x + w <= canvas.width && y + h <= canvas.height && w > 0 && h > 0)
            index += 1
            var data: [UInt8] = []
            while list[index].type == "fdAT" {
                #expect(Self.uint32(list[index].data, 0) == sequence)
                sequence += 1
                data += list[index].data.dropFirst(4)
                index += 1
            }
            let part = try Self.subImage(width: w, height: h, data: data)
            for row in 0..<h {
                let to = ((y + row) * canvas.width + x) * 4
                canvas.bytes.replaceSubrange(to..<(to + w * 4), with: part.bytes[(row * w * 4)..<((row + 1) * w * 4)])
            }
            let expected = try composition.framePixels(animation.state(at: animation.time(ofFrame: frame)))
            #expect(canvas == expected, "frame \(frame)")
            frame += 1
        }
        #expect(frame == animation.frameCount)
        #expect(list[index].type == "IEND")
    }

    /// Later frames carry only what changed: the bounce's last frames redraw the badge's
    /// corner, never the whole 180 px icon.
    @Test func laterFramesAreSubRectangles() throws {
        let composition = try Self.composition()
        let png = try composition.animatedData(format: .png, animation: BadgeAnimation(kind: .bounce))
        let controls = Self.chunks(png).filter { $0.type == "fcTL" }.map(\.data)
        #expect(controls.count == 13)
        for control in controls.dropFirst() {
            #expect(Self.uint32(control, 4) < 60 && Self.uint32(control, 8) < 60, "\(Self.uint32(control, 4))")
        }
    }

    @Test func changedRectangleIsTheBoundsOfTheDifferences() {
        let a = PixelBuffer(width: 4, height: 3, bytes: [UInt8](repeating: 7, count: 48))
        var b = a
        #expect(AnimatedPNGWriter.changedRect(a, b) == nil)
        b.bytes[(1 * 4 + 2) * 4 + 3] = 0  // (2, 1)
        b.bytes[(2 * 4 + 1) * 4] = 0  // (1, 2)
        let rect = AnimatedPNGWriter.changedRect(a, b)
        #expect(rect?.x == 1 && rect?.y == 1 && rect?.width == 2 && rect?.height == 2)
    }

    /// Every format gives the same bytes twice.
    @Test(arguments: [OutputFormat.png, .webp, .svg])
    func animatedOutputsAreDeterministic(format: OutputFormat) throws {
        let animation = BadgeAnimation(kind: .pop, loops: 0)
        let first = try Self.composition(previous: "2").animatedData(format: format, animation: animation)
        let second = try Self.composition(previous: "2").animatedData(format: format, animation: animation)
        #expect(first == second)
        #expect(first.count > 100)
    }

    /// The SVG carries the curve, the loops and reduced motion, each layer's ids apart.
    @Test func svgCarriesTheTimingFunctionAndReducedMotion() throws {
        let svg = String(
            decoding: try Self.composition().animatedData(
                format: .svg, animation: BadgeAnimation(kind: .bounce, loops: 0)), as: UTF8.self)
        #expect(svg.contains("animation:ib-moving 0.2s cubic-bezier(0.4,1.3,1,1) 0s infinite both"))
        #expect(svg.contains("@keyframes ib-moving{0%{transform:scale(1.5)}100%{transform:scale(1)}}"))
        #expect(svg.contains("@media (prefers-reduced-motion:reduce){.ib-moving,.ib-old{animation:none}}"))
        #expect(svg.contains("transform-box:view-box"))
        var ids: [Substring] = []
        var rest = svg[...]
        while let range = rest.firstRange(of: " id=\"") {
            let after = rest[range.upperBound...]
            let end = after.firstIndex(of: "\"")!
            ids.append(after[..<end])
            rest = after[end...]
        }
        #expect(!ids.isEmpty)
        #expect(Set(ids).count == ids.count, "duplicate ids")
        let fade = String(
            decoding: try Self.composition().animatedData(format: .svg, animation: BadgeAnimation(kind: .fadeOut)),
            as: UTF8.self)
        #expect(fade.contains("animation:ib-moving 0.2s ease-in 0s 1 both"))
        #expect(fade.contains(".ib-moving{opacity:0}}"), "reduced motion shows the end: no badge")
    }

    @Test func pdfIsRefused() throws {
        #expect(throws: BadgeError.self) {
            try Self.composition().animatedData(format: .pdf, animation: BadgeAnimation(kind: .bounce))
        }
    }

    /// The frames' badge rectangle is the badge's scaled about its centre.
    @Test func badgeRectangleScalesAboutTheCentre() throws {
        let composition = try Self.composition()
        let rest = composition.animatedBadgeRect(.rest)!
        let big = composition.animatedBadgeRect(BadgeFrameState(scale: 1.5, opacity: 1, showsOldValue: false))!
        #expect(abs(big.width - rest.width * 1.5) < 1e-9)
        #expect(abs(big.center.x - rest.center.x) < 1e-9 && abs(big.center.y - rest.center.y) < 1e-9)
        #expect(composition.animatedBadgeRect(BadgeFrameState(scale: 1, opacity: 0, showsOldValue: false)) == nil)
    }

    /// WebP times are whole milliseconds, rounded from the exact times.
    @Test func webpTimestampsRoundTheExactTimes() {
        let times = BadgeAnimation(kind: .bounce).millisecondTimestamps
        #expect(times.count == 14)
        #expect(times.prefix(4) == [0, 17, 33, 50])
        #expect(times.last == 217)
    }
}
