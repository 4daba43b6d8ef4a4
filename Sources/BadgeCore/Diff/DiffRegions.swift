/// Where two images differ: the differing pixels grouped into regions, so that a script,
/// a CI annotation or a reviewer can say *where* without looking at the diff image.
///
/// **Rule.** Two differing pixels belong to one region when they are at most ``gap``
/// (4) pixels apart horizontally and vertically (Chebyshev distance, max(|dx|, |dy|) ≤ 4:
/// up to 3 unchanged pixels between them are bridged, diagonals included), and regions
/// are the groups that rule chains together (the connected components of that
/// neighbourhood). A region's box is the smallest rectangle holding its pixels, and its
/// size is the number of differing pixels in it (never the box's area). Anti-aliased
/// pixels that are not counted and ignored pixels belong to no region.
///
/// **Order.** Largest first: more pixels first, then the larger box, then the box
/// nearer the top, then nearer the left, then the taller, then the wider (a total
/// order, so the list never depends on the order regions are found in).
///
/// **Cost.** Found in one pass over the rows, top to bottom, keeping only the last
/// ``gap`` rows' runs of differing pixels (at most about the image's width of them) and
/// the ``kept`` largest regions: memory does not grow with the image's height or with
/// the number of regions (``count`` counts them all).
public struct DiffRegions: Equatable, Sendable {
    /// The join distance (pixels): differing pixels at most this far apart
    /// horizontally and vertically are one region.
    public static let gap = 4
    /// How many regions are kept (the largest); ``count`` counts them all.
    public static let kept = 20

    /// How many regions there are in all.
    public var count: Int
    /// The largest regions, largest first: at most ``kept``.
    public var largest: [DiffRegion]

    /// Regions from their parts.
    public init(count: Int, largest: [DiffRegion]) {
        self.count = count
        self.largest = largest
    }

    /// No differing pixel.
    public static let none = DiffRegions(count: 0, largest: [])

    /// `3 regions, the largest 12 × 8 at 30,0` (`1 region, 12 × 8 at 30,0`), or nil
    /// when there is none.
    public var summary: String? {
        guard let first = largest.first else { return nil }
        let box = "\(first.width) \u{D7} \(first.height) at \(first.x),\(first.y)"
        return count == 1 ? "1 region, \(box)" : "\(count) regions, the largest \(box)"
    }
}

/// One region of differing pixels (``DiffRegions``): its box in pixels of the
/// compared images (x right, y down, from the top-left pixel) and how many differing
/// pixels it holds.
public struct DiffRegion: Equatable, Sendable, Comparable {
    /// Left edge of the box (pixels).
    public var x: Int
    /// Top edge of the box (pixels).
    public var y: Int
    /// Width of the box (pixels, at least 1).
    public var width: Int
    /// Height of the box (pixels, at least 1).
    public var height: Int
    /// Differing pixels in the region (at most width × height).
    public var pixels: Int

    /// A region from its parts.
    public init(x: Int, y: Int, width: Int, height: Int, pixels: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// "Larger" sorts first (``DiffRegions``' order): `a < b` when `a` comes before `b`.
    public static func < (a: DiffRegion, b: DiffRegion) -> Bool {
        if a.pixels != b.pixels { return a.pixels > b.pixels }
        let areaA = a.width * a.height
        let areaB = b.width * b.height
        if areaA != areaB { return areaA > areaB }
        if a.y != b.y { return a.y < b.y }
        if a.x != b.x { return a.x < b.x }
        if a.height != b.height { return a.height > b.height }
        return a.width > b.width
    }
}

/// Finds ``DiffRegions`` from rows of differing pixels given top to bottom (each row
/// once, rows without a differing pixel may be skipped): a union-find over runs of
/// pixels, of which only the last ``DiffRegions/gap`` rows are kept.
struct RegionFinder {
    /// A run of one row: differing pixels from `x0` to `x1` (inclusive) with gaps of
    /// at most `gap − 1` unchanged pixels, and the union-find node of its region.
    struct Span {
        var x0: Int
        var x1: Int
        var node: Int
    }

    /// A region being gathered (valid at union-find roots).
    struct Gathered {
        var minX: Int
        var minY: Int
        var maxX: Int
        var maxY: Int
        var pixels: Int
        /// The last row that added a pixel: the region is complete once `gap` rows
        /// more have passed without one.
        var lastRow: Int
        var done = false

        var region: DiffRegion {
            DiffRegion(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1, pixels: pixels)
        }
    }

    let gap: Int
    let kept: Int
    /// The rows within `gap` of the current one that have spans, oldest first.
    private var window: [(y: Int, spans: [Span])] = []
    private var parent: [Int] = []
    private var gathered: [Gathered] = []
    private(set) var count = 0
    /// The largest regions so far, in ``DiffRegion``'s order.
    private(set) var largest: [DiffRegion] = []
    init(gap: Int = DiffRegions.gap, kept: Int = DiffRegions.kept) {
        self.gap = gap
        self.kept = kept
    }

