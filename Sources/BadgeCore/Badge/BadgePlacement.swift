/// Clamp placement for any shape: the position nearest the one asked for at which the
/// badge's own shape lies wholly inside the mask. One algorithm serves every platform
/// (a rectangle, a superellipse, a circle, an icon's own pixels).
///
/// The badge is described by its footprint (the pixels its antialiased edge can
/// touch) and the mask by its whole pixels (`ShapeMask`), so a badge placed here has
/// no pixel outside the platform's visible shape.
public enum BadgePlacement {
    /// The pixels a badge of whole-pixel size can touch, row by row.
    public struct Footprint: Equatable, Sendable {
        /// Width (pixels).
        public let width: Int
        /// Height (pixels).
        public let height: Int
        /// For each row, the columns at each end that the shape does not touch (its
        /// rounded corners).
        public let insets: [Int]

        /// The footprint of a rounded rectangle `width` × `height` with corner
        /// `radius` (pixels; a dot is a rectangle with radius half its side).
        ///
        /// A pixel counts as touched when its square meets the shape at all, less a
        /// 0.05 px margin for Cairo's Bézier arcs, which stray outside a true circle by
        /// at most 0.03 % of the radius.
        public init(width: Int, height: Int, radius: Double) {
            self.width = width
            self.height = height
            let r = min(max(0, radius), Double(min(width, height)) / 2)
            insets = (0..<height).map { row in
                guard r > 0 else { return 0 }
                // The band of this row nearest the corner arc's centre.
                let nearest: Double
                if Double(row + 1) <= r {
                    nearest = r - Double(row + 1)
                } else if Double(row) >= Double(height) - r {
                    nearest = Double(row) - (Double(height) - r)
                } else {
                    return 0
                }
                let x = r - (r * r - nearest * nearest).squareRoot()
                return max(0, Int((x - 0.05).rounded(.down)))
            }
        }
    }

    /// The top-left position nearest `target` (pixels, Euclidean distance; ties go to
    /// the row nearer the target, then the upper row, then the left column) at which
    /// `footprint` lies inside `mask`; nil when it fits nowhere.
    ///
    /// Cost: for each row tried, one pass over the footprint's rows intersecting the
    /// allowed columns; rows are tried outward from the target and the search stops
    /// once a row is farther than the best position found.
    public static func nearest(_ footprint: Footprint, to target: (x: Int, y: Int), in mask: ShapeMask) -> (
        x: Int, y: Int
    )? {
        let lastRow = mask.height - footprint.height
        guard footprint.width > 0, footprint.height > 0, lastRow >= 0 else { return nil }
        var rows: [[Range<Int>]?] = Array(repeating: nil, count: mask.height)
        func spans(_ y: Int) -> [Range<Int>] {
            if let known = rows[y] { return known }
            let computed = mask.spans(row: y)
            rows[y] = computed
            return computed
        }
        var best: (x: Int, y: Int, distance: Int)?
        let start = min(max(target.y, 0), lastRow)
        var step = 0
        while true {
            let candidates = step == 0 ? [start] : [start - step, start + step]
            var anyInRange = false
            for y in candidates where y >= 0 && y <= lastRow {
                anyInRange = true
                let dy = y - target.y
                if let best, dy * dy > best.distance { continue }
                guard let x = nearestColumn(footprint, row: y, target: target.x, spans: spans) else { continue }
                let dx = x - target.x
                let distance = dx * dx + dy * dy
                if best == nil || distance < best!.distance
                    || (distance == best!.distance && (abs(dy), y, x) < (abs(best!.y - target.y), best!.y, best!.x))
                {
                    best = (x, y, distance)
                }
            }
            guard anyInRange else { break }
            if let found = best {
                // Rows farther than the best distance cannot do better.
                let nextDy = min(abs(start - step - 1 - target.y), abs(start + step + 1 - target.y))
                if nextDy * nextDy > found.distance { break }
            }
            step += 1
        }
        return best.map { ($0.x, $0.y) }
    }

    /// The column nearest `target` at which the footprint, its top at row `y`, lies in
    /// the mask's spans; nil when none does.
    private static func nearestColumn(
        _ footprint: Footprint, row y: Int, target: Int, spans: (Int) -> [Range<Int>]
    ) -> Int? {
        // Allowed left columns: closed intervals, intersected row by row.
        var allowed: [(Int, Int)] = [(Int.min / 4, Int.max / 4)]
        for row in 0..<footprint.height {
            let inset = footprint.insets[row]
            var here: [(Int, Int)] = []
            for span in spans(y + row) {
                let low = span.lowerBound - inset
                let high = span.upperBound - footprint.width + inset
                if low <= high { here.append((low, high)) }
            }
            allowed = intersect(allowed, here)
            if allowed.isEmpty { return nil }
        }
        var best: Int?
        for (low, high) in allowed {
            let x = min(max(target, low), high)
            if best == nil || abs(x - target) < abs(best! - target) { best = x }
        }
        return best
    }

    /// The intersection of two sorted lists of disjoint closed intervals.
    static func intersect(_ a: [(Int, Int)], _ b: [(Int, Int)]) -> [(Int, Int)] {
        var result: [(Int, Int)] = []
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            let low = max(a[i].0, b[j].0)
            let high = min(a[i].1, b[j].1)
            if low <= high { result.append((low, high)) }
            if a[i].1 < b[j].1 { i += 1 } else { j += 1 }
        }
        return result
    }

    /// The largest fraction (to 1/64) of a badge `width` × `height` with corner
    /// `radius` that fits anywhere in `mask`, 0 when not even one pixel does.
    public static func largestFittingFraction(width: Int, height: Int, radius: Double, in mask: ShapeMask) -> Double {
        var low = 0.0
        var high = 1.0
        for _ in 0..<6 {
            let middle = (low + high) / 2
            let footprint = Footprint(
                width: max(1, Int((Double(width) * middle).rounded(.down))),
                height: max(1, Int((Double(height) * middle).rounded(.down))), radius: radius * middle)
            let centre = (x: mask.width / 2 - footprint.width / 2, y: mask.height / 2 - footprint.height / 2)
            if nearest(footprint, to: centre, in: mask) != nil { low = middle } else { high = middle }
        }
        return low
    }
}
