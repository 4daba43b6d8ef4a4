import BadgeCore
import Foundation
import Testing

@testable import BadgeRender

/// VectorDrawables drawn natively (`AndroidDrawingPainter`), asserted on pixels:
/// fill types, clip paths, group transforms about a pivot, gradients, tints,
/// strokes, and the same drawing drawn twice giving the same bytes.
@Suite struct AndroidDrawingPainterTests {
    static let namespaces =
        "xmlns:android=\"http://schemas.android.com/apk/res/android\" xmlns:aapt=\"http://schemas.android.com/aapt\""

    /// A 10 × 10 viewport holding `body`, drawn at 100 × 100 px: straight RGBA.
    static func draw(_ body: String, vector attributes: String = "") throws -> PixelBuffer {
        let text = """
            <vector \(namespaces) android:width="10dp" android:height="10dp"
                android:viewportWidth="10" android:viewportHeight="10" \(attributes)>
            \(body)
            </vector>
            """
        let lookup = AndroidResourceLookup(value: { _ in nil }, file: { _, _ in nil })
        let drawing = try AndroidDrawableSVG.fileDrawing(
            Array(text.utf8), path: "res/drawable/test.xml", width: 10, height: 10, density: 10, lookup: lookup,
            limits: ImageLimits())
        let png = try AndroidDrawingPainter.png(drawing, width: 100, height: 100, name: "test", limits: ImageLimits())
        return try ImageFile.pixels(of: png, path: "test")
    }

    static let nested = "M0 0h10v10h-10z M2 2h6v6h-6z"

    @Test func evenOddLeavesTheInnerSquareEmptyAndNonZeroFillsIt() throws {
        let evenOdd = try Self.draw(
            "<path android:pathData=\"\(Self.nested)\" android:fillColor=\"#ff0000\" android:fillType=\"evenOdd\"/>")
        #expect(evenOdd[10, 10] == Color(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(evenOdd[50, 50].alpha == 0)
        let nonZero = try Self.draw("<path android:pathData=\"\(Self.nested)\" android:fillColor=\"#ff0000\"/>")
        #expect(nonZero[50, 50] == Color(red: 255, green: 0, blue: 0, alpha: 255))
    }

    @Test func aClipPathClipsTheRestOfItsGroup() throws {
        let pixels = try Self.draw(
            """
            <path android:pathData="M0 8h10v2h-10z" android:fillColor="#00ff00"/>
            <clip-path android:pathData="M0 0h5v10h-5z"/>
            <path android:pathData="M0 0h10v8h-10z" android:fillColor="#0000ff"/>
            """)
        #expect(pixels[25, 50] == Color(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(pixels[75, 50].alpha == 0)
        // Drawn before the clip: whole.
        #expect(pixels[75, 90] == Color(red: 0, green: 255, blue: 0, alpha: 255))
    }

    @Test func groupsRotateScaleAndTranslateAboutTheirPivot() throws {
        // The top-left quarter turned 90° clockwise about the centre: the top-right.
        let turned = try Self.draw(
            """
            <group android:rotation="90" android:pivotX="5" android:pivotY="5">
                <path android:pathData="M0 0h5v5h-5z" android:fillColor="#000000"/>
            </group>
            """)
        #expect(turned[75, 25].alpha == 255)
        #expect(turned[25, 25].alpha == 0)
        #expect(turned[25, 75].alpha == 0)
        // Scaled by 2 about (0, 0), then moved 5 down: the bottom half, whole width.
        let moved = try Self.draw(
            """
            <group android:scaleX="2" android:translateY="5">
                <path android:pathData="M0 0h5v5h-5z" android:fillColor="#000000"/>
            </group>
            """)
        #expect(moved[95, 75].alpha == 255)
        #expect(moved[5, 25].alpha == 0)
    }

    @Test func gradientsRunInThePathsCoordinates() throws {
        let linear = try Self.draw(
            """
            <path android:pathData="M0 0h10v10h-10z">
                <aapt:attr name="android:fillColor">
                    <gradient android:startX="0" android:startY="0" android:endX="10" android:endY="0"
                        android:startColor="#000000" android:endColor="#ffffff"/>
                </aapt:attr>
            </path>
            """)
        #expect(linear[0, 50].red < 5)
        #expect(linear[99, 50].red > 250)
        #expect(abs(Int(linear[50, 50].red) - 128) <= 2, "\(linear[50, 50])")
        #expect(linear[50, 0] == linear[50, 99])
        let radial = try Self.draw(
            """
            <path android:pathData="M0 0h10v10h-10z">
                <aapt:attr name="android:fillColor">
                    <gradient android:type="radial" android:centerX="5" android:centerY="5"
                        android:gradientRadius="5">
                        <item android:offset="0" android:color="#ff0000"/>
                        <item android:offset="1" android:color="#0000ff"/>
                    </gradient>
                </aapt:attr>
            </path>
            """)
        #expect(radial[50, 50].red > 240 && radial[50, 50].blue < 15, "\(radial[50, 50])")
        // Past the radius: the last colour (clamp).
        #expect(radial[1, 1] == Color(red: 0, green: 0, blue: 255, alpha: 255))
    }

