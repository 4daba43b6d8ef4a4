import BadgeCore
import BadgeSystem

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
package final class AndroidResourceTable {
    /// The largest values file read (bytes): 4 MiB (a large app's strings.xml is
    /// some hundreds of KiB).
    package static let maxValuesBytes = 4 << 20
    /// The most values files read: 256.
    package static let maxValuesFiles = 256

    /// The `res/` folder (no trailing slash).
    package let folder: String
    /// The image limits: a bitmap is at most `maxRasterBytes`.
    let limits: ImageLimits
    /// Values by `type/name`, with the API level of the folder they came from.
    private var values: [String: (value: AndroidResourceValue, version: Int)] = [:]
    /// Values files not read, each "values/strings.xml: the reason".
    package private(set) var unreadable: [String] = []
    /// The folders below `res/` that are not links, by name.
    private let folders: [String]

    /// Reads the values of `folder`'s default configuration.
    ///
    /// - Throws: nothing for a values file it cannot read (it is skipped and noted);
    ///   66 only when `folder` itself cannot be listed.
    package init(folder: String, limits: ImageLimits) {
        self.folder = folder
        self.limits = limits
        folders = AssetCatalog.entries(of: folder).filter { $0.1 && !$0.2 }.map(\.0)
        var filesRead = 0
        for name in folders {
            guard let qualifiers = Self.qualifiers(name, type: "values"), qualifiers.density == nil else { continue }
            for (file, isFolder, isLink) in AssetCatalog.entries(of: folder + "/" + name)
            where !isFolder && file.hasSuffix(".xml") {
                let shown = name + "/" + file
                guard !isLink else {
                    unreadable.append("\(shown): a symbolic link")
                    continue
                }
                filesRead += 1
                guard filesRead <= Self.maxValuesFiles else {
                    unreadable.append("\(shown): over \(Self.maxValuesFiles) values files")
                    continue
                }
                let path = folder + "/" + shown
                guard
                    let bytes = try? AssetCatalog.ownFile(
                        path, limit: Self.maxValuesBytes, what: "values file", of: "res/")
                else {
                    unreadable.append("\(shown): over \(Self.maxValuesBytes >> 20) MiB or not readable")
                    continue
                }
                read(bytes, path: path, shown: shown, version: qualifiers.version)
            }
        }
    }

    /// Reads one values file's `<resources>`.
    private func read(_ bytes: [UInt8], path: String, shown: String, version: Int) {
        let root: XMLElement
        do throws(XMLSyntaxError) {
            root = try XMLScanner.parse(bytes)
        } catch {
            unreadable.append("\(shown): \(error.problem) at line \(Self.line(of: error.offset, in: bytes))")
            return
        }
        guard root.name == "resources" else { return }
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
            let key = type + "/" + name
            if let known = values[key], known.version > version { continue }
            values[key] = (
                AndroidResourceValue(
                    text: String(XMLText.decoded(text).trimmingASCIIWhitespace()), path: path,
                    line: Self.line(of: element.range.lowerBound, in: bytes)),
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
            value: { [self] reference in values[reference.type + "/" + reference.name]?.value },
            file: { [self] (reference, density) throws(AndroidDrawableProblem) in
                try file(reference, density: density)
            }, unreadable: unreadable)
    }

    /// The file of `@type/name` best for `density`: an `anydpi` folder's first, then
    /// the density nearest it as Android picks (`ResTable_config::isBetterThan`: of
    /// two at or below it the larger, of two above it the smaller, and one above
    /// over one below unless it is more than twice as far), then the highest API
    /// level. A folder without a density counts as mdpi.
    ///
    /// - Throws: `AndroidDrawableProblem` for a link or a file over its limit.
    func file(_ reference: AndroidReference, density wanted: Double) throws(AndroidDrawableProblem)
        -> AndroidResourceFile?
    {
        guard ["drawable", "mipmap", "color"].contains(reference.type) else { return nil }
        var best: (folder: String, file: String, density: Double?, version: Int)?
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
        for name in folders {
            guard let qualifiers = Self.qualifiers(name, type: reference.type) else { continue }
            for (file, isFolder, _) in AssetCatalog.entries(of: folder + "/" + name) where !isFolder {
                guard let dot = file.firstIndex(of: "."), file[..<dot] == reference.name else { continue }
                let candidate = (name, file, qualifiers.density, qualifiers.version)
                guard let current = best else {
                    best = candidate
                    continue
                }
                switch better(candidate.2, current.density) {
                case true?: best = candidate
                case nil where candidate.3 > current.version: best = candidate
                default: break
                }
            }
        }
        guard let best else { return nil }
        let shown = best.folder + "/" + best.file
        let path = folder + "/" + shown
        let isXML = best.file.hasSuffix(".xml")
        let limit = isXML ? AndroidResources.maxXMLBytes : limits.maxRasterBytes
        let bytes: [UInt8]
        do throws(BadgeError) {
            bytes = try AssetCatalog.ownFile(path, limit: limit, what: "resource file", of: "res/")
        } catch {
            throw AndroidDrawableProblem(path: path, line: nil, reason: ErrorText.reason(error))
        }
        let density = best.density.flatMap { $0 > 0 ? $0 : nil } ?? (best.density == nil ? 1 : nil)
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
