import BadgeCore
import Testing

/// The one escaping rule for printed text, and the last defence at print time.
@Suite struct TextEscapingTests {
    @Test func quotedValuesEscapeControlsBackslashesAndQuotes() {
        #expect(Quoted("a\"b\\c\u{1B}[1m\n\u{85}\u{2028}").description == #""a\"b\\c\u{1b}[1m\n\u{85}\u{2028}""#)
        #expect(Shown("x\"y").description == "x\"y")
    }

    @Test func bidiOverridesAndInvisiblesAreEscapedButJoinersKept() {
        // "Trojan Source": an override would reorder the rest of the printed line.
        #expect(
            Quoted("a\u{202E}b\u{2066}c\u{200B}d\u{FEFF}").description == #""a\u{202e}b\u{2066}c\u{200b}d\u{feff}""#)
        #expect(Quoted("👨\u{200D}👩").description == "\"👨\u{200D}👩\"", "an emoji sequence is shown as it is")
        #expect(Quoted("שלום").description == "\"שלום\"", "right-to-left text itself is shown")
    }

    @Test func longValuesAreCut() {
        let shown = Quoted(String(repeating: "x", count: 500)).description
        #expect(shown.hasSuffix("…\" (500 characters)"))
    }

    /// A message cut at 200 scalars never ends inside an escape: the escape that would
    /// straddle the cut is left out whole, whatever its length.
    @Test(arguments: [196, 197, 198, 199, 200])
    func cutLinesEndOnAnEscapeBoundary(plain: Int) {
        let line = String(repeating: "x", count: plain) + String(repeating: "\u{1b}", count: 40)
        let shown = TextEscaping.shownLine(line)
        let kept = shown.prefix { $0 != "…" }
        #expect(kept.count <= TextEscaping.maxShown)
        #expect(kept.hasSuffix("x") || kept.hasSuffix("}"), "ends at \(kept.suffix(8))")
        #expect(kept.count == plain + (TextEscaping.maxShown - plain) / 6 * 6)
        #expect(shown.hasSuffix("… (\(plain + 240) characters)"))
        let quotes = String(repeating: "y", count: 199) + #"\"rest"# + String(repeating: "z", count: 50)
        #expect(TextEscaping.shownLine(quotes).hasPrefix(String(repeating: "y", count: 199) + "…"))
    }

    /// CR LF, LF and CR runs become one space (a library's multi-line message); every
    /// other control character an escape; backslashes and quotes stay as they are,
    /// since `Quoted` values inside are escaped already.
    @Test(arguments: [
        ("first line\r\n  second", "first line second"),
        ("a\n\n\rb\n", "a b"),
        ("\u{1B}[31mred", #"\u{1b}[31mred"#),
        ("a\u{85}b\u{2028}c\u{9B}d\u{7F}", #"a\u{85}b\u{2028}c\u{9b}d\u{7f}"#),
        (#"path "a\"b" kept"#, #"path "a\"b" kept"#),
        ("tab\there", #"tab\u{9}here"#),
    ])
    func oneLineEscapesWhatQuotingMissed(raw: String, printed: String) {
        #expect(TextEscaping.oneLine(raw) == printed)
    }
}
