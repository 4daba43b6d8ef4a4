import BadgeCore
internal import CFontconfig
internal import CImageLoaders
import Synchronization

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

/// The variables fontconfig finds its configuration file by (`FcConfigGetFilename`).
struct FontConfigEnvironment: Sendable, Equatable {
    /// `FONTCONFIG_FILE`.
    let file: String?
    /// `HOME`, for a `FONTCONFIG_FILE` that starts with `~`.
    let home: String?
    /// `FONTCONFIG_PATH`, the folders a relative `FONTCONFIG_FILE` is looked for in.
    let path: String?

    /// This process's, read once, at the first check: nothing reads them while a scene
    /// is built or painted.
    static let process = FontConfigEnvironment(
        file: getenv("FONTCONFIG_FILE").map { String(cString: $0) },
        home: getenv("HOME").map { String(cString: $0) },
        path: getenv("FONTCONFIG_PATH").map { String(cString: $0) })
}

/// fontconfig lookups: family names for `--font`, and the fallback list for
/// glyphs the chosen font lacks. Initialised lazily, only when a family name or a
/// fallback is needed, because loading its configuration costs 5-6 ms per
/// process, and about 160 ms where the cache was never built (docs/DESIGN.md).
public enum FontConfig {
    /// fontconfig's configuration objects are not safe to use from two threads at once.
    private static let lock = Mutex(())
    /// Loaded once. `nonisolated(unsafe)`: an `OpaquePointer` is not `Sendable`, and
    /// every use of the configuration is under `lock`.
    nonisolated(unsafe) private static let config: Result<OpaquePointer, BadgeError> = {
        do throws(BadgeError) {
            try checkConfigurationFile()
        } catch {
            return .failure(error)
        }
        // fontconfig prints its configuration's parse errors ("Fontconfig error:
        // ...") with fprintf(stderr); they never reach the user's terminal. Only the
        // C `stderr` stream is swapped, not file descriptor 2, so this process's own
        // messages (written to descriptor 2 by other threads) are not lost meanwhile.
        let loaded = withQuietStandardError { FcInitLoadConfigAndFonts() }
        guard let loaded else {
            return .failure(.unavailable(resource: "fontconfig", reason: "cannot load its configuration"))
        }
        pinDefaultLanguages()
        return .success(loaded)
    }()

    /// The largest `FONTCONFIG_FILE` read (bytes): Debian's own fonts.conf is 2,940
    /// bytes (it includes conf.d), so 1 MiB is over 300 times that. fontconfig reads
    /// its configuration file to the end however long, so `/dev/zero` never ends.
    public static let maxConfigurationFileBytes = 1 << 20

    /// Refuses a `FONTCONFIG_FILE` fontconfig could not read in bounded time and
    /// memory: not a regular file (`/dev/zero`, a FIFO, a folder) or larger than
    /// `maxConfigurationFileBytes`. The file is found as fontconfig finds it
    /// (`FcConfigGetFilename`): `~/` under HOME, an absolute path as is, a relative
    /// one in FONTCONFIG_PATH's folders, then /etc/fonts. Called before fontconfig
    /// starts, in this process and before an isolated child gives an SVG to librsvg
    /// (whose text goes through Pango and fontconfig). The variables are this
    /// process's, read once (`FontConfigEnvironment.process`): fontconfig and the
    /// loader read the same ones.
    ///
    /// - Throws: 69 naming the variable, the file and the fix.
    public static func checkConfigurationFile() throws(BadgeError) {
        try checkConfigurationFile(FontConfigEnvironment.process)
    }

