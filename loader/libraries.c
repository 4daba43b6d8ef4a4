// iconbadge-loader's libraries: librsvg, gdk-pixbuf and GLib opened with dlopen, and
// the few Cairo functions it needs found in librsvg's dependencies with dlsym, so the
// loader needs nothing but glibc to start (a system without Cairo still decodes GIF
// through gdk-pixbuf). Their functions are declared here with their stable C ABI: the
// loader is built against a Debian 11 sysroot that has no GLib, Cairo or librsvg
// headers (scripts/build-loader.sh). This is the only code of iconbadge that calls
// dlopen: the iconbadge binary itself is static and never loads a library.
#include "loader.h"

#include <dlfcn.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// GLib's ABI, declared here so that nothing links against GLib (see the header).
typedef int gboolean;
typedef struct {
    uint32_t domain;
    int code;
    char *message;
} GError;
typedef struct {
    double length;
    int unit;
} RsvgLength;
typedef struct {
    double x, y, width, height;
} RsvgRectangle;
typedef void (*GLogFunc)(const char *domain, int level, const char *message, void *user);
typedef int (*GLogWriterFunc)(int level, const void *fields, size_t n_fields, void *user);

static struct {
    int ready;             // libraries opened and every symbol found
    int pixbuf_ready;
    int cairo_ready;       // the Cairo functions below, from librsvg's own libcairo.so.2
    int has_script;        // ...and its script surface (cairo_script_*: `record`)
    void *rsvg_handle, *pixbuf_handle;
    void (*g_error_free)(GError *);
    void *(*g_log_set_default_handler)(GLogFunc, void *);
    void (*g_log_set_writer_func)(GLogWriterFunc, void *, void (*)(void *));
    void (*g_object_unref)(void *);
    unsigned long (*g_signal_connect_data)(void *, const char *, void (*)(void), void *, void *, int);
    void *(*g_memory_input_stream_new_from_data)(const void *, long, void (*)(void *));
    void *(*rsvg_handle_new_from_stream_sync)(void *, void *, int, void *, GError **);
    void (*rsvg_handle_set_dpi)(void *, double);
    gboolean (*rsvg_handle_get_intrinsic_size_in_pixels)(void *, double *, double *);
    void (*rsvg_handle_get_intrinsic_dimensions)(void *, gboolean *, RsvgLength *, gboolean *, RsvgLength *,
                                                 gboolean *, RsvgRectangle *);
    gboolean (*rsvg_handle_render_document)(void *, void *, const RsvgRectangle *, GError **);
    ib_cairo_functions cairo;
    void *(*gdk_pixbuf_loader_new_with_type)(const char *, GError **);
    gboolean (*gdk_pixbuf_loader_write)(void *, const uint8_t *, size_t, GError **);
    gboolean (*gdk_pixbuf_loader_close)(void *, GError **);
    void *(*gdk_pixbuf_loader_get_pixbuf)(void *);
    void (*gdk_pixbuf_loader_set_size)(void *, int, int);
    int (*gdk_pixbuf_get_width)(const void *);
    int (*gdk_pixbuf_get_height)(const void *);
    int (*gdk_pixbuf_get_rowstride)(const void *);
    int (*gdk_pixbuf_get_n_channels)(const void *);
    gboolean (*gdk_pixbuf_get_has_alpha)(const void *);
    int (*gdk_pixbuf_get_bits_per_sample)(const void *);
    uint8_t *(*gdk_pixbuf_get_pixels)(const void *);
} lib;

// Opened once. The loader runs one job at a time on one thread, so a flag does what
// pthread_once would (and the loader needs no libpthread on glibc before 2.34).
static int libraries_opened;
static void open_libraries(void);
static void open_libraries_once(void) {
    if (libraries_opened) return;
    libraries_opened = 1;
    open_libraries();
}

// Set in an isolated child, whose standard error is a pipe the parent reads (never
// shows): a fatal GLib message, such as "failed to allocate N bytes", is written
// there so that the parent can tell running out of memory from another crash.
static int child_mode;

void ib_loaders_child_mode(void) { child_mode = 1; }

enum { LOG_FLAG_FATAL = 1 << 1, LOG_LEVEL_ERROR = 1 << 2 };

static void write_fatal(const char *message) {
    if (!child_mode || message == NULL) return;
    ssize_t ignored = write(2, message, strlen(message));
    ignored = write(2, "\n", 1);
    (void)ignored;
}

