/// A path normalised without touching the file system: empty and `.` components
/// dropped, each `name/..` pair folded away, `..` above `/` dropped. Leading `..`
/// components of a relative path are kept in `parents`.
///
/// iconbadge opens outputs by walking exactly these components (no symbolic link is
/// followed below a root; see `OutputLocation`), so the lexical form is also the file
/// that gets written: `fresh/a.png`, `fresh/./a.png`, `fresh//a.png` and
/// `fresh/x/../a.png` are one output, and identity checks compare this form.
public struct LexicalPath: Hashable, Sendable, CustomStringConvertible {
    /// Whether the path starts at `/`.
    public var isAbsolute: Bool
    /// How many leading `..` a relative path has (0 for an absolute path).
    public var parents: Int
    /// The remaining components, none of them empty, `.` or `..`.
    public var components: [String]

    /// Normalises `path` as written.
    public init(_ path: String) {
        isAbsolute = path.hasPrefix("/")
        parents = 0
        components = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if !components.isEmpty {
                    components.removeLast()
                } else if !isAbsolute {
                    parents += 1
                }
            default: components.append(String(part))
            }
        }
    }

    /// A path from its parts.
    public init(isAbsolute: Bool, parents: Int = 0, components: [String]) {
        self.isAbsolute = isAbsolute
        self.parents = isAbsolute ? 0 : parents
        self.components = components
    }

    /// The normalised path as text: `/` for the root, `.` for an empty relative path.
    public var description: String {
        // A plain loop: `joined(separator:)` makes the Swift runtime scan every protocol
        // conformance on first use, 3 % of a lone render (callgrind).
        var text = isAbsolute ? "/" : ""
        var first = true
        for _ in 0..<parents {
            text += first ? ".." : "/.."
            first = false
        }
        for component in components {
            if !first { text += "/" }
            text += component
            first = false
        }
        return text.isEmpty ? "." : text
    }

    /// The last component (the file name), or nil for `/`, `.` and `..`.
    public var name: String? { components.last }

    /// The path without its last component.
    public var folder: LexicalPath {
        var copy = self
        if !copy.components.isEmpty { copy.components.removeLast() }
        return copy
    }

    /// `other` (a relative path) appended, normalised again; an absolute `other` is
    /// returned as it is.
    public func appending(_ other: LexicalPath) -> LexicalPath {
        guard !other.isAbsolute else { return other }
        var result = self
        for _ in 0..<other.parents {
            if !result.components.isEmpty {
                result.components.removeLast()
            } else if !result.isAbsolute {
                result.parents += 1
            }
        }
        result.components += other.components
        return result
    }

    /// The components of `self` after `prefix`, when `prefix` is a leading part of it
    /// (both absolute, or both relative with the same `parents`); nil otherwise.
    public func relative(to prefix: LexicalPath) -> [String]? {
        guard isAbsolute == prefix.isAbsolute, parents == prefix.parents,
            components.count >= prefix.components.count,
            components.starts(with: prefix.components)
        else { return nil }
        return Array(components.dropFirst(prefix.components.count))
    }

    /// The path made absolute from the working folder (unchanged when absolute, or
    /// when the working folder is gone).
    public func absolute() -> LexicalPath {
        guard !isAbsolute, let working = Platform.workingFolder() else { return self }
        return LexicalPath(working).appending(self)
    }
}
