import BadgeCore
import BadgeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a drawable of an app's `res/` folder may refer to: the values of its
/// `values*/` files (colours, strings, dimensions) and its resource files
/// (`drawable*/`, `mipmap*/`, `color*/`), as the drawable converter asks for them
/// (`AndroidResourceLookup`).
///
/// Only the default configuration is read, as a launcher on a recent phone in light
/// mode in English sees it: folders with no qualifier, or only an API level
/// (`values-v26`, the highest winning) and, for files, a density (`-xxhdpi`,
/// `-anydpi`, `-nodpi`). Folders for night mode, locales, sizes and the like are
/// skipped. Nothing is read through a link, every file is bounded, and a values file
/// that cannot be read (XMLScanner refuses CDATA, for one) is skipped and named in
/// the message of a reference not found.
///
/// It is the resource table of one run, built once for a `res/` folder: `res/` and
/// each folder it reads are listed once (the files of `drawable*/`, `mipmap*/` and
/// `color*/` indexed by resource name), each values file is parsed once, and each
/// XML file a drawable refers to is read and parsed once, however many references
/// and densities ask for it. The names listed and the XML bytes read are bounded
/// (`maxEntries`, `maxXMLBytes`), so a hostile folder costs at most that much work.
package final class AndroidResourceTable {
    /// The largest values file read (bytes): 4 MiB (a large app's strings.xml is
    /// some hundreds of KiB).
    package static let maxValuesBytes = 4 << 20
    /// The most values files read: 256.
    package static let maxValuesFiles = 256
    /// The most names listed (the folders of `res/`, and the files of the
    /// `values*/`, `drawable*/`, `mipmap*/` and `color*/` folders read): 100,000,
    /// some times what a large app has (its `res/` holds a few thousand files);
    /// listing them costs a `stat` each, once a run.
    package static let maxEntries = 100_000
    /// The most XML read from one `res/` folder in a run (bytes, values files and
    /// the files drawables refer to together): 16 MiB. Each is parsed once and kept
    /// for the run, and a parsed file costs some times its size in memory.
    package static let maxXMLBytes = 16 << 20

    /// A file of `drawable*/`, `mipmap*/` or `color*/`: its folder, name, and the
    /// folder's qualifiers.
    private struct Candidate {
        var folder: String
        var file: String
        var density: Double?
        var version: Int
    }

    /// The `res/` folder (no trailing slash).
    package let folder: String
    /// The image limits: a bitmap is at most `maxRasterBytes`.
    let limits: ImageLimits
    /// Values by `type/name`, with the API level of the folder they came from.
    private var values: [String: (value: AndroidResourceValue, version: Int)] = [:]
    /// Values files not read, each "values/strings.xml: the reason".
    package private(set) var unreadable: [String] = []
    /// The files of `drawable*/`, `mipmap*/` and `color*/`, by type, then by
    /// resource name (the file name before its first dot), in folder and file order.
    private var files: [String: [String: [Candidate]]] = [:]
    /// The XML files read for drawables, by path: their bytes and what parsing them gave.
    private var documents: [String: (bytes: [UInt8], root: Result<XMLElement, XMLSyntaxError>)] = [:]
    /// The bounds of this table (the static ones, smaller in tests).
    private let entryLimit: Int
    private let byteLimit: Int
    /// For a table of a planned overlay: the entries of each folder, by path, in
    /// place of listing the disk; nil for a folder on disk.
    private let listing: [String: [(name: String, isFolder: Bool, isLink: Bool)]]?
    /// The files a planned overlay holds in memory, by path (read instead of the disk).
    private let held: [String: [UInt8]]
    /// Names listed so far (against `entryLimit`).
    private var entriesListed = 0
    /// How many folders were listed: `res/` and each folder read, once each (for tests).
    package private(set) var foldersListed = 0
    /// How many XML documents were parsed: values files and files drawables refer to
    /// (for tests: each once).
    package private(set) var documentsParsed = 0
    /// The XML bytes read so far (against `byteLimit`).
    package private(set) var xmlBytesRead = 0

    /// Lists `folder` and reads the values of its default configuration.
    ///
    /// - Throws: 65 when `res/` and the folders read list over `maxEntries` names,
    ///   or the values files pass `maxXMLBytes` together; nothing for a values file
    ///   it cannot read (it is skipped and noted). A `folder` that cannot be listed
    ///   reads as empty (the caller has checked it).
    package convenience init(
        folder: String, limits: ImageLimits, maxEntries: Int = AndroidResourceTable.maxEntries,
        maxXMLBytes: Int = AndroidResourceTable.maxXMLBytes
    ) throws(BadgeError) {
        try self.init(
            folder: folder, limits: limits, maxEntries: maxEntries, maxXMLBytes: maxXMLBytes, listing: nil, held: [:])
    }

    /// The table of what an overlay's plan writes into `folder` (`AndroidOverlay`),
    /// without listing the folder: `files` are its files by their path below it,
    /// with their bytes when the plan holds them (its XML), else read from the disk
    /// when asked for (a render's output, once committed).
    ///
    /// - Throws: as `init(folder:limits:)`.
    package convenience init(
        planned folder: String, files: [(components: [String], bytes: [UInt8]?)], limits: ImageLimits
    ) throws(BadgeError) {
        var listing: [String: [(name: String, isFolder: Bool, isLink: Bool)]] = [folder: []]
        var held: [String: [UInt8]] = [:]
        for file in files where file.components.count == 2 {
            let sub = folder + "/" + file.components[0]
            if listing[sub] == nil {
                listing[sub] = []
                listing[folder]!.append((file.components[0], true, false))
            }
            listing[sub]!.append((file.components[1], false, false))
            if let bytes = file.bytes { held[sub + "/" + file.components[1]] = bytes }
        }
        for key in listing.keys { listing[key]!.sort { $0.name < $1.name } }
        try self.init(
            folder: folder, limits: limits, maxEntries: Self.maxEntries, maxXMLBytes: Self.maxXMLBytes,
            listing: listing, held: held)
    }

    private init(
        folder: String, limits: ImageLimits, maxEntries: Int, maxXMLBytes: Int,
        listing: [String: [(name: String, isFolder: Bool, isLink: Bool)]]?, held: [String: [UInt8]]
    ) throws(BadgeError) {
        self.folder = folder
        self.limits = limits
        entryLimit = maxEntries
        byteLimit = maxXMLBytes
        self.listing = listing
        self.held = held
        let folders = try list(folder).filter { $0.isFolder && !$0.isLink }.map(\.name)
        var filesRead = 0
        for name in folders {
            if let qualifiers = Self.qualifiers(name, type: "values"), qualifiers.density == nil {
                for entry in try list(folder + "/" + name) where !entry.isFolder && entry.name.hasSuffix(".xml") {
                    let shown = name + "/" + entry.name
                    guard !entry.isLink else {
                        unreadable.append("\(shown): a symbolic link")
                        continue
                    }
                    filesRead += 1
                    guard filesRead <= Self.maxValuesFiles else {
                        unreadable.append("\(shown): over \(Self.maxValuesFiles) values files")
                        continue
                    }
                    let path = folder + "/" + shown
                    try charge(path, limit: Self.maxValuesBytes)
                    guard let bytes = try? ownFile(path, limit: Self.maxValuesBytes, what: "values file") else {
                        unreadable.append("\(shown): over \(Self.maxValuesBytes >> 20) MiB or not readable")
                        continue
                    }
                    read(bytes, path: path, shown: shown, version: qualifiers.version)
                }
                continue
            }
            guard
                let type = ["drawable", "mipmap", "color"].first(where: { Self.qualifiers(name, type: $0) != nil }),
                let qualifiers = Self.qualifiers(name, type: type)
            else { continue }
            for entry in try list(folder + "/" + name) where !entry.isFolder {
                guard let dot = entry.name.firstIndex(of: ".") else { continue }
                files[type, default: [:]][String(entry.name[..<dot]), default: []].append(
                    Candidate(
                        folder: name, file: entry.name, density: qualifiers.density, version: qualifiers.version))
            }
        }
    }

    /// The entries of `path` (name, whether a folder, whether a link), by name;
    /// empty when it cannot be listed. Counted against `entryLimit`, and stopped as
    /// soon as it passes (a folder of millions is not read to the end).
    ///
    /// - Throws: 65 past `entryLimit`.
    private func list(_ path: String) throws(BadgeError) -> [(name: String, isFolder: Bool, isLink: Bool)] {
        foldersListed += 1
        if let listing {
            let entries = listing[path] ?? []
            entriesListed += entries.count
            guard entriesListed <= entryLimit else { throw tooManyEntries }
            return entries
        }
        guard let stream = opendir(path) else { return [] }
        defer { closedir(stream) }
        var list: [(name: String, isFolder: Bool, isLink: Bool)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            entriesListed += 1
            guard entriesListed <= entryLimit else { throw tooManyEntries }
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            list.append((name, type == S_IFDIR, type == S_IFLNK))
        }
        return list.sorted { $0.name < $1.name }
    }

    /// The error of a folder that lists over `entryLimit` names.
    private var tooManyEntries: BadgeError {
        .badInput(
            path: folder,
            reason:
                "has over \(entryLimit) entries in it and its values, drawable, mipmap and color folders; iconbadge lists at most \(entryLimit) in a res/ folder"
        )
    }

    /// The bytes of the file at `path`: held in memory, or read from the disk, never
    /// through a link (`AssetCatalog.ownFile`).
    ///
    /// - Throws: as `AssetCatalog.ownFile`.
    private func ownFile(_ path: String, limit: Int, what: String) throws(BadgeError) -> [UInt8] {
        if let bytes = held[path] { return bytes }
        return try AssetCatalog.ownFile(path, limit: limit, what: what, of: "res/")
    }

    /// Counts the XML file at `path` (its size, by `lstat`, at most `limit`) against
    /// `byteLimit`, before it is read.
    ///
    /// - Throws: 65 when it would pass `byteLimit`.
    private func charge(_ path: String, limit: Int) throws(BadgeError) {
        let size: Int
        if let bytes = held[path] {
            size = min(bytes.count, limit)
        } else {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
            size = min(Int(info.st_size), limit)
        }
        guard xmlBytesRead + size <= byteLimit else {
            let limit = byteLimit % (1 << 20) == 0 ? "\(byteLimit >> 20) MiB" : "\(byteLimit) bytes"
            throw .badInput(
                path: path,
                reason:
                    "would take the XML read from \(Quoted(folder)) over \(limit) (\(xmlBytesRead) bytes read before it; iconbadge reads at most \(limit) of a res/ folder's XML a run)"
            )
        }
        xmlBytesRead += size
    }

    /// Reads one values file's `<resources>`.
    private func read(_ bytes: [UInt8], path: String, shown: String, version: Int) {
        let root: XMLElement
        documentsParsed += 1
        do throws(XMLSyntaxError) {
            root = try XMLScanner.parse(bytes)
        } catch {
            unreadable.append("\(shown): \(error.problem) at line \(Self.line(of: error.offset, in: bytes))")
            return
        }
        guard root.name == "resources" else { return }
        // Lines counted on from the last element (children come in document order):
        // counting from the start for each would be quadratic in a 4 MiB file.
        var lineOffset = 0
        var lineNumber = 1
        for element in root.children {
            guard let name = element.attribute("name").map(XMLText.decoded) else { continue }
            var type = element.name
            if type == "item" || type == "drawable" && element.attribute("type") != nil {
                guard let given = element.attribute("type") else { continue }
                type = given
            }
            guard ["color", "string", "dimen", "integer", "fraction", "bool", "drawable"].contains(type),
                element.children.isEmpty
            else { continue }
            let text = element.inner.map { String(decoding: bytes[$0], as: UTF8.self) } ?? ""
            let offset = min(element.range.lowerBound, bytes.count)
            lineNumber += bytes[lineOffset..<max(lineOffset, offset)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            lineOffset = max(lineOffset, offset)
            let key = type + "/" + name
            if let known = values[key], known.version > version { continue }
            values[key] = (
                AndroidResourceValue(
                    text: String(XMLText.decoded(text).trimmingASCIIWhitespace()), path: path,
                    line: lineNumber),
                version
            )
        }
    }

    /// The 1-based line of byte `offset`.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// A folder name's qualifiers when it is `type` in the default configuration: its
    /// API level (0 for none) and density (px per dp; nil for none; 0 for `anydpi`,
    /// -1 for `nodpi`); nil for another type or any other qualifier.
    static func qualifiers(_ name: String, type: String) -> (version: Int, density: Double?)? {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.first.map(String.init) == type else { return nil }
        var version = 0
        var density: Double?
        for part in parts.dropFirst() {
            if part.first == "v", let level = Int(part.dropFirst()), level > 0, level < 1000 {
                version = level
            } else if part == "anydpi" {
                density = 0
            } else if part == "nodpi" {
                density = -1
            } else if part == "tvdpi" {
                density = 213.0 / 160
            } else if let known = AndroidResources.densities.first(where: { $0.name == part }) {
                density = known.scale
            } else {
                return nil
            }
        }
        return (version, density)
    }

    /// The lookup the drawable converter asks.
    package var lookup: AndroidResourceLookup {
        AndroidResourceLookup(
            value: { [self] reference in value(reference) },
            file: { [self] (reference, density) throws(AndroidDrawableProblem) in
                try file(reference, density: density)
            }, unreadable: unreadable,
            document: { [self] file throws(XMLSyntaxError) in try document(file) })
    }

    /// The value of `reference` in `values*/`, nil when it is not defined there.
    func value(_ reference: AndroidReference) -> AndroidResourceValue? {
        values[reference.type + "/" + reference.name]?.value
    }

    /// The root element of an XML resource file, parsed once for the run: a file
    /// read before (the same path and bytes) gives the same answer without parsing
    /// it again.
    ///
    /// - Throws: `XMLSyntaxError` when it is not readable XML (that, too, is kept).
    func document(_ file: AndroidResourceFile) throws(XMLSyntaxError) -> XMLElement {
        if let known = documents[file.path], known.bytes == file.bytes { return try known.root.get() }
        documentsParsed += 1
        let root: Result<XMLElement, XMLSyntaxError>
        do throws(XMLSyntaxError) {
            root = .success(try XMLScanner.parse(file.bytes))
        } catch {
            root = .failure(error)
        }
        documents[file.path] = (file.bytes, root)
        return try root.get()
    }

    /// The file of `@type/name` best for `density`: an `anydpi` folder's first, then
    /// the density nearest it as Android picks (`ResTable_config::isBetterThan`: of
    /// two at or below it the larger, of two above it the smaller, and one above
    /// over one below unless it is more than twice as far), then the highest API
    /// level. A folder without a density counts as mdpi. Found in the index built
    /// once; an XML file is read once a run, a bitmap each time it is asked for
    /// (bitmaps are not kept: they are only bounded by `maxRasterBytes` each).
    ///
    /// - Throws: `AndroidDrawableProblem` for a link, a file over its limit, or XML
    ///   past `maxXMLBytes` read from this folder.
    func file(_ reference: AndroidReference, density wanted: Double) throws(AndroidDrawableProblem)
        -> AndroidResourceFile?
    {
        guard let candidates = files[reference.type]?[reference.name] else { return nil }
        var best: Candidate?
        func better(_ a: Double?, _ b: Double?) -> Bool? {
            // nil: as good.
            let x = a.map { $0 == -1 ? 1 : $0 } ?? 1
            let y = b.map { $0 == -1 ? 1 : $0 } ?? 1
            if a == 0 || b == 0 { return a == b ? nil : a == 0 }
            if x == y { return nil }
            let (high, low) = (max(x, y), min(x, y))
            let biggerWins: Bool
            if wanted >= high {
                biggerWins = true
            } else if low >= wanted {
                biggerWins = false
            } else {
                biggerWins = !((2 * low - wanted) * high > wanted * wanted)
            }
            return biggerWins == (x > y)
        }
        for candidate in candidates {
            guard let current = best else {
                best = candidate
                continue
            }
            switch better(candidate.density, current.density) {
            case true?: best = candidate
            case nil where candidate.version > current.version: best = candidate
            default: break
            }
        }
        guard let best else { return nil }
        let shown = best.folder + "/" + best.file
        let path = folder + "/" + shown
        let isXML = best.file.hasSuffix(".xml")
        let density = best.density.flatMap { $0 > 0 ? $0 : nil } ?? (best.density == nil ? 1 : nil)
        if isXML, let known = documents[path] {
            return AndroidResourceFile(path: path, bytes: known.bytes, density: nil)
        }
        let limit = isXML ? AndroidResources.maxXMLBytes : limits.maxRasterBytes
        let bytes: [UInt8]
        do throws(BadgeError) {
            if isXML { try charge(path, limit: limit) }
            bytes = try ownFile(path, limit: limit, what: "resource file")
        } catch {
            throw AndroidDrawableProblem(path: path, line: nil, reason: ErrorText.reason(error))
        }
        if isXML { _ = try? document(AndroidResourceFile(path: path, bytes: bytes, density: nil)) }
        return AndroidResourceFile(path: path, bytes: bytes, density: isXML ? nil : density)
    }
}

/// The reason part of an error, for a message that names its own file.
enum ErrorText {
    static func reason(_ error: BadgeError) -> String {
        switch error {
        case .badInput(_, let reason), .missingInput(_, let reason), .unavailable(_, let reason),
            .cannotCreate(_, let reason), .ioError(_, let reason):
            return reason
        default: return error.message
        }
    }
}
