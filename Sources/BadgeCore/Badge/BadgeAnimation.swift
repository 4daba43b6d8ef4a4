/// How a badge moves: one of the animations of the iOS badge libraries this tool
/// reproduces, with its timing.
///
/// - `bounce`: the badge appears at 1.5 × its size and settles to 1 ×, about its
///   centre, in 0.2 s with `cubic-bezier(0.4, 1.3, 1, 1)`, which overshoots (the
///   badge dips to 0.985 × before it settles): `UIBarButtonItem+Badge`'s animation
///   when its value changes.
/// - `fadeOut`: opacity 1 → 0 in 0.2 s, ease-in (`cubic-bezier(0.42, 0, 1, 1)`), then
///   the badge is gone: `UIView+Badge` when its count goes to 0.
/// - `fadeIn`: the reverse of `fadeOut` in time, opacity 0 → 1, ease-out.
/// - `pop`: a value change. The old value fades out (as `fadeOut`, ease-in), then the
///   new value bounces in (as `bounce`): the two libraries' animations back to back,
///   each at its own duration.
public enum BadgeAnimationKind: String, CaseIterable, Sendable {
    case bounce
    case fadeOut = "fade-out"
    case fadeIn = "fade-in"
    case pop

    /// The duration of the libraries' animations: 0.2 s (CABasicAnimation in both).
    public var defaultDuration: Double { self == .pop ? 0.4 : 0.2 }

    /// The curve of each phase when `--easing` is not given.
    public var defaultEasing: Easing {
        switch self {
        case .bounce, .pop: return Easing.bounce
        case .fadeOut: return .easeIn
        case .fadeIn: return .easeOut
        }
    }
}

extension Easing {
    /// `UIBarButtonItem+Badge`'s bounce: control points (0.4, 1.3) and (1, 1).
    public static let bounce = try! Easing(x1: 0.4, y1: 1.3, x2: 1, y2: 1)
}

/// What one frame shows of an animated badge: its scale about its centre and its
/// opacity (0...1), and which value it shows in a `pop`.
public struct BadgeFrameState: Equatable, Sendable {
    /// The badge's scale about its centre (1 at rest; below 0 turns it, as CSS
    /// `scale()` does).
    public var scale: Double
    /// The badge's opacity as one layer, 0...1 (1 at rest).
    public var opacity: Double
    /// In a `pop`, whether the frame shows the old value; false otherwise.
    public var showsOldValue: Bool

    /// The static badge: scale 1, opaque.
    public static let rest = BadgeFrameState(scale: 1, opacity: 1, showsOldValue: false)

    /// A state from its parts (`opacity` in 0...1).
    public init(scale: Double, opacity: Double, showsOldValue: Bool) {
        self.scale = scale
        self.opacity = opacity
        self.showsOldValue = showsOldValue
    }
}

/// An animation's timing: which kind, how long, at how many frames a second, with
/// which curve, and how often it plays.
public struct BadgeAnimation: Equatable, Sendable {
    /// How the badge moves.
    public var kind: BadgeAnimationKind
    /// Seconds, > 0 and at most `maxDuration`.
    public var duration: Double
    /// Frames a second, 1...240.
    public var fps: Int
    /// The curve; nil keeps the kind's own (`BadgeAnimationKind.defaultEasing`), and a
    /// `pop` then eases each phase with its own.
    public var easing: Easing?
    /// How many times it plays; 0 forever (APNG's and WebP's convention).
    public var loops: Int

    /// The longest animation: 10 s.
    public static let maxDuration = 10.0
    /// The most frames a second: 240.
    public static let maxFPS = 240
    /// The most frames one animation may have: 601, so that the longest animation
    /// at the default rate fits (10 s at 60 frames a second, both ends drawn).
    public static let maxFrames = 601
    /// The shortest animation: 1 ms. Shorter ones are refused rather than drawn as a
    /// start and an end a few nanoseconds apart.
    public static let minDuration = 0.001
    /// The most pixels all frames together may have: 2^28 (256 frames of 1024 × 1024,
    /// 1 GiB of RGBA drawn in all), so no animation makes a render run for minutes.
    public static let maxTotalPixels = 1 << 28
    /// The largest |y| of an `--easing` control point: 10. The badge's scale is
    /// 1.5 − 0.5 y, so a larger overshoot would only draw it past any canvas.
    public static let maxEasingY = 10.0
    /// The default: 60 frames a second.
    public static let defaultFPS = 60
    /// The default: play once, as the libraries do, and rest on the last frame.
    public static let defaultLoops = 1

    /// An animation of `kind`; a nil `duration` is the kind's own (0.2 s, pop 0.4 s).
    /// The values are taken as given: the option parsers check their ranges.
    public init(
        kind: BadgeAnimationKind, duration: Double? = nil, fps: Int = defaultFPS, easing: Easing? = nil,
        loops: Int = defaultLoops
    ) {
        self.kind = kind
        self.duration = duration ?? kind.defaultDuration
        self.fps = fps
        self.easing = easing
        self.loops = loops
    }

