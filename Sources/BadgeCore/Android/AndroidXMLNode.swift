/// One element of an Android resource XML file as the drawable converter reads it:
/// the element, the file it is in (for line numbers), and the namespaces in scope,
/// so that `android:` attributes are found by their namespace, whatever prefix the
/// file binds to it.
struct AndroidXMLNode {
    /// Android's resource namespace, aapt's inline-resource namespace, and the
    /// tools namespace (attributes for Android Studio only, ignored by the build).
    static let android = "http://schemas.android.com/apk/res/android"
    static let aapt = "http://schemas.android.com/aapt"
    static let tools = "http://schemas.android.com/tools"

    /// A file read: its path (for messages) and bytes (for line numbers).
    final class File {
        let path: String
        let bytes: [UInt8]
        private var newlines: [Int]?

        init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }

        /// The 1-based line of byte `offset`.
        func line(_ offset: Int) -> Int {
            if newlines == nil { newlines = bytes.indices.filter { bytes[$0] == 0x0A } }
            var low = 0
            var high = newlines!.count
            // The number of newlines before `offset`.
            while low < high {
                let middle = (low + high) / 2
                if newlines![middle] < offset { low = middle + 1 } else { high = middle }
            }
            return low + 1
        }
    }

    /// The namespace declarations of one element (prefix to URI), and the scope of
    /// its parent: a child shares its ancestors' declarations instead of copying them,
    /// so an element of many declarations over many children costs their sum, not
    /// their product.
    final class Scope {
        let own: [String: String]
        let parent: Scope?

        init(own: [String: String], parent: Scope?) {
            self.own = own
            self.parent = parent
        }

        /// The URI `prefix` is bound to here, the innermost declaration winning.
        func uri(_ prefix: String) -> String? {
            var scope: Scope? = self
            while let current = scope {
                if let uri = current.own[prefix] { return uri }
                scope = current.parent
            }
            return nil
        }
    }

    let element: XMLElement
    let file: File
    /// The namespaces in scope, this element's declarations included.
    let scope: Scope

    /// The root of a file.
    init(root: XMLElement, file: File) {
        self.init(element: root, file: file, inherited: ["xml": "http://www.w3.org/XML/1998/namespace"])
    }

    init(element: XMLElement, file: File, inherited: [String: String]) {
        self.init(element: element, file: file, parent: Scope(own: inherited, parent: nil))
    }

    private init(element: XMLElement, file: File, parent: Scope) {
        self.element = element
        self.file = file
        var own: [String: String] = [:]
        for (name, value) in element.attributes where name.hasPrefix("xmlns:") {
            own[String(name.dropFirst("xmlns:".count))] = XMLText.decoded(value)
        }
        scope = own.isEmpty ? parent : Scope(own: own, parent: parent)
    }

    /// Prefix to namespace URI, every declaration in scope (the innermost winning).
    var namespaces: [String: String] {
        var chain: [Scope] = []
        var current: Scope? = scope
        while let next = current {
            chain.append(next)
            current = next.parent
        }
        var all: [String: String] = [:]
        for level in chain.reversed() { all.merge(level.own) { _, inner in inner } }
        return all
    }

    /// The element's children, in order.
    var children: [AndroidXMLNode] {
        element.children.map { AndroidXMLNode(element: $0, file: file, parent: scope) }
    }

    /// The line the element starts on.
    var line: Int { file.line(element.range.lowerBound) }

    /// The element's name as written (`vector`, `aapt:attr`).
    var name: String { element.name }

    /// The namespace URI and local name of a qualified name (nil URI: no prefix).
    func resolve(_ qualified: String) -> (uri: String?, local: String) {
        guard let colon = qualified.firstIndex(of: ":") else { return (nil, qualified) }
        return (scope.uri(String(qualified[..<colon])), String(qualified[qualified.index(after: colon)...]))
    }

    /// The element's local name when it is in no namespace (every drawable element),
    /// or its namespace and local name.
    var qualifiedName: (uri: String?, local: String) { resolve(element.name) }

    /// A problem at this element.
    func problem(_ reason: String) -> AndroidDrawableProblem {
        AndroidDrawableProblem(path: file.path, line: line, reason: reason)
    }

    /// The element's `android:` attributes (decoded values, by local name), after
    /// checking that it has no other: `tools:` attributes and namespace declarations
    /// are ignored, anything else not in `allowed` is refused, naming it.
    ///
    /// - Throws: `AndroidDrawableProblem` naming the first unknown attribute.
    func androidAttributes(allowed: Set<String>) throws(AndroidDrawableProblem) -> [String: String] {
        var values: [String: String] = [:]
        for (name, value) in element.attributes {
            if name == "xmlns" || name.hasPrefix("xmlns:") { continue }
            let (uri, local) = resolve(name)
            if uri == Self.tools { continue }
            guard uri == Self.android, allowed.contains(local) else {
                throw problem(
                    "<\(element.name)> has the attribute \(name), which iconbadge does not draw (it knows \(Self.list(allowed, prefix: prefix(of: name))))"
                )
            }
            values[local] = XMLText.decoded(value)
        }
        return values
    }

    /// The prefix a name is written with, or `android` when it has none.
    private func prefix(of name: String) -> String {
        if let colon = name.firstIndex(of: ":"), resolve(name).uri == Self.android { return String(name[..<colon]) }
        // The innermost declaration of Android's namespace (the first prefix by name,
        // so that the message is the same run after run).
        var current: Scope? = scope
        while let level = current {
            if let prefix = level.own.filter({ $0.value == Self.android }).keys.min(),
                scope.uri(prefix) == Self.android
            {
                return prefix
            }
            current = level.parent
        }
        return "android"
    }

    /// `android:a, android:b` in alphabetical order, for messages.
    static func list(_ names: Set<String>, prefix: String) -> String {
        names.isEmpty ? "none" : names.sorted().map { "\(prefix):\($0)" }.joined(separator: ", ")
    }
}

/// The text of an XML attribute value or element as the document means it: the five
/// predefined entity references and numeric character references decoded (the
/// scanner has already refused every other `&`).
public enum XMLText {
    /// `text` with `&amp; &lt; &gt; &quot; &apos; &#N; &#xN;` decoded; a numeric
    /// reference to a code point that is not a character is kept as written.
    public static func decoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else {
                out += rest[amp...]
                return out
            }
            let body = rest[rest.index(after: amp)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let value = named[String(body)] {
                out += value
            } else if body.hasPrefix("#x") || body.hasPrefix("#X"), let code = UInt32(body.dropFirst(2), radix: 16),
                let scalar = Unicode.Scalar(code)
            {
                out.unicodeScalars.append(scalar)
            } else if body.hasPrefix("#"), let code = UInt32(body.dropFirst()), let scalar = Unicode.Scalar(code) {
                out.unicodeScalars.append(scalar)
            } else {
                out += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}
