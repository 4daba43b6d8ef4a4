import Testing

@testable import BadgeCore

/// The frame model: which times the frames show, their delays, and the badge's state
/// at each (the libraries' curves and durations by default).
@Suite struct BadgeAnimationTests {
    @Test func framesCoverTheDurationEndToEnd() {
        let bounce = BadgeAnimation(kind: .bounce)
        #expect(bounce.duration == 0.2 && bounce.fps == 60)
        #expect(bounce.frameCount == 13, "t = 0, 1/60, ..., 12/60 = 0.2")
        #expect(bounce.time(ofFrame: 12) == 0.2)
        #expect(bounce.delays.allSatisfy { $0 == (1, 60) })
        let odd = BadgeAnimation(kind: .fadeOut, duration: 0.21, fps: 60)
        #expect(odd.frameCount == 14)
        #expect(odd.time(ofFrame: 13) == 0.21)
        #expect(odd.delays[12] == (1, 100), "0.2 s to 0.21 s")
        #expect(odd.delays[11] == (1, 60) && odd.delays[13] == (1, 60))
    }

    @Test func statesFollowTheCurves() {
        let bounce = BadgeAnimation(kind: .bounce)
        #expect(bounce.state(at: 0) == BadgeFrameState(scale: 1.5, opacity: 1, showsOldValue: false))
        #expect(bounce.state(at: 0.2) == .rest, "the last frame is the static badge")
        // The overshoot: y peaks at 1.0299169, so the scale dips to 1.5 − 0.5 × that.
        let smallest = bounce.frames.map(\.scale).min()!
        #expect(smallest < 1 && smallest >= 1.5 - 0.5 * Easing.bounce.peak.progress - 1e-12)
        let fade = BadgeAnimation(kind: .fadeOut)
        #expect(fade.state(at: 0).opacity == 1 && fade.state(at: 0.2).opacity == 0)
        #expect(abs(fade.state(at: 0.1).opacity - (1 - 0.315356812573)) < 5e-6, "ease-in at half time")
        let appear = BadgeAnimation(kind: .fadeIn)
        #expect(appear.state(at: 0).opacity == 0 && appear.state(at: 0.2) == .rest)
        let pop = BadgeAnimation(kind: .pop)
        #expect(pop.duration == 0.4)
        #expect(pop.state(at: 0) == BadgeFrameState(scale: 1, opacity: 1, showsOldValue: true))
        #expect(pop.state(at: 0.2) == BadgeFrameState(scale: 1.5, opacity: 1, showsOldValue: false))
        #expect(pop.state(at: 0.4) == .rest)
    }

    /// Delays fit APNG's 16-bit fields: exact where the step is a fraction that fits,
    /// the nearest that fits otherwise, never 0 and never a second for a tiny step.
    @Test func delaysAreTheNearestFractionThatFits() {
        #expect(BadgeAnimation.fraction(0.025) == (1, 40))
        #expect(BadgeAnimation.fraction(1.0 / 30) == (1, 30))
        #expect(BadgeAnimation.fraction(0.0333) == (333, 10000))
        #expect(BadgeAnimation.fraction(1e-9) == (1, 65535))
        let tiny = BadgeAnimation.fraction(0.0167 - 1.0 / 60)
        #expect(tiny.numerator == 1 && tiny.denominator > 29000 && tiny.denominator < 31000, "\(tiny)")
        // A duration just past a frame: a start, the frame, and the end a moment later.
        let short = BadgeAnimation(kind: .bounce, duration: 0.0167)
        #expect(short.frameCount == 3)
        #expect(short.delays[0] == (1, 60) && short.delays[2] == (1, 60))
        #expect(short.delays[1].denominator > 29000)
        // The shortest animation still has its start and its end.
        let blink = BadgeAnimation(kind: .fadeOut, duration: BadgeAnimation.minDuration, fps: 7)
        #expect(blink.frameCount == 2)
        #expect(blink.frames.last?.opacity == 0)
        #expect(BadgeAnimation(kind: .bounce, duration: 10, fps: 60).frameCount == BadgeAnimation.maxFrames)
    }

    /// The room `--overflow expand` makes is the curve's largest scale, between frames too.
    @Test func largestScaleIsTheCurves() throws {
        #expect(abs(BadgeAnimation(kind: .bounce).largestScale - 1.5) < 1e-12)
        #expect(BadgeAnimation(kind: .fadeOut).largestScale == 1)
        // y dips to its trough between frames at 1 fps: the room is the trough's.
        let dip = try Easing(x1: 1, y1: -10, x2: 1, y2: -10)
        #expect(dip.trough < -7)
        let animation = BadgeAnimation(kind: .bounce, duration: 1, fps: 1, easing: dip)
        #expect(abs(animation.largestScale - (1.5 - 0.5 * dip.trough)) < 1e-12)
        #expect(animation.frames.map { abs($0.scale) }.max()! < animation.largestScale)
        // A curve peaking past y = 3 turns the badge: the room is |1.5 − 0.5 × peak|.
        let turn = try Easing(x1: 0, y1: 10, x2: 1, y2: 10)
        #expect(turn.peak.progress > 7)
        #expect(abs(BadgeAnimation(kind: .pop, easing: turn).largestScale - (0.5 * turn.peak.progress - 1.5)) < 1e-12)
        #expect(Easing.bounce.trough == 0)
    }
}
