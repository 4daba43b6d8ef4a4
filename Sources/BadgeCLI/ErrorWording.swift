import BadgeCore
import BadgeJobs

/// Words errors for the command line: the core's structured reasons (which limit,
/// which numbers, what a badge cannot be) get the option that changes them here, and
/// only here.
package enum ErrorWording {
    /// Which option sizes the badge in the command in use (`BadgeJobs.SizeAdvice`).
    package typealias SizeAdvice = BadgeJobs.SizeAdvice

    /// The one-line message of `error` (without `iconbadge: error: `); `advice` is
    /// the option that sizes the badge in the command in use.
    package static func message(_ error: BadgeError, advice: SizeAdvice = .heightOrDotSize) -> String {
        switch error {
        case .overLimit(_, let limit): return error.message + fix(for: limit, advice: advice)
        case .render(let problem, let badge):
            return BadgeError.prefix(badge: badge, path: problem.path) + words(for: problem, advice: advice)
        default: return error.message
        }
    }

    /// What to change, with its punctuation: ` (raise it with --max-side, ...)` or
    /// `; use a smaller --scale`.
    static func fix(for limit: LimitExceeded, advice: SizeAdvice = .heightOrDotSize) -> String {
        switch limit {
        case .badgeLargerThanIcon where advice != .heightOrDotSize:
            return advice.words
        case .imageSide: return " (raise it with --max-side, up to \(ImageLimits.cairoMaxSide))"
        case .imagePixels: return " (raise it with --max-pixels)"
        case .renderSide, .decoderMemory: return "; use a smaller --scale or --size"
        case .badgeSide: return "; use a smaller --font-size, --height or --scale"
        case .badgeLargerThanIcon:
            return "; use a smaller --font-size, --height or --scale, or --overflow clip|expand"
        case .expandedCanvas: return " (raise it with --max-side, or use a smaller --offset)"
        case .textPixels: return "; use a smaller --font-size or --scale"
        case .textLength: return ""
        case .textInk: return "; use a smaller --font-size, or a larger --height or --padding"
        }
    }

    /// A render problem in the command line's words: what is wrong and the options
    /// that change it (without the badge's number or the file's path).
    static func words(for problem: RenderProblem, advice: SizeAdvice = .heightOrDotSize) -> String {
        let px = RenderProblem.pixels
        switch problem {
        case .shapeHoldsText(let shape):
            return "a \(shape.rawValue) holds text: give --value or --text, not --dot or --image"
        case .expandWithSeveralBadges:
            return "--overflow expand grows the canvas for one badge; with several badges use clamp or clip"
        case .animationInPDF:
            return
                "PDF cannot hold an animation; write .png (APNG), .webp or .svg, or one file a frame with {frame} in -o"
        case .badgeOutsideShape(let fit):
            return fit.description + advice.words
        case .bandTextDoesNotFit(let fit):
            let floor = fit.floorIsMinimum ? "--min-text-px \(px(fit.floor))" : "its own size, under --min-text-px"
            let hint: String
            switch fit.reason {
            case .borderFillsBand: hint = "the border (--border-width) fills the band: make it thinner"
            case .middleOffShape:
                hint =
                    "the band's middle is not on the shape: place it elsewhere (--anchor\(fit.shape == .ribbon ? ", --ribbon-distance" : "")) or give the icon's shape (--platform)"
            case .textTooLong: hint = "shorten the text, widen the band (--height)"
            }
            return
                "the text \(Quoted(fit.text)) does not fit the \(fit.shape.rawValue) even at \(px(fit.pixels)) px (\(floor)): it needs \(px(fit.needed)) px of length with its padding and \(px(fit.textHeight)) px across, and the band holds \(px(fit.room)) × \(px(fit.across)) px; \(hint), or lower --min-text-px"
        case .bandTooThick:
            guard case .relativeSize = advice else { return problem.description + "; give a smaller --height" }
            return problem.description + advice.words
        case .shieldDoesNotFit(let fit):
            let floor = fit.floorIsMinimum ? "--min-text-px \(px(fit.floor))" : "its own size, under --min-text-px"
            return
                "the shield \(Quoted(fit.text)) does not fit the \(fit.platform.rawValue) shape (\(px(fit.shapeWidth)) px wide) even at \(px(fit.pixels)) px (\(floor)): its text makes it \(px(fit.width)) px wide; shorten the text, or lower --padding or --min-text-px"
        case .embeddedImagesOverLimit:
            return problem.description + " (the limits are set with --max-side and --max-pixels)"
        case .svgRenderSide(_, let width, let height):
            return problem.description + fix(for: .renderSide(width: width, height: height))
        case .overTimeLimit:
            return problem.description + " (the limit is set with --svg-time-limit)"
        case .outOfMemory:
            return problem.description + "; use a smaller --scale or --size, or a simpler SVG"
        }
    }

    /// An error as the reports (JUnit, HTML, JSON, a folder check's lines) give it:
    /// a render problem in the command line's words, as on standard error; any other
    /// error as its `message`, as the reports have always given it (a limit there
    /// says which, not the option that raises it).
    static func reportMessage(_ error: BadgeError) -> String {
        if case .render = error { return message(error) }
        return error.message
    }

    /// `outcomes` with every render problem worded for the reports written beside
    /// them (JUnit, HTML), which print an error's message (`reportMessage`).
    static func worded(_ outcomes: [JobOutcome]) -> [JobOutcome] {
        outcomes.map { outcome in
            guard case .failure(let error) = outcome.result, case .render = error else { return outcome }
            let text = reportMessage(error)
            var worded = outcome
            worded.result = .failure(error.exitCode == .usage ? .usage(text) : .badInput(path: "", reason: text))
            return worded
        }
    }
}

extension SizeAdvice {
    /// The advice, in parentheses: ` (set a smaller --relative-size: 0.22 fits every image)`.
    var words: String {
        switch self {
        case .heightOrDotSize: return " (set a smaller --height or --dot-size)"
        case .height: return " (set a smaller --height)"
        case .dotSize: return " (set a smaller --dot-size)"
        case .relativeSize(let largest?):
            return
                " (set a smaller --relative-size: \(RenderProblem.pixels(largest)) is the largest that fits every image)"
        case .relativeSize(nil): return " (set a smaller --relative-size; none from 0.01 up fits)"
        }
    }
}
