import BadgeCore
internal import CCairo

/// Draws an Android drawable (`AndroidDrawing`: a VectorDrawable, shape, bitmap,
/// inset or layer list as `AndroidDrawableSVG` resolved it) with Cairo, in this
/// process: no SVG is written or parsed, and no SVG renderer is needed, so
/// `android` and `preview` draw launcher icons with nothing installed. The drawing
/// is iconbadge's own value, made from XML that was checked and bounded as it was
/// read (the SVG size limit included); only an embedded bitmap is decoded, by
/// `IconLoader` as any image is.
///
/// What each part does follows the drawing's SVG (`AndroidDrawing.svg`), which
/// librsvg draws the same way on the same Cairo, and Android's framework where the
/// two could differ: a group's transform is `VGroup`'s matrix; stroke miter limits
/// default to 4 (Android's `strokeMiterLimit`, SVG's), not Cairo's 10; gradient stop
/// offsets are made non-decreasing (Skia and SVG both do); a linear gradient whose
/// ends meet paints its last colour (Skia's clamp, SVG 1.1 §13.2.2).
public enum AndroidDrawingPainter {
    /// The pixels of `drawing` stretched onto `width` × `height` pixels, as a PNG
    /// (straight alpha, 8 bits). Lossless: 8-bit premultiplied pixels survive the
    /// trip through straight alpha and back.
    ///
    /// - Parameter name: what the drawing is, for messages ("the foreground of
    ///   ic_launcher").
    /// - Throws: 65 when the size is over `limits` or an embedded bitmap cannot be
    ///   decoded; 69 when memory runs out (or a bitmap's format needs a missing
    ///   library).
    public static func png(
        _ drawing: AndroidDrawing, width: Int, height: Int, name: String, limits: ImageLimits,
        compression: PNGCompression = .fast
    ) throws(BadgeError) -> [UInt8] {
        let surface = try self.surface(drawing, width: width, height: height, name: name, limits: limits)
        return try PNGCodec.encode(surface, compression: compression)
    }

