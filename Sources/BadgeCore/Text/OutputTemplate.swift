/// Output path templates for batch and multi-scale renders.
///
/// Tokens: `{name}` the icon's file name without its extension, `{scale}` the
/// scale as a number (`1`, `2`, `1.5`), `{@scale}` Apple's suffix (empty at 1x,
/// `@2x`, `@3x` otherwise, so `{name}{@scale}.{ext}` gives `bell.png`,
/// `bell@2x.png`), `{density}` Android's density qualifier (`mdpi` … `xxxhdpi`, for
/// a job that lists `"densities"`), `{value}` the badge value (path-unsafe characters
/// replaced by `_`), `{ext}` the output format's extension, `{frame}` an animation
/// frame's number (`--animate`: one file a frame, numbered from 0 and zero-padded to
/// the last one's width, `00` … `12`). `{{` and `}}` are literal braces.
public enum OutputTemplate {
    /// Android's density qualifiers and their scales (dp → px), from Android's
    /// `DisplayMetrics`: DENSITY_LOW (120 dpi) to DENSITY_XXXHIGH (640 dpi), over 160 dpi.
    public static let androidDensities: [(name: String, scale: Double)] = [
        ("ldpi", 0.75), ("mdpi", 1), ("hdpi", 1.5), ("xhdpi", 2), ("xxhdpi", 3), ("xxxhdpi", 4),
    ]

    /// Whether `text` contains any token.
    public static func hasTokens(_ text: String) -> Bool {
        // Most names have no brace. String.contains(String) costs the Swift runtime a
        // scan of every protocol conformance on first use: 3 % of a 60 px render.
        guard text.utf8.contains(UInt8(ascii: "{")) else { return false }
        return ["{name}", "{scale}", "{@scale}", "{density}", "{value}", "{ext}", "{frame}"].contains {
            text.contains($0)
        }
    }

    /// Expands the tokens of `template`.
    ///
    /// - Throws: `TemplateError` naming an unknown token or an unclosed brace.
    public static func expand(
        _ template: String, name: String, scale: Double, value: String, ext: String, density: String? = nil,
        frame: String? = nil
    ) throws(TemplateError) -> String {
        var out = ""
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            if character == "{" {
                let next = template.index(after: index)
                if next < template.endIndex, template[next] == "{" {
                    out.append("{")
                    index = template.index(after: next)
                    continue
                }
                guard let close = template[next...].firstIndex(of: "}") else {
                    throw TemplateError(message: "unclosed { in \(Quoted(template))")
                }
                let token = String(template[next..<close])
                switch token {
                case "name": out += name
                case "scale": out += scaleText(scale)
                case "@scale": out += scale == 1 ? "" : "@\(scaleText(scale))x"
                case "density":
                    guard let density else {
                        throw TemplateError(
                            message:
                                "{density} in \(Quoted(template)) needs the job to list its densities (\"densities\": [\"mdpi\", \"hdpi\", …])"
                        )
                    }
                    out += density
                case "frame":
                    guard let frame else {
                        throw TemplateError(
                            message: "{frame} in \(Quoted(template)) numbers the frames of an animation",
                            needsAnimation: true)
                    }
                    out += frame
                case "value": out += safe(value)
                case "ext": out += ext
                default:
                    throw TemplateError(
                        message:
                            "unknown token {\(Shown(token))} in \(Quoted(template)) (use {name}, {scale}, {@scale}, {density}, {value}, {ext}, {frame})"
                    )
                }
                index = template.index(after: close)
            } else if character == "}" {
                let next = template.index(after: index)
                if next < template.endIndex, template[next] == "}" {
                    out.append("}")
                    index = template.index(after: next)
                    continue
                }
                throw TemplateError(message: "unmatched } in \(Quoted(template)) (write }} for a brace)")
            } else {
                out.append(character)
                index = template.index(after: index)
            }
        }
        return out
    }

    /// Frame `index` of `count` as `{frame}` writes it: zero-padded to the width of
    /// the last frame's number, so the files sort in order (`00` … `12`).
    public static func frameText(_ index: Int, count: Int) -> String {
        let text = String(index)
        let width = String(max(0, count - 1)).count
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// `1`, `2`, `1.5`: the shortest form of a scale.
    public static func scaleText(_ scale: Double) -> String {
        scale == scale.rounded() && abs(scale) < 1e9 ? String(Int(scale)) : String(scale)
    }

    /// The last path component without its extension (`icons/bell.png` → `bell`).
    public static func baseName(of path: String) -> String {
        let file = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    private static func safe(_ value: String) -> String {
        String(value.map { "/\\:*?\"<>|\0".contains($0) || $0.isNewline ? "_" : $0 })
    }
}

/// A template that cannot be expanded.
public struct TemplateError: Error, Equatable, Sendable {
    /// What is wrong, naming the template (and no option).
    public let message: String
    /// Whether it holds `{frame}` for a render that is not animated: the planner then
    /// says which option animates it.
    public let needsAnimation: Bool

    /// An error from its parts.
    public init(message: String, needsAnimation: Bool = false) {
        self.message = message
        self.needsAnimation = needsAnimation
    }
}
