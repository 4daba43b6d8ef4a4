/// The shape a platform shows an icon in: what `--platform` names. Anchors and
/// percentages refer to its reference box, and clamp placement keeps the badge wholly
/// inside its mask (`ShapeMask`).
///
/// Geometry, as fractions of the canvas's shorter side S (sources in each case):
/// - `canvas`: the whole canvas, as before platforms existed.
/// - `ios`: the whole S × S square, masked by Apple's continuous-corner rounded square.
///   Modelled as the superellipse |x|^5 + |y|^5 = 1 ("squircle"): its diagonal point is
///   at 0.8706 of the half-side, where Apple's template (corner radius 22.37 % of the
///   side, with continuous curvature) has its corner at 0.869, within 0.2 % of S.
/// - `macos`: the Big Sur template's body, an 824/1024 S square centred in the canvas
///   (a transparent margin of 100/1024 S each side), with the same corner model
///   (radius 185.4 of 824 is 22.5 %, iOS's proportion).
/// - `watchos`, `circle`: the inscribed circle of diameter S.
/// - `android-adaptive`: a 108 dp foreground layer; the reference box is the 72 dp
///   square a launcher shows, and the mask is the 66 dp safe-zone circle every device
///   mask contains (developer.android.com, "Adaptive icons": 108 × 108 dp layers, 72 dp
///   visible, keep content inside the 66 dp circle).
/// - `android-round`: a legacy round launcher icon, a circle of 44/48 S (Material's
///   48 dp grid with a 2 dp margin, the 44 dp keyline circle).
/// - `android-legacy`: a legacy square launcher icon: the 44/48 S live area, masked
///   by the icon's own opaque pixels (legacy icons carry their own shape).
/// - `content`: the icon's own opaque pixels (alpha at least half) and their bounding
///   box, for desktop and macOS icons drawn inside transparent margins.
public enum IconPlatform: String, CaseIterable, Sendable {
    case canvas
    case ios
    case macos
    case watchos
    case androidAdaptive = "android-adaptive"
    case androidLegacy = "android-legacy"
    case androidRound = "android-round"
    case circle
    case content

    /// Whether the shape comes from the icon's own pixels.
    public var needsContent: Bool { self == .content || self == .androidLegacy }

    /// Whether the platform's template is a square canvas (all but `canvas` and
    /// `content`, which take any icon).
    public var expectsSquare: Bool { self != .canvas && self != .content }

    /// The reference box and mask on a `width` × `height` canvas; `content` is the
    /// icon's opaque pixels (needed for `content` and `android-legacy`, else nil).
    /// When the content has no opaque pixel, the canvas is used.
    public func shape(width: Int, height: Int, content: ContentShape? = nil) -> ReferenceShape {
        let w = Double(width)
        let h = Double(height)
        let side = min(w, h)
        let canvas = Rect(x: 0, y: 0, width: w, height: h)
        func centred(_ fraction: Double) -> Rect {
            let s = side * fraction
            return Rect(x: (w - s) / 2, y: (h - s) / 2, width: s, height: s)
        }
        func superellipse(_ box: Rect, _ n: Double) -> ShapeMask {
            ShapeMask(
                .superellipse(center: box.center, radiusX: box.width / 2, radiusY: box.height / 2, exponent: n),
                width: width, height: height)
        }
        switch self {
        case .canvas:
            return ReferenceShape(
                platform: self, box: canvas, mask: ShapeMask(.rectangle(canvas), width: width, height: height))
        case .ios:
            let box = centred(1)
            return ReferenceShape(platform: self, box: box, mask: superellipse(box, 5))
        case .macos:
            let box = centred(824.0 / 1024.0)
            return ReferenceShape(platform: self, box: box, mask: superellipse(box, 5))
        case .watchos, .circle:
            let box = centred(1)
            return ReferenceShape(platform: self, box: box, mask: superellipse(box, 2))
        case .androidAdaptive:
            return ReferenceShape(
                platform: self, box: centred(72.0 / 108.0), mask: superellipse(centred(66.0 / 108.0), 2))
        case .androidRound:
            let box = centred(44.0 / 48.0)
            return ReferenceShape(platform: self, box: box, mask: superellipse(box, 2))
        case .androidLegacy:
            let box = centred(44.0 / 48.0)
            guard let content, !content.isEmpty else {
                return ReferenceShape(
                    platform: self, box: box, mask: ShapeMask(.rectangle(box), width: width, height: height))
            }
            return ReferenceShape(
                platform: self, box: box, mask: content.mask(within: box, width: width, height: height))
        case .content:
            guard let content, let bounds = content.bounds else {
                return ReferenceShape(
                    platform: self, box: canvas, mask: ShapeMask(.rectangle(canvas), width: width, height: height))
            }
            return ReferenceShape(
                platform: self, box: bounds, mask: content.mask(within: nil, width: width, height: height))
        }
    }
}

/// Where a badge is placed and what must hold it: a platform's shape on one canvas.
public struct ReferenceShape: Equatable, Sendable {
    /// The platform it came from.
    public var platform: IconPlatform
    /// The box anchors and percentages refer to (pixels).
    public var box: Rect
    /// The pixels the platform shows whole.
    public var mask: ShapeMask

