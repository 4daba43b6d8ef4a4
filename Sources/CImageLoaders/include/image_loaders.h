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
/// the viewport (x, y, w, h) as the document's preserveAspectRatio says.
/// librsvg cannot be interrupted, so when `time_limit` > 0 a watchdog thread ends
/// the whole process if rendering takes longer: it runs the cleanup set with
/// ib_svg_set_timeout_cleanup, writes `message` and a newline to stderr, and exits
/// with status 65. (librsvg's own limit of 500,000 referenced elements can take
/// about 5 s to reach.)
int ib_svg_render(void *handle, void *cairo, double x, double y, double w, double h, double time_limit,
                  const char *message, char *error, size_t error_size);

/// Sets the function the render watchdog calls before ending the process.
void ib_svg_set_timeout_cleanup(void (*cleanup)(void));

/// Frees a handle from ib_svg_load.
void ib_svg_free(void *handle);

/// Inflates gzip data (SVGZ) into a malloc'd buffer of at most `max_size` bytes.
/// Returns IB_IMAGE_OK, IB_IMAGE_CORRUPT, or IB_IMAGE_TOO_LARGE when the output
/// would exceed `max_size` (a decompression bomb stops there).
int ib_gunzip(const uint8_t *data, size_t size, size_t max_size, uint8_t **out, size_t *out_size, char *error,
              size_t error_size);

/// Writes "librsvg X.Y.Z" style versions of librsvg and gdk-pixbuf into the two
/// buffers (opening the libraries if needed), or "not installed".
void ib_loader_versions(char *rsvg, size_t rsvg_size, char *pixbuf, size_t pixbuf_size);

/// Frees a buffer returned by this module.
void ib_image_free(void *buffer);

#endif
