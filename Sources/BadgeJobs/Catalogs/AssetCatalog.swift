import BadgeCore
import BadgeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The image sets an `appiconset` path names: an `.appiconset` (or its
/// Contents.json), an `.imageset`, every app icon set of an `.xcassets` catalog (in
/// its groups too), or the front layer of every image stack of a tvOS `.brandassets`
/// (the layer the badge sits on, above the parallax).
///
/// A catalog may come from a pull request: the walk follows no symbolic link (a
/// linked folder is skipped with a note), goes at most `maxDepth` folders down and
/// reads at most `maxFolders` folders.
package enum AssetCatalog {
    /// How deep the walk goes below the catalog (Xcode groups nest a few levels).
    package static let maxDepth = 12
    /// The most folders read, so a hostile tree cannot make the walk endless.
    package static let maxFolders = 20_000

    /// What a path holds.
    package enum Kind: Equatable, Sendable {
        /// One set (`.appiconset`, `.imageset`, a folder with Contents.json).
        case set
        /// An `.xcassets` catalog (or a folder of them).
        case catalog
        /// A tvOS `.brandassets`: its image stacks' front layers.
        case brandAssets
    }

    /// The kind of `path` from its name.
    package static func kind(of path: String) -> Kind {
        let name = LexicalPath(trimmed(path)).name ?? path
        if name.hasSuffix(".brandassets") { return .brandAssets }
        if name.hasSuffix(".xcassets") { return .catalog }
        return .set
    }

    /// The sets at `path`, in a stable order (sorted by path); only those whose name
    /// (with or without its extension) is in `names`, when it is not empty.
    ///
    /// - Throws: 66 when `path` is missing or may not be read ("permission denied"), or
    ///   a named set is not found (naming those there are); 65 for a set's unreadable
    ///   Contents.json or a catalog of more than `maxFolders` folders; 64 for --set
    ///   with a single set.
    package static func sets(at path: String, names: [String], notes: inout [String]) throws(BadgeError)
        -> [AppIconSet]
    {
        let root = trimmed(path)
        switch kind(of: root) {
        case .set:
            guard names.isEmpty else {
                throw .usage("--set picks sets of an .xcassets catalog; \(Quoted(root)) is a single set")
            }
            var info = stat()
            guard stat(root, &info) == 0 else {
                let code = errno
                throw .missingInput(
                    path: root,
                    reason: code == ENOENT || code == ENOTDIR
                        ? "no such folder" : "cannot open: \(SystemError.text(code))")
            }
            if info.st_mode & S_IFMT == S_IFDIR, !InputFile.isRegularFile(root + "/Contents.json") {
                // A folder above the catalog (the app's sources): name what is inside.
                var found: [String] = []
                findContainers(root, depth: 0, found: &found)
                if !found.isEmpty {
                    throw .missingInput(
                        path: root,
                        reason:
                            "is not an app icon set (no Contents.json); it holds \(found.prefix(3).map { Quoted($0).description }.joined(separator: ", ")): give one of those"
                    )
                }
            }
            return [try AppIconSet(folder: root)]
        case .catalog, .brandAssets:
            try InputFolder.check(root, missing: "no such folder")
            var found: [String] = []
            var folders = 0
            try walk(root, depth: 0, folders: &folders, found: &found, notes: &notes)
            found.sort()
            var sets: [AppIconSet] = []
            for folder in found {
                let set = try AppIconSet(folder: folder)
                if names.isEmpty || names.contains(where: { matches(set.name, $0) }) { sets.append(set) }
            }
            for name in names where !sets.contains(where: { matches($0.name, name) }) {
                let there = found.map { LexicalPath($0).name ?? $0 }
                throw .missingInput(
                    path: root,
                    reason:
                        "has no set named \(Quoted(name)); its sets: \(there.isEmpty ? "none" : there.map { Quoted($0).description }.joined(separator: ", "))"
                )
            }
            return sets
        }
    }

    /// Catalogs, sets and bundles up to 4 folders below `folder` (at most 8), for a
    /// message that points at them; links are not followed.
    static func findContainers(_ folder: String, depth: Int, found: inout [String]) {
        guard depth < 4, found.count < 8 else { return }
        for (name, isFolder, isLink) in entries(of: folder) where isFolder && !isLink {
            let path = folder + "/" + name
            if name.hasSuffix(".xcassets") || name.hasSuffix(".appiconset") || name.hasSuffix(".icon")
                || name.hasSuffix(".brandassets")
            {
                found.append(path)
            } else if !name.hasPrefix(".") {
                findContainers(path, depth: depth + 1, found: &found)
            }
            if found.count >= 8 { return }
        }
    }

    /// Staging folders an interrupted run left in the sets (`kill -9` gives no chance
    /// to remove them), as notes: they are the user's to remove, since another run may
    /// be using its own right now.
    package static func leftovers(in sets: [AppIconSet]) -> [String] {
        leftovers(inFolders: sets.map(\.folder))
    }

    /// As `leftovers(in:)`, for the folders where staging folders are made (a set,
    /// the folder an `--out` copy goes into, an Android overlay).
    package static func leftovers(inFolders folders: [String]) -> [String] {
        var notes: [String] = []
        var seen: [String] = []
        for folder in folders where !seen.contains(folder) {
            seen.append(folder)
            for (name, isFolder, _) in entries(of: folder) where isFolder && name.hasPrefix(".iconbadge-") {
                notes.append(
                    "\(Quoted(folder + "/" + name)) was left by an interrupted run; remove it (Xcode and Gradle see it as a stray folder)"
                )
            }
        }
        return notes
    }

    /// Whether the set folder `setName` is what `--set name` asks for.
    static func matches(_ setName: String, _ name: String) -> Bool {
        setName == name || OutputTemplate.baseName(of: setName) == name
    }

    /// Collects the sets below `folder`: app icon sets anywhere; in a `.brandassets`,
    /// the front layer of each image stack.
    private static func walk(
        _ folder: String, depth: Int, folders: inout Int, found: inout [String], notes: inout [String]
    ) throws(BadgeError) {
        folders += 1
        guard folders <= maxFolders else {
            throw .badInput(
                path: folder, reason: "the catalog holds more than \(maxFolders) folders; badge its sets one by one")
        }
        guard depth <= maxDepth else {
            notes.append("\(Quoted(folder)) is more than \(maxDepth) folders deep; not searched")
            return
        }
        for (name, isFolder, isLink) in entries(of: folder) {
            let path = folder + "/" + name
            if isLink {
                if name.hasSuffix(".appiconset") || name.hasSuffix(".imagestack") || name.hasSuffix(".brandassets") {
                    notes.append(
                        "\(Quoted(path)) is a symbolic link; a catalog's sets must be its own folders: skipped")
                }
                continue
            }
            guard isFolder else { continue }
            if name.hasSuffix(".appiconset") {
                found.append(path)
            } else if name.hasSuffix(".imagestack") {
                if let front = frontLayer(of: path) { found.append(front) }
            } else if !name.hasSuffix(".imageset") {
                try walk(path, depth: depth + 1, folders: &folders, found: &found, notes: &notes)
            }
        }
    }

    /// The `Content.imageset` of an image stack's front layer: the first entry of the
    /// stack's Contents.json `layers` (Xcode lists them front to back), or nil.
    static func frontLayer(of stack: String) -> String? {
        guard let bytes = try? InputFile.bytes(at: stack + "/Contents.json", limit: 1 << 20, what: "Contents.json"),
            let document = try? JSONParser(maxDepth: 16).parse(bytes),
            case .array(let layers) = document["layers"] ?? .null,
            case .string(let layer) = layers.first?["filename"] ?? .null,
            !layer.isEmpty, !layer.contains("/"), layer != ".", layer != ".."
        else { return nil }
        // Neither the layer nor its image set may be a link: the names come from the
        // catalog, and what they name becomes an output folder.
        var info = stat()
        guard lstat(stack + "/" + layer, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        let content = stack + "/" + layer + "/Content.imageset"
        guard lstat(content, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return content
    }

    /// The entries of `folder` (name, is a folder, is a link), sorted, without `.`
    /// and `..`; empty when it cannot be read.
    static func entries(of folder: String) -> [(String, Bool, Bool)] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var list: [(String, Bool, Bool)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            list.append((name, type == S_IFDIR, type == S_IFLNK))
        }
        return list.sorted { $0.0 < $1.0 }
    }

    /// The bytes of a catalog's own file (`Contents.json`, `icon.json`), which may not
    /// be a link: it could name any file the caller can read.
    ///
    /// - Throws: 65 for a link; 66 when missing; 65 over `limit` bytes.
    static func ownFile(_ path: String, limit: Int, what: String, of owner: String) throws(BadgeError) -> [UInt8] {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw .badInput(path: path, reason: "is a symbolic link; the files of \(owner) must be its own files")
        }
        return try InputFile.bytes(at: path, limit: limit, what: what)
    }

    /// `path` without trailing slashes, and without a set's `/Contents.json`.
    package static func trimmed(_ path: String) -> String {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed.hasSuffix("/Contents.json") { trimmed.removeLast("/Contents.json".count) }
        return trimmed
    }
}
