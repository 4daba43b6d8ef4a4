/// Where one output file goes, split into the part the caller chose and the part that
/// may come from hostile data.
///
/// - `root`: a folder the caller named on the command line (`--check DIR`,
///   `--artifacts DIR`, `--output-root DIR`, `appiconset --out DIR`), or nil when the
///   whole path is the caller's own (`-o PATH`, `--junit PATH`, `--diff PATH`).
/// - `relative`: the path below `root`. Below a root no symbolic link is ever followed.
///
/// For a path the caller wrote whole, links are refused inside the working folder
/// (where a pull request's files live) and in every component of a relative path (its
/// `..` may climb into the rest of the checked-out tree), and followed on an absolute
/// path outside the working folder (system links such as macOS's `/tmp` →
/// `/private/tmp`); the file itself is never a link. SECURITY.md states the rule.
public struct OutputLocation: Hashable, Sendable, CustomStringConvertible {
    /// The caller's folder, as written; nil when `relative` is the caller's whole path.
    public let root: String?
    /// The normalised path below `root` (or the whole path); its last component is the
    /// file name.
    public let relative: LexicalPath
    /// The path as the user or the manifest wrote it, shown in messages; nil: made
    /// from `root` and `relative`. Not part of the identity.
    public var spelling: String?

    public static func == (a: OutputLocation, b: OutputLocation) -> Bool {
        a.root == b.root && a.relative == b.relative
    }

    /// Hashes what `==` compares: the root and the path below it (not the spelling).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(root)
        hasher.combine(relative)
    }

    /// A path the caller wrote whole (`-o`, `--junit`, `--diff`).
    public init(commandLine path: String) {
        root = nil
        relative = LexicalPath(path)
        spelling = path
    }

    /// `components` (already checked not to leave it) below the folder `root`.
    public init(root: String, components: [String]) {
        self.root = root
        relative = LexicalPath(isAbsolute: false, components: components)
    }

    /// The path for messages: the root joined with the normalised path below it.
    public var description: String {
        if let spelling { return spelling }
        guard let root, root != "." else { return relative.description }
        return (root.hasSuffix("/") ? root : root + "/") + relative.description
    }

    /// The file name (last component), or nil for a path with none (`.`, `/`, `..`).
    public var name: String? { relative.name }

    /// The same place, one folder up: the folder this file goes into.
    var folder: OutputLocation {
        if let root { return OutputLocation(root: root, components: relative.folder.components) }
        return OutputLocation(lexical: relative.folder)
    }

    private init(lexical: LexicalPath) {
        root = nil
        relative = lexical
    }

    /// A sibling of this file in the same folder (`NAME.actual.png` beside a golden).
    public func sibling(named name: String) -> OutputLocation {
        var components = relative.folder.components
        components.append(name)
        var sibling =
            root.map { OutputLocation(root: $0, components: components) }
            ?? OutputLocation(
                lexical: LexicalPath(isAbsolute: relative.isAbsolute, parents: relative.parents, components: components)
            )
        if let spelling {
            let folder = OutputFile.parentFolder(of: spelling)
            sibling.spelling = spelling.contains("/") ? (folder == "/" ? "/" : folder + "/") + name : name
        }
        return sibling
    }
}

/// A folder that outputs from hostile data (manifest outputs, template expansions,
/// golden names, catalog entries) must stay inside.
public struct OutputRoot: Hashable, Sendable {
    /// The folder as the caller wrote it (`.` for the working folder).
    public let path: String

    /// The root at `path` (`.` is the working folder).
    public init(_ path: String) { self.path = path.isEmpty ? "." : path }

    /// Why an output cannot be placed under a root.
    public enum Escape: Error, Equatable, Sendable {
        /// An absolute path outside the root.
        case absolute
        /// `..` components that climb above the root.
        case climbs
        /// Nothing left after normalisation (`.`, `x/..`): no file name.
        case noName
    }

    /// Where `output` (relative to the root, or absolute inside it) is written.
    ///
    /// - Throws: `Escape` when the normalised path leaves the root or names no file;
    ///   the caller words the message (it knows the job and the option).
    public func location(of output: String) throws(Escape) -> OutputLocation {
        let lexical = LexicalPath(output)
        var components: [String]
        if lexical.isAbsolute {
            guard let inside = absoluteForms().lazy.compactMap({ lexical.relative(to: $0) }).first else {
                throw .absolute
            }
            components = inside
        } else {
            guard lexical.parents == 0 else { throw .climbs }
            components = lexical.components
        }
        guard !components.isEmpty else { throw .noName }
        var location = OutputLocation(root: path, components: components)
        if path == "." { location.spelling = output }
        return location
    }

    /// The root as an absolute path, as written from the working folder and as the
    /// kernel resolves it, so an absolute output inside it is recognised either way.
    private func absoluteForms() -> [LexicalPath] {
        var forms: [LexicalPath] = []
        let written = LexicalPath(path)
        if written.isAbsolute {
            forms.append(written)
        } else if let working = Platform.workingFolder() {
            forms.append(LexicalPath(working).appending(written))
        }
        if let real = FileIdentity.realPath(path) { forms.append(LexicalPath(real)) }
        return forms
    }
}
