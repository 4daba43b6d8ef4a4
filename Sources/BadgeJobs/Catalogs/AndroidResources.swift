import BadgeCore
import BadgeRender
import BadgeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The launcher icons of an Android `res/` folder, and the overlay `res/` that badges
/// them for a build variant (`app/src/debug/res`), which the Android Gradle plugin
/// merges over `main`'s resources of the same names.
///
/// - Legacy icons (`mipmap-<density>/NAME.png` or `.webp`, 48 dp) are badged at each
///   density from that density's own file, never resampled up.
/// - Adaptive icons (`mipmap-anydpi-v26/NAME.xml` or `mipmap-anydpi/NAME.xml`) keep
///   their layers: the overlay's copy of the XML points its `<foreground>` (and
///   `<monochrome>`) at a new `<layer-list>` holding the original layer under a badge
///   layer, a PNG per density drawn inside the 66 dp safe zone. The original layer is
///   referenced by name, so PNG and VectorDrawable layers work alike.
///
/// The folder may come from a pull request: names are Android resource names
/// (`[a-z][a-z0-9_]*`), nothing below `res/` is followed through a link, and XML goes
/// through `XMLScanner` (no DOCTYPE, bounded).
package struct AndroidResources: Sendable {
    /// A density qualifier and its scale (dp → px): Android's `DisplayMetrics`.
    package struct Density: Sendable, Equatable {
        package var name: String
        package var scale: Double
    }

    /// The densities launcher icons come in (ldpi is read when present).
    package static let densities = OutputTemplate.androidDensities.map { Density(name: $0.name, scale: $0.scale) }
    /// The densities a badge layer is drawn at (ldpi devices scale mdpi down).
    package static let layerDensities = densities.filter { $0.name != "ldpi" }
    /// An adaptive icon's layer side (dp): Android's AdaptiveIconDrawable.
    package static let layerSide = 108.0
    /// Android's resource namespace.
    static let androidNamespace = "http://schemas.android.com/apk/res/android"

    /// One legacy launcher icon file.
    package struct LegacyIcon: Sendable {
        package var name: String
        package var density: Density
        /// `mipmap-<density>/NAME.png` (or `.webp`) below `res/`.
        package var components: [String]
        /// Shown round by launchers (`NAME_round`, or the manifest's `roundIcon`).
        package var round: Bool
    }

    /// One adaptive icon XML.
    package struct AdaptiveIcon: Sendable {
        package var name: String
        /// `mipmap-anydpi-v26/NAME.xml` below `res/`.
        package var components: [String]
        package var bytes: [UInt8]
        package var root: XMLElement
        /// What the overlay's resources for it are named after: `NAME`, or for a second
        /// XML of the same name in another folder (`mipmap-anydpi-v33/NAME.xml`, the
        /// one with a `<monochrome>` that Android 13 picks) `NAME_anydpi_v33`.
        package var stem: String
    }

    /// The `res/` folder, as written (no trailing slash).
    package var folder: String
    /// The icon names looked for, and where they came from (for the summary).
    package var names: [String]
    package var legacy: [LegacyIcon] = []
    package var adaptive: [AdaptiveIcon] = []

    /// The folders an adaptive icon's XML is found in: `mipmap-anydpi-v26` (Android
    /// Studio's template), `mipmap-anydpi` and the unqualified `mipmap` (minSdk 26 and
    /// up, where aapt2 links an `<adaptive-icon>` in any folder), and the `drawable`
    /// forms some apps use (K-9 Mail's `drawable-v26/ic_launcher.xml`).
    package static let adaptiveFolders = [
        "mipmap-anydpi-v26", "mipmap-anydpi", "mipmap", "mipmap-v26", "drawable-anydpi-v26", "drawable-anydpi",
        "drawable-v26",
    ]

    /// Whether `folder` holds adaptive icons: one of `adaptiveFolders`, or the same
    /// for a later API level (`mipmap-anydpi-v33`, where apps put the version with a
    /// `<monochrome>` layer, as Android 13 reads it).
    package static func isAdaptiveFolder(_ folder: String) -> Bool {
        if adaptiveFolders.contains(folder) { return true }
        let parts = folder.split(separator: "-")
        guard parts.count >= 2, parts[0] == "mipmap" || parts[0] == "drawable", let last = parts.last,
            last.first == "v", let level = Int(last.dropFirst()), level >= 26, level < 1000,
            parts.count == 2 || (parts.count == 3 && parts[1] == "anydpi")
        else { return false }
        return true
    }

    /// The largest XML read (bytes).
    package static let maxXMLBytes = 1 << 20
    /// The largest `AndroidManifest.xml` read (bytes): 4 MiB (a large app's is some
    /// tens of KiB).
    package static let maxManifestBytes = 4 << 20

    /// Reads the launcher icons of `folder` named `names`; with none given, those the
    /// manifest beside `res/` names (`android:icon`, `android:roundIcon`), else
    /// `ic_launcher` and `ic_launcher_round`.
    ///
    /// - Throws: 66 when `folder` is missing, may not be read ("permission denied") or
    ///   holds none of the icons; 65 for an adaptive icon's XML that cannot be read; 64
    ///   for a name that is not an Android resource name.
    package init(folder: String, names: [String], notes: inout [String]) throws(BadgeError) {
        var trimmed = folder
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.folder = trimmed
        try InputFolder.check(trimmed, missing: "no such res/ folder")
        for name in names where !Self.isResourceName(name) {
            throw .usage("--icon \(Quoted(name)) is not an Android resource name (lowercase letters, digits, _)")
        }
        var roundNames: [String] = []
        var wanted = names
        if wanted.isEmpty {
            let manifest = Self.manifestIcons(res: trimmed, notes: &notes)
            wanted = manifest.icons
            roundNames = manifest.round
            if wanted.isEmpty { wanted = ["ic_launcher", "ic_launcher_round"] }
        }
        self.names = wanted
        for (folderName, isFolder, isLink) in AssetCatalog.entries(of: trimmed) where isFolder && !isLink {
            if folderName.hasPrefix("mipmap-"),
                let density = Self.densities.first(where: { "mipmap-" + $0.name == folderName })
            {
                for name in wanted {
                    for ext in ["png", "webp"] {
                        let file = name + "." + ext
                        var entry = stat()
                        guard lstat(trimmed + "/" + folderName + "/" + file, &entry) == 0 else { continue }
                        guard entry.st_mode & S_IFMT == S_IFREG else {
                            notes.append("\(Quoted(folderName + "/" + file)) is not a regular file: skipped")
                            continue
                        }
                        legacy.append(
                            LegacyIcon(
                                name: name, density: density, components: [folderName, file],
                                round: name.hasSuffix("_round") || roundNames.contains(name)))
                    }
                }
            } else if Self.isAdaptiveFolder(folderName) {
                for name in wanted {
                    let path = trimmed + "/" + folderName + "/" + name + ".xml"
                    var entry = stat()
                    guard lstat(path, &entry) == 0 else { continue }
                    guard entry.st_mode & S_IFMT == S_IFREG else {
                        notes.append("\(Quoted(folderName + "/" + name + ".xml")) is not a regular file: skipped")
                        continue
                    }
                    let bytes = try InputFile.bytes(at: path, limit: Self.maxXMLBytes, what: "adaptive icon XML")
                    let root: XMLElement
                    do throws(XMLSyntaxError) {
                        root = try XMLScanner.parse(bytes)
                    } catch {
                        throw .badInput(path: path, reason: "not readable XML: \(error.description)")
                    }
                    guard root.name == "adaptive-icon" else {
                        notes.append(
                            "\(Quoted(folderName + "/" + name + ".xml")) is a <\(root.name)>, not an <adaptive-icon>: skipped"
                        )
                        continue
                    }
                    guard root.child("foreground") != nil else {
                        notes.append("\(Quoted(folderName + "/" + name + ".xml")) has no <foreground>: skipped")
                        continue
                    }
                    // A second XML of the name (another API level): resources of its own.
                    // (`NAME_anydpi_v33`; an unqualified folder's: `NAME_mipmap`).
                    let qualifiers = folderName.split(separator: "-").dropFirst().joined(separator: "_")
                    let stem =
                        adaptive.contains { $0.name == name }
                        ? name + "_" + (qualifiers.isEmpty ? folderName : qualifiers) : name
                    adaptive.append(
                        AdaptiveIcon(
                            name: name, components: [folderName, name + ".xml"], bytes: bytes, root: root, stem: stem))
                }
            }
        }
        // An adaptive icon in a folder with no API level (mipmap/, mipmap-anydpi/) is
        // read on every device: the app's minSdk is 26 or more, it needs no legacy icon.
        let unversioned = adaptive.contains { $0.components[0].split(separator: "-").last?.first != "v" }
        if legacy.isEmpty, !adaptive.isEmpty, !unversioned {
            notes.append(Self.noLegacyNote(res: trimmed, names: wanted))
        }
        guard !legacy.isEmpty || !adaptive.isEmpty else {
            var hint = names.isEmpty ? " (name it with --icon)" : ""
            var info = stat()
            if lstat(trimmed + "/res", &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                hint = "; give its res/ folder: \(Quoted(trimmed + "/res"))"
            } else if let found = Self.iconsFound(in: trimmed) {
                hint = "; it has \(found)"
            }
            throw .missingInput(
                path: trimmed,
                reason:
                    "has no launcher icon named \(wanted.map { Quoted($0).description }.joined(separator: " or ")) in mipmap-<density>/ or an adaptive icon folder\(hint)"
            )
        }
    }

    /// The most source sets `noLegacyNote` names.
    static let maxSourceSetsListed = 6

    /// The note for a `res/` folder with adaptive icons and no legacy icon: devices
    /// before Android 8 show a legacy icon, which then comes from elsewhere, most
    /// often a product flavour's source set (`app/src/blue/res`) that Gradle merges
    /// over `main`. Names the `res/` folders beside it (`../../*/res`) that have
    /// legacy icons of `names` (`mipmap-<density>/NAME.png` or `.webp`), iconbadge's
    /// own overlays (with its record) left out.
    static func noLegacyNote(res: String, names: [String]) -> String {
        let listed = names.map { Quoted($0).description }.joined(separator: " or ")
        var note =
            "no legacy icon named \(listed) in mipmap-<density>/: devices before Android 8 (minSdk below 26) show an icon from elsewhere, unbadged"
        let sourceSet = OutputFile.parentFolder(of: res)
        let sourceSets = OutputFile.parentFolder(of: sourceSet)
        guard LexicalPath(res).name == "res", let own = LexicalPath(sourceSet).name, own != "..", own != "." else {
            return note
        }
        var found: [(name: String, res: String)] = []
        for (name, isFolder, isLink) in AssetCatalog.entries(of: sourceSets).sorted(by: { $0.0 < $1.0 })
        where isFolder && !isLink && name != own && found.count < maxSourceSetsListed {
            let other = (sourceSets == "/" ? "" : sourceSets) + "/" + name + "/res"
            var info = stat()
            guard lstat(other, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
                !InputFile.exists(other + "/" + OverlayRecord.components.joined(separator: "/"))
            else { continue }
            let has = densities.contains { density in
                names.contains { icon in
                    ["png", "webp"].contains { InputFile.isPlainFile("\(other)/mipmap-\(density.name)/\(icon).\($0)") }
                }
            }
            if has { found.append((name, other)) }
        }
        if let first = found.first {
            // A flavour's variant reads its own source set over the flavour's
            // (app/src/blueDebug over app/src/blue): each flavour's icons go there.
            let example = (sourceSets == "/" ? "" : sourceSets) + "/" + first.name + "Debug/res"
            note +=
                "; legacy icons are in \(found.map { Quoted($0.res).description }.joined(separator: ", ")): badge \(found.count == 1 ? "it" : "each") too, into its flavour's variant (\(Quoted(first.res)) into \(Quoted(example)) for \(Quoted(first.name + "Debug")))"
        }
        return note
    }

    /// The most names `iconsFound(in:)` lists.
    static let maxNamesListed = 8

    /// The icons `folder` does have, for the message when none of the names asked
    /// for is there: each resource name of a PNG, WebP or XML file in its
    /// `mipmap-*` and adaptive icon folders with the files that hold it, and the
    /// option to name it: `"launcher" (mipmap-hdpi/launcher.png,
    /// mipmap-anydpi-v26/launcher.xml): give --icon launcher`. Nil when there is none.
    static func iconsFound(in folder: String) -> String? {
        var found: [(name: String, files: [String])] = []
        let folders = AssetCatalog.entries(of: folder).filter { $0.1 && !$0.2 }.map { $0.0 }
            .filter { $0.hasPrefix("mipmap") || adaptiveFolders.contains($0) }.sorted()
        for name in folders {
            for (file, isFolder, isLink) in AssetCatalog.entries(of: folder + "/" + name).sorted(by: { $0.0 < $1.0 })
            where !isFolder && !isLink {
                guard let dot = file.firstIndex(of: "."),
                    ["png", "webp", "xml"].contains(file[file.index(after: dot)...])
                else { continue }
                let resource = String(file[..<dot])
                guard isResourceName(resource) else { continue }
                // One file of each extension is enough to say where it is.
                let ext = String(file[dot...])
                if let index = found.firstIndex(where: { $0.name == resource }) {
                    if !found[index].files.contains(where: { $0.hasSuffix(ext) }) {
                        found[index].files.append(name + "/" + file)
                    }
                } else if found.count < maxNamesListed {
                    found.append((resource, [name + "/" + file]))
                }
            }
        }
        guard !found.isEmpty else { return nil }
        let listed = found.map {
            "\(Quoted($0.name)) (\($0.files.map { Shown($0).description }.joined(separator: ", ")))"
        }
        let example = found.first { !$0.name.hasSuffix("_round") }?.name ?? found[0].name
        return listed.joined(separator: ", ") + ": give --icon \(example)"
    }

    /// Whether `name` is an Android resource file name: `[a-z][a-z0-9_]*`.
    package static func isResourceName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (0x61...0x7A).contains(first), name.utf8.count <= 128 else {
            return false
        }
        return name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }

    /// The icon names `AndroidManifest.xml` beside `res/` gives its `<application>`:
    /// `android:icon` and `android:roundIcon` as `@mipmap/NAME` (or `@drawable/NAME`);
    /// none when there is no manifest or it uses placeholders (`${appIcon}`).
    ///
    /// A manifest that is there but cannot be read (over `maxManifestBytes`, not
    /// readable XML, over one of XMLScanner's limits) is named in a note, and the
    /// default names are looked for.
    static func manifestIcons(res: String, notes: inout [String]) -> (icons: [String], round: [String]) {
        let manifest = OutputFile.parentFolder(of: res) + "/AndroidManifest.xml"
        guard InputFile.exists(manifest) else { return ([], []) }
        let root: XMLElement
        do throws(BadgeError) {
            let bytes = try InputFile.bytes(at: manifest, limit: maxManifestBytes, what: "AndroidManifest.xml")
            do throws(XMLSyntaxError) {
                root = try XMLScanner.parse(bytes)
            } catch {
                notes.append("\(Quoted(manifest)) not read (\(error.description)): its icon names are not used")
                return ([], [])
            }
        } catch {
            notes.append("\(Quoted(manifest)) not read (\(ErrorText.reason(error))): its icon names are not used")
            return ([], [])
        }
        guard let application = root.child("application") else { return ([], []) }
        func name(_ attribute: String) -> String? {
            guard let value = application.attribute(attribute) else { return nil }
            for prefix in ["@mipmap/", "@drawable/"] where value.hasPrefix(prefix) {
                let name = String(value.dropFirst(prefix.count))
                if isResourceName(name) { return name }
            }
            return nil
        }
        var icons: [String] = []
        var round: [String] = []
        if let icon = name("android:icon") { icons.append(icon) }
        if let icon = name("android:roundIcon") {
            if !icons.contains(icon) { icons.append(icon) }
            round.append(icon)
        }
        return (icons, round)
    }

    /// The prefix the XML binds to Android's namespace (`android`).
    static func androidPrefix(_ root: XMLElement) -> String {
        for (name, value) in root.attributes where value == androidNamespace && name.hasPrefix("xmlns:") {
            return String(name.dropFirst("xmlns:".count))
        }
        return "android"
    }
}
