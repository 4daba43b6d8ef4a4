import BadgeCore
import Testing

/// The resource XML reader: what it reads, and every malformed or hostile form it
/// refuses (a part of the document is copied verbatim into the XML iconbadge writes).
@Suite struct XMLScannerTests {
    func parse(_ text: String) throws(XMLSyntaxError) -> XMLElement { try XMLScanner.parse(Array(text.utf8)) }

    @Test func readsAnAdaptiveIconWithRanges() throws {
        let text = """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- a comment -->
            <adaptive-icon xmlns:android="http://schemas.android.com/apk/res/android">
                <background android:drawable="@color/bg" />
                <foreground><inset android:drawable='@drawable/fg' android:inset="22%"/></foreground>
            </adaptive-icon>
            """
        let root = try parse(text)
        #expect(root.name == "adaptive-icon")
        #expect(root.children.map(\.name) == ["background", "foreground"])
        #expect(root.child("background")?.attribute("android:drawable") == "@color/bg")
        let foreground = try #require(root.child("foreground"))
        let bytes = Array(text.utf8)
        #expect(
            String(decoding: bytes[foreground.inner!], as: UTF8.self).hasPrefix(
                "<inset android:drawable='@drawable/fg'"))
        #expect(String(decoding: bytes[foreground.range], as: UTF8.self).hasSuffix("</foreground>"))
    }

    @Test(arguments: [
        ("<!DOCTYPE a [<!ENTITY x \"y\">]><a/>", "DOCTYPE"),
        ("<a><![CDATA[x]]></a>", "CDATA"),
        ("<a><!x></a>", "declaration"),
        ("<a<b/>", "no space before an attribute"),
        ("<a x=\"1\"y=\"2\"/>", "no space before an attribute"),
        ("<a x=\"1\" x=\"2\"/>", "given twice"),
        ("<a x=\"&evil;\"/>", "undeclared entity"),
        ("<a>&</a>", "starts no reference"),
        ("<a><!-- a -- b --></a>", "inside a comment"),
        // The end of a comment does not overlap its start (a trap before, found by
        // FuzzVectorDrawable: Fixtures/fuzz-regressions/FuzzVectorDrawable).
        ("<!---><a/>", "a comment that does not end"),
        ("<a><!--></a>", "a comment that does not end"),
        ("<a><?xml version=\"1.0\"?></a>", "processing instruction inside the root"),
        ("<a>]]></a>", "]]>"),
        ("<a><p:b/></a>", "prefix p of p:b is not bound"),
        ("<a xmlns:=\"x\"/>", "misplaced ':'"),
        ("<:a/>", "name"),
        ("<a x=\"<\"/>", "'<' in the value"),
        ("<a>\u{1}</a>", "control character"),
        ("<a></b>", "closes"),
        ("<a>", "not closed"),
        ("<a/><b/>", "second root"),
    ])
    func refusesWhatCannotBeCopiedSafely(text: String, problem: String) {
        do throws(XMLSyntaxError) {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.problem.contains(problem), "\(text): \(error.problem)")
        }
    }

    /// `<!---->` is an empty comment.
    @Test func anEmptyCommentIsRead() throws {
        #expect(try parse("<a><!----></a>").name == "a")
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: XMLSyntaxError.self) { try XMLScanner.parse([0x3C, 0x61, 0xFF, 0x2F, 0x3E]) }
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(throws: XMLSyntaxError.self) { try XMLScanner.parse(Array(deep.utf8)) }
    }

    /// Attributes are checked for repeats by hash (issue 44: 150,000 attributes on one
    /// element took minutes, each compared with all before it); at most
    /// `maxAttributes` on an element, the one after named in the problem.
    @Test func manyAttributesAreBoundedAndRepeatsFoundAtTheEnd() throws {
        let limit = XMLScanner.maxAttributes
        #expect(limit == 10_000)
        let many = (0..<limit).map { " a\($0)=\"\"" }.joined()
        let root = try parse("<e\(many)/>")
        #expect(root.attributes.count == limit)
        #expect(root.attribute("a9999") == "")
        #expect(throws: XMLSyntaxError.self) { try parse("<e\(many) b=\"\"/>") }
        do throws(XMLSyntaxError) {
            _ = try parse("<e\(many) b=\"\"/>")
        } catch {
            #expect(error.problem == "over 10000 attributes on <e>")
        }
        let repeated = (0..<(limit - 1)).map { " a\($0)=\"\"" }.joined() + " a0=\"x\""
        do throws(XMLSyntaxError) {
            _ = try parse("<e\(repeated)/>")
            Issue.record("a repeated attribute was read")
        } catch {
            #expect(error.problem == "a0 given twice")
        }
    }

    /// Namespace prefixes are in scope from their element to its end tag, however
    /// many are bound: a child sees its ancestors' and its own, a sibling's are gone.
    @Test func prefixScopesFollowTheElements() throws {
        let declarations = (0..<5_000).map { " xmlns:p\($0)=\"u\($0)\"" }.joined()
        let root = try parse("<r\(declarations)><p4999:a p0:b=\"1\"/><c xmlns:q=\"v\"><q:d/></c></r>")
        #expect(root.children.count == 2)
        #expect(throws: XMLSyntaxError.self) { try parse("<r><c xmlns:q=\"v\"/><q:d/></r>") }
        do throws(XMLSyntaxError) {
            _ = try parse("<r xmlns:q=\"v\"><c xmlns:q=\"w\"/><q:d/></r>")
        } catch {
            Issue.record("a prefix bound twice lost its outer binding: \(error)")
        }
    }
}
