import BadgeCore
internal import CFontconfig

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A font file and face that fontconfig resolved a pattern to.
public struct ResolvedFont: Equatable, Sendable {
    /// Path of the font file.
    public var path: String
    /// Face index within the file (collections).
    public var index: Int
    /// The face's family name.
    public var family: String
    /// The face's style name ("Bold", "Regular").
    public var style: String
}

/// fontconfig lookups: family names for `--font`, and the fallback list for
/// glyphs the chosen font lacks. Initialised lazily, only when a family name or a
/// fallback is needed, because loading its configuration costs 5-6 ms per
/// process, and about 160 ms where the cache was never built (DESIGN.md).
public enum FontConfig {
    nonisolated(unsafe) private static var lock = pthread_mutex_t()
    nonisolated(unsafe) private static let config: OpaquePointer? = {
        pthread_mutex_init(&lock, nil)
        return FcInitLoadConfigAndFonts()
    }()

    /// Generic families that fontconfig maps to an installed font by design; they
    /// are never "not installed".
    static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "emoji", "cursive", "fantasy", "math",
    ]

    /// Resolves a fontconfig pattern such as `DejaVu Sans:bold` or `Noto Sans CJK JP`.
    ///
    /// - Throws: `BadgeError.invalidValue` (64) when the pattern does not parse;
    ///   `BadgeError.unavailable` (69) when the family is not installed, naming what
    ///   fontconfig would silently have substituted.
    public static func resolve(_ pattern: String) throws(BadgeError) -> ResolvedFont {
        guard let config else { throw .unavailable(resource: "fontconfig", reason: "cannot load its configuration") }
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard
            let parsed = pattern.withCString({ FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
            )
        else {
            throw .invalidValue(
                option: "--font", value: pattern, problem: "is not a fontconfig pattern (use e.g. \"DejaVu Sans:bold\")"
            )
        }
        defer { FcPatternDestroy(parsed) }
        let requested = strings(parsed, FC_FAMILY)
        FcConfigSubstitute(config, parsed, FcMatchPattern)
        FcDefaultSubstitute(parsed)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, parsed, &result) else {
            throw .unavailable(
                resource: "font \(Quoted(pattern))", reason: "no installed font matches (list them with fc-list)")
        }
        defer { FcPatternDestroy(match) }
        guard let font = resolved(match) else {
            throw .unavailable(resource: "font \(Quoted(pattern))", reason: "fontconfig matched a font without a file")
        }
        let families = strings(match, FC_FAMILY).map(normalise)
        for family in requested where !genericFamilies.contains(family.lowercased()) {
            guard families.contains(normalise(family)) else {
                throw .unavailable(
                    resource: "font \(Quoted(pattern))",
                    reason:
                        "family \(Quoted(family)) is not installed (fontconfig would substitute \(Quoted(font.family))); list families with: fc-list : family"
                )
            }
        }
        return font
    }

    /// The fonts fontconfig would fall back to for `pattern`, best first, each
    /// with a check for whether it covers a code point (`FcFontSort` with trimming).
    static func fallbacks(for pattern: String) -> [ResolvedFont] {
        guard let config else { return [] }
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard
            let parsed = pattern.withCString({ FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
            )
        else { return [] }
        defer { FcPatternDestroy(parsed) }
        FcConfigSubstitute(config, parsed, FcMatchPattern)
        FcDefaultSubstitute(parsed)
        var result = FcResultNoMatch
        guard let set = FcFontSort(config, parsed, FcTrue, nil, &result) else { return [] }
        defer { FcFontSetDestroy(set) }
        var fonts: [ResolvedFont] = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let candidate = set.pointee.fonts[i],
                let prepared = FcFontRenderPrepare(config, parsed, candidate)
            else { continue }
            if let font = resolved(prepared), !fonts.contains(font) { fonts.append(font) }
            FcPatternDestroy(prepared)
        }
        return fonts
    }

    /// The first font of `pattern`'s fallback list that has a glyph for `scalar`.
    static func font(covering scalar: Unicode.Scalar, pattern: String) -> ResolvedFont? {
        guard let config else { return nil }
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard
            let parsed = pattern.withCString({ FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
            )
        else { return nil }
        defer { FcPatternDestroy(parsed) }
        let charset = FcCharSetCreate()
        FcCharSetAddChar(charset, scalar.value)
        FcPatternAddCharSet(parsed, FC_CHARSET, charset)
        FcCharSetDestroy(charset)
        FcConfigSubstitute(config, parsed, FcMatchPattern)
        FcDefaultSubstitute(parsed)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, parsed, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var set: OpaquePointer?
        guard FcPatternGetCharSet(match, FC_CHARSET, 0, &set) == FcResultMatch, let set,
            FcCharSetHasChar(set, scalar.value) != 0
        else { return nil }
        return resolved(match)
    }

    private static func resolved(_ pattern: OpaquePointer) -> ResolvedFont? {
        guard let file = strings(pattern, FC_FILE).first else { return nil }
        var index: Int32 = 0
        FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
        return ResolvedFont(
            path: file, index: Int(index), family: strings(pattern, FC_FAMILY).first ?? "",
            style: strings(pattern, FC_STYLE).first ?? "")
    }

    private static func strings(_ pattern: OpaquePointer, _ object: UnsafePointer<CChar>) -> [String] {
        var values: [String] = []
        var n: Int32 = 0
        while true {
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value else { break }
            values.append(String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self)))
            n += 1
        }
        return values
    }

    /// fontconfig compares family names ignoring case and spaces.
    private static func normalise(_ family: String) -> String {
        String(family.lowercased().filter { $0 != " " })
    }
}
