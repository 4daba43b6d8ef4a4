import BadgeCore
internal import CCairo
internal import CFreeType
internal import CHarfBuzz

/// One face of a font file, opened once for drawing (FreeType through Cairo) and
/// for shaping (HarfBuzz's OpenType functions over the same bytes).
///
/// Faces live as long as the process: Cairo's scaled-font cache may hold a face
/// after its last use, and freeing the FreeType face under it would be a
/// use-after-free, so faces are cached by `FontContext` and never freed. (A
/// `FontProbe` face, from memory, has Cairo free its FreeType face when done.)
/// `@unchecked Sendable`: a face belongs to one `FontContext`, used by one renderer
/// on one thread at a time.
final class FontFace: @unchecked Sendable {
    let data: FontData
    let index: Int
    let ftFace: FT_Face
    let cairoFace: OpaquePointer
    let hbFace: OpaquePointer
    /// A HarfBuzz font at the design scale (units per em), parent of sized fonts.
    let hbFont: OpaquePointer
    let unitsPerEm: Int
    let familyName: String
    let styleName: String
    /// True for bitmap-only faces such as Noto Color Emoji (CBDT strikes).
    let isScalable: Bool
    /// True when the face has colour glyphs (CBDT, sbix, COLR).
    let hasColor: Bool

    /// Opens face `index` of `data` with `library`.
    ///
    /// - Throws: `BadgeError.badInput` (65) naming the file when it is not a font, is
    ///   truncated (a table past its end), has no such face, has a bitmap or colour
    ///   layer table that is malformed or over a limit (`FontBitmapTables`,
    ///   `ColorGlyphLayers`), or FreeType refuses it.
    init(data: FontData, index: Int, library: FT_Library) throws(BadgeError) {
        let bytes = UnsafeRawBufferPointer(start: data.base, count: data.count)
        do throws(SFNTDirectory.Problem) {
            try SFNTDirectory.check(bytes, faceIndex: index)
        } catch {
            switch error {
            case .notAFont:
                throw .badInput(path: data.origin, reason: "is not a font file (no OpenType or TrueType signature)")
            case .noSuchFace(let count):
                throw .badInput(
                    path: data.origin,
                    reason: "has \(count) face(s), numbered 0 to \(count - 1); there is no face \(index)")
            case .truncated(let table):
                throw .badInput(
                    path: data.origin,
                    reason: "is a truncated font: its \(Quoted(table)) table runs past the end of the file")
            }
        }
        // Before FreeType reads a bitmap or a colour layer: its sizes drive allocations.
        let layerGlyphs: ColorGlyphLayers.LayerGlyphs?
        do throws(FontBitmapTables.Problem) {
            try FontBitmapTables.check(bytes, faceIndex: index)
        } catch {
            throw .badInput(path: data.origin, reason: Self.reason(for: error))
        }
        do throws(ColorGlyphLayers.Problem) {
            layerGlyphs = try ColorGlyphLayers.check(bytes, faceIndex: index)
        } catch {
            throw .badInput(path: data.origin, reason: Self.reason(for: error))
        }
        var face: FT_Face?
        let error = FT_New_Memory_Face(library, data.base, FT_Long(data.count), FT_Long(index), &face)
        guard error == 0, let face else {
            throw .badInput(path: data.origin, reason: "is not a font file FreeType can read (error \(error))")
        }
        if let layerGlyphs {
            do throws(BadgeError) {
                try Self.checkLayerReach(layerGlyphs, face: face, origin: data.origin)
            } catch {
                FT_Done_Face(face)
                throw error
            }
        }
        self.data = data
        self.index = index
        self.ftFace = face
        let flags = face.pointee.face_flags
        isScalable = flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        hasColor = flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        if !isScalable, face.pointee.num_fixed_sizes > 0 {
            FT_Select_Size(face, 0)
        }
        familyName = face.pointee.family_name.map { String(cString: $0) } ?? "unknown"
        styleName = face.pointee.style_name.map { String(cString: $0) } ?? ""

        // Cairo draws unhinted outlines (see FontFace.drawingOptions); colour
        // glyphs are requested so emoji keep their colours.
        var loadFlags = FT_LOAD_NO_HINTING
        if hasColor { loadFlags |= FT_LOAD_COLOR }
        cairoFace = cairo_ft_font_face_create_for_ft_face(face, Int32(loadFlags))

        let blob = hb_blob_create(
            UnsafeRawPointer(data.base).assumingMemoryBound(to: CChar.self), UInt32(data.count),
            HB_MEMORY_MODE_READONLY, nil, nil)
        hbFace = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        hbFont = hb_font_create(hbFace)
        unitsPerEm = Int(hb_face_get_upem(hbFace))
        hb_font_set_scale(hbFont, Int32(unitsPerEm), Int32(unitsPerEm))
    }

    /// Releases HarfBuzz's objects and this face's reference to Cairo's font face.
    /// The FreeType face is not freed here: Cairo may still draw with it. Faces from
    /// `FontContext` are never released; `FontProbe` hands its face to Cairo to free.
    deinit {
        hb_font_destroy(hbFont)
        hb_face_destroy(hbFace)
        cairo_font_face_destroy(cairoFace)
    }

    /// A description for reports: family, style and where the bytes came from.
    var reportName: String { "\(familyName) \(styleName) (\(data.origin)#\(index))" }

    /// The glyph for `scalar` in this face, or nil when the face lacks it.
    func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar.value, &glyph) != 0 ? glyph : nil
    }

    /// Vertical metrics at `pixelSize` px per em (pixels, positive values):
    /// ascent and descent from OS/2 or hhea as HarfBuzz selects them, cap height
    /// from OS/2 (or the ink top of "H" when the table lacks it).
    func verticalMetrics(pixelSize: Double) -> (ascent: Double, descent: Double, capHeight: Double) {
        let perUnit = pixelSize / Double(unitsPerEm)
        var ascender: hb_position_t = 0
        var descender: hb_position_t = 0
        var capHeight: hb_position_t = 0
        if hb_ot_metrics_get_position(hbFont, HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER, &ascender) == 0 {
            ascender = hb_position_t(Double(unitsPerEm) * 0.8)
        }
        if hb_ot_metrics_get_position(hbFont, HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER, &descender) == 0 {
            descender = -hb_position_t(Double(unitsPerEm) * 0.2)
        }
        if hb_ot_metrics_get_position(hbFont, HB_OT_METRICS_TAG_CAP_HEIGHT, &capHeight) == 0 || capHeight <= 0 {
            var extents = hb_glyph_extents_t()
            if let h = glyph(for: "H"), hb_font_get_glyph_extents(hbFont, h, &extents) != 0 {
                capHeight = extents.y_bearing
            } else {
                capHeight = ascender
            }
        }
        return (Double(ascender) * perUnit, Double(-descender) * perUnit, Double(capHeight) * perUnit)
    }

    /// A Cairo scaled font of this face at `pixelSize` px per em, drawn unhinted
    /// with greyscale antialiasing and unrounded metrics: the same pixels on every
    /// machine whatever its fontconfig settings. The caller destroys it.
    func scaledFont(pixelSize: Double) -> OpaquePointer {
        var fontMatrix = cairo_matrix_t()
        var identity = cairo_matrix_t()
        cairo_matrix_init_scale(&fontMatrix, pixelSize, pixelSize)
        cairo_matrix_init_identity(&identity)
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        let scaled = cairo_scaled_font_create(cairoFace, &fontMatrix, &identity, options)!
        cairo_font_options_destroy(options)
        return scaled
    }
}
