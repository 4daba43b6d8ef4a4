import Testing

@testable import BadgeCore

@Suite struct DecimalNumberTests {
    @Test(arguments: [
        ("12", 12.0), ("-4", -4.0), ("+1.5", 1.5), (".5", 0.5), ("5.", 5.0), ("1e3", 1000.0), ("2E-1", 0.2),
    ])
    func acceptsDecimals(text: String, value: Double) {
        #expect(DecimalNumber.parse(text) == value)
    }

    @Test(arguments: [
        "nan", "NaN", "inf", "-infinity", "1e400", "0x1p3", "0x10", "", "-", ".", "1,5", " 1", "1 ", "1e", "e5", "1..2",
    ])
    func rejectsEverythingElse(text: String) {
        #expect(DecimalNumber.parse(text) == nil)
    }

    @Test func zeroInAnyFormIsZero() {
        #expect(DecimalNumber.parse("0e-999") == 0)
        #expect(DecimalNumber.parse("-0.000") == 0)
    }

    @Test func integersStayInRange() {
        #expect(DecimalNumber.parseInteger("99", in: 0...100) == 99)
        #expect(DecimalNumber.parseInteger("101", in: 0...100) == nil)
        #expect(DecimalNumber.parseInteger("1.0", in: 0...100) == nil)
        #expect(DecimalNumber.parseInteger("99999999999999999999999", in: 0...Int.max) == nil)
        #expect(DecimalNumber.parseInteger("-3", in: -5...5) == -3)
    }
}