    /// The differing pixels of row `y` as runs of consecutive pixels, left to right
    /// (`runs` of `(x, length)`); rows come in increasing order.
    mutating func addRow(_ y: Int, runs: [(x: Int, length: Int)]) {
        var spans: [(x0: Int, x1: Int, pixels: Int)] = []
        for run in runs where run.length > 0 {
            let end = run.x + run.length - 1
            if let last = spans.last, run.x - last.x1 <= gap {
                spans[spans.count - 1].x1 = end
                spans[spans.count - 1].pixels += run.length
            } else {
                spans.append((run.x, end, run.length))
            }
        }
        add(row: y, spans: spans)
    }

    /// Adds row `y`'s spans (already joined within the row).
    private mutating func add(row y: Int, spans: [(x0: Int, x1: Int, pixels: Int)]) {
        finishRows(before: y - gap)
        guard !spans.isEmpty else { return }
        var current: [Span] = []
        current.reserveCapacity(spans.count)
        for span in spans {
            let node = parent.count
            parent.append(node)
            gathered.append(
                Gathered(minX: span.x0, minY: y, maxX: span.x1, maxY: y, pixels: span.pixels, lastRow: y))
            current.append(Span(x0: span.x0, x1: span.x1, node: node))
        }
        // Each earlier row of the window: spans whose ranges, widened by `gap`, meet.
        for row in window {
            var j = 0
            for span in current {
                while j < row.spans.count && row.spans[j].x1 + gap < span.x0 { j += 1 }
                var k = j
                while k < row.spans.count && row.spans[k].x0 - gap <= span.x1 {
                    union(span.node, row.spans[k].node)
                    k += 1
                }
            }
        }
        window.append((y, current))
        compactIfLarge()
    }

    /// Completes every region that can no longer grow: those whose last pixel is in a
    /// row before `limit` (rows at `limit` and later may still join a new row).
    private mutating func finishRows(before limit: Int) {
        while let first = window.first, first.y < limit {
            window.removeFirst()
            for span in first.spans {
                let root = find(span.node)
                if !gathered[root].done && gathered[root].lastRow < limit {
                    gathered[root].done = true
                    record(gathered[root].region)
                }
            }
        }
    }

    /// Completes every region (after the last row).
    mutating func finish() -> DiffRegions {
        finishRows(before: Int.max)
        return DiffRegions(count: count, largest: largest)
    }

    private mutating func record(_ region: DiffRegion) {
        count += 1
        if largest.count == kept, let last = largest.last, !(region < last) { return }
        var index = largest.count
        while index > 0 && region < largest[index - 1] { index -= 1 }
        largest.insert(region, at: index)
        if largest.count > kept { largest.removeLast() }
    }

    private mutating func find(_ node: Int) -> Int {
        var root = node
        while parent[root] != root { root = parent[root] }
        var walk = node
        while parent[walk] != root {
            let next = parent[walk]
            parent[walk] = root
            walk = next
        }
        return root
    }

    private mutating func union(_ a: Int, _ b: Int) {
        let ra = find(a)
        let rb = find(b)
        guard ra != rb else { return }
        // The older node stays the root (any choice gives the same regions).
        let (root, child) = ra < rb ? (ra, rb) : (rb, ra)
        parent[child] = root
        let g = gathered[child]
        gathered[root].minX = min(gathered[root].minX, g.minX)
        gathered[root].minY = min(gathered[root].minY, g.minY)
        gathered[root].maxX = max(gathered[root].maxX, g.maxX)
        gathered[root].maxY = max(gathered[root].maxY, g.maxY)
        gathered[root].pixels += g.pixels
        gathered[root].lastRow = max(gathered[root].lastRow, g.lastRow)
    }

    /// Keeps the node arrays the size of the window: once they hold four times more
    /// nodes than the window's spans, only the window's roots are kept, renumbered.
    private mutating func compactIfLarge() {
        let live = window.reduce(0) { $0 + $1.spans.count }
        guard parent.count > 4 * live + 64 else { return }
        var renumbered: [Int: Int] = [:]
        var newGathered: [Gathered] = []
        for r in window.indices {
            for s in window[r].spans.indices {
                let root = find(window[r].spans[s].node)
                if let number = renumbered[root] {
                    window[r].spans[s].node = number
                } else {
                    let number = newGathered.count
                    renumbered[root] = number
                    newGathered.append(gathered[root])
                    window[r].spans[s].node = number
                }
            }
        }
        gathered = newGathered
        parent = Array(0..<newGathered.count)
    }
}
