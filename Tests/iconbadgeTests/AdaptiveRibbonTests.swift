import BadgeCore
import BadgeRender
import Foundation
import TestSupport
import Testing

/// A ribbon on an adaptive icon's badge layer runs to the edge of the 72 dp square a
/// launcher shows, so each device's mask (circle, squircle, rounded square) cuts it
/// where that mask ends and its ends never float inside the icon; its text stays in
/// the 66 dp safe zone.
@Suite struct AdaptiveRibbonTests {
    @Test func aRibbonReachesTheVisibleEdgeAndItsTextStaysInTheSafeZone() throws {
        let app = Paths.scratch("adaptive-ribbon") + "/app"
        try FileManager.default.copyItem(atPath: Paths.fixture("android/sample-app"), toPath: app)
        let run = try runIconbadge([
            "android", app + "/res", "--out", app + "/debug/res", "--shape", "ribbon", "--text", "DEBUG",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        for (density, scale) in [("xxxhdpi", 4.0), ("xhdpi", 2.0)] {
            for kind in ["badge", "monochrome"] {
                let layer = try ImageFile.pixels(
                    at: "\(app)/debug/res/drawable-\(density)/iconbadge_ic_launcher_\(kind).png")
                let side = Int(108 * scale)
                #expect(layer.width == side)
                // The visible square: 18 dp in from each side of the 108 dp layer.
                let low = Int(18 * scale)
                let high = Int(90 * scale)
                var textPixels = 0
                for y in 0..<side {
                    for x in 0..<side where layer[x, y].alpha > 0 {
                        #expect(x >= low && x < high && y >= low && y < high, "\(density) \(kind): \(x),\(y)")
                        // The text: white in the colour layer, cut out of the monochrome one.
                        let isText =
                            kind == "badge" ? layer[x, y].green > 200 : false
                        if isText {
                            textPixels += 1
                            let dx = Double(x) + 0.5 - Double(side) / 2
                            let dy = Double(y) + 0.5 - Double(side) / 2
                            #expect(
                                (dx * dx + dy * dy).squareRoot() <= 33 * scale + 0.75, "\(density) text at \(x),\(y)")
                        }
                    }
                }
                if kind == "badge" { #expect(textPixels > 20, "\(density): no text") }
                // The band (top-right corner) reaches the square's top and right edges,
                // outside the safe zone's circle, which it was cut to before.
                let topRow = (low..<high).filter { layer[$0, low].alpha == 255 }
                let rightColumn = (low..<high).filter { layer[high - 1, $0].alpha == 255 }
                #expect(!topRow.isEmpty && !rightColumn.isEmpty, "\(density) \(kind): the band stops short")
                // The text's cut-out holes in the monochrome layer lie in the safe zone too.
                if kind == "monochrome" {
                    for y in 0..<side {
                        for x in 1..<(side - 1)
                        where layer[x, y].alpha == 0 && layer[x - 1, y].alpha == 255 && layer[x + 1, y].alpha == 255 {
                            let dx = Double(x) + 0.5 - Double(side) / 2
                            let dy = Double(y) + 0.5 - Double(side) / 2
                            #expect(
                                (dx * dx + dy * dy).squareRoot() <= 33 * scale + 0.75, "\(density) hole at \(x),\(y)")
                        }
                    }
                }
            }
        }
    }
}
