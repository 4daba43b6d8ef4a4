#ifndef ICONBADGE_LOADER_H
#define ICONBADGE_LOADER_H
// iconbadge-loader: the one program of iconbadge that loads shared libraries. The
// iconbadge binary is static and cannot dlopen the system's librsvg and gdk-pixbuf
// (a static glibc program crashes loading them), so it starts this program, beside
// it or in PREFIX/libexec/iconbadge, for every SVG and gdk-pixbuf decode. It is linked
// against glibc alone (built with a Debian 11 sysroot, scripts/build-loader.sh), and
// speaks the isolated child's protocol (image_loaders.h, ib_isolated_decode):
//
//   iconbadge-loader --isolated-decode KIND SCALE WIDTH HEIGHT MAX_SIDE MAX_PIXELS EXTRA_PIXELS PARENT_PID
//       a decode, KIND "svg" or a gdk-pixbuf loader name; WIDTH = HEIGHT = -1 probes an SVG
//   iconbadge-loader --isolated-decode record VIEWPORT MATRIX EXTENT EXTRA_PIXELS MAX_SCRIPT PARENT_PID
//       an SVG drawn into VIEWPORT ("x,y,w,h") under MATRIX ("xx,yx,xy,yy,x0,y0") onto a
//       Cairo script surface of EXTENT ("w,h" device pixels); answers "SC LENGTH\n" and the
//       script (at most MAX_SCRIPT bytes), which iconbadge replays (script_replay.c)
//   iconbadge-loader --isolated-decode versions PARENT_PID
//       "VS\n" then "librsvg\tVERSION\n", "gdk-pixbuf\tVERSION\n", "cairo\tVERSION\n"
//   iconbadge-loader --isolated-decode serve PARENT_PID
//       the long-lived renderer (isolated_server.c) running any of the above per job
//
// Errors are "ER STATUS MESSAGE\n" (IB_IMAGE_*), exit status 0; a missing library is
// IB_IMAGE_UNAVAILABLE with the Debian package to install.
//
// For the test suite: IBLOADER_TEST_LIBRSVG_SONAME and IBLOADER_TEST_GDK_PIXBUF_SONAME
// name the soname to open instead of librsvg-2.so.2 and libgdk_pixbuf-2.0.so.0 (a bare
// soname, never a path: no more than LD_LIBRARY_PATH already allows), so a test sees
// the answer for a library that is missing (LoaderTests). Not ICONBADGE_*: iconbadge
// warns about the ICONBADGE_ variables it does not know.
#include "image_loaders.h"

/// The oldest librsvg the loader works with: 2.46 added rsvg_handle_render_document
/// and rsvg_handle_get_intrinsic_dimensions (Debian 11 has 2.50; 2.52's
/// rsvg_handle_get_intrinsic_size_in_pixels is used when present).
#define IB_LIBRSVG_MINIMUM "2.46"

// Cairo's ABI, the little of it the loader uses (cairo.h, stable since 1.0; the script
// surface since 1.12). No Cairo header: the sysroot has none, and Cairo may be missing.
typedef struct {
    double xx, yx, xy, yy, x0, y0;
} ib_cairo_matrix;
enum {
    IB_CAIRO_STATUS_SUCCESS = 0,
    IB_CAIRO_STATUS_NO_MEMORY = 1,
    IB_CAIRO_STATUS_WRITE_ERROR = 11,
    IB_CAIRO_FORMAT_ARGB32 = 0,
    IB_CAIRO_CONTENT_COLOR_ALPHA = 0x3000
};
typedef int (*ib_cairo_write_func)(void *closure, const unsigned char *data, unsigned int length);
typedef struct {
    const char *(*version_string)(void);
    void *(*image_surface_create)(int format, int width, int height);
    unsigned char *(*image_surface_get_data)(void *surface);
    int (*image_surface_get_stride)(void *surface);
    int (*surface_status)(void *surface);
    void (*surface_flush)(void *surface);
    void (*surface_finish)(void *surface);
    void (*surface_destroy)(void *surface);
    void *(*create)(void *surface);
    int (*status)(void *cr);
    void (*set_matrix)(void *cr, const ib_cairo_matrix *matrix);
    void (*destroy)(void *cr);
    // The script surface (absent from a Cairo built without it: has_script 0).
    void *(*script_create_for_stream)(ib_cairo_write_func write, void *closure);
    void *(*script_surface_create)(void *device, int content, double width, double height);
    void (*device_finish)(void *device);
    void (*device_destroy)(void *device);
    int (*device_status)(void *device);
} ib_cairo_functions;

/// Finds Cairo's functions in the dependencies of the library `handle` (librsvg's
/// libcairo.so.2); 1 when the drawing ones are all there, `*has_script` 1 when the
/// script surface is too.
int ib_cairo_resolve(void *handle, ib_cairo_functions *cairo, int *has_script);

/// Cairo's functions, once librsvg is loaded (ib_svg_load succeeded), else NULL.
const ib_cairo_functions *ib_cairo(void);
/// 1 when that Cairo has its script surface.
int ib_cairo_has_script(void);
/// 1 when the librsvg loaded is older than 2.52 (Debian 11's 2.50), which aborts the
/// process (a Rust panic) where later ones return Cairo's error.
int ib_librsvg_before_2_52(void);

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

/// Renders the document into the Cairo context `cairo` (a `cairo_t *` of librsvg's
/// Cairo), fitted into the viewport (x, y, w, h) of its user space as the document's
/// preserveAspectRatio says. IB_IMAGE_NO_MEMORY when Cairo ran out of memory.
int ib_svg_render(void *handle, void *cairo, double x, double y, double w, double h, char *error, size_t error_size);

/// Frees a handle from ib_svg_load.
void ib_svg_free(void *handle);

/// In an isolated child: GLib's fatal messages (an allocation that failed) go to
/// standard error, which the parent reads but never shows.
void ib_loaders_child_mode(void);

/// Loads librsvg, gdk-pixbuf and GLib now rather than at their first use (the fork
/// server does, so that every job it runs has them).
void ib_loaders_preload(void);

/// Writes the versions of librsvg, gdk-pixbuf and Cairo into the buffers ("2.54.7"),
/// or "not installed", or what is wrong with the one found.
void ib_loader_versions(char *rsvg, size_t rsvg_size, char *pixbuf, size_t pixbuf_size, char *cairo,
                        size_t cairo_size);

/// The child side of ib_isolated_decode and of `record` and `versions`: `argv` as
/// described above (argv[1] "--isolated-decode"). Reads standard input, writes the
/// answer on standard output, returns the exit status.
int ib_loader_child_main(int argc, char **argv);

#endif