    /// The premultiplied pixels of `drawing` stretched onto `width` × `height`
    /// pixels.
    ///
    /// - Throws: as `png`.
    static func surface(_ drawing: AndroidDrawing, width: Int, height: Int, name: String, limits: ImageLimits)
        throws(BadgeError) -> ImageSurface
    {
        guard width > 0, height > 0 else {
            throw .badInput(path: name, reason: "would be drawn at \(width) × \(height) pixels, which is empty")
        }
        // Over a limit: the limit's own error, so the message names it and the option
        // that raises it, as for any image read.
        let side = min(limits.maxSide, ImageLimits.cairoMaxSide)
        guard width <= side, height <= side else {
            throw .overLimit(path: name, .imageSide(width: width, height: height, limit: side))
        }
        guard width * height <= limits.maxPixels else {
            throw .overLimit(path: name, .imagePixels(width: width, height: height, limit: limits.maxPixels))
        }
        let surface = try ImageSurface(width: width, height: height)
        let cr = cairo_create(surface.surface)!
        defer { cairo_destroy(cr) }
        cairo_scale(cr, Double(width) / drawing.width, Double(height) / drawing.height)
        var painter = Painter(cr: cr, name: name, limits: limits, canvasWidth: width, canvasHeight: height)
        for node in drawing.nodes { try painter.draw(node) }
        // A transform Cairo cannot invert (a scale of 1e-9 in nested groups) stops
        // the drawing: say so rather than give a part of it.
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .badInput(
                path: name, reason: "cannot be drawn: \(String(cString: cairo_status_to_string(status)))")
        }
        cairo_surface_flush(surface.surface)
        return surface
    }

    /// One drawing's walk.
    private struct Painter {
        let cr: OpaquePointer
        let name: String
        let limits: ImageLimits
        /// The canvas (pixels), which bounds the rows an edge can cross.
        let canvasWidth: Int
        let canvasHeight: Int
        /// The work drawn so far, in the units of `maxWork`.
        var work = 0.0

        /// The most work one drawing may cost Cairo, in rows crossed by edges: Cairo
        /// fills a path scanline by scanline, so an edge costs about the rows it
        /// crosses on the canvas, and a stroke twice its outline's plus its joins.
        /// Two million is a path of 4,600 edges each crossing the whole 432 px
        /// xxxhdpi layer; the costliest layer of the Android fixtures (four real
        /// apps) costs 2,307 at xxxhdpi. The drawing runs in this process, with no
        /// time limit of its own (a hostile 500 KB path of 60,000 long edges, under
        /// the path-data limit, took 46 s over five densities), so what it may cost
        /// is bounded before Cairo starts.
        static let maxWork = 2_000_000.0

        /// The widest stroke, in canvas sides: wider changes no pixel a narrower
        /// one would not cover (it covers the canvas), while Cairo's pen for its
        /// round joins and caps grows with its width (a 10^12 px stroke under nested
        /// scales took half a gigabyte).
        static let maxStrokeSides = 16.0

        /// The most dashes one stroke is cut into: a dash of 0.001 dp around a large
        /// shape would otherwise take Cairo minutes, in this process.
        static let maxDashes = 100_000.0

        mutating func draw(_ node: AndroidDrawing.Node) throws(BadgeError) {
            switch node {
            case .viewport(let viewport):
                let r = viewport.rect
                cairo_save(cr)
                cairo_rectangle(cr, r.x, r.y, r.width, r.height)
                cairo_clip(cr)
                cairo_translate(cr, r.x, r.y)
                cairo_scale(cr, r.width / viewport.viewportWidth, r.height / viewport.viewportHeight)
                for child in viewport.children { try draw(child) }
                cairo_restore(cr)
            case .group(let group):
                try draw(group)
            case .shape(let shape):
                try fillAndStroke(shape)
            case .image(let image):
                try draw(image)
            }
        }

        mutating func draw(_ group: AndroidDrawing.Group) throws(BadgeError) {
            switch group.effect {
            case .none:
                for child in group.children { try draw(child) }
            case .transform(let transform):
                let m = transform.matrix
                var matrix = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.e, y0: m.f)
                // A scale of 0 draws nothing (Cairo would refuse the matrix).
                guard m.a * m.d - m.b * m.c != 0 else { return }
                cairo_save(cr)
                cairo_transform(cr, &matrix)
                for child in group.children { try draw(child) }
                cairo_restore(cr)
            case .clip(_, let data):
                cairo_save(cr)
                cairo_new_path(cr)
                Self.append(AndroidPathData.segments(data), to: cr)
                try charge(fill: true, strokeWidth: nil)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
                cairo_clip(cr)
                for child in group.children { try draw(child) }
                cairo_restore(cr)
            case .opacity(let opacity):
                cairo_push_group(cr)
                for child in group.children { try draw(child) }
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, opacity)
            case .tint(_, let color, let mode, let region):
                // The tint is the source, the drawn children the destination
                // (PorterDuffColorFilter), over the tint's region.
                cairo_push_group(cr)
                for child in group.children { try draw(child) }
                cairo_save(cr)
                cairo_rectangle(cr, region.x, region.y, region.width, region.height)
                cairo_clip(cr)
                BadgePainter.setColor(cr, color)
                switch mode {
                case .srcIn: cairo_set_operator(cr, CAIRO_OPERATOR_IN)
                case .srcAtop: cairo_set_operator(cr, CAIRO_OPERATOR_ATOP)
                case .srcOver: cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
                }
                cairo_paint(cr)
                cairo_restore(cr)
                cairo_pop_group_to_source(cr)
                cairo_paint(cr)
            }
        }

        mutating func fillAndStroke(_ shape: AndroidDrawing.Shape) throws(BadgeError) {
            if let dash = shape.stroke?.dash, case let length = Self.perimeterBound(shape.outline),
                length / max(dash.reduce(0, +), 1e-300) > Self.maxDashes
            {
                throw .badInput(
                    path: name,
                    reason:
                        "has a dashed stroke of over \(Int(Self.maxDashes)) dashes (android:dashWidth plus android:dashGap too small for its shape)"
                )
            }
            cairo_new_path(cr)
            switch shape.outline {
            case .path(let data):
                Self.append(AndroidPathData.segments(data), to: cr)
            case .rect(let r, let radius):
                if radius > 0 {
                    // SVG's rounded rectangle: from the top edge, clockwise.
                    let (x, y, w, h) = (r.x, r.y, r.width, r.height)
                    let rr = min(radius, w / 2, h / 2)
                    cairo_move_to(cr, x + rr, y)
                    cairo_line_to(cr, x + w - rr, y)
                    cairo_arc(cr, x + w - rr, y + rr, rr, -Double.pi / 2, 0)
                    cairo_line_to(cr, x + w, y + h - rr)
                    cairo_arc(cr, x + w - rr, y + h - rr, rr, 0, Double.pi / 2)
                    cairo_line_to(cr, x + rr, y + h)
                    cairo_arc(cr, x + rr, y + h - rr, rr, Double.pi / 2, Double.pi)
                    cairo_line_to(cr, x, y + rr)
                    cairo_arc(cr, x + rr, y + rr, rr, Double.pi, 3 * Double.pi / 2)
                    cairo_close_path(cr)
                } else {
                    cairo_rectangle(cr, r.x, r.y, r.width, r.height)
                }
            case .ellipse(let r):
                cairo_save(cr)
                cairo_translate(cr, r.center.x, r.center.y)
                cairo_scale(cr, r.width / 2, r.height / 2)
                cairo_arc(cr, 0, 0, 1, 0, 2 * Double.pi)
                cairo_close_path(cr)
                cairo_restore(cr)
            }
            try charge(fill: shape.fill != nil, strokeWidth: shape.stroke?.width)
            if let fill = shape.fill {
                cairo_set_fill_rule(cr, shape.evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                let pattern = Self.pattern(fill, alpha: shape.fillAlpha)
                cairo_set_source(cr, pattern)
                cairo_pattern_destroy(pattern)
                cairo_fill_preserve(cr)
            }
            if let stroke = shape.stroke {
                cairo_set_line_width(cr, stroke.width)
                switch stroke.cap {
                case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
                case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
                case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
                }
                switch stroke.join {
                case .miter: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
                case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
                }
                cairo_set_miter_limit(cr, stroke.miterLimit)
                if let dash = stroke.dash, dash.contains(where: { $0 > 0 }), dash.allSatisfy({ $0 >= 0 }) {
                    cairo_set_dash(cr, dash, Int32(dash.count), 0)
                } else {
                    cairo_set_dash(cr, nil, 0, 0)
                }
                let pattern = Self.pattern(stroke.paint, alpha: stroke.alpha)
                cairo_set_source(cr, pattern)
                cairo_pattern_destroy(pattern)
                cairo_stroke_preserve(cr)
            }
            cairo_new_path(cr)
        }

        /// Adds what filling and stroking the current path will cost Cairo to `work`,
        /// from the path in canvas pixels: each line the rows it crosses on the
        /// canvas, each curve its rows and the segments Cairo flattens it into (about
        /// the square root of its size over the 0.1 px tolerance); a stroke twice
        /// that, widened by its width, plus a round pen's vertices at each segment.
        ///
        /// - Parameter strokeWidth: the stroke's width (user units), nil for none.
        /// - Throws: 65 naming the drawing when the stroke is over `maxStrokeSides`
        ///   canvas sides wide, or the drawing's work over `maxWork`.
        mutating func charge(fill: Bool, strokeWidth: Double?) throws(BadgeError) {
            let side = Double(max(canvasWidth, canvasHeight))
            var deviceWidth = 0.0
            if let strokeWidth {
                var (ax, ay, bx, by) = (strokeWidth, 0.0, 0.0, strokeWidth)
                cairo_user_to_device_distance(cr, &ax, &ay)
                cairo_user_to_device_distance(cr, &bx, &by)
                deviceWidth = max((ax * ax + ay * ay).squareRoot(), (bx * bx + by * by).squareRoot())
                guard deviceWidth.isFinite, deviceWidth <= Self.maxStrokeSides * side else {
                    throw .badInput(
                        path: name,
                        reason:
                            "has a stroke over \(Int(Self.maxStrokeSides)) times as wide as the \(canvasWidth) × \(canvasHeight) px canvas it is drawn on (android:strokeWidth under its groups' scales)"
                    )
                }
            }
            guard fill || strokeWidth != nil, let path = cairo_copy_path(cr) else { return }
            defer { cairo_path_destroy(path) }
            let rows = Double(canvasHeight) + 1
            let pen = strokeWidth == nil ? 0 : (deviceWidth / 0.1).squareRoot()
            var cost = 0.0
            var last = (x: 0.0, y: 0.0)
            var index = 0
            let count = Int(path.pointee.num_data)
            while index < count {
                let header = path.pointee.data[index].header
                let length = Int(header.length)
                guard length > 0 else { break }
                func point(_ offset: Int) -> (x: Double, y: Double) {
                    var x = path.pointee.data[index + offset].point.x
                    var y = path.pointee.data[index + offset].point.y
                    cairo_user_to_device(cr, &x, &y)
                    return (x, y)
                }
                switch header.type {
                case CAIRO_PATH_MOVE_TO:
                    last = point(1)
                case CAIRO_PATH_LINE_TO:
                    let p = point(1)
                    cost += min(abs(p.y - last.y) + deviceWidth, rows) + 1 + pen
                    last = p
                case CAIRO_PATH_CURVE_TO:
                    let c1 = point(1)
                    let c2 = point(2)
                    let p = point(3)
                    let ys = [last.y, c1.y, c2.y, p.y]
                    let xs = [last.x, c1.x, c2.x, p.x]
                    let height = ys.max()! - ys.min()!
                    let extent = max(height, xs.max()! - xs.min()!)
                    let segments = (max(extent, 0) / 0.1).squareRoot() + 1
                    cost += min(height + deviceWidth, rows) + segments * (1 + pen)
                    last = p
                default:
                    cost += 1
                }
                index += length
            }
            work += (fill ? cost : 0) + (strokeWidth == nil ? 0 : 2 * cost)
            guard work.isFinite, work <= Self.maxWork else {
                throw .badInput(
                    path: name,
                    reason:
                        "is too complex to draw: its paths cross over \(Int(Self.maxWork)) rows of the \(canvasWidth) × \(canvasHeight) px canvas in all (their edges, strokes and curves)"
                )
            }
        }

        /// At least the perimeter of a rectangle or ellipse (its units); a path's
        /// is not needed (paths have no dashes).
        static func perimeterBound(_ outline: AndroidDrawing.Outline) -> Double {
            switch outline {
            case .rect(let r, _), .ellipse(let r): return 2 * (abs(r.width) + abs(r.height))
            case .path: return 0
            }
        }

        /// A paint as a Cairo pattern (owned by the caller), its colours' alpha
        /// times `alpha`.
        static func pattern(_ paint: AndroidDrawing.Paint, alpha: Double) -> OpaquePointer {
            func rgba(_ color: Color) -> (Double, Double, Double, Double) {
                (
                    Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255,
                    Double(color.alpha) / 255 * alpha
                )
            }
            switch paint {
            case .color(let color):
                let (r, g, b, a) = rgba(color)
                return cairo_pattern_create_rgba(r, g, b, a)!
            case .gradient(let gradient):
                let pattern: OpaquePointer
                switch gradient.kind {
                case .linear(let x1, let y1, let x2, let y2):
                    if x1 == x2, y1 == y2, let last = gradient.stops.last {
                        let (r, g, b, a) = rgba(last.color)
                        return cairo_pattern_create_rgba(r, g, b, a)!
                    }
                    pattern = cairo_pattern_create_linear(x1, y1, x2, y2)!
                case .radial(let cx, let cy, let radius):
                    pattern = cairo_pattern_create_radial(cx, cy, 0, cx, cy, radius)!
                }
                var floor = 0.0
                for stop in gradient.stops {
                    floor = max(floor, min(1, max(0, stop.offset)))
                    let (r, g, b, a) = rgba(stop.color)
                    cairo_pattern_add_color_stop_rgba(pattern, floor, r, g, b, a)
                }
                switch gradient.spread ?? .pad {
                case .pad: cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
                case .repeat: cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
                case .reflect: cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REFLECT)
                }
                return pattern
            }
        }

        /// Appends absolute path commands to the current path.
        static func append(_ commands: [PathData.Command], to cr: OpaquePointer) {
            for command in commands {
                switch command {
                case .move(let p): cairo_move_to(cr, p.x, p.y)
                case .line(let p): cairo_line_to(cr, p.x, p.y)
                case .curve(let c1, let c2, let p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                case .close: cairo_close_path(cr)
                }
            }
        }

        /// A bitmap stretched onto its rectangle, decoded as an icon is.
        func draw(_ image: AndroidDrawing.Image) throws(BadgeError) {
            let r = image.rect
            guard r.width > 0, r.height > 0 else { return }
            let loaded = try IconLoader.decode(image.bytes, path: name, limits: limits)
            let pixels = loaded.surface
            cairo_save(cr)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_clip(cr)
            cairo_translate(cr, r.x, r.y)
            cairo_scale(cr, r.width / Double(pixels.width), r.height / Double(pixels.height))
            cairo_set_source_surface(cr, pixels.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
            cairo_restore(cr)
        }
    }
}
