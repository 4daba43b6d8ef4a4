extension ImageDiff {
    /// The largest possible YIQ delta (Kotsarenko & Ramos 2010; pixelmatch's 35215): the
    /// cut-off is this × threshold².
    static let maxYIQDelta = 35215.0

    /// The perceptual mode (pixelmatch v7.1.0): YIQ delta above 35215 × threshold², with
    /// anti-aliased pixels forgiven unless included. Byte-identical rows and pixels have
    /// delta 0 and are skipped (4-pixel groups at a time); so are ignored pixels, whose
    /// values the anti-aliasing test of their neighbours still reads as they are. Bands
    /// of rows run on `bands`' threads; every pixel's outcome depends on the two images
    /// alone, so the sums are the same on any number.
    static func perceptual(
        _ images: ImagePair, rows: Range<Int>, options: DiffOptions, painter: DiffPainter, marks: DiffMarks,
        bands: RowBands
    ) -> BandOutcome {
        let t = min(max(options.threshold ?? 0, 0), 1)
        let cutOff = maxYIQDelta * t * t
        let detectAntialiasing = !options.includeAntialiased
        let bandRows = RowBands.bandRows(width: images.width)
        let count = (rows.count + bandRows - 1) / bandRows
        let outcomes = BandOutcomes(count: count)
        bands.forEachBand(rows: rows, bandRows: bandRows) { band, rows in
            outcomes[band] = perceptualBand(
                images, rows: rows, cutOff: cutOff, detectAntialiasing: detectAntialiasing, painter: painter,
                marks: marks)
        }
        var combined = BandOutcome()
        for band in 0..<count {
            combined.different += outcomes[band].different
            combined.antialiased += outcomes[band].antialiased
            combined.maxDelta = max(combined.maxDelta, outcomes[band].maxDelta)
        }
        return combined
    }

    /// The perceptual mode over `rows` (see `perceptual`).
    static func perceptualBand(
        _ images: ImagePair, rows: Range<Int>, cutOff: Double, detectAntialiasing: Bool, painter: DiffPainter,
        marks: DiffMarks
    ) -> BandOutcome {
        var scan = PerceptualScan(
            images: images, cutOff: cutOff, detectAntialiasing: detectAntialiasing, painter: painter, marks: marks)
        let width = images.width
        for y in rows {
            if images.rowsEqual(y) {
                scan.painter.unchangedRow(y, of: images)
                continue
            }
            let start = y * width * 4
            var x = 0
            if images.ignored == nil {
                while x + 4 <= width {
                    let k = start + x * 4
                    if images.groupEqual(at: k) {
                        scan.painter.unchangedGroup(k)
                    } else {
                        for p in x..<(x + 4) { scan.pixel(start + p * 4, x: p, y: y) }
                    }
                    x += 4
                }
            }
            while x < width {
                scan.pixel(start + x * 4, x: x, y: y)
                x += 1
            }
        }
        return scan.outcome
    }

    /// One band's state in the perceptual mode, a value the band owns (see `ExactScan`).
    struct PerceptualScan {
        let images: ImagePair
        let cutOff: Double
        let detectAntialiasing: Bool
        var painter: DiffPainter
        let marks: DiffMarks
        var outcome = BandOutcome()

        init(images: ImagePair, cutOff: Double, detectAntialiasing: Bool, painter: DiffPainter, marks: DiffMarks) {
            self.images = images
            self.cutOff = cutOff
            self.detectAntialiasing = detectAntialiasing
            self.painter = painter
            self.marks = marks
        }

        /// The pixel at byte offset `k`, (`x`, `y`).
        @inline(__always)
        mutating func pixel(_ k: Int, x: Int, y: Int) {
            let actual = images.actual
            let expected = images.expected
            if images.isIgnored(k) {
                painter.ignored(k)
                return
            }
            if load32(actual, k) == load32(expected, k) {
                painter.unchanged(k)
                return
            }
            outcome.maxDelta = max(outcome.maxDelta, images.maxChannelDelta(at: k))
            // Signed as pixelmatch's: negative when the expected (img1) pixel is the
            // brighter, i.e. the actual one is darker.
            let delta = colorDelta(expected, actual, k)
            guard abs(delta) > cutOff else {
                painter.unchanged(k)
                return
            }
            let width = images.width
            if detectAntialiasing
                && (isAntialiased(expected, other: actual, x: x, y: y, width: width, height: images.height)
                    || isAntialiased(actual, other: expected, x: x, y: y, width: width, height: images.height))
            {
                outcome.antialiased += 1
                painter.antialiased(k)
            } else {
                outcome.different += 1
                marks.mark(k)
                painter.different(k, actualDarker: delta < 0)
            }
        }
    }

    /// The pixel at byte offset `k` as one 32-bit word, for equality tests.
    @inline(__always)
    static func load32(_ bytes: UnsafePointer<UInt8>, _ k: Int) -> UInt32 {
        UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: k, as: UInt32.self)
    }

    /// The background channel values (0-255) that translucent pixels are blended over at
    /// byte offset `k`: 48 or 207 per channel in a fixed pseudo-pattern (pixelmatch v7),
    /// so that a change from opaque white to transparent is not invisible.
    @inline(__always)
    static func background(_ k: Int) -> (red: Double, green: Double, blue: Double) {
        let offset = Double(k)
        let red = 48 + 159 * (k % 2)
        let green = 48 + 159 * (Int(offset / 1.618033988749895) % 2)
        let blue = 48 + 159 * (Int(offset / 2.618033988749895) % 2)
        return (Double(red), Double(green), Double(blue))
    }

    /// The per-channel differences first − second of the pixels at byte offsets `k` and
    /// `m`, blended over `background(k)` when either is translucent; nil when they are equal.
    @inline(__always)
    static func channelDeltas(
        _ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, _ k: Int, _ m: Int
    ) -> (red: Double, green: Double, blue: Double)? {
        let r1 = Int(first[k]), g1 = Int(first[k + 1]), b1 = Int(first[k + 2]), a1 = Int(first[k + 3])
        let r2 = Int(second[m]), g2 = Int(second[m + 1]), b2 = Int(second[m + 2]), a2 = Int(second[m + 3])
        if r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2 { return nil }
        guard a1 < 255 || a2 < 255 else {
            return (Double(r1 - r2), Double(g1 - g2), Double(b1 - b2))
        }
        let bg = background(k)
        let da = Double(a1 - a2)
        return (
            (Double(r1 * a1 - r2 * a2) - bg.red * da) / 255,
            (Double(g1 * a1 - g2 * a2) - bg.green * da) / 255,
            (Double(b1 * a1 - b2 * a2) - bg.blue * da) / 255
        )
    }

    /// The brightness (Y of YIQ) difference first − second of the pixels at `k` and `m`;
    /// positive when the first is the brighter. 0 for equal pixels.
    @inline(__always)
    static func brightnessDelta(
        _ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, _ k: Int, _ m: Int
    ) -> Double {
        guard let d = channelDeltas(first, second, k, m) else { return 0 }
        return d.red * 0.29889531 + d.green * 0.58662247 + d.blue * 0.11448223
    }

    /// The YIQ colour delta (Kotsarenko & Ramos 2010) of the pixels at byte offset `k` in
    /// `first` and `second`, 0...35215, negated when the first is the brighter (Y > 0), as
    /// pixelmatch returns it.
    @inline(__always)
    static func colorDelta(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, _ k: Int) -> Double {
        guard let d = channelDeltas(first, second, k, k) else { return 0 }
        let y = d.red * 0.29889531 + d.green * 0.58662247 + d.blue * 0.11448223
        let i = d.red * 0.59597799 - d.green * 0.27417610 - d.blue * 0.32180189
        let q = d.red * 0.21147017 - d.green * 0.52261711 + d.blue * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y > 0 ? -delta : delta
    }

    /// Whether the pixel at (`x`, `y`) of `image` looks anti-aliased (V. Vysniauskas,
    /// "Anti-aliased pixel and intensity slope detector", 2009, as pixelmatch applies it).
    ///
    /// Among its up-to-8 neighbours (scanned column by column, x then y, so that of equally
    /// dark or bright neighbours the first is kept, as pixelmatch does), more than 2 of equal
    /// brightness (Y delta exactly 0; a border pixel starts with one counted) means no. It
    /// needs a darker and a brighter neighbour; then it is anti-aliased when the darkest, or
    /// the brightest, has 3 or more neighbours of exactly its own RGBA value in both `image`
    /// and `other`.
    static func isAntialiased(
        _ image: UnsafePointer<UInt8>, other: UnsafePointer<UInt8>, x x1: Int, y y1: Int, width: Int, height: Int
    ) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let centre = (y1 * width + x1) * 4
        var equal = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        // delta = centre − neighbour: the most negative is the brightest neighbour, the
        // most positive the darkest (pixelmatch's min and max).
        var minDelta = 0.0
        var maxDelta = 0.0
        var brightestX = 0
        var brightestY = 0
        var darkestX = 0
        var darkestY = 0
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                // Both pixels from one image: the background is the centre's, as in pixelmatch.
                let delta = brightnessDelta(image, image, centre, (y * width + x) * 4)
                if delta == 0 {
                    equal += 1
                    if equal > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    brightestX = x
                    brightestY = y
                } else if delta > maxDelta {
                    maxDelta = delta
                    darkestX = x
                    darkestY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return
            (hasManySiblings(image, x: brightestX, y: brightestY, width: width, height: height)
            && hasManySiblings(other, x: brightestX, y: brightestY, width: width, height: height))
            || (hasManySiblings(image, x: darkestX, y: darkestY, width: width, height: height)
                && hasManySiblings(other, x: darkestX, y: darkestY, width: width, height: height))
    }

    /// Whether the pixel at (`x`, `y`) has 3 or more neighbours of exactly its RGBA value
    /// (a border pixel starts with one counted; Vysniauskas 2009 via pixelmatch).
    static func hasManySiblings(_ image: UnsafePointer<UInt8>, x x1: Int, y y1: Int, width: Int, height: Int) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let value = load32(image, (y1 * width + x1) * 4)
        var equal = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 where x != x1 || y != y1 {
                if load32(image, (y * width + x) * 4) == value {
                    equal += 1
                    if equal > 2 { return true }
                }
            }
        }
        return false
    }
}
