/// A drawable as the converter reads it, before it is placed: what it draws, its
/// intrinsic size and padding (dp), which a layer list and gravity need. Made by
/// `AndroidDrawableConverter`, placed into a rectangle as `AndroidDrawing` nodes by
/// its `emit`.
indirect enum AndroidDrawable {
    /// Nothing (`@null`, a layer list with no items).
    case nothing
    /// A plain colour filling its bounds (`@color/x`, `<color>`).
    case color(Color)
    case vector(Vector)
    case bitmap(Bitmap)
    case shape(Shape)
    case inset(Inset)
    case layers(LayerList)

    /// A `<vector>`: size (dp), viewport, alpha (0 to 1), tint, and its body in
    /// viewport coordinates.
    struct Vector {
        var width: Double
        var height: Double
        var viewportWidth: Double
        var viewportHeight: Double
        var alpha: Double
        var tint: Tint?
        var body: [AndroidDrawing.Node]
    }

    /// A colour filter of a vector or bitmap: PorterDuff `src_in`, `src_atop` or
    /// `src_over` with the tint as source.
    struct Tint {
        var color: Color
        var mode: AndroidDrawing.TintMode
    }

    /// An image file (its bytes and MIME type): its intrinsic size (dp: pixels over
    /// its folder's density) and where it goes in its bounds (nil: it fills them).
    struct Bitmap {
        var bytes: [UInt8]
        var type: String
        var width: Double
        var height: Double
        var gravity: Gravity?
        var alpha: Double
        var tint: Tint?
    }

    /// A `<shape>` (GradientDrawable): rectangle or oval, fill, stroke, corner radii
    /// (top-left, top-right, bottom-right, bottom-left; dp), `<size>` and `<padding>`.
    struct Shape {
        var oval: Bool
        var fill: Fill?
        var stroke: Stroke?
        var radii: [Double]
        var width: Double?
        var height: Double?
        var padding: Insets

        enum Fill {
            case color(Color)
            case gradient(Gradient)
        }

        /// A `<stroke>`: width (dp), colour, dashes (dp).
        struct Stroke {
            var width: Double
            var color: Color
            var dash: (width: Double, gap: Double)?
        }

        /// A shape's `<gradient>`: linear at a multiple of 45°, or radial about its
        /// centre (fractions of the bounds), through its colours at `positions`.
        struct Gradient {
            var radial: Bool
            var angle: Int
            var centerX: Double
            var centerY: Double
            /// The radius: dp, or a fraction of the bounds' shorter side.
            var radius: Double
            var radiusIsFraction: Bool
            var colors: [Color]
            var positions: [Double]
        }
    }

    /// An `<inset>`: the drawable inside, and each side's inset (dp, or a fraction of
    /// the bounds' width or height).
    struct Inset {
        var inner: AndroidDrawable
        var left: Side
        var top: Side
        var right: Side
        var bottom: Side

        enum Side {
            case dp(Double)
            case fraction(Double)

            func value(of side: Double) -> Double {
                switch self {
                case .dp(let dp): return dp
                case .fraction(let fraction): return fraction * side
                }
            }
        }
    }

    /// A `<layer-list>` (or a `<selector>`'s default item): items drawn in order,
    /// each inset by the padding of the items before it when `nest` (LayerDrawable's
    /// default padding mode).
    struct LayerList {
        var items: [Item]
        var nest: Bool

        struct Item {
            var drawable: AndroidDrawable
            var insets: Insets
            var width: Double?
            var height: Double?
            var gravity: Gravity?
        }
    }

    /// The four sides' amounts (dp).
    struct Insets {
        var left = 0.0
        var top = 0.0
        var right = 0.0
        var bottom = 0.0

        static func + (a: Insets, b: Insets) -> Insets {
            Insets(left: a.left + b.left, top: a.top + b.top, right: a.right + b.right, bottom: a.bottom + b.bottom)
        }
    }

    /// Android's `Gravity` for one drawable in its container: per axis, nil when the
    /// attribute names nothing for it.
    struct Gravity: Equatable {
        enum Axis: Equatable {
            case start
            case end
            case center
            case fill
        }

        var horizontal: Axis?
        var vertical: Axis?

        /// Reads `top|center_horizontal` and the like (Android's `gravity` flags).
        ///
        /// Returns nil for a name it does not know (clip_*, a number).
        init?(_ text: String) {
            for part in text.split(separator: "|") {
                switch part.trimmingASCIIWhitespace() {
                case "top": vertical = .start
                case "bottom": vertical = .end
                case "left", "start": horizontal = .start
                case "right", "end": horizontal = .end
                case "center_vertical": vertical = .center
                case "center_horizontal": horizontal = .center
                case "center": (horizontal, vertical) = (.center, .center)
                case "fill_vertical": vertical = .fill
                case "fill_horizontal": horizontal = .fill
                case "fill": (horizontal, vertical) = (.fill, .fill)
                default: return nil
                }
            }
        }

        init(horizontal: Axis?, vertical: Axis?) {
            self.horizontal = horizontal
            self.vertical = vertical
        }

        /// Where a `width` × `height` drawable goes in `container` (Gravity.apply: an
        /// axis not given is centred).
        func apply(width: Double, height: Double, in container: Rect) -> Rect {
            func place(_ axis: Axis?, _ size: Double, _ low: Double, _ extent: Double) -> (Double, Double) {
                switch axis ?? .center {
                case .fill: return (low, extent)
                case .start: return (low, size)
                case .end: return (low + extent - size, size)
                case .center: return (low + (extent - size) / 2, size)
                }
            }
            let (x, w) = place(horizontal, width, container.x, container.width)
            let (y, h) = place(vertical, height, container.y, container.height)
            return Rect(x: x, y: y, width: w, height: h)
        }
    }

    /// The intrinsic size (dp), -1 for a side it has none on (Android's convention).
    var intrinsicSize: (width: Double, height: Double) {
        switch self {
        case .nothing, .color: return (-1, -1)
        case .vector(let vector): return (vector.width, vector.height)
        case .bitmap(let bitmap): return (bitmap.width, bitmap.height)
        case .shape(let shape): return (shape.width ?? -1, shape.height ?? -1)
        case .inset(let inset):
            // InsetDrawable.getIntrinsicWidth: the content over the fraction left, plus the dp insets.
            let inner = inset.inner.intrinsicSize
            func side(_ content: Double, _ a: Inset.Side, _ b: Inset.Side) -> Double {
                var fraction = 0.0
                var dp = 0.0
                for length in [a, b] {
                    switch length {
                    case .dp(let value): dp += value
                    case .fraction(let value): fraction += value
                    }
                }
                guard content >= 0, fraction < 1 else { return -1 }
                return content / (1 - fraction) + dp
            }
            return (
                side(inner.width, inset.left, inset.right), side(inner.height, inset.top, inset.bottom)
            )
        case .layers(let list):
            // LayerDrawable.getIntrinsicWidth, with nested padding.
            var width = -1.0
            var height = -1.0
            var padding = Insets()
            for item in list.items {
                let inner = item.drawable.intrinsicSize
                let w =
                    (item.width ?? inner.width) + item.insets.left + item.insets.right + padding.left + padding.right
                let h =
                    (item.height ?? inner.height) + item.insets.top + item.insets.bottom + padding.top + padding.bottom
                width = max(width, w)
                height = max(height, h)
                if list.nest { padding = padding + item.drawable.padding(in: nil) }
            }
            return (width, height)
        }
    }

    /// The padding it reports (dp): a shape's `<padding>`, an inset's insets plus its
    /// content's (InsetDrawable.getPadding), a layer list's items' paddings summed when
    /// it nests them and their largest on each side when it stacks them
    /// (LayerDrawable.computeNestedPadding, computeStackedPadding); none for the rest.
    ///
    /// Fractions of an inset are of `bounds` (InsetDrawable.getInsets reads
    /// getBounds()); nil counts them as none. A device reads a child's padding when
    /// the layer list is made (`refreshPadding`), from the bounds the child has then:
    /// none on the first drawable inflated, and on the copies a launcher gets later
    /// the bounds copied from it (LayerDrawable.ChildDrawable copies them). The sheet
    /// draws the later reading, with the fraction of the bounds, so a layer list
    /// whose layout depends on it (a nesting list after a fractional `<inset>`) shows.
    func padding(in bounds: Rect?) -> Insets {
        switch self {
        case .shape(let shape): return shape.padding
        case .inset(let inset):
            let width = bounds?.width ?? 0
            let height = bounds?.height ?? 0
            let own = Insets(
                left: inset.left.value(of: width), top: inset.top.value(of: height),
                right: inset.right.value(of: width), bottom: inset.bottom.value(of: height))
            // DrawableWrapper.getPadding: the content's, in the content's own bounds.
            let inner = bounds.map {
                Rect(
                    x: $0.x + own.left, y: $0.y + own.top, width: $0.width - own.left - own.right,
                    height: $0.height - own.top - own.bottom)
            }
            return own + inset.inner.padding(in: inner)
        case .layers(let list):
            let paddings = list.items.map { $0.drawable.padding(in: nil) }
            if list.nest { return paddings.reduce(Insets()) { $0 + $1 } }
            return paddings.reduce(Insets()) {
                Insets(
                    left: max($0.left, $1.left), top: max($0.top, $1.top), right: max($0.right, $1.right),
                    bottom: max($0.bottom, $1.bottom))
            }
        default: return Insets()
        }
    }
}
