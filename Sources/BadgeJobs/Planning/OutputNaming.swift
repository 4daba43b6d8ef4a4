import BadgeCore
import BadgeRender

/// What an output's name says it holds, so iconbadge never writes a file whose content
/// contradicts its name (PNG bytes into `icon.webp`).
package enum OutputNaming {
    /// Image extensions iconbadge reads but does not write, with the format's name.
    static let readOnlyFormats: [(extension: String, name: String)] = [
        ("jpg", "JPEG"), ("jpeg", "JPEG"), ("gif", "GIF"), ("bmp", "BMP"), ("tif", "TIFF"),
        ("tiff", "TIFF"), ("ico", "ICO"), ("svgz", "SVGZ"), ("heic", "HEIC"), ("avif", "AVIF"),
    ]

    /// The image format a path's extension names when iconbadge cannot write it
    /// (`JPEG` for `a.jpg`), nil for a writable or unknown extension.
    package static func unwritableFormat(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return readOnlyFormats.first { $0.extension == ext }?.name
    }

    /// "a PNG", "an SVG": the article a format's name takes (by its spoken first letter).
    package static func aFile(_ name: String) -> String {
        let vowelSound = ["A", "E", "I", "O", "S", "F", "H", "L", "M", "N", "R", "X"]
        return (vowelSound.contains { name.hasPrefix($0) } && name != "HEIC" ? "an " : "a ") + name + " file"
    }

    /// Refuses writing `format` to `path` when the name says another image format.
    ///
    /// - Throws: 64 naming `option`, the path and the fix.
    package static func check(_ path: String, format: OutputFormat, option: String) throws(BadgeError) {
        if let named = unwritableFormat(of: path) {
            throw .usage(
                "\(option) \(Quoted(path)) names \(aFile(named)), and iconbadge writes PNG, WebP, SVG or PDF; name it .\(format.rawValue)"
            )
        }
        if let named = OutputFormat(path: path), named != format {
            throw .usage(
                "\(option) \(Quoted(path)) names \(aFile(named.rawValue.uppercased())), but the format is \(format.rawValue.uppercased()); name it .\(format.rawValue) or drop --format"
            )
        }
    }
}
