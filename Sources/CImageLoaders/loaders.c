// dladdr (ib_is_linked_in) is a GNU extension.
#define _GNU_SOURCE
#include "image_loaders.h"

#include <cairo/cairo.h>
#include <dlfcn.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
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

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

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

static void open_gdk_pixbuf(void) {
    void *pixbuf = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (pixbuf == NULL) {
        pixbuf_missing = describe_load_failure("gdk-pixbuf", pixbuf_problem, sizeof pixbuf_problem);
        return;
    }
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
    void *rsvg = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (rsvg == NULL) {
        rsvg_missing = describe_load_failure("librsvg", rsvg_problem, sizeof rsvg_problem);
        return;
    }
    // 2.52 added rsvg_handle_get_intrinsic_size_in_pixels; older systems (Debian 11,
    // Ubuntu 20.04) have an older librsvg2-2, which no package name would fix.
    if (dlsym(rsvg, "rsvg_handle_get_intrinsic_size_in_pixels") == NULL) {
        const unsigned *major = dlsym(rsvg, "rsvg_major_version");
        const unsigned *minor = dlsym(rsvg, "rsvg_minor_version");
        const unsigned *micro = dlsym(rsvg, "rsvg_micro_version");
        char version[48] = ""; // versions before 2.52 export none
        if (major && minor && micro) snprintf(version, sizeof version, " %u.%u.%u", *major, *minor, *micro);
        snprintf(rsvg_problem, sizeof rsvg_problem,
                 "this system's librsvg%s is too old: SVG icons need librsvg 2.52 or later", version);
        return;
    }
    LOAD(rsvg, rsvg_handle_new_from_stream_sync, rsvg_problem);
    LOAD(rsvg, rsvg_handle_set_dpi, rsvg_problem);
    LOAD(rsvg, rsvg_handle_get_intrinsic_size_in_pixels, rsvg_problem);
    LOAD(rsvg, rsvg_handle_get_intrinsic_dimensions, rsvg_problem);
    LOAD(rsvg, rsvg_handle_render_document, rsvg_problem);
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
        snprintf(error, error_size, "librsvg is not installed; install librsvg2-2 (librsvg 2.52 or later) for SVG icons");
    } else if (strcmp(type, "jpeg") == 0) {
        snprintf(error, error_size, "%s for this JPEG, which libjpeg-turbo declines (CMYK or damaged)", pixbuf);
    } else if (strcmp(type, "webp") == 0) {
        snprintf(error, error_size, "%s and webp-pixbuf-loader for animated WebP icons", pixbuf);
    } else {
        snprintf(error, error_size, "%s for GIF, BMP, TIFF and ICO icons", pixbuf);
    }
}

void ib_loaders_preload(void) { pthread_once(&lib_once, open_libraries); }

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
    pthread_once(&lib_once, open_libraries);
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

void *ib_svg_load(const uint8_t *data, size_t size, double *width, double *height, int *has_size, int *status,
                  char *error, size_t error_size) {
    *has_size = 0;
    pthread_once(&lib_once, open_libraries);
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
    if (lib.rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) && w > 0 && h > 0) {
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
    if (cairo_status(cairo) == CAIRO_STATUS_NO_MEMORY ||
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

void ib_loader_versions(char *rsvg, size_t rsvg_size, char *pixbuf, size_t pixbuf_size) {
    pthread_once(&lib_once, open_libraries);
    snprintf(rsvg, rsvg_size, "not installed");
    snprintf(pixbuf, pixbuf_size, "not installed");
    void *handle = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (handle) {
        const unsigned *major = dlsym(handle, "rsvg_major_version");
        const unsigned *minor = dlsym(handle, "rsvg_minor_version");
        const unsigned *micro = dlsym(handle, "rsvg_micro_version");
        if (major && minor && micro) {
            snprintf(rsvg, rsvg_size, "%u.%u.%u", *major, *minor, *micro);
        } else {
            snprintf(rsvg, rsvg_size, "older than 2.52 (too old for SVG icons)");
        }
    }
    handle = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (handle) {
        const char *const *version = dlsym(handle, "gdk_pixbuf_version");
        if (version && *version) snprintf(pixbuf, pixbuf_size, "%s", *version);
    }
}

int ib_is_linked_in(const void *function) {
    Dl_info mine, theirs;
    if (!dladdr((const void *)ib_is_linked_in, &mine) || !dladdr(function, &theirs)) return 0;
    return mine.dli_fbase == theirs.dli_fbase;
}
