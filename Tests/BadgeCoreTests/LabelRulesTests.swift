import Testing

@testable import BadgeCore

@Suite struct LabelRulesTests {
    let rules = LabelRules()

    @Test func zeroHidesUnlessShown() {
        #expect(rules.label(for: "0") == .hidden(.zero))
        #expect(rules.label(for: "000") == .hidden(.zero))
        #expect(LabelRules(showZero: true).label(for: "0") == .text("0"))
    }

    @Test func emptyHides() {
        #expect(rules.label(for: "") == .hidden(.empty))
    }

    @Test(arguments: [
        ("1", "1"), ("99", "99"), ("100", "99+"), ("150", "99+"), ("007", "7"),
        ("123456789012345678901234567890", "99+"),
    ])
    func countsClampAtMax(value: String, shown: String) {
        #expect(rules.label(for: value) == .text(shown))
    }

    @Test func maxZeroMeansNoLimit() {
        #expect(LabelRules(maxCount: 0).label(for: "123456") == .text("123456"))
    }

    @Test func seed003ClampsWithoutSuffix() {
        #expect(LabelRules(maxCount: 99, maxSuffix: "").label(for: "150") == .text("99"))
    }

    @Test(arguments: ["NEW", "β", "+99", "-1", "v1.2", "新着", "9.5"])
    func textIsDrawnAsGiven(value: String) {
        #expect(rules.label(for: value) == .text(value))
    }

    @Test func maxCharsEllipsisCountsGraphemes() {
        let limited = LabelRules(maxCharacters: 4)
        #expect(limited.label(for: "BETA") == .text("BETA"))
        #expect(limited.label(for: "BETA1") == .text("BET…"))
        #expect(limited.label(for: "👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧") == .text("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧…"))
    }
}
