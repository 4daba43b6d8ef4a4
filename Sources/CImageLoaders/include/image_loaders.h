#ifndef ICONBADGE_IMAGE_LOADERS_H
#define ICONBADGE_IMAGE_LOADERS_H
#include <stddef.h>
#include <stdint.h>

// Glue for the image formats beyond PNG: librsvg for SVG, gdk-pixbuf for JPEG,
// WebP, GIF, BMP, TIFF and ICO, zlib for SVGZ.
//
// librsvg and gdk-pixbuf are opened with dlopen on first use, never linked: linking
// librsvg (and the GLib, GIO and Pango it pulls in) costs about 10 ms at every
// process start, twice a whole PNG badge render. Their few functions are declared
// here with GLib's stable ABI, so no GLib header is needed either.
// All pixels cross in Cairo's ARGB32 layout (premultiplied, native-endian words).

enum {
    IB_IMAGE_OK = 0,
    IB_IMAGE_CORRUPT = 1,     // the loader rejected the data; message says why
    IB_IMAGE_TOO_LARGE = 2,   // over the caller's limits (checked from the header)
    IB_IMAGE_UNAVAILABLE = 3, // the library or the format's loader is not installed
    IB_IMAGE_NO_MEMORY = 4
};

/// Decodes `size` bytes with gdk-pixbuf's loader named `type` ("jpeg", "gif", "bmp",
/// "tiff", "ico", "webp"): only that loader runs, never gdk-pixbuf's own sniffing,
/// so the allowlist is the caller's. The size is checked against `max_side` and
/// `max_pixels` when the loader reports it, before pixels are allocated. GIF gives
/// its first frame. On success `*pixels` is a malloc'd ARGB32 buffer, stride w × 4.
int ib_pixbuf_decode(const uint8_t *data, size_t size, const char *type, int max_side, int64_t max_pixels,
                     uint8_t **pixels, int *width, int *height, char *error, size_t error_size);

/// Parses an SVG document held in memory with librsvg, with no base file: external
/// files, entities and XIncludes are never read. Returns an opaque handle (free it
/// with ib_svg_free), or NULL with a reason in `error` and `*status` set.
/// `*width`, `*height`: the intrinsic size in CSS pixels at 96 DPI, or the viewBox
/// size when only a viewBox is given; `*has_size` is 0 when neither exists.
void *ib_svg_load(const uint8_t *data, size_t size, double *width, double *height, int *has_size, int *status,
                  char *error, size_t error_size);

/// Renders the document into the Cairo context `cairo` (a `cairo_t *`), fitted into
/// the viewport (x, y, w, h) as the document's preserveAspectRatio says. Used in
/// process only for vector outputs, after the isolated decoder (below) has rendered
/// the same document without crashing or running over time.
int ib_svg_render(void *handle, void *cairo, double x, double y, double w, double h, char *error, size_t error_size);

/// Frees a handle from ib_svg_load.
void ib_svg_free(void *handle);

/// Inflates gzip data (SVGZ) into a malloc'd buffer of at most `max_size` bytes.
/// Returns IB_IMAGE_OK, IB_IMAGE_CORRUPT, or IB_IMAGE_TOO_LARGE when the output
/// would exceed `max_size` (a decompression bomb stops there).
int ib_gunzip(const uint8_t *data, size_t size, size_t max_size, uint8_t **out, size_t *out_size, char *error,
              size_t error_size);

/// Decodes `size` bytes in a child process: the iconbadge binary at `helper`, run as
/// `helper --isolated-decode KIND SCALE WIDTH HEIGHT MAX_SIDE MAX_PIXELS PARENT_PID`
/// with the bytes on its standard input and its standard error sent to /dev/null
/// (on Linux the child is killed when its parent dies: PR_SET_PDEATHSIG). KIND is
/// "svg" or a gdk-pixbuf loader name. librsvg 2.54 aborts the process on some
/// documents (Rust panics) and Cairo can crash under it; a crash, an overrun of
/// `time_limit` seconds (the child is killed) or a library's noise stays in the
/// child. WIDTH and HEIGHT 0 keep the natural size (an SVG's intrinsic size × SCALE).
/// On success `*pixels` is a malloc'd ARGB32 buffer, stride w × 4, and `*intrinsic_w`,
/// `*intrinsic_h` the SVG's own size (0 for rasters). On failure: the status, and a
/// reason in `error` ("crashed", "took more than ...", or the decoder's message).
int ib_isolated_decode(const char *helper, const char *kind, double scale, int width, int height, int max_side,
                       int64_t max_pixels, double time_limit, const uint8_t *data, size_t size, uint8_t **pixels,
                       int *out_width, int *out_height, double *intrinsic_w, double *intrinsic_h, char *error,
                       size_t error_size);

/// The child side of ib_isolated_decode: `argv` as described there (argv[0] the
/// program, argv[1] "--isolated-decode"). Reads standard input, writes the result on
/// standard output, and returns the process's exit status.
int ib_isolated_child_main(int argc, char **argv);

/// A decode status that means the child ran over its time limit.
enum { IB_IMAGE_TIMEOUT = 5, IB_IMAGE_CRASHED = 6 };

/// Writes "librsvg X.Y.Z" style versions of librsvg and gdk-pixbuf into the two
/// buffers (opening the libraries if needed), or "not installed".
void ib_loader_versions(char *rsvg, size_t rsvg_size, char *pixbuf, size_t pixbuf_size);

/// 1 when `function` lies in the same loaded object as this code (the executable, or
/// a test binary): a library linked statically. 0 when it comes from a shared library.
int ib_is_linked_in(const void *function);

/// Frees a buffer returned by this module.
void ib_image_free(void *buffer);

#endif
