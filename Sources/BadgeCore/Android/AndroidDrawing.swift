#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An Android drawable resolved for drawing: a tree of viewports, groups (a
/// transform, a clip path, an opacity or a tint), filled and stroked outlines and
/// images, in a `width` × `height` box whose user unit is the dp. Made by
/// `AndroidDrawableSVG.drawing` from a drawable's XML (every reference followed,
/// every value checked and bounded there), so nothing in it needs parsing again
/// but its path data, which iconbadge wrote itself (`AndroidPathData`).
///
/// Drawn two ways from this one value: natively with Cairo (BadgeRender's
/// `AndroidDrawingPainter`, what `android` and `preview` use, needing no SVG
/// renderer), and as an SVG document (`svg`), which says the same in SVG 1.1 (tests,
/// and measuring one against librsvg's drawing of the other).
public struct AndroidDrawing: Sendable, Equatable {
    /// The box's width (dp).
    public let width: Double
    /// The box's height (dp).
    public let height: Double
    /// What is drawn, in order, in the box's coordinates (dp, y down).
    public let nodes: [Node]

    /// A drawing of `nodes` in a `width` × `height` dp box.
    public init(width: Double, height: Double, nodes: [Node]) {
        self.width = width
        self.height = height
        self.nodes = nodes
    }

    /// One thing drawn.
    public indirect enum Node: Sendable, Equatable {
        case viewport(Viewport)
        case group(Group)
        case shape(Shape)
        case image(Image)
    }

    /// A VectorDrawable's viewport: its `viewportWidth` × `viewportHeight` units
    /// stretched onto `rect` (the parent's units) whatever the aspect, nothing drawn
    /// outside `rect` (VectorDrawable's `draw`: `scale(bounds / viewport)`, clipped
    /// to its bounds).
    public struct Viewport: Sendable, Equatable {
        /// Where the viewport is drawn (the parent's units).
        public var rect: Rect
        /// The viewport's width (its own units, `android:viewportWidth`).
        public var viewportWidth: Double
        /// The viewport's height (its own units, `android:viewportHeight`).
        public var viewportHeight: Double
        /// What is drawn, in order, in the viewport's units.
        public var children: [Node]
    }

    /// Children drawn with one effect.
    public struct Group: Sendable, Equatable {
        /// What the group does to its children.
        public var effect: Effect
        /// What is drawn, in order, in the group's units.
        public var children: [Node]
    }

    /// What a group does to its children.
    public enum Effect: Sendable, Equatable {
        /// Nothing.
        case none
        /// A `<group>`'s transform.
        case transform(GroupTransform)
        /// Clipped by a `<clip-path>`'s path data (non-zero; Android ignores a fill
        /// type there). `id` names it in the SVG document.
        case clip(id: String, data: String)
        /// Drawn as one layer at this opacity (0 to 1): a vector's or bitmap's alpha.
        case opacity(Double)
        /// A colour filter: `color` composited with the children by `mode`, over
        /// `region` (the children's coordinates). `id` names it in the SVG document.
        case tint(id: String, color: Color, mode: TintMode, region: Rect)
    }

    /// A VectorDrawable `<group>`'s transform (viewport units, degrees).
    public struct GroupTransform: Sendable, Equatable {
        /// Degrees, clockwise, about the pivot (`android:rotation`).
        public var rotation = 0.0
        /// The point rotated and scaled about (viewport units, `android:pivotX`).
        public var pivotX = 0.0
        /// The pivot's y (viewport units, `android:pivotY`).
        public var pivotY = 0.0
        /// Horizontal scale, 1 for none (`android:scaleX`).
        public var scaleX = 1.0
        /// Vertical scale, 1 for none (`android:scaleY`).
        public var scaleY = 1.0
        /// Horizontal move after scaling and rotating (viewport units).
        public var translateX = 0.0
        /// Vertical move after scaling and rotating (viewport units).
        public var translateY = 0.0

        /// No transform: identity.
        public init() {}