// GLib's warnings and criticals would reach the terminal; the CLI's promise is
// one line per failure, its own.
static void quiet_log(const char *domain, int level, const char *message, void *user) {
    (void)domain;
    (void)user;
    if (level & (LOG_FLAG_FATAL | LOG_LEVEL_ERROR)) write_fatal(message);
}

typedef struct {
    const char *key;
    const void *value;
    ssize_t length;
} LogField;

// Structured logging (Pango's warnings take this way) bypasses the default handler.
static int quiet_writer(int level, const void *fields, size_t n_fields, void *user) {
    (void)user;
    if (level & (LOG_FLAG_FATAL | LOG_LEVEL_ERROR)) {
        const LogField *field = fields;
        for (size_t i = 0; i < n_fields; i++) {
            if (field[i].key && strcmp(field[i].key, "MESSAGE") == 0 && field[i].length < 0) {
                write_fatal(field[i].value);
            }
        }
    }
    return 1; // G_LOG_WRITER_HANDLED
}

// What went wrong opening gdk-pixbuf (with GLib) and librsvg, each on its own: an SVG
// needs only librsvg (and GLib), a GIF only gdk-pixbuf. `*_missing`: the library is
// not installed, and the message names the package (composed for the format at hand,
// missing_message); otherwise `*_problem` holds the loader's own words.
static int pixbuf_missing, rsvg_missing;
static char pixbuf_problem[256], rsvg_problem[256];

