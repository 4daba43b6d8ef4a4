import BadgeCore
import TestSupport
import Testing

@testable import BadgeRender

/// The animated outputs, read back here chunk by chunk (APNG) or as text (SVG); the
/// independent decoders (Pillow, ffprobe, Chromium) read them in tests/animation.
@Suite struct AnimatedOutputTests {
    static let icon = Paths.fixture("icons/app-ios-180.png")

    static func composition(_ value: String = "3", previous: String? = nil) throws -> Scene {
        let request = RenderRequest(
            icon: RenderRequest.Icon(path: icon), badge: RenderRequest.Badge(content: .value(value)),
            animation: RenderRequest.Animation(previousContent: previous.map { .value($0) }))
        return try Renderer().compose(request)
    }

    static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 { APNGAnimation.uint32(bytes, at) }

    /// Every frame of the APNG, played as a viewer does (`APNGAnimation`: dispose NONE,
    /// blend SOURCE, the rectangle replaces the canvas's pixels), equals the frame drawn
    /// directly; the chunks are in order with consecutive sequence numbers, and the
    /// default image is the static render.
    @Test(arguments: [BadgeAnimationKind.bounce, .fadeOut, .fadeIn, .pop])
    func apngFramesRebuildToTheDrawnFrames(kind: BadgeAnimationKind) throws {
        let composition = try Self.composition(previous: kind == .pop ? "2" : nil)
        let animation = BadgeAnimation(kind: kind, loops: 3)
        let png = try composition.animatedData(format: .png, animation: animation)
        let played = try APNGAnimation(png: png)
        let list = played.chunks
        #expect(list.map(\.type).prefix(2) == ["IHDR", "acTL"])
        #expect(list.last?.type == "IEND")
        #expect(list[0].data[9] == 6, "colour type RGBA")
        #expect(Self.uint32(list[1].data, 0) == UInt32(animation.frameCount))
        #expect(Self.uint32(list[1].data, 4) == 3)
        // The default image: IDAT before any fcTL, the static render.
        let firstIDAT = list.firstIndex { $0.type == "IDAT" }!
        let firstFrame = list.firstIndex { $0.type == "fcTL" }!
        #expect(firstIDAT < firstFrame)
        #expect(played.defaultImage == (try composition.pixels()))

        // The chunks: fcTL then its fdATs, frame by frame, numbered in one sequence.
        var sequence: UInt32 = 0
        var frame = 0
        let delays = animation.delays
        for chunk in list[firstFrame...] where chunk.type == "fcTL" || chunk.type == "fdAT" {
            #expect(Self.uint32(chunk.data, 0) == sequence)
            sequence += 1
            guard chunk.type == "fcTL" else { continue }
            let control = chunk.data
            let (w, h, x, y) = (
                Int(Self.uint32(control, 4)), Int(Self.uint32(control, 8)), Int(Self.uint32(control, 12)),
                Int(Self.uint32(control, 16))
            )
            #expect(Int(control[20]) << 8 | Int(control[21]) == delays[frame].numerator)
            #expect(Int(control[22]) << 8 | Int(control[23]) == delays[frame].denominator)
            #expect(control[24] == 0 && control[25] == 0, "dispose NONE, blend SOURCE")
            if frame == 0 {
                #expect(w == composition.canvasWidth && h == composition.canvasHeight && x == 0 && y == 0)
            }
            #expect(x + w <= composition.canvasWidth && y + h <= composition.canvasHeight && w > 0 && h > 0)
            frame += 1
        }
        #expect(frame == animation.frameCount)
        // As a viewer plays it, each frame is the frame drawn directly.
        #expect(played.plays == 3)
        #expect(played.frames.count == animation.frameCount)
        for (k, shown) in played.frames.enumerated() {
            let expected = try composition.framePixels(animation.state(at: animation.time(ofFrame: k)))
            #expect(shown.pixels == expected, "frame \(k)")
        }
    }

    /// Later frames carry only what changed: the bounce's last frames redraw the badge's
    /// corner, never the whole 180 px icon.
    @Test func laterFramesAreSubRectangles() throws {
        let composition = try Self.composition()
        let png = try composition.animatedData(format: .png, animation: BadgeAnimation(kind: .bounce))
        let controls = try APNGAnimation(png: png).chunks.filter { $0.type == "fcTL" }.map(\.data)
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
        // Its names are its own (a hash), so two inline SVGs on one page keep theirs.
        let name = try #require(svg.firstMatch(of: /\.(ib[0-9a-f]{8})-moving\{animation/)?.1)
        #expect(svg.contains("animation:\(name)-moving 0.2s cubic-bezier(0.4,1.3,1,1) 0s infinite both"))
        #expect(svg.contains("@keyframes \(name)-moving{0%{transform:scale(1.5)}100%{transform:scale(1)}}"))
        #expect(
            svg.contains("@media (prefers-reduced-motion:reduce){.\(name)-moving,.\(name)-old{animation:none}}"))
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
        #expect(fade.contains("-moving 0.2s ease-in 0s 1 both"))
        #expect(fade.contains("-moving{opacity:0}}"), "reduced motion shows the end: no badge")
        #expect(!fade.contains(name), "another document, other names")
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
