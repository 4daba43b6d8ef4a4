extension BadgePlacement {
    /// How many of the icon's opaque pixels a badge covers where clamp put it, and
    /// where `--avoid-content` put it (pixels whose square the footprint touches).
    public struct ContentCoverage: Equatable, Sendable {
        /// Covered at the clamped position.
        public var clamped: Int
        /// Covered at the position chosen.
        public var placed: Int

        /// A coverage from its two counts (opaque icon pixels).
        public init(clamped: Int, placed: Int) {
            self.clamped = clamped
            self.placed = placed
        }
    }

    /// The largest canvas searched pixel by pixel (pixels): 512 × 512, an Android
    /// layer at xxxhdpi (432 px) included. A larger icon is searched first on a grid of
    /// whole blocks (its content counted per block, the badge as its bounding box),
    /// then pixel by pixel around the best block; the cost stays about that of a
    /// 512 px icon.
    public static let maxSearchedPixels = 512 * 512

    /// The top-left position at which `footprint` lies inside `mask` and covers the
    /// fewest of `content`'s pixels, its centre in the anchor's quadrant of `box`
    /// (the half of `box` on each side `anchor` names; no constraint along an axis
    /// `anchor` centres on), nearest `clamped` among equals (Euclidean distance; then
    /// the upper row, then the left column); with how many it covers there and at
    /// `clamped`. Nil when no position of the quadrant fits (the badge then stays
    /// where clamp put it).
    ///
    /// Cost: each candidate row's allowed columns as `nearest` finds them, then one
    /// sum per footprint row for each allowed column, from a summed-area table of the
    /// content (4 bytes per pixel, or per block of a large icon, whose blocks are
    /// searched first and the pixels around the best one after).
    public static func leastCovering(
        _ footprint: Footprint, clamped: (x: Int, y: Int), in mask: ShapeMask, content: ContentShape, box: Rect,
        anchor: Anchor
    ) -> (x: Int, y: Int, coverage: ContentCoverage)? {
        let width = mask.width
        let height = mask.height
        guard footprint.width > 0, footprint.height > 0, footprint.height <= height, footprint.width <= width else {
            return nil
        }
        // Large icons: searched on blocks first (`maxSearchedPixels`).
        let block = max(1, Int((Double(width * height) / Double(maxSearchedPixels)).squareRoot().rounded(.up)))
        let table = CoverTable(content: content, width: width, height: height, block: block)
        let before = table.covered(footprint, at: clamped, exact: true)
        let unit = anchor.unit
        let middle = box.center
        func inQuadrant(x: Int, y: Int) -> Bool {
            let cx = Double(x) + Double(footprint.width) / 2
            let cy = Double(y) + Double(footprint.height) / 2
            if unit.x > 0.5, cx < middle.x { return false }
            if unit.x < 0.5, cx > middle.x { return false }
            if unit.y > 0.5, cy < middle.y { return false }
            if unit.y < 0.5, cy > middle.y { return false }
            return true
        }
        var best: (x: Int, y: Int, covered: Int, distance: Int)?
        func consider(_ x: Int, _ y: Int, _ covered: Int) {
            let dx = x - clamped.x
            let dy = y - clamped.y
            let distance = dx * dx + dy * dy
            if let current = best {
                if covered > current.covered { return }
                if covered == current.covered {
                    if distance > current.distance { return }
                    if distance == current.distance, (y, x) >= (current.y, current.x) { return }
                }
            }
            best = (x, y, covered, distance)
        }
        /// Every allowed position of rows `rows`, on the block grid when `step` > 1,
        /// within `columns`, counted exactly or by blocks.
        func search(rows: StrideThrough<Int>, columns: ClosedRange<Int>, step: Int, exact: Bool) {
            for y in rows where y >= 0 && y <= height - footprint.height {
                for (low, high) in allowedColumns(footprint, row: y, mask: mask) {
                    var x = max(0, low, columns.lowerBound)
                    if step > 1 { x = (x + step - 1) / step * step }
                    while x <= min(high, width - footprint.width, columns.upperBound) {
                        if inQuadrant(x: x, y: y) { consider(x, y, table.covered(footprint, at: (x, y), exact: exact)) }
                        x += step
                    }
                }
            }
        }
        let everywhere = 0...width
        search(rows: stride(from: 0, through: height, by: block), columns: everywhere, step: block, exact: block == 1)
        if block > 1, let coarse = best {
            // Pixel by pixel around the best block, counted exactly.
            best = nil
            search(
                rows: stride(from: coarse.y - block, through: coarse.y + block, by: 1),
                columns: (coarse.x - block)...(coarse.x + block), step: 1, exact: true)
        }
        // The clamped position itself is a candidate (it fits; it may sit off the grid).
        if inQuadrant(x: clamped.x, y: clamped.y) { consider(clamped.x, clamped.y, before) }
        guard let found = best else { return nil }
        let after = table.covered(footprint, at: (found.x, found.y), exact: true)
        // Never worse than where clamp put it.
        if after >= before { return (clamped.x, clamped.y, ContentCoverage(clamped: before, placed: before)) }
        return (found.x, found.y, ContentCoverage(clamped: before, placed: after))
    }

    /// The left columns (closed intervals) at which the footprint, its top at row
    /// `y`, lies in the mask's spans.
    static func allowedColumns(_ footprint: Footprint, row y: Int, mask: ShapeMask) -> [(Int, Int)] {
        var allowed: [(Int, Int)] = [(Int.min / 4, Int.max / 4)]
        for row in 0..<footprint.height {
            let inset = footprint.insets[row]
            var here: [(Int, Int)] = []
            for span in mask.spans(row: y + row) {
                let low = span.lowerBound - inset
                let high = span.upperBound - footprint.width + inset
                if low <= high { here.append((low, high)) }
            }
            allowed = intersect(allowed, here)
            if allowed.isEmpty { return [] }
        }
        return allowed
    }
}

