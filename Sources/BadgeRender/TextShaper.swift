import BadgeCore
internal import CBidi
internal import CCairo
internal import CHarfBuzz

/// Shapes text with HarfBuzz and measures its ink with Cairo, using the face that
/// draws each glyph. Nothing is measured per character or from a width table.
///
/// Steps: a face for each grapheme cluster from the `FontChain` (so an emoji ZWJ
/// sequence or a flag stays one cluster in one face); bidi levels from FriBidi
/// (UAX #9); the script of each code point from HarfBuzz; runs where face, level or
/// script change; each run shaped with its direction and script, the whole text as
/// context; runs put in visual order by rule L2 of UAX #9.
public enum TextShaper {
    /// OpenType features on by default: tabular figures, so `11` and `88` make
    /// badges of the same width (OpenType spec, feature `tnum`).
    public static let defaultFeatures = ["tnum"]

    /// Whether `text` is a feature string HarfBuzz accepts (`tnum`, `-liga`, `kern=0`).
    public static func isValidFeature(_ text: String) -> Bool {
        var feature = hb_feature_t()
        return !text.isEmpty && text.withCString { hb_feature_from_string($0, -1, &feature) } != 0
    }

    /// A run before shaping: scalars `start..<end` of the text, one face, one level.
    private struct Item {
        var start: Int
        var end: Int
        var face: FontFace
        var level: UInt8
        var script: hb_script_t
    }

    /// Shapes `text` at `pixelSize` px per em with the faces of `chain`.
    ///
    /// Glyph positions are rounded to whole pixels, as Cairo 1.16's image backend
    /// draws them, so the ink box measured here is the ink drawn in every format.
    /// With `exactPositions` they keep HarfBuzz's 1/4096 px instead: text drawn along
    /// a rotated baseline (a ribbon) has no pixel grid in its own frame, so it is
    /// placed to the subpixel in both directions of the canvas and drawn as outlines
    /// (`BadgePainter.paintText`). Vertical metrics (ascent, descent, cap height) are
    /// the primary face's.
    static func shape(
        _ text: String, chain: FontChain, pixelSize: Double, features: [String], exactPositions: Bool = false
    ) -> ShapedText {
        var scalars: [UInt32] = []
        var clusterFaces: [FontFace] = []  // per scalar
        var missing: [Unicode.Scalar] = []
        for cluster in text {
            let face = chain.face(for: cluster)
            if face == nil {
                for scalar in cluster.unicodeScalars
                where !FontChain.isIgnorable(scalar) && chain.primary.glyph(for: scalar) == nil
                    && !missing.contains(scalar)
                {
                    missing.append(scalar)
                }
            }
            for scalar in cluster.unicodeScalars {
                scalars.append(scalar.value)
                clusterFaces.append(face ?? chain.primary)
            }
        }
        let levels = bidiLevels(scalars)
        let scripts = resolvedScripts(scalars)
        var items: [Item] = []
        for index in scalars.indices {
            if var last = items.last, last.face === clusterFaces[index], last.level == levels[index],
                last.script == scripts[index]
            {
                last.end = index + 1
                items[items.count - 1] = last
            } else {
                items.append(
                    Item(
                        start: index, end: index + 1, face: clusterFaces[index], level: levels[index],
                        script: scripts[index]))
            }
        }
        let hbFeatures = parseFeatures(features)
        var runs: [GlyphRun] = []
        var penX: Int64 = 0
        for item in visualOrder(items) {
            let (glyphs, advance) = shapeItem(
                item, scalars: scalars, pixelSize: pixelSize, features: hbFeatures, penX: penX,
                exactPositions: exactPositions)
            penX += advance
            if let last = runs.last, last.face === item.face {
                runs[runs.count - 1].glyphs += glyphs
            } else {
                runs.append(GlyphRun(face: item.face, glyphs: glyphs))
            }
        }
        // A bitmap or colour glyph FreeType cannot load would hang Cairo (see
        // FontFace.loadsCleanly): it is left out, as a glyph with nothing to draw.
        for index in runs.indices where runs[index].face.needsGlyphLoadCheck {
            let face = runs[index].face
            runs[index].glyphs.removeAll { !face.loadsCleanly($0.index, pixelSize: pixelSize) }
        }
        let vertical = chain.primary.verticalMetrics(pixelSize: pixelSize)
        let metrics = TextMetrics(
            advance: Double(penX) / TextShaper.subpixels, inkBounds: inkBounds(of: runs, pixelSize: pixelSize),
            ascent: vertical.ascent,
            descent: vertical.descent, capHeight: vertical.capHeight)
        return ShapedText(
            runs: runs, pixelSize: pixelSize, metrics: metrics, missing: missing, fontsTried: chain.tried,
            exactPositions: exactPositions)
    }

