import BadgeCore

extension Scene {
    /// The formats an animation can be written in: APNG (`.png`), animated WebP and
    /// animated SVG. PDF has no animation.
    public static func animates(_ format: OutputFormat) -> Bool { format != .pdf }

    /// The scene animated by `animation`, in `format`:
    /// - `.png`: an APNG (`AnimatedPNGWriter`) whose default image is the static render;
    /// - `.webp`: an animated WebP through libwebp's WebPAnimEncoder, lossless;
    /// - `.svg`: the static SVG split into a still layer and a moving badge, animated
    ///   by CSS `@keyframes` with the same timing functions (`AnimatedSVG`).
    ///
    /// Frame k is the scene painted at t = k / fps (`BadgeAnimation.state(at:)`,
    /// `ScenePainter.paint(_:at:)`), as vectors at its scale. Only the first badge
    /// moves.
    ///
    /// - Throws: `BadgeError.usage` (64) for PDF or a canvas WebP cannot hold; the
    ///   drawing and encoding errors of the static outputs (65, 69, 70).
    public func animatedData(
        format: OutputFormat, animation: BadgeAnimation, compression: PNGCompression = .default,
        encoderThreads: Int = 0
    ) throws(BadgeError) -> [UInt8] {
        switch format {
        case .png: return try animatedPNG(animation, compression: compression, threads: encoderThreads)
        case .webp: return try animatedWebP(animation)
        case .svg: return try animatedSVG(animation)
        case .pdf: throw .render(.animationInPDF)
        }
    }

    /// The frame with `state`, straight RGBA as `pixels()` gives the static render
    /// (a frame at rest is exactly those pixels).
    ///
    /// - Throws: `BadgeError.internalError` when Cairo fails; 65 when an SVG fails.
    public func framePixels(_ state: BadgeFrameState) throws(BadgeError) -> PixelBuffer {
        try pixels(at: state)
    }

    /// Where the moving badge is drawn in a frame with `state` (pixels, the badge's
    /// rectangle scaled about its centre); nil when nothing is drawn (hidden, or
    /// fully transparent).
    public func animatedBadgeRect(_ state: BadgeFrameState) -> Rect? {
        (state.showsOldValue ? previous : badge)?.rect(at: state)
    }

    private func animatedPNG(_ animation: BadgeAnimation, compression: PNGCompression, threads: Int)
        throws(BadgeError) -> [UInt8]
    {
        let still = try pixels()
        let png = try PNGCodec.encodeWithAlpha(
            still, color: icon.decoded.color, compression: compression, threads: threads)
        var writer = try AnimatedPNGWriter(
            defaultImage: png, width: canvasWidth, height: canvasHeight, frameCount: animation.frameCount,
            loops: animation.loops, compression: compression, threads: threads)
        let delays = animation.delays
        for (k, state) in animation.frames.enumerated() {
            try writer.append(frame: try framePixels(state), delay: delays[k])
        }
        return writer.finish()
    }

    private func animatedWebP(_ animation: BadgeAnimation) throws(BadgeError) -> [UInt8] {
        try WebPCodec.checkSize(width: canvasWidth, height: canvasHeight)
        let encoder = try AnimatedWebPEncoder(width: canvasWidth, height: canvasHeight, loops: animation.loops)
        let times = animation.millisecondTimestamps
        for (k, state) in animation.frames.enumerated() {
            try encoder.add(try framePixels(state), timestamp: times[k])
        }
        return try encoder.finish(end: times[animation.frameCount])
    }

    private func animatedSVG(_ animation: BadgeAnimation) throws(BadgeError) -> [UInt8] {
        let still = try layerSVG(.still, at: .rest)
        let moving = try layerSVG(.moving, at: .rest)
        let old =
            animation.kind == .pop && previous?.layout != nil
            ? try layerSVG(.moving, at: BadgeFrameState(scale: 1, opacity: 1, showsOldValue: true)) : nil
        let centre = badge.layout.map { $0.band?.centre ?? $0.badgeRect.center } ?? Point(x: 0, y: 0)
        return Array(
            AnimatedSVG.document(
                width: canvasWidth, height: canvasHeight, still: still, moving: moving, old: old, centre: centre,
                animation: animation
            ).utf8)
    }

    /// The static SVG of one layer at `frame`.
    private func layerSVG(_ layers: SceneLayers, at frame: BadgeFrameState) throws(BadgeError) -> String {
        let painting = VectorPainting(format: .svg, frame: frame, layers: layers, creationDate: nil)
        return String(decoding: try vectorData(painting), as: UTF8.self)
    }
}

extension BadgeAnimation {
    /// Frame k's start in whole milliseconds (WebP's unit), k = 0...frameCount, the
    /// last being the end of the last frame: each exact time (k / fps, the delays'
    /// sums) rounded, so the error never adds up past half a millisecond; at least 1
    /// ms apart.
    public var millisecondTimestamps: [Int] {
        var times: [Int] = []
        var seconds = 0.0
        for (k, delay) in ([(0, 1)] + delays).enumerated() {
            if k > 0 { seconds += Double(delay.numerator) / Double(delay.denominator) }
            let ms = Int((seconds * 1000).rounded())
            times.append(max(ms, (times.last ?? -1) + 1))
        }
        return times
    }
}