#define LOAD(handle, name, problem)                                                         \
    do {                                                                                    \
        *(void **)(&lib.name) = dlsym(handle, #name);                                       \
        if (lib.name == NULL) {                                                             \
            snprintf(problem, sizeof problem, "symbol %s is missing", #name);                \
            return;                                                                         \
        }                                                                                   \
    } while (0)

// Why a dlopen failed: 1 when the library (or one it needs) is not there, else 0 with
// the loader's own words in `problem`. Under `ulimit -v` a library that is installed
// fails to map ("failed to map segment from shared object"), and "not installed" would
// send the user to apt for nothing.
static int describe_load_failure(const char *name, char *problem, size_t size) {
    const char *why = dlerror();
    if (why == NULL || strstr(why, "No such file") != NULL) return 1;
    if (strstr(why, "map segment") != NULL || strstr(why, "allocate memory") != NULL) {
        snprintf(problem, size, "cannot load %s: %s (raise the memory limit, ulimit -v)", name, why);
    } else {
        snprintf(problem, size, "cannot load %s: %s", name, why);
    }
    return 0;
}

// The soname to open: librsvg's, or the test suite's stand-in (see loader.h,
// IBLOADER_TEST_LIBRSVG_SONAME), which must be a bare soname, never a path.
static const char *soname(const char *variable, const char *standard) {
    const char *given = getenv(variable);
    return given != NULL && given[0] != '\0' && strchr(given, '/') == NULL ? given : standard;
}

static void open_gdk_pixbuf(void) {
    void *pixbuf = dlopen(soname("IBLOADER_TEST_GDK_PIXBUF_SONAME", "libgdk_pixbuf-2.0.so.0"), RTLD_NOW | RTLD_LOCAL);
    if (pixbuf == NULL) {
        pixbuf_missing = describe_load_failure("gdk-pixbuf", pixbuf_problem, sizeof pixbuf_problem);
        return;
    }
    lib.pixbuf_handle = pixbuf;
    LOAD(pixbuf, gdk_pixbuf_loader_new_with_type, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_loader_write, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_loader_close, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_loader_get_pixbuf, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_loader_set_size, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_get_width, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_get_height, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_get_rowstride, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_get_n_channels, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_get_has_alpha, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_get_bits_per_sample, pixbuf_problem);
    LOAD(pixbuf, gdk_pixbuf_get_pixels, pixbuf_problem);
    lib.pixbuf_ready = 1;
}

static void open_librsvg(void) {
    void *rsvg = dlopen(soname("IBLOADER_TEST_LIBRSVG_SONAME", "librsvg-2.so.2"), RTLD_NOW | RTLD_LOCAL);
    if (rsvg == NULL) {
        rsvg_missing = describe_load_failure("librsvg", rsvg_problem, sizeof rsvg_problem);
        return;
    }
    lib.rsvg_handle = rsvg;
    // 2.46 added rsvg_handle_render_document and rsvg_handle_get_intrinsic_dimensions;
    // 2.52 rsvg_handle_get_intrinsic_size_in_pixels, which is optional (Debian 11 has
    // 2.50: the size is then worked out from the intrinsic dimensions, intrinsic_size).
    if (dlsym(rsvg, "rsvg_handle_render_document") == NULL) {
        // Versions before 2.52 export no version number: it is older than 2.46.
        snprintf(rsvg_problem, sizeof rsvg_problem,
                 "this system's librsvg is older than " IB_LIBRSVG_MINIMUM ", too old for SVG icons; install librsvg2-2 "
                 "(librsvg " IB_LIBRSVG_MINIMUM " or later)");
        return;
    }
    LOAD(rsvg, rsvg_handle_new_from_stream_sync, rsvg_problem);
    LOAD(rsvg, rsvg_handle_set_dpi, rsvg_problem);
    LOAD(rsvg, rsvg_handle_get_intrinsic_dimensions, rsvg_problem);
    LOAD(rsvg, rsvg_handle_render_document, rsvg_problem);
    *(void **)&lib.rsvg_handle_get_intrinsic_size_in_pixels = dlsym(rsvg, "rsvg_handle_get_intrinsic_size_in_pixels");
    // Cairo: librsvg's own libcairo.so.2, found through librsvg's dependencies.
    lib.cairo_ready = ib_cairo_resolve(rsvg, &lib.cairo, &lib.has_script);
    if (!lib.cairo_ready) {
        snprintf(rsvg_problem, sizeof rsvg_problem, "this system's librsvg loads a Cairo without %s",
                 "cairo_image_surface_create");
        return;
    }
    lib.ready = 1;
}

// GLib, which both need (the Debian package of either brings it); its problem, if
// any, in glib_problem.
static int glib_missing, glib_ready;
static char glib_problem[256];

static void open_glib(void) {
    void *glib = dlopen("libglib-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    void *gobject = glib ? dlopen("libgobject-2.0.so.0", RTLD_NOW | RTLD_LOCAL) : NULL;
    void *gio = gobject ? dlopen("libgio-2.0.so.0", RTLD_NOW | RTLD_LOCAL) : NULL;
    if (gio == NULL) {
        glib_missing = describe_load_failure("GLib", glib_problem, sizeof glib_problem);
        return;
    }
    LOAD(glib, g_error_free, glib_problem);
    LOAD(glib, g_log_set_default_handler, glib_problem);
    LOAD(glib, g_log_set_writer_func, glib_problem);
    LOAD(gobject, g_object_unref, glib_problem);
    LOAD(gobject, g_signal_connect_data, glib_problem);
    LOAD(gio, g_memory_input_stream_new_from_data, glib_problem);
    lib.g_log_set_default_handler(quiet_log, NULL);
    lib.g_log_set_writer_func(quiet_writer, NULL, NULL);
    glib_ready = 1;
}

static void open_libraries(void) {
    open_glib();
    if (!glib_ready) {
        pixbuf_missing = rsvg_missing = glib_missing;
        snprintf(pixbuf_problem, sizeof pixbuf_problem, "%s", glib_problem);
        snprintf(rsvg_problem, sizeof rsvg_problem, "%s", glib_problem);
        return;
    }
    open_gdk_pixbuf();
    open_librsvg();
}

// The one line for a format whose library is not installed: what needs it, and the
// Debian package to install (the same names as the .deb's Recommends and Suggests,
// scripts/package.sh). `type`: "svg", or gdk-pixbuf's loader name.
static void missing_message(const char *type, char *error, size_t error_size) {
    if (error == NULL || error_size == 0) return;
    const char *pixbuf = "gdk-pixbuf is not installed; install libgdk-pixbuf-2.0-0 (gdk-pixbuf 2.42 or later)";
    if (strcmp(type, "svg") == 0) {
        snprintf(error, error_size,
                 "librsvg is not installed; install librsvg2-2 (librsvg " IB_LIBRSVG_MINIMUM " or later) for SVG icons");
    } else if (strcmp(type, "jpeg") == 0) {
        snprintf(error, error_size, "%s for this JPEG, which libjpeg-turbo declines (CMYK or damaged)", pixbuf);
    } else if (strcmp(type, "webp") == 0) {
        snprintf(error, error_size, "%s and webp-pixbuf-loader for animated WebP icons", pixbuf);
    } else {
        snprintf(error, error_size, "%s for GIF, BMP, TIFF and ICO icons", pixbuf);
    }
}

void ib_loaders_preload(void) { open_libraries_once(); }

static void set_error(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    strncpy(error, message ? message : "unknown error", error_size - 1);
    error[error_size - 1] = '\0';
}

static void take_error(GError *gerror, char *error, size_t error_size, const char *fallback) {
    set_error(error, error_size, gerror && gerror->message ? gerror->message : fallback);
    if (gerror) lib.g_error_free(gerror);
}

// ---------------------------------------------------------------- gdk-pixbuf

typedef struct {
    int max_side;
    int64_t max_pixels;
    int too_large;
    int width, height;
} size_check;

// "size-prepared" comes once the header is parsed, before pixels are allocated.
// Asking for a 0 × 0 result is how gdk_pixbuf_get_file_info stops a loader there.
static void on_size_prepared(void *loader, int width, int height, void *user) {
    size_check *check = user;
    check->width = width;
    check->height = height;
    if (width <= 0 || height <= 0 || width > check->max_side || height > check->max_side ||
        (int64_t)width * (int64_t)height > check->max_pixels) {
        check->too_large = 1;
        lib.gdk_pixbuf_loader_set_size(loader, 0, 0);
    }
}

static inline uint32_t premultiply(uint32_t alpha, uint32_t color) {
    uint32_t temp = alpha * color + 0x80;
    return (temp + (temp >> 8)) >> 8;
}

int ib_pixbuf_decode(const uint8_t *data, size_t size, const char *type, int max_side, int64_t max_pixels,
                     uint8_t **pixels, int *width, int *height, char *error, size_t error_size) {
    *pixels = NULL;
    open_libraries_once();
    if (!lib.pixbuf_ready) {
        if (pixbuf_missing) {
            missing_message(type, error, error_size);
        } else {
            set_error(error, error_size, pixbuf_problem);
        }
        return IB_IMAGE_UNAVAILABLE;
    }
    GError *gerror = NULL;
    void *loader = lib.gdk_pixbuf_loader_new_with_type(type, &gerror);
    if (loader == NULL) {
        char message[300];
        snprintf(message, sizeof message, "this machine's gdk-pixbuf has no %s loader%s", type,
                 strcmp(type, "webp") == 0 ? " (install webp-pixbuf-loader)" : "");
        if (gerror) lib.g_error_free(gerror);
        set_error(error, error_size, message);
        return IB_IMAGE_UNAVAILABLE;
    }
    size_check check = {max_side, max_pixels, 0, 0, 0};
    lib.g_signal_connect_data(loader, "size-prepared", (void (*)(void))on_size_prepared, &check, NULL, 0);
    gboolean wrote = lib.gdk_pixbuf_loader_write(loader, data, size, &gerror);
    GError *close_error = NULL;
    gboolean closed = lib.gdk_pixbuf_loader_close(loader, &close_error);
    if (check.too_large) {
        char message[200];
        snprintf(message, sizeof message, "%d x %d", check.width, check.height);
        set_error(error, error_size, message);
        if (gerror) lib.g_error_free(gerror);
        if (close_error) lib.g_error_free(close_error);
        lib.g_object_unref(loader);
        return IB_IMAGE_TOO_LARGE;
    }
    if (!wrote || !closed) {
        take_error(gerror ? gerror : close_error, error, error_size, "the image data is corrupt");
        if (gerror && close_error) lib.g_error_free(close_error);
        lib.g_object_unref(loader);
        return IB_IMAGE_CORRUPT;
    }
    void *pixbuf = lib.gdk_pixbuf_loader_get_pixbuf(loader);
    if (pixbuf == NULL || lib.gdk_pixbuf_get_bits_per_sample(pixbuf) != 8) {
        set_error(error, error_size, "the loader produced no 8-bit image");
        lib.g_object_unref(loader);
        return IB_IMAGE_CORRUPT;
    }
    int w = lib.gdk_pixbuf_get_width(pixbuf), h = lib.gdk_pixbuf_get_height(pixbuf);
    int channels = lib.gdk_pixbuf_get_n_channels(pixbuf);
    int alpha = lib.gdk_pixbuf_get_has_alpha(pixbuf);
    int rowstride = lib.gdk_pixbuf_get_rowstride(pixbuf);
    const uint8_t *source = lib.gdk_pixbuf_get_pixels(pixbuf);
    // gdk-pixbuf 2.42's TIFF loader hands on libtiff's TIFFRGBAImage output, which
    // is premultiplied, in a pixbuf that should hold straight alpha: premultiplying
    // again would darken every translucent pixel. Its pixels are taken as they are.
    int already_premultiplied = strcmp(type, "tiff") == 0;
    uint8_t *out = malloc((size_t)w * (size_t)h * 4);
    if (out == NULL) {
        set_error(error, error_size, "out of memory");
        lib.g_object_unref(loader);
        return IB_IMAGE_NO_MEMORY;
    }
    for (int y = 0; y < h; y++) {
        const uint8_t *row = source + (size_t)y * (size_t)rowstride;
        uint32_t *dest = (uint32_t *)(out + (size_t)y * (size_t)w * 4);
        for (int x = 0; x < w; x++) {
            const uint8_t *p = row + (size_t)x * (size_t)channels;
            uint32_t a = alpha ? p[3] : 0xff;
            uint32_t r = p[0], g = p[1], b = p[2];
            if (a != 0xff && !already_premultiplied) {
                r = premultiply(a, r);
                g = premultiply(a, g);
                b = premultiply(a, b);
            }
            dest[x] = (a << 24) | (r << 16) | (g << 8) | b;
        }
    }
    lib.g_object_unref(loader);
    *pixels = out;
    *width = w;
    *height = h;
    return IB_IMAGE_OK;
}

// ---------------------------------------------------------------- librsvg

// librsvg's RsvgUnit.
enum { UNIT_PERCENT, UNIT_PX, UNIT_EM, UNIT_EX, UNIT_IN, UNIT_CM, UNIT_MM, UNIT_PT, UNIT_PC };

// The intrinsic size in pixels at 96 DPI: rsvg_handle_get_intrinsic_size_in_pixels
// (librsvg 2.52+), or before 2.52 the same rule worked out from the width and height
// attributes: absolute units converted at 96 DPI, em and ex at librsvg's default font
// size of 12 px (a root font-size set in CSS is not seen), and no size for a
// percentage (the default when an attribute is missing), which leaves the viewBox.
static gboolean intrinsic_size(void *handle, double *w, double *h) {
    if (lib.rsvg_handle_get_intrinsic_size_in_pixels != NULL) {
        return lib.rsvg_handle_get_intrinsic_size_in_pixels(handle, w, h);
    }
    gboolean has_w = 0, has_h = 0, has_viewbox = 0;
    RsvgLength lw = {0, 0}, lh = {0, 0};
    RsvgRectangle viewbox = {0, 0, 0, 0};
    lib.rsvg_handle_get_intrinsic_dimensions(handle, &has_w, &lw, &has_h, &lh, &has_viewbox, &viewbox);
    if (!has_w) lw = (RsvgLength){1, UNIT_PERCENT};
    if (!has_h) lh = (RsvgLength){1, UNIT_PERCENT};
    const RsvgLength *lengths[2] = {&lw, &lh};
    double *out[2] = {w, h};
    for (int i = 0; i < 2; i++) {
        double l = lengths[i]->length;
        switch (lengths[i]->unit) {
        case UNIT_PX: *out[i] = l; break;
        case UNIT_EM: *out[i] = l * 12; break;
        case UNIT_EX: *out[i] = l * 6; break;
        case UNIT_IN: *out[i] = l * 96; break;
        case UNIT_CM: *out[i] = l * 96 / 2.54; break;
        case UNIT_MM: *out[i] = l * 96 / 25.4; break;
        case UNIT_PT: *out[i] = l * 96 / 72; break;
        case UNIT_PC: *out[i] = l * 96 / 6; break;
        default: return 0;
        }
    }
    return 1;
}

void *ib_svg_load(const uint8_t *data, size_t size, double *width, double *height, int *has_size, int *status,
                  char *error, size_t error_size) {
    *has_size = 0;
    open_libraries_once();
    if (!lib.ready) {
        if (rsvg_missing) {
            missing_message("svg", error, error_size);
        } else {
            set_error(error, error_size, rsvg_problem);
        }
        *status = IB_IMAGE_UNAVAILABLE;
        return NULL;
    }
    void *stream = lib.g_memory_input_stream_new_from_data(data, (long)size, NULL);
    GError *gerror = NULL;
    // No base file: librsvg then refuses every reference that is not a data: URL.
    void *handle = lib.rsvg_handle_new_from_stream_sync(stream, NULL, 0, NULL, &gerror);
    lib.g_object_unref(stream);
    if (handle == NULL) {
        take_error(gerror, error, error_size, "not a valid SVG document");
        *status = IB_IMAGE_CORRUPT;
        return NULL;
    }
    lib.rsvg_handle_set_dpi(handle, 96.0);
    double w = 0, h = 0;
    if (intrinsic_size(handle, &w, &h) && w > 0 && h > 0) {
        *has_size = 1;
    } else {
        gboolean has_w = 0, has_h = 0, has_viewbox = 0;
        RsvgLength lw, lh;
        RsvgRectangle viewbox = {0, 0, 0, 0};
        lib.rsvg_handle_get_intrinsic_dimensions(handle, &has_w, &lw, &has_h, &lh, &has_viewbox, &viewbox);
        if (has_viewbox && viewbox.width > 0 && viewbox.height > 0) {
            w = viewbox.width;
            h = viewbox.height;
            *has_size = 1;
        }
    }
    *width = w;
    *height = h;
    *status = IB_IMAGE_OK;
    return handle;
}

int ib_svg_render(void *handle, void *cairo, double x, double y, double w, double h, char *error, size_t error_size) {
    RsvgRectangle viewport = {x, y, w, h};
    GError *gerror = NULL;
    gboolean drawn = lib.rsvg_handle_render_document(handle, cairo, &viewport, &gerror);
    // Cairo reports a failed allocation as a status; librsvg passes it on as an error
    // ("rendering error: NoMemory" from librsvg 2.54).
    if (lib.cairo.status(cairo) == IB_CAIRO_STATUS_NO_MEMORY ||
        (!drawn && gerror && gerror->message &&
         (strstr(gerror->message, "out of memory") || strstr(gerror->message, "NoMemory")))) {
        if (gerror) lib.g_error_free(gerror);
        set_error(error, error_size, "OOM");
        return IB_IMAGE_NO_MEMORY;
    }
    if (!drawn) {
        take_error(gerror, error, error_size, "librsvg could not render the document");
        return IB_IMAGE_CORRUPT;
    }
    return IB_IMAGE_OK;
}

void ib_svg_free(void *handle) {
    if (handle) lib.g_object_unref(handle);
}

const ib_cairo_functions *ib_cairo(void) { return lib.cairo_ready ? &lib.cairo : NULL; }

int ib_cairo_has_script(void) { return lib.cairo_ready && lib.has_script; }

int ib_librsvg_before_2_52(void) { return lib.ready && lib.rsvg_handle_get_intrinsic_size_in_pixels == NULL; }

void ib_loader_versions(char *rsvg, size_t rsvg_size, char *pixbuf, size_t pixbuf_size, char *cairo,
                        size_t cairo_size) {
    open_libraries_once();
    snprintf(rsvg, rsvg_size, "not installed");
    snprintf(pixbuf, pixbuf_size, "not installed");
    snprintf(cairo, cairo_size, "not installed");
    if (lib.rsvg_handle != NULL) {
        char version[64] = "";
        const unsigned *major = dlsym(lib.rsvg_handle, "rsvg_major_version");
        const unsigned *minor = dlsym(lib.rsvg_handle, "rsvg_minor_version");
        const unsigned *micro = dlsym(lib.rsvg_handle, "rsvg_micro_version");
        if (major && minor && micro) {
            snprintf(version, sizeof version, "%u.%u.%u", *major, *minor, *micro);
        } else {
            // Versions before 2.52 export none.
            snprintf(version, sizeof version, "older than 2.52");
        }
        if (!lib.ready) {
            snprintf(rsvg, rsvg_size, "%s: %s", version, rsvg_problem);
        } else {
            snprintf(rsvg, rsvg_size, "%s", version);
        }
    } else if (!rsvg_missing) {
        snprintf(rsvg, rsvg_size, "%s", rsvg_problem);
    }
    if (lib.pixbuf_handle != NULL) {
        const char *const *version = dlsym(lib.pixbuf_handle, "gdk_pixbuf_version");
        snprintf(pixbuf, pixbuf_size, "%s", version && *version ? *version : "installed (version unknown)");
    } else if (!pixbuf_missing) {
        snprintf(pixbuf, pixbuf_size, "%s", pixbuf_problem);
    }
    if (lib.cairo_ready) {
        snprintf(cairo, cairo_size, "%s%s", lib.cairo.version_string(), lib.has_script ? "" : " (no script surface)");
    }
}
