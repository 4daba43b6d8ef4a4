import BadgeCore
import BadgeRender
import TestSupport
import Testing

@Suite struct DeterminismTests {
    @Test func sameRequestSameBytesInOneProcess() throws {
        let request = RenderRequest(
            iconPath: Paths.fixture("icons/folder-512x512.png"), content: .value("99+"), scale: 3)
        let first = try Renderer().compose(request).pngData()
        let renderer = try Renderer()
        let second = try renderer.compose(request).pngData()
        let third = try renderer.compose(request).pngData()
        #expect(first == second)
        #expect(second == third)
    }

    @Test func encodeDecodeKeepsEveryPixel() throws {
        // Translucent edges survive un-premultiply and premultiply unchanged.
        let request = RenderRequest(iconPath: Paths.fixture("icons/user-trash-256x256.png"), content: .value("8"))
        let composition = try Renderer().compose(request)
        let pixels = try composition.pixels()
        let decoded = try ImageFile.pixels(of: try composition.pngData(), path: "memory")
        #expect(decoded == pixels)
    }

    @Test func hiddenBadgeLeavesTheIconUnchanged() throws {
        let path = Paths.fixture("icons/folder-48x48.png")
        let composition = try Renderer().compose(RenderRequest(iconPath: path, content: .value("0")))
        #expect(composition.badge.hidden == .zero)
        // Exactly the icon's pixels, translucent edge included (restored after
        // Cairo's premultiplied form).
        #expect(try composition.pixels() == (try ImageFile.pixels(at: path)))
    }
}

@Suite struct InPlaceRasterTests {
    @Test func drawingOnTheIconGivesTheSameBytes() throws {
        let request = RenderRequest(
            iconPath: Paths.fixture("icons/folder-512x512.png"), content: .value("42"), scale: 3)
        let copy = try Renderer().compose(request).pngData()
        let consumed = try Renderer().compose(request).pngData(consumingIcon: true)
        #expect(copy == consumed)
    }

    @Test func vectorOutputAfterConsumingIsRefused() throws {
        let composition = try Renderer().compose(
            RenderRequest(iconPath: Paths.fixture("icons/folder-48x48.png"), content: .value("3")))
        _ = try composition.pngData(consumingIcon: true)
        #expect(throws: BadgeError.self) { try composition.svgData() }
        // The raster is kept: asking again gives the same bytes, not a second badge.
        #expect(try composition.pngData() == (try composition.pngData(consumingIcon: true)))
    }
}
