import BadgeCore

extension Scene {
    /// One badge of a scene, laid out and shaped: its layout, its shape, its text runs
    /// or image, the colours it is painted in and how its band is cut.
    ///
    /// Made by `SceneBuilder` for each `RenderRequest.Badge` (and a pop's old value),
    /// never changed afterwards. `BadgePainter` draws it.
    public struct Badge {
        /// The layout in pixels; nil when the badge is hidden.
        public let layout: BadgeLayout?
        /// Why the badge is hidden, if it is (nothing of it is drawn).
        public let hidden: HiddenReason?
        /// The text drawn, after the label rules (a shield's label part); nil for a
        /// dot, an image or a hidden badge.
        public let label: String?
        /// A shield's message, as drawn; nil for the other shapes.
        public let messageLabel: String?
        /// Whether the badge is a plain dot (asked for, or text too small to read).
        public let isDot: Bool
        /// The shape asked for: pill, ribbon, banner or shield.
        public let shape: BadgeShape
        /// What happened to this badge on the way (text too small, drawn as a dot).
        public let notes: [RenderNote]
        /// Its colours (straight alpha), converted into the icon's colour space.
        let paint: Paint
        /// The text, shaped; a shield's label part.
        let text: ShapedText?
        /// A shield's message part, shaped.
        let message: ShapedText?
        /// The badge image, at the size the layout draws it.
        let image: LoadedIcon?
        /// How a ribbon or banner is cut; nil for the other shapes.
        let band: BandCut?
        /// Its fill against the icon around it, as measured (nil: not measured: an
        /// image badge, a hidden one, or no pixels to measure).
        public var contrast: BadgeContrast? { measuredContrast }
        let measuredContrast: BadgeContrast?

        init(
            layout: BadgeLayout?, hidden: HiddenReason?, label: String?, messageLabel: String?, isDot: Bool,
            shape: BadgeShape, notes: [RenderNote], paint: Paint, text: ShapedText?, message: ShapedText?,
            image: LoadedIcon?, band: BandCut?, contrast: BadgeContrast? = nil
        ) {
            self.layout = layout
            self.hidden = hidden
            self.label = label
            self.messageLabel = messageLabel
            self.isDot = isDot
            self.shape = shape
            self.notes = notes
            self.paint = paint
            self.text = text
            self.message = message
            self.image = image
            self.band = band
            measuredContrast = contrast
        }

        /// The same badge with its contrast measured, and `note` added.
        func measured(_ contrast: BadgeContrast?, note: RenderNote?) -> Badge {
            Badge(
                layout: layout, hidden: hidden, label: label, messageLabel: messageLabel, isDot: isDot, shape: shape,
                notes: notes + (note.map { [$0] } ?? []), paint: paint, text: text, message: message, image: image,
                band: band, contrast: contrast)
        }

        /// The colours a badge is painted in and how (straight alpha); made by the
        /// builder with its badge.
        struct Paint {
            let background: Color
            let textColor: Color
            let borderColor: Color
            /// A shield's label part.
            let labelBackground: Color
            /// Whether the whole badge is drawn in greys (`RenderRequest.Output.greyscaleBadges`).
            let greyscale: Bool
            /// Whether the text is cut out of the badge (`RenderRequest.Output.knockoutText`).
            let knocksOutText: Bool
            /// Whether what is under the badge's footprint is cleared before it is
            /// drawn (`RenderRequest.Output.clearsUnderBadges`).
            let clearsUnder: Bool
        }

        /// How a ribbon or banner is cut to the icon: to the platform's mask (nil: the
        /// canvas), and on platforms whose shape is the icon's own pixels (`canvas`,
        /// `content`, `android-legacy`) to its alpha too. Made by the builder.
        struct BandCut {
            let clip: ShapeMask?
            let followsIconAlpha: Bool
        }

        /// The outline of what a badge covers at rest (pixels), as painters path it.
        enum Footprint: Equatable {
            /// A pill, dot, image or shield: its rectangle with rounded corners.
            case roundedRect(Rect, radius: Double)
            /// A ribbon or banner: its band, cut to `clip` (the platform's mask; nil:
            /// the canvas).
            case band(polygon: [Point], clip: ShapeMask?)
        }

        /// What the badge covers at rest, nil when it is hidden: the outline its shape
        /// is filled in, and the area a layer under it can be cleared in (the themed
        /// layer of an Android icon). A band also cut to the icon's alpha covers only
        /// the icon's pixels of it.
        var footprint: Footprint? {
            guard let layout else { return nil }
            if let band = layout.band { return .band(polygon: band.polygon, clip: self.band?.clip) }
            return .roundedRect(layout.badgeRect, radius: layout.cornerRadius)
        }

        /// The text's total advance (pixels), nil without text.
        public var textAdvance: Double? { text?.metrics.advance }
        /// The text's em size as drawn (pixels), nil without text: a ribbon's or a
        /// shield's may be smaller than the style's after shrinking to fit.
        public var textPixels: Double? { text?.pixelSize }
        /// Every face consulted for the text, in order (for the missing-glyph warning).
        public var fontsTried: [String] { text?.fontsTried ?? [] }

        /// Code points no font could draw (each appears as a .notdef box).
        public var missingGlyphs: [Unicode.Scalar] {
            var missing = text?.missing ?? []
            for scalar in message?.missing ?? [] where !missing.contains(scalar) { missing.append(scalar) }
            return missing
        }

        /// For `--report`: every face used, in order of first use, and how many glyphs
        /// it drew.
        public var fontsUsed: [(name: String, glyphs: Int)] {
            var used: [(name: String, glyphs: Int)] = []
            for run in (text?.runs ?? []) + (message?.runs ?? []) {
                if let index = used.firstIndex(where: { $0.name == run.face.reportName }) {
                    used[index].glyphs += run.glyphs.count
                } else {
                    used.append((run.face.reportName, run.glyphs.count))
                }
            }
            return used
        }

        /// Where the badge is drawn at frame `state` (pixels: its rectangle scaled about
        /// its centre); nil when nothing is (hidden, or fully transparent).
        func rect(at state: BadgeFrameState) -> Rect? {
            guard state.opacity > 0, let layout else { return nil }
            let centre = layout.band?.centre ?? layout.badgeRect.center
            let rect = layout.badgeRect
            // A negative scale (a curve past y = 3) turns the badge about its centre: the
            // rectangle is the same either way.
            let scale = abs(state.scale)
            return Rect(
                x: centre.x + (rect.x - centre.x) * scale, y: centre.y + (rect.y - centre.y) * scale,
                width: rect.width * scale, height: rect.height * scale)
        }
    }
}
