import BadgeCore
internal import CCairo
internal import CHarfBuzz

/// Shapes text with HarfBuzz and measures its ink with Cairo, using the face
/// that draws each glyph. Nothing is measured per character or from a table.
public enum TextShaper {
    /// OpenType features on by default: tabular figures, so `11` and `88` make
    /// badges of the same width (OpenType spec, feature `tnum`).
    public static let defaultFeatures = ["tnum"]

    /// Shapes `text` with `face` at `pixelSize` px per em.
    ///
    /// Glyph positions are rounded to whole pixels, as Cairo 1.16's image backend
    /// draws them, so the ink box measured here is the ink drawn in every format.
    /// - Parameter features: OpenType feature strings in HarfBuzz syntax (`tnum`,
    ///   `-liga`, `ss01=1`).
    static func shape(_ text: String, face: FontFace, pixelSize: Double, features: [String]) -> ShapedText {
        let font = hb_font_create_sub_font(face.hbFont)!
        defer { hb_font_destroy(font) }
        let scale = Int32((pixelSize * 64).rounded())
        hb_font_set_scale(font, scale, scale)

        let buffer = hb_buffer_create()!
        defer { hb_buffer_destroy(buffer) }
        var utf8 = Array(text.utf8)
        utf8.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), 0, Int32(chars.count))
            }
        }
        hb_buffer_guess_segment_properties(buffer)
        let hbFeatures = parseFeatures(features)
        hbFeatures.withUnsafeBufferPointer { list in
            hb_shape(font, buffer, list.baseAddress, UInt32(list.count))
        }

        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        var glyphs: [PositionedGlyph] = []
        var missing: [Unicode.Scalar] = []
        var penX: Int32 = 0
        for i in 0..<Int(count) {
            let info = infos[i]
            let position = positions[i]
            if info.codepoint == 0 {
                let cluster = Int(info.cluster)
                let scalar = String(decoding: utf8[cluster...], as: UTF8.self).unicodeScalars.first
                if let scalar, !missing.contains(scalar) { missing.append(scalar) }
            }
            glyphs.append(
                PositionedGlyph(
                    index: info.codepoint,
                    x: (Double(penX + position.x_offset) / 64).rounded(),
                    y: (Double(-position.y_offset) / 64).rounded()))
            penX += position.x_advance
        }
        let advance = Double(penX) / 64
        let vertical = face.verticalMetrics(pixelSize: pixelSize)
        let run = GlyphRun(face: face, glyphs: glyphs)
        let metrics = TextMetrics(
            advance: advance, inkBounds: inkBounds(of: [run], pixelSize: pixelSize), ascent: vertical.ascent,
            descent: vertical.descent, capHeight: vertical.capHeight)
        return ShapedText(runs: [run], pixelSize: pixelSize, metrics: metrics, missing: missing)
    }

    /// The union of every glyph's ink box as Cairo reports it (pixels, relative to
    /// the pen origin), or nil when no glyph has ink.
    static func inkBounds(of runs: [GlyphRun], pixelSize: Double) -> Rect? {
        var bounds: Rect?
        for run in runs {
            let scaled = run.face.scaledFont(pixelSize: pixelSize)
            defer { cairo_scaled_font_destroy(scaled) }
            for glyph in run.glyphs {
                var cairoGlyph = cairo_glyph_t(index: UInt(glyph.index), x: 0, y: 0)
                var extents = cairo_text_extents_t()
                cairo_scaled_font_glyph_extents(scaled, &cairoGlyph, 1, &extents)
                guard extents.width > 0, extents.height > 0 else { continue }
                let box = Rect(
                    x: glyph.x + extents.x_bearing, y: glyph.y + extents.y_bearing, width: extents.width,
                    height: extents.height)
                bounds = bounds.map { $0.union(box) } ?? box
            }
        }
        return bounds
    }

    /// HarfBuzz features from strings such as `tnum` or `-liga`; unknown syntax
    /// is skipped here because the CLI validated it already.
    static func parseFeatures(_ features: [String]) -> [hb_feature_t] {
        features.compactMap { text in
            var feature = hb_feature_t()
            let ok = text.withCString { hb_feature_from_string($0, -1, &feature) }
            return ok != 0 ? feature : nil
        }
    }

    /// Whether `text` is a feature string HarfBuzz accepts (`tnum`, `-liga`, `kern=0`).
    public static func isValidFeature(_ text: String) -> Bool {
        var feature = hb_feature_t()
        return !text.isEmpty && text.withCString { hb_feature_from_string($0, -1, &feature) } != 0
    }
}
