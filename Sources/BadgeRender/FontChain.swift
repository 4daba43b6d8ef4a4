import BadgeCore

/// The faces a text is drawn with, in order: the chosen face, the explicit
/// fallback files, then (unless disabled) fontconfig's fallback for the family,
/// consulted lazily per code point so the default path never touches fontconfig.
final class FontChain {
    let primary: FontFace
    let fallbacks: [FontFace]
    /// The fontconfig pattern whose fallback list is used; nil: no system fallback.
    let systemPattern: String?
    private let context: FontContext
    private var systemFaces: [UInt32: FontFace?] = [:]
    /// Every face consulted, for messages ("fonts tried").
    private(set) var tried: [String]
    /// Why fontconfig could not be asked for a fallback (a refused
    /// `FONTCONFIG_FILE`); the render then fails with it.
    private(set) var fontconfigProblem: BadgeError?

    init(primary: FontFace, fallbacks: [FontFace], systemPattern: String?, context: FontContext) {
        self.primary = primary
        self.fallbacks = fallbacks
        self.systemPattern = systemPattern
        self.context = context
        tried = [primary.reportName] + fallbacks.map(\.reportName)
    }

    /// Scalars that need no glyph of their own: joiners, variation selectors and
    /// bidi controls are consumed by shaping (UAX #44 Default_Ignorable_Code_Point,
    /// the subset that badge text meets).
    static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0xFEFF:
            return true
        default:
            return false
        }
    }

    /// Whether `face` has a glyph for every scalar of `cluster` that needs one.
    static func covers(_ face: FontFace, _ cluster: Character) -> Bool {
        cluster.unicodeScalars.allSatisfy { isIgnorable($0) || face.glyph(for: $0) != nil }
    }

    /// Whether the cluster asks for emoji presentation (UTS #51): U+FE0F, or an
    /// emoji-presentation base without U+FE0E.
    static func wantsEmoji(_ cluster: Character) -> Bool {
        let scalars = cluster.unicodeScalars
        if scalars.contains("\u{FE0E}") { return false }
        if scalars.contains("\u{FE0F}") { return true }
        return scalars.first?.properties.isEmojiPresentation ?? false
    }

    /// The face that draws `cluster`, or nil when no face has all its glyphs.
    func face(for cluster: Character) -> FontFace? {
        let emoji = Self.wantsEmoji(cluster)
        var candidates = [primary] + fallbacks
        if emoji {
            // Colour faces first, so "❤️" is the emoji, not DejaVu's text heart.
            candidates = candidates.filter(\.hasColor) + candidates.filter { !$0.hasColor }
        }
        if emoji, let system = systemFace(for: cluster, pattern: "emoji"), system.hasColor {
            candidates.insert(system, at: candidates.firstIndex { !$0.hasColor } ?? candidates.count)
        }
        if let face = candidates.first(where: { Self.covers($0, cluster) }) { return face }
        if let pattern = systemPattern, let system = systemFace(for: cluster, pattern: pattern),
            Self.covers(system, cluster)
        {
            return system
        }
        return nil
    }

    private func systemFace(for cluster: Character, pattern: String) -> FontFace? {
        guard systemPattern != nil,
            let scalar = cluster.unicodeScalars.first(where: { !Self.isIgnorable($0) })
        else { return nil }
        let key = scalar.value ^ (pattern == "emoji" ? 0x8000_0000 : 0)
        if let cached = systemFaces[key] { return cached }
        var face: FontFace?
        var font: ResolvedFont?
        do throws(BadgeError) {
            font = try FontConfig.font(covering: scalar, pattern: pattern)
        } catch {
            if fontconfigProblem == nil { fontconfigProblem = error }
        }
        if let font, let data = try? FontData.mapping(path: font.path) {
            face = try? context.face(data, index: font.index)
        }
        systemFaces[key] = face
        let name = face?.reportName ?? "fontconfig's fallback for \(Quoted(pattern))"
        if !tried.contains(name) { tried.append(name) }
        return face
    }
}
