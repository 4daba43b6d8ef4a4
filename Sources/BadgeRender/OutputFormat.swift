/// The output formats a scene can be written in.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// 8-bit PNG through libpng.
    case png
    /// Lossless WebP through libwebp: the same pixels as the PNG.
    case webp
    /// SVG 1.1 through Cairo's SVG surface; badge and text are vectors.
    case svg
    /// PDF through Cairo's PDF surface; badge and text are vectors.
    case pdf

    /// The format named by a path's extension (`.png`, `.webp`, `.svg`, `.pdf`, any case).
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}
