import BadgeCore
import Foundation
import TestSupport
import Testing

@testable import BadgeRender

/// The batch icon cache: one entry per file however spelled, and no more decoded
/// pixels than its budget.
@Suite struct IconCacheTests {
    static let icon = Paths.fixture("icons/folder-512x512.png")

    @Test func spellingsOfOneFileAreOneEntry() throws {
        let cache = IconCache()
        let folder = Paths.fixture("icons")
        for path in [
            Self.icon, folder + "/./folder-512x512.png", folder + "//folder-512x512.png",
            folder + "/x/../folder-512x512.png",
        ] {
            _ = try? cache.icon(path, sizing: ImageSizing(), limits: ImageLimits())
        }
        // "x/.." does not exist as a folder: the kernel refuses that spelling, which is
        // a failure cached under its own key, not a second decoded image.
        #expect(cache.heldBytes == 512 * 512 * 4)
    }

    @Test func theBudgetDropsTheLeastRecentlyUsed() throws {
        let cache = IconCache(byteBudget: 512 * 512 * 4 + 1)
        _ = try cache.icon(Self.icon, sizing: ImageSizing(), limits: ImageLimits())
        _ = try cache.icon(Paths.fixture("icons/user-trash-256x256.png"), sizing: ImageSizing(), limits: ImageLimits())
        #expect(cache.heldBytes == 256 * 256 * 4, "the 512 px icon was dropped for the newer one")
        var sizing = ImageSizing()
        sizing.size = (1024, 1024)
        _ = try cache.icon(Self.icon, sizing: sizing, limits: ImageLimits())
        #expect(cache.heldBytes == 1024 * 1024 * 4, "the newest stays, however large")
    }
}
