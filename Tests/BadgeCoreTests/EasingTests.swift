import BadgeCore
import Testing

/// CSS timing functions: the solver against values computed independently (bisection
/// to 1e-15 in x, in Python), the named easings, the bounce's overshoot and parsing.
@Suite struct EasingTests {
    /// y at x = 0.1, 0.25, 0.5, 0.75, 0.9 for each curve; ease at 0.5 is the often
    /// quoted 0.8024034 (WebKit's UnitBezier tests).
    static let known: [(Easing, [Double])] = [
        (.ease, [0.094796305716, 0.408510591355, 0.802403387585, 0.960458978349, 0.994316477485]),
        (.easeIn, [0.017026609652, 0.093464650719, 0.315356812573, 0.621861869175, 0.839427845762]),
        (.easeOut, [0.160572154238, 0.378138130825, 0.684643187427, 0.906535349281, 0.982973390348]),
        (.easeInOut, [0.019722453548, 0.129161931047, 0.5, 0.870838068953, 0.980277546452]),
        (
            try! Easing(x1: 0.4, y1: 1.3, x2: 1, y2: 1),
            [0.283661010549, 0.590590236905, 0.894167126149, 1.019808036382, 1.0265625]
        ),
    ]

    @Test func progressMatchesIndependentValues() {
        for (easing, values) in Self.known {
            for (x, expected) in zip([0.1, 0.25, 0.5, 0.75, 0.9], values) {
                // The solver stops within 1e-6 in x; y moves at most 3.1 × that here.
                #expect(abs(easing.progress(at: x) - expected) < 5e-6, "\(easing) at \(x)")
            }
            #expect(easing.progress(at: 0) == 0)
            #expect(easing.progress(at: 1) == 1)
            #expect(easing.progress(at: -0.5) == 0 && easing.progress(at: 2) == 1, "x is clamped")
        }
        #expect(Easing.linear.progress(at: 0.3) == 0.3)
    }

    /// The bounce keeps its overshoot: it peaks at 1.029917 at x = 0.8457.
    @Test func overshootIsKept() {
        let bounce = try! Easing(x1: 0.4, y1: 1.3, x2: 1, y2: 1)
        let peak = bounce.peak
        #expect(abs(peak.progress - 1.029916897507) < 1e-9)
        #expect(abs(peak.x - 0.845692216941) < 1e-6)
        #expect(bounce.progress(at: peak.x) > 1.0299)
        #expect(Easing.easeIn.peak.progress == 1, "no overshoot: the peak is the end")
    }

    @Test func parsing() throws {
        #expect(try Easing.parse("ease-in") == .easeIn)
        #expect(try Easing.parse(" Ease-In-Out ") == .easeInOut)
        #expect(try Easing.parse("cubic-bezier(0.4, 1.3, 1, 1)") == Easing(x1: 0.4, y1: 1.3, x2: 1, y2: 1))
        #expect(try Easing.parse("cubic-bezier(.42,0,1,1)") == .easeIn)
        #expect(Easing.easeIn.description == "ease-in")
        #expect(try Easing(x1: 0.4, y1: 1.3, x2: 1, y2: 1).description == "cubic-bezier(0.4, 1.3, 1, 1)")
        #expect(throws: EasingError.xOutOfRange(x1: 1.2, x2: 1)) { try Easing.parse("cubic-bezier(1.2, 0, 1, 1)") }
        #expect(throws: EasingError.xOutOfRange(x1: 0, x2: -0.1)) { try Easing.parse("cubic-bezier(0, 0, -0.1, 1)") }
        for bad in ["bounce", "cubic-bezier(0, 0, 1)", "cubic-bezier(0, 0, 1, 1", "cubic-bezier(a, 0, 1, 1)", ""] {
            #expect(throws: EasingError.malformed(bad)) { try Easing.parse(bad) }
        }
        #expect(EasingError.xOutOfRange(x1: 1.2, x2: 1).reason.contains("must lie in 0...1 (got 1.2 and 1)"))
    }
}
