extension FontBitmapTables {
    /// The image formats a CBDT/EBDT glyph may have (OpenType spec, EBDT "Glyph
    /// bitmap data formats" 1, 2, 5, 6, 7, 8, 9; CBDT adds the PNG formats 17, 18, 19).
    /// (An array: a `Set` costs the Swift runtime a conformance scan at first use.)
    static let knownImageFormats = [1, 2, 5, 6, 7, 8, 9, 17, 18, 19]

    /// A walk over one location table (CBLC, EBLC or bloc) and its data table (CBDT,
    /// EBDT or bdat): per strike (BitmapSize record, 48 bytes) its index subtable
    /// array, per index subtable (formats 1 to 5) its glyphs' places in the data
    /// table, per glyph its metrics and, for formats 17 to 19, its PNG's IHDR.
    ///
    /// Several strikes or subtables may point at the same bytes, so counts and
    /// offsets alone do not bound the walk: every subtable and glyph visited spends
    /// one unit of `budget`, the two tables' length in bytes. A well-formed font
    /// never runs out: each glyph it visits has an index entry (2 bytes or more) in
    /// the location table or an image (1 byte or more) in the data table.
    struct StrikeWalk {
        let location: FontTableReader
        let locationTag: String
        let data: FontTableReader
        let dataTag: String
        var budget: Int

        init(location: FontTableReader, locationTag: String, data: FontTableReader, dataTag: String) {
            self.location = location
            self.locationTag = locationTag
            self.data = data
            self.dataTag = dataTag
            budget = location.count + data.count
        }

        func malformed(_ reason: String) -> Problem { .malformed(table: locationTag, reason: reason) }
        func malformedData(_ reason: String) -> Problem { .malformed(table: dataTag, reason: reason) }

        mutating func spend() throws(Problem) {
            budget -= 1
            guard budget >= 0 else {
                throw malformed(
                    "refers to more glyphs than it and its \(dataTag) table hold (\(location.count) and \(data.count) bytes): its records overlap"
                )
            }
        }

        /// The header (version, strike count), then the strikes.
        mutating func run() throws(Problem) {
            guard location.has(0, 8) else {
                throw malformed("is \(location.count) bytes, shorter than its 8-byte header")
            }
            let strikes = location.u32(4)
            guard strikes <= (location.count - 8) / 48 else {
                throw malformed("claims \(strikes) strikes, more than its \(location.count) bytes hold")
            }
            for strike in 0..<strikes {
                let record = 8 + 48 * strike
                let arrayStart = location.u32(record)
                let subtables = location.u32(record + 8)
                // FreeType picks and scales strikes by ppemY; a strike narrower than
                // it is tall is scaled by ppemX across, so the smaller one counts.
                let ppem = min(location.u8(record + 44), location.u8(record + 45))
                guard location.has(arrayStart, 0), subtables <= (location.count - arrayStart) / 8 else {
                    throw malformed(
                        "has the index subtables of strike \(strike) past its end (\(location.count) bytes)")
                }
                for entry in 0..<subtables {
                    try spend()
                    let at = arrayStart + 8 * entry
                    let first = location.u16(at)
                    let last = location.u16(at + 2)
                    let subtable = arrayStart + location.u32(at + 4)
                    guard first <= last else {
                        throw malformed("has an index subtable for glyphs \(first) to \(last), a reversed range")
                    }
                    guard location.has(subtable, 8) else {
                        throw malformed(
                            "has an index subtable of strike \(strike) past its end (\(location.count) bytes)")
                    }
                    try subtableGlyphs(at: subtable, count: last - first + 1, ppem: ppem)
                }
            }
        }

