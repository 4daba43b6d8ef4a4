/// Bounds checked on untrusted input **before** it is decoded (docs/DESIGN.md
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
    /// Longest one SVG render may take (seconds), `--svg-time-limit`; 0 means no
    /// limit. librsvg's own limit (500,000 referenced elements) takes about 5 s to
    /// reach on a 2-core machine, so 4 s stops such a document first.
    public var svgTimeLimit: Double = 4

    /// Cairo's largest image surface side (pixels), a hard ceiling.
    public static let cairoMaxSide = 32767

    /// The defaults of docs/DESIGN.md.
    public init() {}
}
