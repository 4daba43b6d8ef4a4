import BadgeCore
import Foundation
import Testing

/// The geometry of ribbons and banners (pixels), without drawing.
@Suite struct BandLayoutTests {
    static let box = Rect(x: 0, y: 0, width: 100, height: 100)
    static let canvas = ShapeMask(.rectangle(box), width: 100, height: 100)

    @Test(arguments: [
        (Anchor.topLeft, 20.0, 20.0, -45.0), (.topRight, 80, 20, 45), (.bottomLeft, 20, 80, 45),
        (.bottomRight, 80, 80, -45),
    ])
    func ribbonCrossesItsCornerAndReadsLeftToRight(corner: Anchor, x: Double, y: Double, degrees: Double) {
        let band = BandLayout.ribbon(corner: corner, box: Self.box, thickness: 10, distance: 40)
        // The centre line meets both edges 40 px from the corner: its middle is 20, 20 in.
        #expect(abs(band.centre.x - x) < 1e-9 && abs(band.centre.y - y) < 1e-9)
        #expect(abs(band.angle * 180 / Double.pi - degrees) < 1e-9)
        // Text reads left to right (+x), whichever corner.
        #expect(cos(band.angle) > 0)
        // Each long side is thickness / 2 from the centre line.
        let normal = (x: -sin(band.angle), y: cos(band.angle))
        let offsets = band.polygon.map { ($0.x - band.centre.x) * normal.x + ($0.y - band.centre.y) * normal.y }
        #expect(offsets.map { abs(abs($0) - 5) < 1e-9 }.allSatisfy { $0 }, "\(offsets)")
        // Its ends reach past the box, so the shape cuts them.
        #expect(band.bounds(within: Self.box) == Self.box)
    }

    @Test func roomOnARectangleIsTheChordOfTheTextBoxsOuterEdge() {
        // Centre line x + y = 40; a text box 10 px tall has its outer edge on
        // x + y = 40 - 5√2, whose chord inside the square is (40 - 5√2)√2 = 40√2 - 10.
        let band = BandLayout.ribbon(corner: .topLeft, box: Self.box, thickness: 16, distance: 40)
        let room = band.room(forTextHeight: 10, mask: Self.canvas)
        let chord = 40 * 2.0.squareRoot() - 10
        // Walked in 1/4 px steps on whole pixels: within a pixel and a half short.
        #expect(room <= chord + 1e-9 && room >= chord - 1.5, "\(room) vs \(chord)")
        // Taller text has less room; text as tall as the corner has none.
        #expect(band.room(forTextHeight: 20, mask: Self.canvas) < room)
        #expect(band.room(forTextHeight: 80, mask: Self.canvas) == 0)
    }

    @Test func bannerSpansTheBoxOrStopsStraightAtTheShape() {
        let squircle = ShapeMask(
            .superellipse(center: Point(x: 50, y: 50), radiusX: 50, radiusY: 50, exponent: 5), width: 100, height: 100)
        let shaped = BandLayout.banner(edge: .bottom, box: Self.box, thickness: 20, ends: .shape, mask: squircle)
        #expect(shaped.centre == Point(x: 50, y: 90))
        #expect(shaped.angle == 0)
        #expect(shaped.polygon.map(\.x).min()! < 0 && shaped.polygon.map(\.x).max()! > 100)
        let straight = BandLayout.banner(edge: .bottom, box: Self.box, thickness: 20, ends: .straight, mask: squircle)
        // Straight ends stand where the band's inner edge (row 80) meets the shape.
        let span = squircle.spans(row: 80)[0]
        #expect(straight.polygon.map(\.x).min()! == Double(span.lowerBound))
        #expect(straight.polygon.map(\.x).max()! == Double(span.upperBound))
        #expect(span.lowerBound > 0, "the squircle curves in at row 80")
        let top = BandLayout.banner(edge: .top, box: Self.box, thickness: 20, ends: .shape, mask: squircle)
        #expect(top.centre == Point(x: 50, y: 10))
        // The text's room on a banner is bounded by the shape, not the box.
        #expect(straight.room(forTextHeight: 12, mask: squircle) <= Double(span.count))
    }

    @Test func maskBoundsAreTheShapesBox() {
        let circle = ShapeMask(
            .superellipse(center: Point(x: 54, y: 54), radiusX: 33, radiusY: 33, exponent: 2), width: 108, height: 108)
        #expect(circle.bounds == Rect(x: 21, y: 21, width: 66, height: 66))
        #expect(Self.canvas.bounds == Self.box)
        let rows = ShapeMask(.rows([[], [3..<7], [2..<5], []]), width: 10, height: 4)
        #expect(rows.bounds == Rect(x: 2, y: 1, width: 5, height: 2))
    }
}

extension BandLayoutTests {
    @Test func defaultDistanceFollowsTheOutlineAlongTheDiagonal() {
        // A square: 40 %. A circle: its outline is 0.146 S in per axis, so 2 × that + 22 %.
        #expect(BandLayout.defaultDistance(corner: .topLeft, box: Self.box, mask: Self.canvas) == 40)
        let circle = ShapeMask(
            .superellipse(center: Point(x: 50, y: 50), radiusX: 50, radiusY: 50, exponent: 2), width: 100, height: 100)
        for corner in [Anchor.topLeft, .topRight, .bottomLeft, .bottomRight] {
            let distance = BandLayout.defaultDistance(corner: corner, box: Self.box, mask: circle)
            #expect(distance > 50 && distance < 53, "\(corner): \(distance)")
        }
        // iOS's squircle keeps 40 %.
        let squircle = ShapeMask(
            .superellipse(center: Point(x: 50, y: 50), radiusX: 50, radiusY: 50, exponent: 5), width: 100, height: 100)
        #expect(BandLayout.defaultDistance(corner: .topRight, box: Self.box, mask: squircle) == 40)
    }
}
