/// A resource reference as Android resource files write it: `@color/NAME`,
/// `@android:color/white`, `@drawable/NAME`, `@mipmap/NAME`, `@string/NAME`,
/// `@dimen/NAME` (aapt2's `ResourceUtils::ParseReference`).
public struct AndroidReference: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Whether it names the framework's resources (`@android:…`).
    public var framework: Bool
    /// The resource type: `color`, `drawable`, `mipmap`, `string`, `dimen`, …
    public var type: String
    /// The resource name (`[A-Za-z_][A-Za-z0-9_.]*`, as aapt2 allows).
    public var name: String

    /// A reference from its parts.
    public init(framework: Bool = false, type: String, name: String) {
        self.framework = framework
        self.type = type
        self.name = name
    }

    /// Reads `@[+][package:]type/name`; nil when `text` is not a reference. Any
    /// package but `android` is the app's own (`@com.example:color/x` is written by
    /// libraries' resources as the app's).
    public init?(_ text: String) {
        var rest = Substring(text)
        guard rest.first == "@" else { return nil }
        rest = rest.dropFirst()
        if rest.first == "+" { rest = rest.dropFirst() }
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        var type = rest[..<slash]
        let name = rest[rest.index(after: slash)...]
        var framework = false
        if let colon = type.firstIndex(of: ":") {
            framework = type[..<colon] == "android"
            type = type[type.index(after: colon)...]
        }
        // A reference may also put the package before the name (`@color/android:white`).
        var shortName = name
        if let colon = name.firstIndex(of: ":") {
            framework = framework || name[..<colon] == "android"
            shortName = name[name.index(after: colon)...]
        }
        func isName(_ text: Substring, dots: Bool) -> Bool {
            guard let first = text.utf8.first, !(0x30...0x39).contains(first), text.utf8.count <= 256 else {
                return false
            }
            return text.utf8.allSatisfy {
                (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F
                    || (dots && $0 == 0x2E)
            }
        }
        guard isName(type, dots: false), isName(shortName, dots: true) else { return nil }
        self.init(framework: framework, type: String(type), name: String(shortName))
    }

    /// `@color/NAME`, `@android:color/NAME`.
    public var description: String { "@" + (framework ? "android:" : "") + type + "/" + name }
}

/// Why an Android drawable cannot be drawn: the file, the line and what is wrong,
/// in words that name the element, attribute or reference.
public struct AndroidDrawableProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file the problem is in, as the resource folder spells it.
    public var path: String
    /// The line (1-based) of the element, nil when the problem is the whole file.
    public var line: Int?
    /// What is wrong, and where that helps, how to fix it.
    public var reason: String

    /// A problem in `path` at `line`.
    public init(path: String, line: Int?, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    /// "line 12: …", or the reason alone.
    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}

/// A value from an app's `values*/` files (`<color>`, `<string>`, `<dimen>`,
/// `<item type="…">`): its text as written between the tags (references decoded,
/// white space trimmed), and where it is.
public struct AndroidResourceValue: Equatable, Sendable {
    /// The value as written between the tags, references decoded, white space trimmed.
    public var text: String
    /// The `values*/` file it was read from.
    public var path: String
    /// Its line in that file (1-based).
    public var line: Int

    /// A value from its text and where it was read.
    public init(text: String, path: String, line: Int) {
        self.text = text
        self.path = path
        self.line = line
    }
}

/// A resource file: an XML drawable or colour, or a bitmap, with the density of
/// the folder it was found in (pixels per dp; nil for `nodpi`, `anydpi` and XML).
public struct AndroidResourceFile: Equatable, Sendable {
    public var path: String
    public var bytes: [UInt8]
    public var density: Double?

    public init(path: String, bytes: [UInt8], density: Double?) {
        self.path = path
        self.bytes = bytes
        self.density = density
    }
}

/// How the drawable converter finds what a drawable refers to, answered by the
/// app's resource folder (`AndroidResources` in BadgeJobs reads `values*/`,
/// `drawable*/`, `mipmap*/` and `color*/`). The converter itself reads no file.
public struct AndroidResourceLookup {
    /// The value of `reference` in `values*/` (the default configuration), nil when
    /// it is not defined there.
    public var value: (AndroidReference) -> AndroidResourceValue?
    /// The file of `reference` best for a screen of `density` pixels per dp, nil
    /// when there is none.
    ///
    /// - Throws: `AndroidDrawableProblem` when it cannot be read (a link, too large).
    public var file: (AndroidReference, Double) throws(AndroidDrawableProblem) -> AndroidResourceFile?
    /// Files that could not be read while the values were gathered, each with its
    /// reason, for the message of a reference not found.
    public var unreadable: [String]
    /// The root element of an XML resource file (or of the icon's own XML). The
    /// resource table answers it once per file and run, so that a file referred to
    /// by many paths, at each density, is parsed once; the default parses each time.
    ///
    /// - Throws: `XMLSyntaxError` when the file is not readable XML.
    public var document: (AndroidResourceFile) throws(XMLSyntaxError) -> XMLElement

    public init(
        value: @escaping (AndroidReference) -> AndroidResourceValue?,
        file: @escaping (AndroidReference, Double) throws(AndroidDrawableProblem) -> AndroidResourceFile?,
        unreadable: [String] = [],
        document: @escaping (AndroidResourceFile) throws(XMLSyntaxError) -> XMLElement = {
            file throws(XMLSyntaxError) in
            try XMLScanner.parse(file.bytes)
        }
    ) {
        self.value = value
        self.file = file
        self.unreadable = unreadable
        self.document = document
    }

    /// A lookup that finds nothing (a drawable that refers to nothing).
    public static var empty: AndroidResourceLookup { AndroidResourceLookup(value: { _ in nil }, file: { _, _ in nil }) }
}
