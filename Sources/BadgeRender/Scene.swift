import BadgeCore

/// What one render draws, decided once: the canvas, the icon layer, the colour
/// conversion and every badge, as plain values.
///
/// Built by `SceneBuilder` (through `Renderer.compose`) from a `RenderRequest`, and
/// never changed: every stored property is a `let`, and so are the badges' and the
/// icon layer's. Painters are functions of it: the raster (`Scene+Raster.swift`),
/// SVG and PDF (`Scene+Vector.swift`), an animation's frames (`paint(at:)` in
/// `ScenePainter`, `Scene+Animation.swift`), and which of its layers a painter draws
/// (`SceneLayers`). Painting a scene twice gives the same bytes.
///
/// The only thing a painter may change is pixels the scene owns alone
/// (`IconPixels.owned`): its one raster output may paint the badges onto them in
/// place, once (`OwnedSurface`).
public struct Scene {
    /// The output canvas (pixels): the icon's size, or grown by expand placement.
    public let canvasWidth: Int
    /// The output canvas's height (pixels).
    public let canvasHeight: Int
    /// The icon: its pixels or vector document, where it is drawn, its mask and the
    /// filters its pixels went through.
    public let icon: IconLayer
    /// sRGB into the icon's colour space, when its chunks describe another one: the
    /// badges' colours are converted already, a badge image's pixels when drawn.
    let colorConversion: ColorConversion?
    /// Every badge of the render, in drawing order; at least one. A hidden badge
    /// (a count of 0) is here too, with no layout.
    public let badges: [Badge]
    /// A pop's old value of the first badge (`RenderRequest.Animation.previousContent`),
    /// drawn in the frames whose state shows it; nil otherwise.
    public let previous: Badge?
    /// The frame still outputs show (`RenderRequest.Animation.frame`): `.rest` but for
    /// one frame of an animation written on its own.
    public let frame: BadgeFrameState
    /// The platform whose shape placed the badges.
    public let platform: IconPlatform
    /// Notes about the whole render (a non-square icon on a square platform, 16 bits,
    /// colours not converted); each badge has its own (`Badge.notes`).
    public let notes: [RenderNote]
    /// What its outputs hold: the icon and the badges, or one of them
    /// (`RenderRequest.Output.layers`); an animated SVG splits its layers its own way.
    let stillLayers: SceneLayers

    /// The first badge: the one an animation moves, and the report's `badge`.
    public var badge: Badge { badges[0] }

    /// The canvas as a rectangle at the origin (pixels).
    var canvasRect: Rect { Rect(x: 0, y: 0, width: Double(canvasWidth), height: Double(canvasHeight)) }

    /// Whether an SVG document (the icon or a badge image) is drawn as vectors into
    /// SVG and PDF outputs. A filtered SVG icon is drawn as its filtered pixels.
    var drawsSVG: Bool { icon.vector != nil || badges.contains { $0.image?.svg != nil } }

    /// Whether a pop's old value is drawn: the animation shows a badge even when the
    /// new value is hidden.
    public var drawsPreviousValue: Bool { previous?.layout != nil }

    /// Every note of the render, each once: the render's, then each badge's in order.
    public var allNotes: [RenderNote] {
        var all = notes
        for note in badges.flatMap(\.notes) where !all.contains(note) { all.append(note) }
        return all
    }
}
