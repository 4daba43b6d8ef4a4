import BadgeCore
internal import CPngCodec

/// The straight-alpha pixels of a decoded PNG or WebP that premultiplied ARGB32 cannot
/// carry: 0 < alpha < 255 and un-premultiplying gives another colour (at alpha 16,
/// sixteen straight values share one premultiplied value). Kept beside the
/// premultiplied surface so that encoding writes them back exactly wherever the
/// badge left them alone: a hidden badge gives the icon's own pixels, and an
/// icon's semi-transparent edge is not rounded by a render. Usually a few edge
/// pixels, 8 bytes each. Immutable, so one icon may be shared across threads
/// (hence `@unchecked Sendable`: a buffer pointer, never written after init).
final class LostStraightPixels: @unchecked Sendable {
    fileprivate var storage: ib_straight_pixels

    /// Takes over what `ib_png_decode_argb32` or `ib_rgba_to_argb32` recorded; nil when
    /// it recorded none.
    init?(adopting storage: ib_straight_pixels) {
        guard storage.count > 0 else {
            var empty = storage
            ib_straight_pixels_free(&empty)
            return nil
        }
        self.storage = storage
    }

    deinit { ib_straight_pixels_free(&storage) }

    /// How many pixels are kept.
    var count: Int { storage.count }
}

/// An icon's lost straight pixels placed on a canvas: the icon's top-left pixel at
/// (`x`, `y`) (pixels), `width` the icon's width.
struct StraightRestore {
    let lost: LostStraightPixels
    let x: Int
    let y: Int
    let width: Int

    /// Calls `body` with the C form of `restore`, or with nil when it is nil.
    static func with<R>(_ restore: StraightRestore?, _ body: (UnsafePointer<ib_restore>?) throws(BadgeError) -> R)
        throws(BadgeError) -> R
    {
        guard let restore else { return try body(nil) }
        var form = ib_restore(
            pixels: restore.lost.storage.pixels, count: restore.lost.storage.count, x: Int64(restore.x),
            y: Int64(restore.y), width: UInt32(restore.width))
        return try withExtendedLifetime(restore.lost) { () throws(BadgeError) -> R in try body(&form) }
    }
}
