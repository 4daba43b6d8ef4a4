import BadgeCore
import Testing

/// `--avoid-content`: the clamped badge moves, inside the shape and the anchor's
/// quadrant, to the nearest position covering the fewest of the icon's opaque pixels.
@Suite struct AvoidContentTests {
    /// Opaque pixels in `rect` (whole pixels) on a `side` × `side` canvas.
    static func content(_ side: Int, _ rects: [(x: Range<Int>, y: Range<Int>)]) -> ContentShape {
        ContentShape(
            rows: (0..<side).map { y in
                rects.filter { $0.y.contains(y) }.map(\.x).sorted { $0.lowerBound < $1.lowerBound }
            })
    }

    static let canvas = ShapeMask(.rectangle(Rect(x: 0, y: 0, width: 100, height: 100)), width: 100, height: 100)
    static let box = Rect(x: 0, y: 0, width: 100, height: 100)

    @Test func theBadgeLeavesTheDrawing() throws {
        let square = BadgePlacement.Footprint(width: 20, height: 20, radius: 0)
        let found = try #require(
            BadgePlacement.leastCovering(
                square, clamped: (80, 0), in: Self.canvas, content: Self.content(100, [(70..<100, 0..<30)]),
                box: Self.box, anchor: .topRight))
        // Free places nearest (80, 0): (50, 0) and (80, 30), both 30 px away; the upper row wins.
        #expect(found.x == 50 && found.y == 0)
        #expect(found.coverage == BadgePlacement.ContentCoverage(clamped: 400, placed: 0))
    }

    @Test func itNeverLeavesTheAnchorsQuadrant() throws {
        let square = BadgePlacement.Footprint(width: 20, height: 20, radius: 0)
        let found = try #require(
            BadgePlacement.leastCovering(
                square, clamped: (80, 0), in: Self.canvas, content: Self.content(100, [(50..<100, 0..<50)]),
                box: Self.box, anchor: .topRight))
        // Outside the quadrant nothing is covered, but the centre stays right of and
        // above the middle: (40, 40) covers the fewest there.
        #expect(found.x == 40 && found.y == 40)
        #expect(found.coverage == BadgePlacement.ContentCoverage(clamped: 400, placed: 100))
        // Anchored at the top edge, only the vertical half counts: the badge goes left.
        let top = try #require(
            BadgePlacement.leastCovering(
                square, clamped: (40, 0), in: Self.canvas, content: Self.content(100, [(50..<100, 0..<50)]),
                box: Self.box, anchor: .top))
        #expect(top.coverage.placed == 0 && top.x == 30 && top.y == 0)
    }

    @Test func nothingToAvoidLeavesItWhereClampPutIt() throws {
        let pill = BadgePlacement.Footprint(width: 30, height: 12, radius: 6)
        let found = try #require(
            BadgePlacement.leastCovering(
                pill, clamped: (70, 0), in: Self.canvas, content: Self.content(100, []), box: Self.box,
                anchor: .topRight))
        #expect(
            found.x == 70 && found.y == 0 && found.coverage == BadgePlacement.ContentCoverage(clamped: 0, placed: 0))
    }

    /// A round badge's corners do not count: only the pixels its outline touches do.
    @Test func roundCornersCoverNothing() throws {
        let corner = Self.content(100, [(90..<100, 0..<10)])
        let square = try #require(
            BadgePlacement.leastCovering(
                BadgePlacement.Footprint(width: 20, height: 20, radius: 0), clamped: (80, 0), in: Self.canvas,
                content: corner, box: Self.box, anchor: .topRight))
        let dot = try #require(
            BadgePlacement.leastCovering(
                BadgePlacement.Footprint(width: 20, height: 20, radius: 10), clamped: (80, 0), in: Self.canvas,
                content: corner, box: Self.box, anchor: .topRight))
        #expect(square.coverage.clamped == 100)
        #expect(dot.coverage.clamped < 100 && dot.coverage.clamped > 50, "\(dot)")
        #expect(square.coverage.placed == 0 && dot.coverage.placed == 0)
    }

    /// A large icon is searched on blocks, then pixel by pixel near the best: the
    /// badge still ends where it covers nothing, as near as the exact search would.
    @Test func aLargeIconIsSearchedOnBlocks() throws {
        let side = 1200
        let canvas = ShapeMask(
            .rectangle(Rect(x: 0, y: 0, width: Double(side), height: Double(side))), width: side, height: side)
        let found = try #require(
            BadgePlacement.leastCovering(
                BadgePlacement.Footprint(width: 200, height: 200, radius: 0), clamped: (1000, 0), in: canvas,
                content: Self.content(side, [(900..<1200, 0..<300)]),
                box: Rect(x: 0, y: 0, width: Double(side), height: Double(side)), anchor: .topRight))
        #expect(found.coverage == BadgePlacement.ContentCoverage(clamped: 40_000, placed: 0))
        let dx = found.x - 1000
        #expect(dx * dx + found.y * found.y == 90_000, "\(found)")
    }

    /// Through the layout: the report's numbers, and `moved`.
    @Test func theLayoutSaysWhatItCovers() throws {
        var style = PixelStyle(unit: 1)
        style.height = 20
        style.avoidsContent = true
        let layout = try BadgeLayout.compute(
            iconWidth: 100, iconHeight: 100, style: style, body: .dot, shape: .canvas(width: 100, height: 100),
            content: Self.content(100, [(60..<100, 0..<40)]))
        #expect(layout.contentCovered?.placed == 0, "\(layout)")
        #expect((layout.contentCovered?.clamped ?? 0) > 0)
        #expect(layout.moved)
        style.avoidsContent = false
        let plain = try BadgeLayout.compute(
            iconWidth: 100, iconHeight: 100, style: style, body: .dot, shape: .canvas(width: 100, height: 100),
            content: Self.content(100, [(60..<100, 0..<40)]))
        #expect(plain.contentCovered == nil)
    }
}