    /// A shape from its parts.
    public init(platform: IconPlatform, box: Rect, mask: ShapeMask) {
        self.platform = platform
        self.box = box
        self.mask = mask
    }

    /// The whole canvas: the placement of iconbadge before platforms.
    public static func canvas(width: Int, height: Int) -> ReferenceShape {
        IconPlatform.canvas.shape(width: width, height: height)
    }

    /// Whether the mask is the plain canvas rectangle (clamp is then per axis).
    public var isCanvasRectangle: Bool {
        if case .rectangle(let rect) = mask.kind {
            return rect == Rect(x: 0, y: 0, width: Double(mask.width), height: Double(mask.height))
        }
        return false
    }
}

/// An icon's opaque pixels (alpha at least 128 of 255): one bit a pixel, read as
/// spans per row. Bits, not stored spans: an icon whose alpha alternates every pixel
/// has width ÷ 2 spans a row, which as `Range<Int>`s took 8 bytes a pixel, twice the
/// icon's own pixels, and doubled `--avoid-content`'s peak (issue 44); the bits take
/// 1/32 of the icon.
public struct ContentShape: Equatable, Sendable {
    /// Rows of the shape (the icon's height).
    public let height: Int
    /// Columns the bits cover (the icon's width, or the widest row given).
    public let width: Int
    /// 64-bit words a row.
    private let wordsPerRow: Int
    /// The bits, row by row, bit `x % 64` of word `x / 64` for column `x`.
    private var bits: [UInt64]

    /// An empty shape of `width` × `height` pixels, for `set(row:from:to:)`.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        wordsPerRow = (self.width + 63) / 64
        bits = [UInt64](repeating: 0, count: wordsPerRow * self.height)
    }

    /// A shape from its rows' spans (columns from 0; negative parts are left out).
    public init(rows: [[Range<Int>]]) {
        let width = rows.lazy.compactMap { $0.map(\.upperBound).max() }.max() ?? 0
        self.init(width: width, height: rows.count)
        for (y, spans) in rows.enumerated() {
            for span in spans { set(row: y, from: span.lowerBound, to: span.upperBound) }
        }
    }

    /// Marks columns `from..<to` of row `y` opaque (clamped to the shape).
    public mutating func set(row y: Int, from: Int, to: Int) {
        guard y >= 0, y < height else { return }
        var x = max(0, from)
        let end = min(width, to)
        let base = y * wordsPerRow
        while x < end {
            let word = x / 64
            let first = x % 64
            let last = min(64, first + (end - x))
            let mask = last - first == 64 ? UInt64.max : ((UInt64(1) << UInt64(last - first)) - 1) << UInt64(first)
            bits[base + word] |= mask
            x += last - first
        }
    }

    /// Columns of opaque pixels in row `y`, left to right (none outside the shape).
    public func spans(row y: Int) -> [Range<Int>] {
        guard y >= 0, y < height else { return [] }
        var spans: [Range<Int>] = []
        var start: Int?
        let base = y * wordsPerRow
        var x = 0
        for word in 0..<wordsPerRow {
            var value = bits[base + word]
            var bit = 0
            // Whole words of one kind are passed at once.
            if start == nil, value == 0 {
                x += 64
                continue
            }
            if start != nil, value == UInt64.max {
                x += 64
                continue
            }
            while bit < 64 {
                let opaque = value & 1 == 1
                if opaque, start == nil { start = x }
                if !opaque, let first = start {
                    spans.append(first..<x)
                    start = nil
                }
                value >>= 1
                bit += 1
                x += 1
            }
        }
        if let first = start { spans.append(first..<min(x, width)) }
        return spans
    }

    /// Every row's spans (built whole: for small shapes and tests).
    public var rows: [[Range<Int>]] { (0..<height).map { spans(row: $0) } }

    /// Whether no pixel is opaque.
    public var isEmpty: Bool { bits.allSatisfy { $0 == 0 } }

    /// The bounding box of the opaque pixels (pixels), nil when there are none.
    public var bounds: Rect? {
        var top: Int?
        var bottom = 0
        var left = Int.max
        var right = 0
        for y in 0..<height {
            let row = spans(row: y)
            guard let first = row.first, let last = row.last else { continue }
            if top == nil { top = y }
            bottom = y
            left = min(left, first.lowerBound)
            right = max(right, last.upperBound)
        }
        guard let top else { return nil }
        return Rect(x: Double(left), y: Double(top), width: Double(right - left), height: Double(bottom + 1 - top))
    }

    /// The opaque pixels as a mask, within `box` when given.
    public func mask(within box: Rect?, width: Int, height: Int) -> ShapeMask {
        var spans = rows
        if let box {
            let left = Int(box.minX.rounded(.up))
            let right = Int(box.maxX.rounded(.down))
            let top = Int(box.minY.rounded(.up))
            let bottom = Int(box.maxY.rounded(.down))
            for y in spans.indices {
                guard y >= top, y < bottom else {
                    spans[y] = []
                    continue
                }
                spans[y] = spans[y].compactMap { span in
                    let clipped = max(span.lowerBound, left)..<min(span.upperBound, right)
                    return clipped.isEmpty ? nil : clipped
                }
            }
        }
        return ShapeMask(.rows(spans), width: width, height: height)
    }
}
