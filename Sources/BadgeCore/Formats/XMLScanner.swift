/// One element of a small XML document: its name, attributes and children, with the
/// byte ranges it covers, so that a tool can rewrite one element and keep the rest of
/// the document byte for byte.
public struct XMLElement: Sendable, Equatable {
    /// The element's name as written (`adaptive-icon`, `android:foo` kept whole).
    public var name: String
    /// The attributes in document order, values as written between the quotes
    /// (entities not decoded: Android resource references never need them).
    public var attributes: [(name: String, value: String)]
    /// The bytes of the whole element, from `<` to the end of its end tag.
    public var range: Range<Int>
    /// The bytes between the start tag and the end tag; nil when self-closing.
    public var inner: Range<Int>?
    /// The child elements, in order.
    public var children: [XMLElement]

    /// The value of the attribute `name`, or nil.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The first child named `name`, or nil.
    public func child(_ name: String) -> XMLElement? {
        children.first { $0.name == name }
    }

    public static func == (a: XMLElement, b: XMLElement) -> Bool {
        a.name == b.name && a.range == b.range && a.inner == b.inner && a.children == b.children
            && a.attributes.map(\.name) == b.attributes.map(\.name)
            && a.attributes.map(\.value) == b.attributes.map(\.value)
    }
}

/// Why an XML document could not be read: the byte offset and what was wrong.
public struct XMLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is: a byte offset from the start of the document.
    public var offset: Int
    /// What is wrong there, in words ("a DOCTYPE (not read: ...)").
    public var problem: String
    /// The problem and where: "a CDATA section (not read) at byte 12".
    public var description: String { "\(problem) at byte \(offset)" }
}

/// Reads the small XML documents of Android resources (adaptive icons, layer lists,
/// manifests) into elements with byte ranges.
///
/// It is bounded and refuses what it does not need, since resource folders may come
/// from a pull request: no DOCTYPE (so no entity expansion), no CDATA, at most
/// `maxDepth` levels, `maxElements` elements and `maxAttributes` attributes on one;
/// its work grows with the document's length, never with a square. It checks what a part copied
/// verbatim into another document needs to stay well-formed there: valid UTF-8 with
/// no control characters, names, attributes separated by white space and given once,
/// `&` only in the five predefined or numeric references, comments without `--`, no
/// processing instruction after the root starts, no `]]>` in text, and every prefix
/// bound by an `xmlns:` on the element or an ancestor. Comments and text are skipped.
public enum XMLScanner {
    /// The deepest nesting read (Android resources nest a few levels).
    public static let maxDepth = 64
    /// The most elements read (a launcher icon's XML has a handful; a manifest some
    /// hundreds).
    public static let maxElements = 100_000
    /// The most attributes on one element: 10,000. Android's largest elements
    /// (`<application>`, `<path>`) take some tens; a document's attributes are
    /// checked by hash, so this bounds each element's list, not a quadratic.
    public static let maxAttributes = 10_000