        /// One index subtable: its header (index format, image format, image data
        /// offset), then its glyphs' offsets, or one image size for all its glyphs.
        mutating func subtableGlyphs(at subtable: Int, count: Int, ppem: Int) throws(Problem) {
            let indexFormat = location.u16(subtable)
            let imageFormat = location.u16(subtable + 2)
            let imageData = location.u32(subtable + 4)
            guard knownImageFormats.contains(imageFormat) else {
                throw malformed("has an index subtable for image format \(imageFormat), which does not exist")
            }
            guard imageFormat != 8, imageFormat != 9 else {
                throw .compoundGlyphs(table: dataTag, format: imageFormat)
            }
            let body = subtable + 8
            func pastEnd() -> Problem {
                malformed("has index subtable (format \(indexFormat)) data past its end (\(location.count) bytes)")
            }
            switch indexFormat {
            case 1, 3:  // an offset per glyph, plus one: 32-bit (format 1) or 16-bit (format 3)
                let width = indexFormat == 1 ? 4 : 2
                guard location.has(body, (count + 1) * width) else { throw pastEnd() }
                func offset(_ index: Int) -> Int {
                    width == 4 ? location.u32(body + 4 * index) : location.u16(body + 2 * index)
                }
                for glyph in 0..<count {
                    let start = offset(glyph)
                    try image(at: imageData + start, length: offset(glyph + 1) - start, format: imageFormat, ppem: ppem)
                }
            case 2, 5:  // one image size and big metrics for all; format 5 lists its glyph IDs
                guard location.has(body, 12) else { throw pastEnd() }
                let imageSize = location.u32(body)
                try checkImage(
                    table: locationTag, width: location.u8(body + 5), height: location.u8(body + 4), ppem: ppem)
                var glyphs = count
                if indexFormat == 5 {
                    guard location.has(body + 12, 4) else { throw pastEnd() }
                    glyphs = location.u32(body + 12)
                    guard glyphs <= (location.count - body - 16) / 2 else { throw pastEnd() }
                }
                guard imageSize > 0 else { return }  // every glyph empty: nothing to load
                guard data.has(imageData, glyphs * imageSize) else {
                    throw malformed(
                        "has the images of an index subtable past the end of its \(dataTag) table (\(data.count) bytes)"
                    )
                }
                for glyph in 0..<glyphs {
                    try image(at: imageData + glyph * imageSize, length: imageSize, format: imageFormat, ppem: ppem)
                }
            case 4:  // glyph count, then (glyph ID, 16-bit offset) pairs, plus one
                guard location.has(body, 4) else { throw pastEnd() }
                let glyphs = location.u32(body)
                guard glyphs < (location.count - body - 4) / 4 else { throw pastEnd() }
                for glyph in 0..<glyphs {
                    let start = location.u16(body + 4 + 4 * glyph + 2)
                    let end = location.u16(body + 4 + 4 * (glyph + 1) + 2)
                    try image(at: imageData + start, length: end - start, format: imageFormat, ppem: ppem)
                }
            default:
                throw malformed("has an index subtable of format \(indexFormat), which does not exist")
            }
        }

        /// One glyph's record in the data table: its metrics, and for the PNG
        /// formats the PNG's own size (OpenType spec, CBDT "Glyph bitmap data
        /// formats" 17, 18, 19; EBDT formats 1 to 9 for the metrics).
        mutating func image(at offset: Int, length: Int, format: Int, ppem: Int) throws(Problem) {
            try spend()
            guard length >= 0, data.has(offset, length) else {
                throw malformed("points at glyph data past the end of its \(dataTag) table (\(data.count) bytes)")
            }
            guard length > 0 else { return }  // no image for this glyph
            // Bytes of metrics before the rest: small metrics are 5 bytes, big 8,
            // none for 5 and 19 (the index subtable holds them, checked there).
            let metrics: Int
            switch format {
            case 1, 2, 8, 17: metrics = 5
            case 6, 7, 9, 18: metrics = 8
            default: metrics = 0
            }
            let header = metrics + (format >= 17 ? 4 : 0)
            guard length >= header else {
                throw malformedData("has a \(length)-byte glyph record, shorter than its \(header)-byte header")
            }
            if metrics > 0 {  // height, then width, in both small and big metrics
                try checkImage(table: dataTag, width: data.u8(offset + 1), height: data.u8(offset), ppem: ppem)
            }
            guard format >= 17 else { return }
            let pngLength = data.u32(offset + metrics)
            guard pngLength <= length - header else {
                throw malformedData("has a \(pngLength)-byte PNG in a \(length)-byte glyph record")
            }
            guard let size = FontBitmapTables.pngSize(data, at: offset + header, length: pngLength) else {
                throw malformedData("has a glyph PNG with no IHDR")
            }
            try checkImage(table: dataTag, width: size.width, height: size.height, ppem: ppem)
        }
    }
}