/// A summed-area table of an icon's opaque pixels: how many lie in any rectangle,
/// in constant time. On a large icon the table is of blocks (`block` pixels a side),
/// which count approximately.
struct CoverTable {
    let content: ContentShape
    let block: Int
    let columns: Int
    let rows: Int
    /// (rows + 1) × (columns + 1) sums, row-major: sums[r][c] counts the pixels of
    /// blocks above r and left of c.
    private let sums: [Int32]

    init(content: ContentShape, width: Int, height: Int, block: Int) {
        self.content = content
        self.block = block
        columns = (width + block - 1) / block
        rows = (height + block - 1) / block
        var sums = [Int32](repeating: 0, count: (rows + 1) * (columns + 1))
        var line = [Int32](repeating: 0, count: columns)
        for blockRow in 0..<rows {
            for index in line.indices { line[index] = 0 }
            for y in (blockRow * block)..<min(height, (blockRow + 1) * block) where y < content.height {
                for span in content.spans(row: y) {
                    var x = max(0, span.lowerBound)
                    let end = min(width, span.upperBound)
                    while x < end {
                        let column = x / block
                        let next = min(end, (column + 1) * block)
                        line[column] += Int32(next - x)
                        x = next
                    }
                }
            }
            var running: Int32 = 0
            for column in 0..<columns {
                running += line[column]
                sums[(blockRow + 1) * (columns + 1) + column + 1] =
                    sums[blockRow * (columns + 1) + column + 1] + running
            }
        }
        self.sums = sums
    }

    /// Pixels in blocks [c0, c1) × [r0, r1).
    private func sum(_ c0: Int, _ r0: Int, _ c1: Int, _ r1: Int) -> Int {
        let w = columns + 1
        let value = sums[r1 * w + c1] - sums[r0 * w + c1] - sums[r1 * w + c0] + sums[r0 * w + c0]
        return Int(value)
    }

    /// Opaque pixels the footprint covers with its top-left at `origin`: exactly,
    /// row by row from the spans (`exact`), or from the blocks it overlaps.
    func covered(_ footprint: BadgePlacement.Footprint, at origin: (x: Int, y: Int), exact: Bool) -> Int {
        if exact || block == 1 {
            var total = 0
            for row in 0..<footprint.height {
                let y = origin.y + row
                guard y >= 0, y < content.height else { continue }
                let inset = footprint.insets[row]
                let low = origin.x + inset
                let high = origin.x + footprint.width - inset
                guard low < high else { continue }
                if block == 1 {
                    total += sum(max(0, low), y, min(columns, max(0, high)), y + 1)
                } else {
                    for span in content.spans(row: y) where span.upperBound > low && span.lowerBound < high {
                        total += min(high, span.upperBound) - max(low, span.lowerBound)
                    }
                }
            }
            return total
        }
        let c0 = max(0, origin.x / block)
        let r0 = max(0, origin.y / block)
        let c1 = min(columns, (origin.x + footprint.width + block - 1) / block)
        let r1 = min(rows, (origin.y + footprint.height + block - 1) / block)
        return c1 > c0 && r1 > r0 ? sum(c0, r0, c1, r1) : 0
    }
}
