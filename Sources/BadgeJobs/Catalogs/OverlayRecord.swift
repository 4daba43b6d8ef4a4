import BadgeCore
import BadgeSystem

/// The files an Android overlay `res/` holds that iconbadge wrote, with a hash of
/// each, kept in the overlay as `values/iconbadge_overlay.xml` (an empty
/// `<resources/>` whose comment lists them, so the resource merger accepts it).
///
/// A later run replaces a file only when it is listed and unchanged: a variant's own
/// icon (a hand-made debug icon in `src/debug/res`) is never overwritten silently.
package struct OverlayRecord: Sendable, Equatable {
    /// Where the record lives below the overlay.
    package static let components = ["values", "iconbadge_overlay.xml"]
    /// The largest record read (bytes).
    static let maxBytes = 1 << 20

    /// Path below the overlay (`mipmap-hdpi/ic_launcher.png`) → FNV-1a hash.
    package var files: [(path: String, hash: String)] = []

    package static func == (a: OverlayRecord, b: OverlayRecord) -> Bool {
        a.files.map(\.path) == b.files.map(\.path) && a.files.map(\.hash) == b.files.map(\.hash)
    }

    package init() {}

    /// The record in the overlay at `out`; empty when there is none or it is not one.
    package static func read(overlay out: String) -> OverlayRecord {
        var record = OverlayRecord()
        let path = out + "/" + components.joined(separator: "/")
        guard InputFile.isPlainFile(path),
            let bytes = try? InputFile.bytes(at: path, limit: maxBytes, what: "overlay record")
        else { return record }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[1].utf8.count == 16, isResourcePath(String(parts[0])) else { continue }
            record.files.append((String(parts[0]), String(parts[1])))
            if record.files.count >= maxEntries { break }
        }
        return record
    }

    /// The most entries read (an overlay of many icons holds a few hundred files).
    static let maxEntries = 4096
    /// The largest file an entry may name and still be hashed (launcher icons are
    /// kilobytes): a hostile record cannot make a run read gigabytes.
    package static let maxHashedBytes = 4 << 20

    /// `folder/file`, both plain resource names (`mipmap-hdpi/ic_launcher.png`): the
    /// only shape iconbadge writes, so a record line can never name a file outside
    /// the overlay (no `/` at the start, no `..`, exactly two components).
    static func isResourcePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, path.utf8.allSatisfy(isPathByte) else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." && $0.first != "." }
    }

    /// Resource paths are lowercase names, digits, `_ - . /`: nothing else is read.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F || byte == 0x2D
            || byte == 0x2E || byte == 0x2F
    }

    /// Whether `path` holds what iconbadge wrote there (listed, same hash).
    package func owns(_ path: String, bytes: [UInt8]) -> Bool {
        files.contains { $0.path == path && $0.hash == ContentHash.fnv1a64(bytes) }
    }

    /// The record's file.
    package var bytes: [UInt8] {
        var text = """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- Written by iconbadge: the files of this overlay it wrote, with a hash of each.
                 A later run replaces only these (unchanged); remove this file to hand them over.

            """
        for (path, hash) in files.sorted(by: { $0.path < $1.path }) { text += "\(path) \(hash)\n" }
        text += "-->\n<resources />\n"
        return Array(text.utf8)
    }
}
