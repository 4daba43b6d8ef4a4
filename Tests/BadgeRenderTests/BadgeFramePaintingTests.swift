import BadgeCore
import TestSupport
import Testing

@testable import BadgeRender

/// A frame of an animation is the static badge at rest, nothing when fully faded, and
/// something else in between: the painter's scale about the centre and opacity.
@Suite struct BadgeFramePaintingTests {
    static let icon = Paths.fixture("icons/folder-512x512.png")

    private func pixels(_ state: BadgeFrameState) throws -> PixelBuffer {
        let scene = try Renderer().compose(RenderRequest(iconPath: Self.icon, content: .value("3"), scale: 3))
        return try scene.pixels(at: state)
    }

    @Test func restIsTheStaticBadgeAndAFadedOneIsTheIcon() throws {
        let still = try Renderer().compose(RenderRequest(iconPath: Self.icon, content: .value("3"), scale: 3)).pixels()
        let iconAlone = try ImageFile.pixels(at: Self.icon)
        let rest = try pixels(.rest)
        let faded = try pixels(BadgeFrameState(scale: 1, opacity: 0, showsOldValue: false))
        let half = try pixels(BadgeFrameState(scale: 1, opacity: 0.5, showsOldValue: false))
        let big = try pixels(BadgeFrameState(scale: 1.5, opacity: 1, showsOldValue: false))
        #expect(rest == still)
        #expect(faded == iconAlone)
        #expect(half != still && big != still && half != big)
    }
}