    /// HarfBuzz positions are whole units of the font's scale, each glyph's advance
    /// rounded on its own; at 1/4096 px a unit (not FreeType's 1/64) the sum of a
    /// label's advances is exact to well under a pixel, so widths round once, at the
    /// end (4096 px × 4096 fits HarfBuzz's 32-bit positions).
    public static let subpixels = 4096.0

    private static func shapeItem(
        _ item: Item, scalars: [UInt32], pixelSize: Double, features: [hb_feature_t], penX: Int64,
        exactPositions: Bool
    ) -> ([PositionedGlyph], Int64) {
        let font = hb_font_create_sub_font(item.face.hbFont)!
        defer { hb_font_destroy(font) }
        let scale = Int32((pixelSize * TextShaper.subpixels).rounded())
        hb_font_set_scale(font, scale, scale)
        let buffer = hb_buffer_create()!
        defer { hb_buffer_destroy(buffer) }
        scalars.withUnsafeBufferPointer { all in
            hb_buffer_add_utf32(
                buffer, all.baseAddress, Int32(all.count), UInt32(item.start), Int32(item.end - item.start))
        }
        hb_buffer_set_direction(buffer, item.level % 2 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, item.script)
        // A fixed language, never the process locale, so output does not depend on
        // the machine's LANG.
        hb_buffer_set_language(buffer, hb_language_from_string("und", -1))
        features.withUnsafeBufferPointer { hb_shape(font, buffer, $0.baseAddress, UInt32($0.count)) }

        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        var glyphs: [PositionedGlyph] = []
        var pen = penX
        for i in 0..<Int(count) {
            let position = positions[i]
            let x = Double(pen + Int64(position.x_offset)) / TextShaper.subpixels
            let y = Double(-position.y_offset) / TextShaper.subpixels
            glyphs.append(
                PositionedGlyph(
                    index: infos[i].codepoint, x: exactPositions ? x : x.rounded(),
                    y: exactPositions ? y : y.rounded()))
            pen += Int64(position.x_advance)
        }
        return (glyphs, pen - penX)
    }

    /// Embedding levels per scalar; all 0 when FriBidi fails or the text is empty.
    private static func bidiLevels(_ scalars: [UInt32]) -> [UInt8] {
        var levels = [UInt8](repeating: 0, count: scalars.count)
        guard !scalars.isEmpty else { return levels }
        let result = scalars.withUnsafeBufferPointer { text in
            levels.withUnsafeMutableBufferPointer {
                ib_bidi_levels(text.baseAddress, Int32(text.count), $0.baseAddress)
            }
        }
        if result < 0 { return [UInt8](repeating: 0, count: scalars.count) }
        return levels
    }

    /// Each scalar's script, with Common and Inherited resolved to their
    /// neighbours' (marks take their base's script; leading punctuation the next).
    private static func resolvedScripts(_ scalars: [UInt32]) -> [hb_script_t] {
        let funcs = hb_unicode_funcs_get_default()
        var scripts = scalars.map { hb_unicode_script(funcs, $0) }
        // An array, not a Set: a Set<UInt32> costs the Swift runtime a scan of every
        // protocol conformance (UInt32: Hashable) at each start (callgrind).
        let neutral: [UInt32] = [
            HB_SCRIPT_COMMON.rawValue, HB_SCRIPT_INHERITED.rawValue, HB_SCRIPT_UNKNOWN.rawValue,
        ]
        var last: hb_script_t?
        for i in scripts.indices {
            if neutral.contains(scripts[i].rawValue) {
                if let last { scripts[i] = last }
            } else {
                last = scripts[i]
            }
        }
        if let firstReal = scripts.first(where: { !neutral.contains($0.rawValue) }) {
            for i in scripts.indices where neutral.contains(scripts[i].rawValue) { scripts[i] = firstReal }
        } else {
            scripts = scripts.map { _ in HB_SCRIPT_COMMON }
        }
        return scripts
    }

