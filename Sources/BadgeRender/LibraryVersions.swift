internal import CBidi
internal import CCairo
internal import CFontconfig
internal import CFreeType
internal import CHarfBuzz
internal import CImageLoaders
internal import CJpegCodec
internal import CLibPng
internal import CLittleCMS
internal import CPngCodec
internal import CWebP

/// The versions of the C libraries iconbadge runs with, for `--version`, so a CI
/// log shows what made a golden.
public enum LibraryVersions {
    /// Name and version of each library, in a fixed order. FreeType's is read from
    /// a library instance; fontconfig's from `FcGetVersion`, which does not load
    /// its configuration; libjpeg-turbo's and libdeflate's from the headers they were
    /// built with; librsvg's, gdk-pixbuf's and the system Cairo librsvg draws with by asking
    /// iconbadge-loader, which opens them (iconbadge never does). Each library linked into the executable
    /// (scripts/link-static-libs.sh) says "(static)", so a log shows which build made
    /// an image.
    public static func all() -> [(name: String, version: String)] {
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        var library: FT_Library?
        if FT_Init_FreeType(&library) == 0, let library {
            FT_Library_Version(library, &major, &minor, &patch)
            FT_Done_FreeType(library)
        }
        let fc = FcGetVersion()
        let fribidi = String(cString: ib_bidi_version())
        let cairo = (cairo_version_string as @convention(c) () -> UnsafePointer<CChar>?)
        let fontconfig = (FcGetVersion as @convention(c) () -> Int32)
        let cairoLinkage = linkage(of: unsafeBitCast(cairo, to: UnsafeRawPointer.self))
        let fontconfigLinkage = linkage(of: unsafeBitCast(fontconfig, to: UnsafeRawPointer.self))
        let fribidiLinkage = ib_bidi_library_function().map { linkage(of: $0) } ?? ""
        let harfbuzz = (hb_version_string as @convention(c) () -> UnsafePointer<CChar>?)
        let harfbuzzLinkage = linkage(of: unsafeBitCast(harfbuzz, to: UnsafeRawPointer.self))
        let freetype = (FT_Init_FreeType as @convention(c) (UnsafeMutablePointer<FT_Library?>?) -> FT_Error)
        let png = (png_access_version_number as @convention(c) () -> png_uint_32)
        let webp = (WebPGetDecoderVersion as @convention(c) () -> Int32)
        let lcms = (cmsGetEncodedCMMversion as @convention(c) () -> Int32)
        let webpVersion = WebPGetDecoderVersion()
        let lcmsVersion = cmsGetEncodedCMMversion()
        return [
            ("cairo", String(cString: cairo_version_string()) + cairoLinkage),
            (
                "freetype",
                "\(major).\(minor).\(patch)" + linkage(of: unsafeBitCast(freetype, to: UnsafeRawPointer.self))
            ),
            ("harfbuzz", String(cString: hb_version_string()) + harfbuzzLinkage),
            ("fontconfig", "\(fc / 10000).\(fc / 100 % 100).\(fc % 100)" + fontconfigLinkage),
            (
                "libpng",
                String(cString: png_get_libpng_ver(nil)) + linkage(of: unsafeBitCast(png, to: UnsafeRawPointer.self))
            ),
            ("fribidi", fribidi + fribidiLinkage),
            ("zlib", String(cString: ib_zlib_version()) + ib_zlib_library_function().map { linkage(of: $0) }!),
            (
                "libdeflate",
                String(cString: ib_deflate_version()) + ib_deflate_library_function().map { linkage(of: $0) }!
            ),
            (
                "libwebp",
                "\(webpVersion >> 16).\((webpVersion >> 8) & 0xFF).\(webpVersion & 0xFF)"
                    + linkage(of: unsafeBitCast(webp, to: UnsafeRawPointer.self))
            ),
            (
                "lcms2",
                "\(lcmsVersion / 1000).\(lcmsVersion / 10 % 100)"
                    + linkage(of: unsafeBitCast(lcms, to: UnsafeRawPointer.self))
            ),
            ("libjpeg-turbo", String(cString: ib_jpeg_version()) + ib_jpeg_library_function().map { linkage(of: $0) }!),
        ] + IsolatedLoader.loaderVersions()
    }

    /// " (static)" when `function` is linked into the executable, "" when it comes
    /// from a shared library.
    private static func linkage(of function: UnsafeRawPointer) -> String {
        ib_is_linked_in(function) != 0 ? " (static)" : ""
    }

    /// The bundled font's name and version string, from its `name` table.
    public static let bundledFont = "DejaVu Sans 2.37 (Bold and Book)"
}