    /// The number of frames: frame k shows t = k / fps, from 0 up to and including
    /// the end (t = duration), so the last frame is the state at rest. A duration that
    /// is not a whole number of frames ends on a shorter last frame (`delays`).
    public var frameCount: Int {
        // At least the start and the end. A duration within 1/10,000 of a frame of a
        // whole number of frames is that number (0.2 × 60 is 12.000000000000002 in
        // doubles; 0.0166667 s at 60 fps is one step, not one and a 33 ns one).
        max(2, Int((duration * Double(fps) - 1e-4).rounded(.up)) + 1)
    }

    /// The time frame k shows, seconds: k / fps, and the duration for the last frame.
    public func time(ofFrame k: Int) -> Double {
        min(duration, Double(k) / Double(fps))
    }

    /// Each frame's delay (how long it shows, seconds) as an exact fraction
    /// (numerator, denominator): 1/fps, except a shorter last step when the duration
    /// is not a whole number of frames; the last frame (the badge at rest) shows for
    /// 1/fps before a loop starts again, and stays when the animation ends.
    public var delays: [(numerator: Int, denominator: Int)] {
        let count = frameCount
        return (0..<count).map { k in
            guard k + 2 == count else { return (1, fps) }
            let step = time(ofFrame: k + 1) - time(ofFrame: k)
            return step >= 1 / Double(fps) - 1e-9 ? (1, fps) : Self.fraction(step)
        }
    }

    /// `seconds` (0 < seconds ≤ 1) as the fraction nearest to it whose numerator and
    /// denominator fit APNG's 16-bit delay fields: the continued fraction's last
    /// convergent or semiconvergent with a denominator ≤ 65535 (exact for a step such as
    /// 1/40 or 1/30), and at least 1/65535 s.
    static func fraction(_ seconds: Double) -> (numerator: Int, denominator: Int) {
        let limit = 65535
        guard seconds * Double(limit) >= 1 else { return (1, limit) }
        // Convergents h/k of the continued fraction of `seconds`.
        var (h0, h1) = (0, 1)
        var (k0, k1) = (1, 0)
        var x = seconds
        var best = (1, limit)
        for _ in 0..<64 {
            let a = Int(x.rounded(.down))
            let (h2, k2) = (a * h1 + h0, a * k1 + k0)
            if k2 > limit || h2 > limit {
                // The largest semiconvergent that still fits, if nearer than the last convergent.
                let t = min((limit - k0) / max(1, k1), h1 > 0 ? (limit - h0) / h1 : Int.max)
                let semi = (t * h1 + h0, t * k1 + k0)
                if t > 0, semi.1 > 0,
                    abs(Double(semi.0) / Double(semi.1) - seconds) < abs(Double(best.0) / Double(best.1) - seconds)
                {
                    best = semi
                }
                break
            }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            if k1 > 0, h1 > 0 { best = (h1, k1) }
            let rest = x - Double(a)
            if rest < 1e-12 { break }
            x = 1 / rest
        }
        return best
    }

    /// The largest scale the badge reaches at any time, not only at the frames (the
    /// SVG's animation is continuous), at least 1: how much room `--overflow expand`
    /// makes. The scale is 1.5 − 0.5 y, largest where the curve's y is smallest or,
    /// turned (negative), largest.
    public var largestScale: Double {
        guard kind == .bounce || kind == .pop else { return 1 }
        let curve = easing ?? .bounce
        return [abs(1.5 - 0.5 * curve.trough), abs(1.5 - 0.5 * curve.peak.progress)].reduce(1, max)
    }

    /// The largest `largestScale` can be: 1.5 + 0.5 × `maxEasingY`.
    public static let maxRoom = 1.5 + 0.5 * maxEasingY

    /// The badge at time t (seconds from the start).
    public func state(at t: Double) -> BadgeFrameState {
        let x = duration > 0 ? t / duration : 1
        switch kind {
        case .bounce:
            return BadgeFrameState(scale: bounceScale(x, easing ?? .bounce), opacity: 1, showsOldValue: false)
        case .fadeOut:
            return BadgeFrameState(
                scale: 1, opacity: Self.opacity(1 - (easing ?? .easeIn).progress(at: x)), showsOldValue: false)
        case .fadeIn:
            return BadgeFrameState(
                scale: 1, opacity: Self.opacity((easing ?? .easeOut).progress(at: x)), showsOldValue: false)
        case .pop:
            // The first half fades the old value out, the second bounces the new in.
            if x < 0.5 {
                let opacity = Self.opacity(1 - (easing ?? .easeIn).progress(at: x * 2))
                return BadgeFrameState(scale: 1, opacity: opacity, showsOldValue: true)
            }
            return BadgeFrameState(scale: bounceScale(x * 2 - 1, easing ?? .bounce), opacity: 1, showsOldValue: false)
        }
    }

    /// An opacity clamped to 0...1, as CSS clamps a computed `opacity` (a curve whose
    /// y leaves 0...1 overshoots scale, never opacity).
    static func opacity(_ value: Double) -> Double { min(1, max(0, value)) }

    /// 1.5 → 1 as `easing` goes 0 → 1: 1.5 − 0.5 y, so an overshoot of y dips below 1.
    private func bounceScale(_ x: Double, _ easing: Easing) -> Double {
        1.5 - 0.5 * easing.progress(at: x)
    }

    /// The states of every frame, in order.
    public var frames: [BadgeFrameState] { (0..<frameCount).map { state(at: time(ofFrame: $0)) } }
}