    @Test func alphasTintsAndStrokes() throws {
        let half = try Self.draw(
            "<path android:pathData=\"M0 0h10v10h-10z\" android:fillColor=\"#ff0000\" android:fillAlpha=\"0.5\"/>")
        #expect(half[50, 50].red == 255 && abs(Int(half[50, 50].alpha) - 128) <= 1, "\(half[50, 50])")
        let tinted = try Self.draw(
            "<path android:pathData=\"M0 0h5v10h-5z\" android:fillColor=\"#ff0000\"/>",
            vector: "android:tint=\"#00ff00\"")
        #expect(tinted[25, 50] == Color(red: 0, green: 255, blue: 0, alpha: 255))
        #expect(tinted[75, 50].alpha == 0)
        let stroked = try Self.draw(
            "<path android:pathData=\"M1 5h8\" android:strokeColor=\"#0000ff\" android:strokeWidth=\"2\" android:strokeLineCap=\"round\"/>"
        )
        #expect(stroked[50, 50] == Color(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(stroked[50, 30].alpha == 0)
        // The round cap reaches past the end.
        #expect(stroked[95, 50].alpha > 0)
    }

    @Test func theSameDrawingGivesTheSameBytes() throws {
        let body = "<path android:pathData=\"M1 1a4 4 0 1 1 8 8q-3 0 -8 -8z\" android:fillColor=\"#3367d6\"/>"
        #expect(try Self.draw(body) == (try Self.draw(body)))
    }

    /// A dash so small that stroking would take minutes is refused, naming it.
    @Test func tinyDashesAreRefused() throws {
        func shape(_ dash: String) throws -> AndroidDrawing {
            let text = """
                <shape xmlns:android="http://schemas.android.com/apk/res/android" android:shape="rectangle">
                    <stroke android:width="1dp" android:color="#000000" android:dashWidth="\(dash)" android:dashGap="\(dash)"/>
                </shape>
                """
            return try AndroidDrawableSVG.fileDrawing(
                Array(text.utf8), path: "res/drawable/dash.xml", width: 10, height: 10, density: 10,
                lookup: AndroidResourceLookup(value: { _ in nil }, file: { _, _ in nil }), limits: ImageLimits())
        }
        let fine = try AndroidDrawingPainter.png(
            try shape("1dp"), width: 100, height: 100, name: "dash", limits: ImageLimits())
        #expect(try ImageFile.pixels(of: fine, path: "dash")[5, 0].alpha == 255)
        #expect(throws: BadgeError.self) {
            _ = try AndroidDrawingPainter.png(
                try shape("0.0001dp"), width: 100, height: 100, name: "dash", limits: ImageLimits())
        }
    }

    /// Work Cairo would do in this process, with no time limit, is bounded before it
    /// starts: a stroke wider than 16 canvas sides under nested scales (Cairo's round
    /// pen grows with the width: half a gigabyte), and paths whose edges cross more
    /// than `maxWork` rows of the canvas (60,000 long edges took 46 s), each one line
    /// naming the drawing; drawings just inside both still draw.
    @Test func workCairoWouldDoIsBoundedBeforeItStarts() throws {
        func refusal(_ body: String) -> String? {
            do {
                _ = try Self.draw(body)
                return nil
            } catch let error as BadgeError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        let scaled = { (width: String) in
            """
            <group android:scaleX="1000" android:scaleY="1000"><group android:scaleX="1000" android:scaleY="1000">
            <path android:pathData="M0,0L0.000001,0.000001" android:strokeColor="#FF000000"
                android:strokeWidth="\(width)" android:strokeLineCap="round"/></group></group>
            """
        }
        // 100 px canvas, 10 px a unit: 16 sides are 1600 px, 1.6e-4 units under 1e6.
        #expect(refusal(scaled("0.00015")) == nil)
        #expect(
            refusal(scaled("0.00017"))
                == "\"test\": has a stroke over 16 times as wide as the 100 × 100 px canvas it is drawn on (android:strokeWidth under its groups' scales)"
        )
        // Each edge of a zigzag from top to bottom crosses the canvas's 101 rows.
        let zigzag = { (edges: Int) in
            "<path android:fillColor=\"#FF000000\" android:pathData=\"M0,0"
                + (0..<edges).map { $0 % 2 == 0 ? "L\($0 % 10),10" : "L\($0 % 10),0" }.joined() + "\"/>"
        }
        #expect(refusal(zigzag(19_000)) == nil)
        #expect(
            refusal(zigzag(21_000))
                == "\"test\": is too complex to draw: its paths cross over 2000000 rows of the 100 × 100 px canvas in all (their edges, strokes and curves)"
        )
    }
}
