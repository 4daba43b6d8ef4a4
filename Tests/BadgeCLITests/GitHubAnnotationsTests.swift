import BadgeCore
import BadgeJobs
import Testing

@testable import BadgeCLI

/// GitHub Actions' `::error` workflow command of a changed image: its escaping (GitHub's
/// rules: `%`, CR and LF in the message; also `:` and `,` in a property) and its words.
@Suite struct GitHubAnnotationsTests {
    @Test func escapingFollowsTheRunnersRules() {
        #expect(GitHubAnnotations.data("50% done\r\nnext") == "50%25 done%0D%0Anext")
        #expect(GitHubAnnotations.property("a:b,c%d\n") == "a%3Ab%2Cc%25d%0A")
    }

    /// A golden's file name comes from a pull request: its escape sequences, bell and
    /// bidi overrides reach the log escaped, in the file property as in the message.
    @Test func controlCharactersOfAFileNameAreEscaped() {
        #expect(
            GitHubAnnotations.property("b/esc\u{1b}[31mRED\u{1b}]0;t\u{7}\u{202e}.png")
                == "b/esc\\u{1b}[31mRED\\u{1b}]0;t\\u{7}\\u{202e}.png")
        #expect(GitHubAnnotations.data("a\u{9b}2J") == "a\\u{9b}2J")
    }

    @Test func theAnnotationNamesTheLargestRegion() throws {
        let red = PixelBuffer(width: 40, height: 30, fill: Color(red: 255, green: 0, blue: 0))
        var dots = red
        for x in 30...41 where x < 40 { dots[x, 0] = .black }
        dots[2, 20] = .black
        let changed = try Comparer.compare(
            dots, red, settings: CompareSettings(), counting: true, diffImage: false, limits: ImageLimits())
        let entry = CheckEntry(
            path: "icons/a,b.png", status: .changed, report: changed.report, message: changed.report.detail)
        #expect(
            GitHubAnnotations.annotation(entry, command: "compare", file: "goldens/icons/a,b.png")
                == "::error file=goldens/icons/a%2Cb.png,title=iconbadge compare%3A icons/a%2Cb.png changed::the largest of 2 regions is 10 × 1 at 30,0; 11 of 1200 pixels differ\n"
        )
    }
}
