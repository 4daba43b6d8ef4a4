import BadgeSystem
import Testing

@Suite struct LexicalPathTests {
    @Test(arguments: [
        ("fresh/a.png", "fresh/a.png"), ("fresh/./a.png", "fresh/a.png"), ("fresh//a.png", "fresh/a.png"),
        ("fresh/x/../a.png", "fresh/a.png"), ("nx/../icon.png", "icon.png"), ("./a", "a"), ("", "."),
        ("../a/./b", "../a/b"), ("a/../../b", "../b"), ("/", "/"), ("/../x", "/x"), ("//a//b/", "/a/b"),
        ("a/..", "."),
    ])
    func normalises(_ written: String, _ expected: String) {
        #expect(LexicalPath(written).description == expected)
    }

    @Test func relativeToAPrefix() {
        #expect(LexicalPath("/w/out/a.png").relative(to: LexicalPath("/w")) == ["out", "a.png"])
        #expect(LexicalPath("/wx/a.png").relative(to: LexicalPath("/w")) == nil)
        #expect(LexicalPath("a.png").relative(to: LexicalPath("/w")) == nil)
    }
}
