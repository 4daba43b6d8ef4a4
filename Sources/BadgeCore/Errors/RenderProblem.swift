/// Why a badge cannot be drawn as asked, with its values and never an option's name
/// (`BadgeError.render`): the command line words it with the options that change it
/// (`ErrorWording`), as it does a `LimitExceeded`. Thrown by the render layer and by
/// `BadgeLayout.compute`.
public enum RenderProblem: Equatable, Sendable {
    /// A ribbon, banner or shield was given a dot or an image: these shapes hold text.
    /// Exit 64.
    case shapeHoldsText(BadgeShape)
    /// Several badges, one of them with expand placement, which grows the canvas for
    /// one badge only. Exit 64.
    case expandWithSeveralBadges
    /// PDF was asked for an animation (it has none). Exit 64.
    case animationInPDF
    /// With clamp placement on a platform's shape, the badge fits nowhere inside it.
    /// Exit 64.
    case badgeOutsideShape(OutsideShape)
    /// A ribbon's or banner's text does not fit its band even at the smallest size
    /// tried. Exit 65.
    case bandTextDoesNotFit(BandText)
    /// A ribbon or banner would be thicker than the shape it crosses. Exit 65.
    case bandTooThick(shape: BadgeShape, thickness: Double, across: Double)
    /// A shield does not fit its shape even at the smallest text size tried. Exit 65.
    case shieldDoesNotFit(Shield)
    /// An SVG embeds raster images over the side or pixel limits (`reason` says which,
    /// with the numbers). Exit 65.
    case embeddedImagesOverLimit(path: String, reason: String)
    /// An SVG would render wider or taller than Cairo's surfaces can be (pixels).
    /// Exit 65.
    case svgRenderSide(path: String, width: Int, height: Int)
    /// A decoder or iconbadge-loader's recording of an SVG ran over the time limit: `reason` says
    /// what took how long ("SVG too complex: it took more than 4 s to decode"). Exit 65.
    case overTimeLimit(path: String, reason: String)
    /// An isolated child ran out of the memory it may use while `doing` ("decoding
    /// it", "drawing it as SVG"); `budget` says how much that is. Exit 65.
    case outOfMemory(path: String, doing: String, budget: String)

    /// The file the problem is about; nil for the badge itself.
    public var path: String? {
        switch self {
        case .embeddedImagesOverLimit(let path, _), .svgRenderSide(let path, _, _), .overTimeLimit(let path, _),
            .outOfMemory(let path, _, _):
            return path
        default: return nil
        }
    }

    /// 64 for what the caller asked that cannot be (a usage problem), 65 for what this
    /// icon, text or document cannot be drawn as.
    public var exitCode: ExitCode {
        switch self {
        case .shapeHoldsText, .expandWithSeveralBadges, .animationInPDF, .badgeOutsideShape: return .usage
        default: return .dataError
        }
    }

    /// What is wrong, with the numbers, naming no option (and not the path).
    public var description: String {
        switch self {
        case .shapeHoldsText(let shape):
            return "a \(shape.rawValue) holds text: give a value or text, not a dot or an image"
        case .expandWithSeveralBadges:
            return "expand placement grows the canvas for one badge; with several badges use clamp or clip"
        case .animationInPDF:
            return "PDF cannot hold an animation; write .png (APNG), .webp or .svg"
        case .badgeOutsideShape(let fit): return fit.description
        case .bandTextDoesNotFit(let fit): return fit.description
        case .bandTooThick(let shape, let thickness, let across):
            return
                "the \(shape.rawValue) would be \(Self.pixels(thickness)) px wide on a shape \(Self.pixels(across)) px across"
        case .shieldDoesNotFit(let fit): return fit.description
        case .embeddedImagesOverLimit(_, let reason), .overTimeLimit(_, let reason): return reason
        case .svgRenderSide(_, let width, let height):
            return LimitExceeded.renderSide(width: width, height: height).description
        case .outOfMemory(_, let doing, let budget): return "\(doing) ran out of memory (\(budget))"
        }
    }

