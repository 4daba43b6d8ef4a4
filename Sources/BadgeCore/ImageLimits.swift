/// Bounds checked on untrusted input **before** it is decoded (DESIGN.md
/// "Errors, exit codes, output safety"); each has a flag that changes it.
public struct ImageLimits: Equatable, Sendable {
    /// Longest allowed side (pixels), `--max-side`; never above Cairo's 32767.
    public var maxSide: Int = 8192
    /// Largest allowed width × height (pixels), `--max-pixels` (67,108,864 = 8192²).
    public var maxPixels: Int = 67_108_864
    /// Largest raster file (bytes): 32 MiB.
    public var maxRasterBytes: Int = 32 << 20
    /// Largest SVG document after gunzip (bytes): 10 MiB.
    public var maxSVGBytes: Int = 10 << 20
    /// Largest PNG ancillary (metadata) chunk (bytes): 8 MB, as libpng's own
    /// `png_set_chunk_malloc_max` default suggests; a larger one is refused.
    public var maxMetadataChunk: Int = 8_000_000

    /// Cairo's largest image surface side (pixels), a hard ceiling.
    public static let cairoMaxSide = 32767

    /// The defaults of DESIGN.md.
    public init() {}
}
