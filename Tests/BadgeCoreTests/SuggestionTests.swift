import Testing

@testable import BadgeCore

@Suite struct SuggestionTests {
    @Test func findsHyphenatedName() {
        #expect(Suggestion.closest(to: "topright", among: Anchor.allCases.map(\.rawValue)) == "top-right")
        #expect(
            Suggestion.closest(to: "backgrund", among: ["background", "badge-anchor", "border-color"]) == "background")
        #expect(Suggestion.closest(to: "ceneter", among: ["center", "clip"]) == "center")
    }

    @Test func staysQuietWhenNothingIsClose() {
        #expect(Suggestion.closest(to: "zzzzzz", among: ["background", "anchor"]) == nil)
    }
}
