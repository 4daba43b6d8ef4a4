/// A contact sheet of badged icons as the devices show them (`iconbadge preview`,
/// `--preview`): sections of groups of tiles, each tile one image composed of
/// layers under a device mask, on the backdrop it is seen against, labelled.
///
/// Plain values, decided once by a builder (`AppIconSetPreview`, `AndroidPreview`,
/// `IconBundlePreview` in BadgeJobs) and painted by `ContactSheetPainter` (PNG) or the
/// HTML page: the same sheet gives the same bytes.
public struct ContactSheet: Equatable, Sendable {
    /// The sheet's heading (the set's or app's folder).
    public var title: String
    /// What the sheet shows and does not (layers not drawn, the tint used), one line each.
    public var notes: [String]
    /// The sections, in order.
    public var sections: [Section]

    /// A sheet from its parts.
    public init(title: String, notes: [String] = [], sections: [Section] = []) {
        self.title = title
        self.notes = notes
        self.sections = sections
    }

    /// Every tile, in order: what a test counts and the HTML page lists.
    public var tiles: [Tile] { sections.flatMap { $0.groups.flatMap(\.tiles) } }

    /// A platform's part of the sheet ("iOS", "Android adaptive icons").
    public struct Section: Equatable, Sendable {
        /// The heading drawn over its groups.
        public var title: String
        /// Its outputs, top to bottom.
        public var groups: [Group]

        /// A section titled `title` holding `groups`.
        public init(title: String, groups: [Group] = []) {
            self.title = title
            self.groups = groups
        }
    }

    /// One output (a slot of a set, an adaptive icon at one density): its tiles side by
    /// side under one label, such as "iPhone 60 pt @3x · AppIcon-180.png".
    public struct Group: Equatable, Sendable {
        /// The label drawn over its tiles.
        public var title: String
        /// Its tiles, left to right.
        public var tiles: [Tile]

        /// A group labelled `title` holding `tiles`.
        public init(title: String, tiles: [Tile] = []) {
            self.title = title
            self.tiles = tiles
        }
    }

    /// One image as a device shows it: `side` × `side` device pixels, its layers
    /// drawn back to front, clipped by `mask`, through `filter`, on `backdrop`.
    public struct Tile: Equatable, Sendable {
        /// What it shows: "light", "dark", "tinted", "circle", "themed, dark".
        public var caption: String
        /// The image's side (device pixels): the size it is drawn at, and shown at 1:1.
        public var side: Int
        /// What the icon is seen against (a home screen, a Dock, a watch face).
        public var backdrop: Color
        /// The layers, back to front.
        public var layers: [Layer]
        /// The device's mask.
        public var mask: Mask
        /// How the system recolours the composed icon, if it does.
        public var filter: Filter?

        /// A tile of `side` × `side` device pixels; the fields are as above.
        public init(
            caption: String, side: Int, backdrop: Color, layers: [Layer], mask: Mask = .none, filter: Filter? = nil
        ) {
            self.caption = caption
            self.side = side
            self.backdrop = backdrop
            self.layers = layers
            self.mask = mask
            self.filter = filter
        }

        /// The sides it is shown at: 1:1 always; 2× (each pixel a 2 × 2 block) when
        /// it is at most `maxZoomedSide`, so small images can be judged at their real
        /// size and looked into.
        public var zooms: [Int] { side <= ContactSheet.maxZoomedSide ? [1, 2] : [1] }

        /// The layers that could not be drawn (what the caption's second line names).
        public var missing: [String] {
            layers.compactMap { if case .missing(let what, _) = $0 { what } else { nil } }
        }
    }

    /// Where a layer's image goes: a rectangle in the tile's pixels (an adaptive icon's
    /// 108 dp layer reaches 18 dp past each side of the 72 dp the launcher shows).
    public enum Layer: Equatable, Sendable {
        /// An image drawn into `rect` (a raster resampled with a box filter when
        /// smaller; an SVG rendered at that size).
        case image(Source, rect: Rect)
        /// A colour filling `rect`.
        case fill(Color, rect: Rect)
        /// An image's alpha alone, painted in `color`: a themed icon's monochrome layer.
        case alpha(Source, rect: Rect, color: Color)
        /// A layer that cannot be drawn, shown hatched in `rect`: the text says why
        /// ("res/drawable/ic_launcher_foreground.xml: line 11: android:fillColor is the
        /// theme attribute ?attr/colorPrimary, …").
        case missing(String, rect: Rect)
    }

    /// Where a layer's image comes from.
    public enum Source: Equatable, Sendable {
        /// An image file (PNG, WebP, JPEG, SVG, …), read as icons are (an SVG by the
        /// SVG renderer, which may not be installed).
        case file(String)
        /// An Android drawable (`AndroidDrawableSVG.layerDrawing`), drawn in this
        /// process at the size it is shown (`AndroidDrawingPainter`), needing no SVG
        /// renderer. `name` says what it is in messages.
        case drawing(AndroidDrawing, name: String)
    }

    /// A device's mask, in the tile's own square.
    public enum Mask: Equatable, Sendable {
        /// None: the image's own pixels (macOS, legacy Android icons).
        case none
        /// Apple's continuous-corner square, as `IconPlatform.ios` models it: the
        /// superellipse |x|^5 + |y|^5 = 1.
        case appleSquare
        /// A circle (watchOS; an Android launcher's round mask).
        case circle
        /// An Android launcher's mask as AOSP draws it: a path in a 100 × 100 box.
        case android(AndroidMask)
    }

    /// The masks of AOSP's icon shape overlays (`packages/overlays/IconShape*Overlay`,
    /// `config_icon_mask`), as SVG path data in a 100 × 100 box.
    public enum AndroidMask: String, CaseIterable, Sendable {
        case circle
        case squircle
        case roundedSquare = "rounded square"

        /// The path data, verbatim from AOSP.
        public var pathData: String {
            switch self {
            case .circle: return "M50 0A50 50,0,1,1,50 100A50 50,0,1,1,50 0"
            case .squircle:
                return "M50,0 C10,0 0,10 0,50 0,90 10,100 50,100 90,100 100,90 100,50 100,10 90,0 50,0 Z"
            case .roundedSquare:
                return
                    "M50,0L88,0 C94.4,0 100,5.4 100 12 L100,88 C100,94.6 94.6 100 88 100 L12,100 C5.4,100 0,94.6 0,88 L0 12 C0 5.4 5.4 0 12 0 L50,0 Z"
            }
        }
    }

    /// How a system recolours a composed icon.
    public enum Filter: Equatable, Sendable {
        /// iOS 18's tinted appearance: the image's Rec. 709 luma (as `Color.greyscale`)
        /// multiplies the tint colour, over black.
        case tinted(Color)
    }

    /// The largest side shown at 2× as well as 1:1 (pixels): 128, so a 64 pt @2x slot
    /// can be looked into; larger images have pixels enough at 1:1.
    public static let maxZoomedSide = 128
    /// The largest side drawn on the sheet (pixels): a 1024 px image is drawn at 256
    /// (its caption says so), and the sizes a device derives from it are drawn too.
    public static let maxShownSide = 256
}