    /// `checkConfigurationFile()` for the variables in `environment`.
    ///
    /// - Throws: 69 naming the variable, the file and the fix.
    static func checkConfigurationFile(_ environment: FontConfigEnvironment) throws(BadgeError) {
        guard let value = environment.file, !value.isEmpty else { return }
        var candidates: [String] = []
        if value.hasPrefix("~") {
            guard let home = environment.home else { return }
            candidates = [home + value.dropFirst()]
        } else if value.hasPrefix("/") {
            candidates = [value]
        } else {
            let path = environment.path ?? ""
            candidates = path.split(separator: ":").map { "\($0)/\(value)" } + ["/etc/fonts/\(value)"]
        }
        // fontconfig takes the first candidate it can read (access R_OK).
        guard let file = candidates.first(where: { access($0, R_OK) == 0 }) else { return }
        var info = stat()
        guard stat(file, &info) == 0 else { return }
        let fix = "point it at a fonts.conf file, or unset it"
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .unavailable(
                resource: "fontconfig",
                reason: "FONTCONFIG_FILE=\(Quoted(value)) is not a regular file (a device, FIFO or folder); \(fix)")
        }
        guard Int(info.st_size) <= maxConfigurationFileBytes else {
            throw .unavailable(
                resource: "fontconfig",
                reason:
                    "FONTCONFIG_FILE=\(Quoted(value)) is \(info.st_size) bytes, over the \(maxConfigurationFileBytes)-byte limit for a configuration; \(fix)"
            )
        }
    }

    /// Runs `body` with C's `stderr` stream sent to /dev/null.
    private static func withQuietStandardError<T>(_ body: () -> T) -> T {
        let saved = ib_stderr_silence()
        defer { ib_stderr_restore(saved) }
        return body()
    }

    /// The configuration, loaded once.
    ///
    /// - Throws: 69 when `FONTCONFIG_FILE` is refused or fontconfig cannot start.
    static func configuration() throws(BadgeError) -> OpaquePointer { try config.get() }

    /// fontconfig's default languages come from FC_LANG, LC_ALL, LC_CTYPE or LANG
    /// (`FcGetDefaultLangs`, read once and shared), and `FcConfigSubstitute` appends
    /// them to every pattern, where they steer fallback (a Han glyph from a Chinese or
    /// a Japanese face) and the configuration's `lang` rules. The shared set is made
    /// "en", what the C locale gives, before any match, so output does not depend on
    /// the caller's locale. (Setting FC_LANG instead would change the environment
    /// under threads that may be reading it to start a child.)
    private static func pinDefaultLanguages() {
        guard let languages = FcGetDefaultLangs() else { return }
        defer { FcStrSetDestroy(languages) }  // this reference; fontconfig keeps its own
        var names: [[UInt8]] = []
        if let list = FcStrListCreate(languages) {
            while let name = FcStrListNext(list) {
                var bytes: [UInt8] = []
                var cursor = name
                while cursor.pointee != 0 {
                    bytes.append(cursor.pointee)
                    cursor += 1
                }
                names.append(bytes + [0])
            }
            FcStrListDone(list)
        }
        for name in names { _ = name.withUnsafeBufferPointer { FcStrSetDel(languages, $0.baseAddress) } }
        _ = Array("en\0".utf8).withUnsafeBufferPointer { FcStrSetAdd(languages, $0.baseAddress) }
    }

    /// Generic families that fontconfig maps to an installed font by design; they
    /// are never "not installed".
    static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "emoji", "cursive", "fantasy", "math",
    ]

    /// Whether fontconfig parses `pattern` (`DejaVu Sans:bold`): checked when the option
    /// is read, with no configuration loaded (parsing needs none).
    public static func isPattern(_ pattern: String) -> Bool {
        guard
            let parsed = pattern.withCString({ FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
            )
        else { return false }
        FcPatternDestroy(parsed)
        return true
    }

    /// Resolves a fontconfig pattern such as `DejaVu Sans:bold` or `Noto Sans CJK JP`.
    ///
    /// - Throws: `BadgeError.unavailable` (69) when the pattern does not parse (the
    ///   option table refuses that first, 64), or when the family is not installed,
    ///   naming what fontconfig would silently have substituted.
    public static func resolve(_ pattern: String) throws(BadgeError) -> ResolvedFont {
        let config = try configuration()
        return try lock.withLock { (_) throws(BadgeError) -> ResolvedFont in
            guard
                let parsed = pattern.withCString({
                    FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
                }
                )
            else {
                // The option table refuses such a pattern first (isPattern); this is the
                // library's word on one that got through.
                throw .unavailable(
                    resource: "font \(Quoted(pattern))", reason: "fontconfig cannot parse it as a pattern")
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
                throw .unavailable(
                    resource: "font \(Quoted(pattern))", reason: "fontconfig matched a font without a file")
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
    }

    /// The fonts fontconfig would fall back to for `pattern`, best first, each
    /// with a check for whether it covers a code point (`FcFontSort` with trimming).
    ///
    /// - Throws: 69 when fontconfig cannot be used (`configuration()`).
    static func fallbacks(for pattern: String) throws(BadgeError) -> [ResolvedFont] {
        let config = try configuration()
        return try lock.withLock { (_) throws(BadgeError) -> [ResolvedFont] in
            guard
                let parsed = pattern.withCString({
                    FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
                }
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
    }

    /// The first font of `pattern`'s fallback list that has a glyph for `scalar`.
    ///
    /// - Throws: 69 when fontconfig cannot be used (`configuration()`).
    static func font(covering scalar: Unicode.Scalar, pattern: String) throws(BadgeError) -> ResolvedFont? {
        let config = try configuration()
        return try lock.withLock { (_) throws(BadgeError) -> ResolvedFont? in
            guard
                let parsed = pattern.withCString({
                    FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
                }
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
