import BadgeCore
internal import CCairo
internal import CFreeType

/// Opens a font from bytes with every check a `--font-file` gets, shapes a short text
/// with it (HarfBuzz, through `FontChain` and `TextShaper` as a badge is shaped) and
/// draws the text onto a small image surface (Cairo over FreeType), then lets the
/// font go. The entry point of the FuzzFont target (fuzz/README.md).
///
/// Each call opens its own FreeType library and face; they and the copy of the bytes
/// are freed when Cairo lets go of the font face, which its font caches may hold
/// after the last use (the way `cairo_ft_font_face_create_for_ft_face` documents).
public enum FontProbe {
    /// The text shaped and drawn: the kinds of label a badge carries (a digit, a
    /// count, Latin capitals, a CJK character, emoji with a ZWJ sequence).
    public static let sampleText = "3 99+ NEW 新 😀🔥👨‍👩‍👧"

    /// The text size (pixels per em): 36, 12 pt at 3×.
    public static let pixelSize = 36.0

    /// The surface drawn on (pixels): 512 × 128, ARGB32 (256 KiB).
    public static let canvasWidth = 512
    /// See `canvasWidth`.
    public static let canvasHeight = 128

    /// Opens face 0 of `bytes`, shapes `text` with it at `pixelSize` and draws it.
    ///
    /// - Parameter origin: the name used for the bytes in messages.
    /// - Throws: `BadgeError.badInput` (65) naming `origin` when the bytes are not a
    ///   font iconbadge accepts (empty, over `FontData.maxFileBytes`, or refused by
    ///   `FontFace`: not a font, truncated, a bitmap or colour layer table malformed
    ///   or over a limit, or unreadable by FreeType) or when FreeType fails to render
    ///   a glyph of the text; `BadgeError.internalError` (70) when FreeType cannot
    ///   start or Cairo fails otherwise, as the renderer reports it.
    public static func check(bytes: [UInt8], text: String = sampleText, origin: String = "font bytes")
        throws(BadgeError)
    {
        guard !bytes.isEmpty else { throw .badInput(path: origin, reason: "is empty, not a font file") }
        guard bytes.count <= FontData.maxFileBytes else {
            throw .badInput(
                path: origin, reason: "is \(bytes.count) bytes, over the \(FontData.maxFileBytes)-byte limit for a font"
            )
        }
        let data = FontData(copying: bytes, origin: origin)
        var newLibrary: FT_Library?
        guard FT_Init_FreeType(&newLibrary) == 0, let library = newLibrary else {
            throw .internalError("FreeType could not be initialised")
        }
        let face: FontFace
        do throws(BadgeError) {
            face = try FontFace(data: data, index: 0, library: library)
        } catch {
            FT_Done_FreeType(library)
            throw error
        }
        let owner = Unmanaged.passRetained(FaceOwner(face: face.ftFace, library: library, data: data)).toOpaque()
        guard
            cairo_font_face_set_user_data(
                face.cairoFace, &ownerKey, owner, { Unmanaged<FaceOwner>.fromOpaque($0!).release() })
                == CAIRO_STATUS_SUCCESS
        else {
            // Cairo holds the face but cannot tell us when it is done: keep it all.
            throw .internalError("Cairo could not keep a font face's owner")
        }

        let context = try FontContext.checkOut()
        defer { FontContext.checkIn(context) }
        let chain = FontChain(primary: face, fallbacks: [], systemPattern: nil, context: context)
        let shaped = TextShaper.shape(text, chain: chain, pixelSize: pixelSize, features: TextShaper.defaultFeatures)

        let surface = try ImageSurface(width: canvasWidth, height: canvasHeight)
        let cr = cairo_create(surface.surface)!
        defer { cairo_destroy(cr) }
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        for run in shaped.runs {
            let scaled = run.face.scaledFont(pixelSize: pixelSize)
            cairo_set_scaled_font(cr, scaled)
            let glyphs = run.glyphs.map {
                cairo_glyph_t(index: UInt($0.index), x: pixelSize / 2 + $0.x, y: pixelSize * 2 + $0.y)
            }
            glyphs.withUnsafeBufferPointer { cairo_show_glyphs(cr, $0.baseAddress, Int32($0.count)) }
            cairo_scaled_font_destroy(scaled)
        }
        let status = cairo_status(cr)
        // FreeType refusing to render a glyph (an outline past its rasteriser's 32767 px
        // limit at this size, broken glyph data) is the font's fault, not ours.
        guard status != CAIRO_STATUS_FREETYPE_ERROR else {
            throw .badInput(path: origin, reason: "cannot be drawn: FreeType fails to render its glyphs")
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .internalError("Cairo: \(String(cString: cairo_status_to_string(status)))")
        }
    }

    /// The user-data key under which a probed font face's owner is released; only its
    /// address is used (Cairo's user-data keys), so `nonisolated(unsafe)` is safe.
    nonisolated(unsafe) private static var ownerKey = cairo_user_data_key_t()
}

/// A FreeType face with its own library and bytes, freed together when Cairo
/// destroys the font face made from it.
private final class FaceOwner {
    let face: FT_Face
    let library: FT_Library
    let data: FontData

    init(face: FT_Face, library: FT_Library, data: FontData) {
        self.face = face
        self.library = library
        self.data = data
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }
}