    /// Rule L2 of UAX #9 over runs: from the highest level down to the lowest odd
    /// level, reverse every maximal sequence of runs at that level or higher.
    private static func visualOrder(_ items: [Item]) -> [Item] {
        guard let highest = items.map(\.level).max(), highest > 0 else { return items }
        let lowestOdd = items.map(\.level).filter { $0 % 2 == 1 }.min() ?? highest
        var order = items
        var level = highest
        while level >= lowestOdd && level > 0 {
            var index = 0
            while index < order.count {
                guard order[index].level >= level else {
                    index += 1
                    continue
                }
                var end = index
                while end < order.count && order[end].level >= level { end += 1 }
                order[index..<end].reverse()
                index = end
            }
            level -= 1
        }
        return order
    }

    /// Coverage from which a pixel counts as ink: a quarter, where an antialiased
    /// edge starts to be seen. Faint fringes below it do not move the centre.
    static let inkAlphaThreshold: UInt32 = 64

    /// The text's ink box in whole pixels relative to the pen origin: the glyphs
    /// are drawn at their (whole-pixel) positions exactly as the output draws them,
    /// and the box holds every pixel with at least `inkAlphaThreshold` coverage.
    /// This is the real ink of bitmap glyphs too (a colour emoji's strike has
    /// transparent margins that Cairo's extents include). Nil when nothing has ink.
    static func inkBounds(of runs: [GlyphRun], pixelSize: Double) -> Rect? {
        guard let outline = outlineBounds(of: runs, pixelSize: pixelSize) else { return nil }
        // A hostile font can claim any glyph box; beyond a badge's size there is
        // nothing to rasterise (the layout refuses it), and no Int conversion may trap.
        guard [outline.minX, outline.minY, outline.maxX, outline.maxY].allSatisfy({ $0.isFinite && abs($0) < 1e7 })
        else { return outline }
        let left = Int(outline.minX.rounded(.down)) - 1
        let top = Int(outline.minY.rounded(.down)) - 1
        let width = Int(outline.maxX.rounded(.up)) + 1 - left
        let height = Int(outline.maxY.rounded(.up)) + 1 - top
        // Too large to be a badge: the layout will refuse it; keep the outline box.
        guard width <= 8192, height <= 8192, let surface = try? ImageSurface(width: width, height: height) else {
            return outline
        }
        let cr = cairo_create(surface.surface)!
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        for run in runs {
            let scaled = run.face.scaledFont(pixelSize: pixelSize)
            cairo_set_scaled_font(cr, scaled)
            let glyphs = run.glyphs.map {
                cairo_glyph_t(index: UInt($0.index), x: $0.x - Double(left), y: $0.y - Double(top))
            }
            glyphs.withUnsafeBufferPointer { cairo_show_glyphs(cr, $0.baseAddress, Int32($0.count)) }
            cairo_scaled_font_destroy(scaled)
        }
        cairo_destroy(cr)
        let base = UnsafeRawPointer(surface.data)
        let stride = surface.stride
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for y in 0..<height {
            let row = base + y * stride
            for x in 0..<width
            where row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self) >> 24 >= inkAlphaThreshold {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard minX <= maxX else { return nil }
        return Rect(
            x: Double(minX + left), y: Double(minY + top), width: Double(maxX - minX + 1),
            height: Double(maxY - minY + 1))
    }

    /// The union of every glyph's extents as Cairo reports them (pixels, relative
    /// to the pen origin): the outline's box, or a bitmap strike's whole cell.
    static func outlineBounds(of runs: [GlyphRun], pixelSize: Double) -> Rect? {
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

    /// HarfBuzz features from strings such as `tnum` or `-liga` (validated by the CLI).
    static func parseFeatures(_ features: [String]) -> [hb_feature_t] {
        features.compactMap { text in
            var feature = hb_feature_t()
            let ok = text.withCString { hb_feature_from_string($0, -1, &feature) }
            return ok != 0 ? feature : nil
        }
    }
}