    /// A size for messages (pixels): at most two decimals, no `.0`.
    public static func pixels(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension RenderProblem {
    /// A badge that fits nowhere inside its platform's shape (pixels): `BadgeLayout.compute`
    /// with clamp placement.
    public struct OutsideShape: Equatable, Sendable {
        /// The badge's width (pixels).
        public let badgeWidth: Int
        /// The badge's height (pixels).
        public let badgeHeight: Int
        /// The shape and the icon it is fitted to.
        public let platform: IconPlatform
        /// The icon's width (pixels).
        public let iconWidth: Int
        /// The icon's height (pixels).
        public let iconHeight: Int
        /// The largest badge of the same proportions that fits (whole pixels), nil when
        /// the shape holds no whole pixel.
        public let largest: Size?

        /// A problem from its parts.
        public init(
            badgeWidth: Int, badgeHeight: Int, platform: IconPlatform, iconWidth: Int, iconHeight: Int, largest: Size?
        ) {
            self.badgeWidth = badgeWidth
            self.badgeHeight = badgeHeight
            self.platform = platform
            self.iconWidth = iconWidth
            self.iconHeight = iconHeight
            self.largest = largest
        }

        /// What is wrong and what would fit, naming no option.
        public var description: String {
            let largest =
                self.largest.map { "the largest that fits is \(Int($0.width)) × \(Int($0.height)) px" }
                ?? "nothing fits: the shape has no whole pixel"
            return
                "the badge (\(badgeWidth) × \(badgeHeight) px) cannot fit inside the \(platform.rawValue) shape of this \(iconWidth) × \(iconHeight) px icon; \(largest)"
        }
    }

    /// A ribbon's or banner's text that does not fit its band (pixels), with what was
    /// tried, for the message.
    public struct BandText: Equatable, Sendable {
        /// The text, as drawn after the label rules.
        public let text: String
        /// `.ribbon` or `.banner`.
        public let shape: BadgeShape
        /// The smallest em size tried: `floor`.
        public let pixels: Double
        /// The size the text may shrink to: the minimum text size, or the style's own
        /// size when that was smaller already.
        public let floor: Double
        /// Whether `floor` is the minimum text size (else the text's own, under it).
        public let floorIsMinimum: Bool
        /// The length the text needs with its padding (pixels along the band).
        public let needed: Double
        /// The text's height (pixels, across the band).
        public let textHeight: Double
        /// The length the band holds for text (pixels along the band).
        public let room: Double
        /// The band's width across, inside its border (pixels).
        public let across: Double

        /// A fit from its parts.
        public init(
            text: String, shape: BadgeShape, pixels: Double, floor: Double, floorIsMinimum: Bool, needed: Double,
            textHeight: Double, room: Double, across: Double
        ) {
            self.text = text
            self.shape = shape
            self.pixels = pixels
            self.floor = floor
            self.floorIsMinimum = floorIsMinimum
            self.needed = needed
            self.textHeight = textHeight
            self.room = room
            self.across = across
        }

        /// Why it does not fit, as the fix says: the border fills the band, the band's
        /// middle is not on the shape, or the text is too long.
        public enum Reason: Sendable {
            case borderFillsBand, middleOffShape, textTooLong
        }

        /// Why it does not fit.
        public var reason: Reason {
            across <= 0 ? .borderFillsBand : room < 1 ? .middleOffShape : .textTooLong
        }

        /// What is wrong, with the numbers, naming no option.
        public var description: String {
            let px = RenderProblem.pixels
            let floorText =
                floorIsMinimum ? "the minimum text size, \(px(floor)) px" : "its own size, under the minimum"
            return
                "the text \(Quoted(text)) does not fit the \(shape.rawValue) even at \(px(pixels)) px (\(floorText)): it needs \(px(needed)) px of length with its padding and \(px(textHeight)) px across, and the band holds \(px(room)) × \(px(across)) px"
        }
    }

    /// A shield that does not fit its shape (pixels), with what was tried.
    public struct Shield: Equatable, Sendable {
        /// The shield's whole text, `LABEL|MESSAGE`.
        public let text: String
        /// The shape the shield is fitted to.
        public let platform: IconPlatform
        /// The shape's width (pixels).
        public let shapeWidth: Double
        /// The smallest em size tried (pixels).
        public let pixels: Double
        /// The size the text may shrink to (pixels; see `BandText`).
        public let floor: Double
        /// Whether `floor` is the minimum text size (else the text's own, under it).
        public let floorIsMinimum: Bool
        /// The shield's width at `pixels`.
        public let width: Double

        /// A fit from its parts.
        public init(
            text: String, platform: IconPlatform, shapeWidth: Double, pixels: Double, floor: Double,
            floorIsMinimum: Bool, width: Double
        ) {
            self.text = text
            self.platform = platform
            self.shapeWidth = shapeWidth
            self.pixels = pixels
            self.floor = floor
            self.floorIsMinimum = floorIsMinimum
            self.width = width
        }

        /// What is wrong, with the numbers, naming no option.
        public var description: String {
            let px = RenderProblem.pixels
            let floorText =
                floorIsMinimum ? "the minimum text size, \(px(floor)) px" : "its own size, under the minimum"
            return
                "the shield \(Quoted(text)) does not fit the \(platform.rawValue) shape (\(px(shapeWidth)) px wide) even at \(px(pixels)) px (\(floorText)): its text makes it \(px(width)) px wide"
        }
    }
}