        /// The affine matrix `(a, b, c, d, e, f)` mapping the group's coordinates to
        /// its parent's (x' = a·x + c·y + e, y' = b·x + d·y + f), as
        /// `VGroup.updateLocalMatrix` builds it: translate by minus the pivot, scale,
        /// rotate, translate by the translation plus the pivot.
        public var matrix: (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
            let radians = rotation * Double.pi / 180
            // Exact quarter turns, so a rotated square stays on the pixel grid.
            var cosine = 0.0
            var sine = 0.0
            let turns = rotation / 90
            if turns == turns.rounded(), abs(turns) < 1e9 {
                let quarter = ((Int(turns) % 4) + 4) % 4
                (cosine, sine) = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][quarter]
            } else {
                (cosine, sine) = (cos(radians), sin(radians))
            }
            let a = cosine * scaleX
            let b = sine * scaleX
            let c = -sine * scaleY
            let d = cosine * scaleY
            let e = -(a * pivotX + c * pivotY) + translateX + pivotX
            let f = -(b * pivotX + d * pivotY) + translateY + pivotY
            return (a, b, c, d, e, f)
        }
    }

    /// A tint's PorterDuff mode, the tint being the source.
    public enum TintMode: String, Sendable, Equatable {
        case srcIn = "src_in"
        case srcAtop = "src_atop"
        case srcOver = "src_over"
    }

    /// An outline filled and stroked.
    public struct Shape: Sendable, Equatable {
        public var outline: Outline
        /// The fill, nil for none.
        public var fill: Paint?
        /// The fill's alpha (0 to 1): a path's `fillAlpha`.
        public var fillAlpha = 1.0
        /// Even-odd fill (`android:fillType="evenOdd"`), else non-zero.
        public var evenOdd = false
        /// The stroke, nil for none.
        public var stroke: Stroke?
    }

    /// The geometry of a shape.
    public enum Outline: Sendable, Equatable {
        /// Path data as `AndroidPathData.svg` writes it.
        case path(String)
        /// A rectangle, its corners rounded by `radius` (0: square).
        case rect(Rect, radius: Double)
        /// The ellipse inscribed in a rectangle.
        case ellipse(Rect)
    }

    /// A stroke: paint, alpha (0 to 1), width (the shape's units), ends, joins,
    /// miter limit (a ratio to the width, as Android's and SVG's), dashes.
    public struct Stroke: Sendable, Equatable {
        public var paint: Paint
        public var alpha = 1.0
        public var width: Double
        public var cap = LineCap.butt
        public var join = LineJoin.miter
        public var miterLimit = 4.0
        /// A dash's length and the gap after it; nil for a solid line.
        public var dash: [Double]?
    }

    public enum LineCap: String, Sendable, Equatable {
        case butt, round, square
    }

    public enum LineJoin: String, Sendable, Equatable {
        case miter, round, bevel
    }

    /// What fills or strokes a shape.
    public enum Paint: Sendable, Equatable {
        case color(Color)
        case gradient(Gradient)

        /// Whether it draws nothing.
        var isInvisible: Bool {
            if case .color(let color) = self { return color.alpha == 0 }
            return false
        }
    }

    /// A gradient in the shape's coordinates (Android's `GradientColor`, or a
    /// `<shape>`'s `<gradient>` placed in its bounds).
    public struct Gradient: Sendable, Equatable {
        /// Its id in the SVG document.
        public var id: String
        public var kind: Kind
        /// Colours at offsets 0 to 1, in order of writing (Android sorts nothing).
        public var stops: [Stop]
        /// Beyond its ends; nil is `pad` (a shape's gradient, which says none).
        public var spread: Spread?

        public enum Kind: Sendable, Equatable {
            case linear(x1: Double, y1: Double, x2: Double, y2: Double)
            case radial(cx: Double, cy: Double, r: Double)
        }

        public struct Stop: Sendable, Equatable {
            /// 0 to 1.
            public var offset: Double
            public var color: Color
        }

        /// `tileMode` clamp, repeat, mirror.
        public enum Spread: String, Sendable, Equatable {
            case pad, `repeat`, reflect
        }
    }

    /// An image file's bytes (PNG, WebP, JPEG or GIF, as the converter checked
    /// them) stretched onto `rect`.
    public struct Image: Sendable, Equatable {
        public var rect: Rect
        public var bytes: [UInt8]
        /// Its MIME type (`image/png`…).
        public var type: String
    }
}