    /// The document's root element.
    ///
    /// - Throws: `XMLSyntaxError` for a DOCTYPE, CDATA, a tag that does not close, an
    ///   end tag that does not match, text outside the root, or a limit passed.
    public static func parse(_ bytes: [UInt8]) throws(XMLSyntaxError) -> XMLElement {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw XMLSyntaxError(offset: 0, problem: "not valid UTF-8")
        }
        if let control = bytes.firstIndex(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F })
        {
            throw XMLSyntaxError(offset: control, problem: "a control character")
        }
        var reader = Reader(bytes: bytes)
        var root: XMLElement?
        while reader.position < bytes.count {
            reader.skipWhitespace()
            guard reader.position < bytes.count else { break }
            guard bytes[reader.position] == UInt8(ascii: "<") else {
                throw XMLSyntaxError(offset: reader.position, problem: "text outside the root element")
            }
            if try reader.skipMarkup() { continue }
            guard root == nil else {
                throw XMLSyntaxError(offset: reader.position, problem: "a second root element")
            }
            reader.insideRoot = true
            root = try reader.element(depth: 0)
        }
        guard let root else { throw XMLSyntaxError(offset: 0, problem: "no root element") }
        return root
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var elements = 0
        /// Whether the root element has begun: no processing instruction after that.
        var insideRoot = false
        /// The prefixes bound where the reader is, each with how many elements in
        /// scope bind it (`xml` is always bound).
        var bound: [String: Int] = ["xml": 1]

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        /// Whether `text` is at `offset`; compared in place (this runs at every byte
        /// of a comment, so it allocates nothing).
        func starts(with text: StaticString, at offset: Int) -> Bool {
            let count = text.utf8CodeUnitCount
            guard offset >= 0, offset + count <= bytes.count else { return false }
            let start = text.utf8Start
            for index in 0..<count where bytes[offset + index] != start[index] { return false }
            return true
        }

        /// Skips a comment or a processing instruction at `<`; false when an element
        /// starts there.
        mutating func skipMarkup() throws(XMLSyntaxError) -> Bool {
            if starts(with: "<!--", at: position) {
                let start = position
                // The end is looked for after the opening: in "<!--->" the "-->" would
                // overlap it.
                position += 4
                try skip(past: "-->", what: "a comment")
                // XML forbids "--" inside a comment (it would end it elsewhere).
                let body = bytes[(start + 4)..<(position - 3)]
                if body.indices.contains(where: { $0 + 1 < body.endIndex && bytes[$0] == 0x2D && bytes[$0 + 1] == 0x2D }
                )
                    || body.last == 0x2D
                {
                    throw XMLSyntaxError(offset: start, problem: "\"--\" inside a comment")
                }
                return true
            }
            if starts(with: "<?", at: position) {
                guard !insideRoot else {
                    throw XMLSyntaxError(offset: position, problem: "a processing instruction inside the root")
                }
                try skip(past: "?>", what: "a processing instruction")
                return true
            }
            if starts(with: "<!DOCTYPE", at: position) || starts(with: "<!doctype", at: position) {
                throw XMLSyntaxError(offset: position, problem: "a DOCTYPE (not read: it may declare entities)")
            }
            if starts(with: "<![CDATA[", at: position) {
                throw XMLSyntaxError(offset: position, problem: "a CDATA section (not read)")
            }
            if starts(with: "<!", at: position) {
                throw XMLSyntaxError(offset: position, problem: "a declaration (not read)")
            }
            return false
        }

        mutating func skip(past end: StaticString, what: String) throws(XMLSyntaxError) {
            let start = position
            while position < bytes.count {
                if starts(with: end, at: position) {
                    position += end.utf8CodeUnitCount
                    return
                }
                position += 1
            }
            throw XMLSyntaxError(offset: start, problem: "\(what) that does not end")
        }

        /// An XML name: ASCII letters, digits, `_ : - .` and any non-ASCII byte, not
        /// starting with a digit, `-` or `.` (XML 1.0's NameStartChar, simplified to
        /// refuse every ASCII punctuation it does not allow).
        mutating func name() throws(XMLSyntaxError) -> String {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                let letter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte >= 0x80
                let digit = (0x30...0x39).contains(byte)
                let punctuation =
                    byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
                guard letter || digit || punctuation else { break }
                if position == start, digit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") {
                    throw XMLSyntaxError(offset: position, problem: "a name may not start with that character")
                }
                position += 1
            }
            guard position > start else { throw XMLSyntaxError(offset: start, problem: "a name expected") }
            let name = String(decoding: bytes[start..<position], as: UTF8.self)
            let colons = name.utf8.filter { $0 == UInt8(ascii: ":") }.count
            guard colons <= 1, name.first != ":", name.last != ":" else {
                throw XMLSyntaxError(offset: start, problem: "the name \(name) has a misplaced ':'")
            }
            return name
        }

        /// Checks the `&` references in `range`: only `&amp; &lt; &gt; &quot; &apos;`
        /// and numeric ones (no entity is ever declared, DOCTYPE being refused).
        func checkReferences(_ range: Range<Int>) throws(XMLSyntaxError) {
            var index = range.lowerBound
            while index < range.upperBound {
                guard bytes[index] == UInt8(ascii: "&") else {
                    index += 1
                    continue
                }
                guard let end = bytes[index..<range.upperBound].firstIndex(of: UInt8(ascii: ";")), end - index <= 10
                else { throw XMLSyntaxError(offset: index, problem: "'&' that starts no reference") }
                let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                let numeric =
                    body.hasPrefix("#x")
                    ? body.count > 2 && body.dropFirst(2).allSatisfy(\.isHexDigit)
                    : body.hasPrefix("#") && body.count > 1 && body.dropFirst().allSatisfy(\.isNumber)
                guard numeric || ["amp", "lt", "gt", "quot", "apos"].contains(body) else {
                    throw XMLSyntaxError(offset: index, problem: "an undeclared entity &\(body);")
                }
                index = end + 1
            }
        }

        /// The prefix of a qualified name (`android` of `android:drawable`), or nil.
        static func prefix(of name: String) -> String? {
            guard let colon = name.firstIndex(of: ":") else { return nil }
            return String(name[..<colon])
        }

        /// Checks that every prefix `name` and its attributes use is bound (by an
        /// `xmlns:` here or on an ancestor), after binding this element's own
        /// declarations in `bound`; returns them, for `unbind` when the element ends.
        /// A hash of counts (a prefix may be bound again below), so an element with
        /// many declarations, or many elements each with one, cost no more than their
        /// number.
        mutating func bindPrefixes(
            _ name: String, _ attributes: [(name: String, value: String)], at offset: Int
        ) throws(XMLSyntaxError) -> [String] {
            var declared: [String] = []
            for attribute in attributes where attribute.name.hasPrefix("xmlns:") {
                let prefix = String(attribute.name.dropFirst("xmlns:".count))
                bound[prefix, default: 0] += 1
                declared.append(prefix)
            }
            func check(_ used: String) throws(XMLSyntaxError) {
                guard let prefix = Self.prefix(of: used), prefix != "xmlns" else { return }
                guard bound[prefix] != nil else {
                    throw XMLSyntaxError(offset: offset, problem: "the prefix \(prefix) of \(used) is not bound")
                }
            }
            try check(name)
            for attribute in attributes { try check(attribute.name) }
            return declared
        }

        /// Ends the scope of the prefixes `bindPrefixes` bound.
        mutating func unbind(_ declared: [String]) {
            for prefix in declared {
                if bound[prefix] == 1 { bound[prefix] = nil } else { bound[prefix]! -= 1 }
            }
        }

        /// Reads the element whose `<` is at `position`.
        mutating func element(depth: Int) throws(XMLSyntaxError) -> XMLElement {
            guard depth < XMLScanner.maxDepth else {
                throw XMLSyntaxError(offset: position, problem: "elements nested over \(XMLScanner.maxDepth) deep")
            }
            elements += 1
            guard elements <= XMLScanner.maxElements else {
                throw XMLSyntaxError(offset: position, problem: "over \(XMLScanner.maxElements) elements")
            }
            let start = position
            position += 1
            let elementName = try name()
            var attributes: [(name: String, value: String)] = []
            // Names seen, for "given twice": a hash, so the check does not grow with
            // the number of attributes before (150,000 attributes in 1 MiB would
            // otherwise be 10^10 comparisons).
            var names: Set<String> = []
            while true {
                let before = position
                skipWhitespace()
                let spaced = position > before
                guard position < bytes.count else {
                    throw XMLSyntaxError(offset: start, problem: "the tag <\(elementName)> does not end")
                }
                if bytes[position] == UInt8(ascii: "/") {
                    guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else {
                        throw XMLSyntaxError(offset: position, problem: "'/' not followed by '>'")
                    }
                    position += 2
                    unbind(try bindPrefixes(elementName, attributes, at: start))
                    return XMLElement(
                        name: elementName, attributes: attributes, range: start..<position, inner: nil, children: [])
                }
                if bytes[position] == UInt8(ascii: ">") {
                    position += 1
                    break
                }
                guard spaced else {
                    throw XMLSyntaxError(offset: position, problem: "no space before an attribute of <\(elementName)>")
                }
                guard names.count < XMLScanner.maxAttributes else {
                    throw XMLSyntaxError(
                        offset: position, problem: "over \(XMLScanner.maxAttributes) attributes on <\(elementName)>")
                }
                let attribute = try name()
                guard names.insert(attribute).inserted else {
                    throw XMLSyntaxError(offset: position, problem: "\(attribute) given twice")
                }
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                    throw XMLSyntaxError(offset: position, problem: "'=' expected after \(attribute)")
                }
                position += 1
                skipWhitespace()
                guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else {
                    throw XMLSyntaxError(offset: position, problem: "a quoted value expected for \(attribute)")
                }
                let quote = bytes[position]
                position += 1
                let valueStart = position
                while position < bytes.count, bytes[position] != quote {
                    // XML forbids `<` in a value; a raw one means the document is broken.
                    guard bytes[position] != UInt8(ascii: "<") else {
                        throw XMLSyntaxError(offset: position, problem: "'<' in the value of \(attribute)")
                    }
                    position += 1
                }
                guard position < bytes.count else {
                    throw XMLSyntaxError(offset: valueStart, problem: "the value of \(attribute) does not end")
                }
                try checkReferences(valueStart..<position)
                attributes.append((attribute, String(decoding: bytes[valueStart..<position], as: UTF8.self)))
                position += 1
            }
            let declared = try bindPrefixes(elementName, attributes, at: start)
            let innerStart = position
            var children: [XMLElement] = []
            while true {
                let textStart = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
                try checkReferences(textStart..<position)
                if bytes[textStart..<position].indices.contains(where: {
                    $0 + 2 < position && bytes[$0] == 0x5D && bytes[$0 + 1] == 0x5D && bytes[$0 + 2] == 0x3E
                }) {
                    throw XMLSyntaxError(offset: textStart, problem: "\"]]>\" in text")
                }
                guard position < bytes.count else {
                    throw XMLSyntaxError(offset: start, problem: "<\(elementName)> is not closed")
                }
                if starts(with: "</", at: position) {
                    let innerEnd = position
                    position += 2
                    let closing = try name()
                    guard closing == elementName else {
                        throw XMLSyntaxError(
                            offset: innerEnd, problem: "</\(closing)> closes <\(elementName)>")
                    }
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                        throw XMLSyntaxError(offset: position, problem: "'>' expected")
                    }
                    position += 1
                    unbind(declared)
                    return XMLElement(
                        name: elementName, attributes: attributes, range: start..<position,
                        inner: innerStart..<innerEnd, children: children)
                }
                if try skipMarkup() { continue }
                children.append(try element(depth: depth + 1))
            }
        }
    }
}
