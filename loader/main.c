// iconbadge-loader's entry and its jobs (see loader.h for the command lines): the
// decodes the iconbadge binary ran in a child of its own before it became static,
// the recording of an SVG as a Cairo script for vector outputs, and the versions.
#define _GNU_SOURCE
#include "loader.h"
#include "isolated_server.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int answer_error(int status, const char *message) {
    printf("ER %d %s\n", status, message);
    fflush(stdout);
    return 0;
}

static int write_all(const uint8_t *bytes, size_t count) {
    while (count > 0) {
        ssize_t w = write(1, bytes, count);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += w;
        count -= (size_t)w;
    }
    return 0;
}

static int svg_answer(void *handle, int status, char *message, size_t message_size, double iw, double ih,
                      int has_size, double scale, int width, int height, int max_side, long long max_pixels,
                      long long extra_pixels, size_t size) {
    if (handle == NULL) return answer_error(status, message);
    if (width < 0 || height < 0) {
        // A probe: the intrinsic size, no render.
        printf("SZ %.17g %.17g %d\n", has_size ? iw : 0, has_size ? ih : 0, has_size);
        fflush(stdout);
        return 0;
    }
    int pw = 0, ph = 0;
    status = ib_svg_pixel_size(iw, ih, has_size, scale, width, height, max_side, max_pixels, &pw, &ph, message,
                               message_size);
    if (status != IB_IMAGE_OK) return answer_error(status, message);
    ib_set_memory_cap(ib_memory_cap((int64_t)pw * ph + extra_pixels, (int64_t)size));
    const ib_cairo_functions *cairo = ib_cairo();
    void *surface = cairo->image_surface_create(IB_CAIRO_FORMAT_ARGB32, pw, ph);
    if (cairo->surface_status(surface) != IB_CAIRO_STATUS_SUCCESS) {
        cairo->surface_destroy(surface);
        return answer_error(IB_IMAGE_NO_MEMORY, "OOM");
    }
    void *cr = cairo->create(surface);
    status = ib_svg_render(handle, cr, 0, 0, pw, ph, message, message_size);
    int drawn = cairo->status(cr);
    cairo->destroy(cr);
    int code = 0;
    if (status == IB_IMAGE_OK && drawn == IB_CAIRO_STATUS_NO_MEMORY) {
        code = answer_error(IB_IMAGE_NO_MEMORY, "OOM");
    } else if (status != IB_IMAGE_OK) {
        code = answer_error(status, message);
    } else {
        cairo->surface_flush(surface);
        printf("OK %d %d %.17g %.17g\n", pw, ph, has_size ? iw : 0, has_size ? ih : 0);
        fflush(stdout);
        const uint8_t *bytes = cairo->image_surface_get_data(surface);
        int stride = cairo->image_surface_get_stride(surface);
        if (stride == pw * 4) {
            code = write_all(bytes, (size_t)ph * (size_t)stride) == 0 ? 0 : 74;
        } else {
            for (int y = 0; y < ph && code == 0; y++) {
                if (write_all(bytes + (size_t)y * (size_t)stride, (size_t)pw * 4) != 0) code = 74;
            }
        }
    }
    cairo->surface_destroy(surface);
    return code;
}

// A decode: `--isolated-decode KIND SCALE WIDTH HEIGHT MAX_SIDE MAX_PIXELS EXTRA_PIXELS PARENT_PID`.
static int decode_main(int argc, char **argv) {
    if (argc != 10) return 64;
    if (ib_child_begin(argv[9]) != 0) return 70;
    ib_loaders_child_mode();
    const char *kind = argv[2];
    double scale = atof(argv[3]);
    int width = atoi(argv[4]), height = atoi(argv[5]), max_side = atoi(argv[6]);
    long long max_pixels = atoll(argv[7]);
    long long extra_pixels = atoll(argv[8]);
    int is_svg = strcmp(kind, "svg") == 0;
    // Until the render size is known: the libraries and parsing, plus the document's
    // embedded images (counted by the parent); a raster decoder may use the most
    // the pixel limit allows.
    ib_set_memory_cap(ib_memory_cap(is_svg ? extra_pixels : max_pixels, 0));
    uint8_t *data = NULL;
    size_t size = 0;
    if (ib_read_all_input(&data, &size) != 0) return answer_error(IB_IMAGE_NO_MEMORY, "out of memory");
    if (is_svg) ib_set_memory_cap(ib_memory_cap(extra_pixels, (int64_t)size));
    char message[512] = {0};
    if (!is_svg) {
        uint8_t *pixels = NULL;
        int w = 0, h = 0;
        int status = ib_pixbuf_decode(data, size, kind, max_side, max_pixels, &pixels, &w, &h, message, sizeof message);
        free(data);
        if (status != IB_IMAGE_OK) return answer_error(status, message);
        printf("OK %d %d 0 0\n", w, h);
        fflush(stdout);
        int written = write_all(pixels, (size_t)w * (size_t)h * 4);
        free(pixels);
        return written == 0 ? 0 : 74;
    }
    double iw = 0, ih = 0;
    int has_size = 0, status = 0;
    void *handle = ib_svg_load(data, size, &iw, &ih, &has_size, &status, message, sizeof message);
    // Everything is freed on the way out: a long-lived renderer runs job after job.
    int code = svg_answer(handle, status, message, sizeof message, iw, ih, has_size, scale, width, height, max_side,
                          max_pixels, extra_pixels, size);
    if (handle != NULL) ib_svg_free(handle);
    free(data);
    return code;
}


// ------------------------------------------------------------------ record

// The script as Cairo writes it, at most `limit` bytes: past that the drawing stops
// (Cairo's write error) and the answer says so.
typedef struct {
    uint8_t *bytes;
    size_t size, capacity, limit;
    int over, no_memory;
} script_buffer;

static int append_script(void *closure, const unsigned char *data, unsigned int length) {
    script_buffer *script = closure;
    if (script->over || script->no_memory) return IB_CAIRO_STATUS_WRITE_ERROR;
    if (length > script->limit - script->size) {
        script->over = 1;
        return IB_CAIRO_STATUS_WRITE_ERROR;
    }
    if (script->size + length > script->capacity) {
        size_t grown = script->capacity ? script->capacity : 1 << 16;
        while (grown < script->size + length) grown *= 2;
        if (grown > script->limit) grown = script->limit;
        uint8_t *bigger = realloc(script->bytes, grown);
        if (bigger == NULL) {
            script->no_memory = 1;
            return IB_CAIRO_STATUS_NO_MEMORY;
        }
        script->bytes = bigger;
        script->capacity = grown;
    }
    memcpy(script->bytes + script->size, data, length);
    script->size += length;
    return IB_CAIRO_STATUS_SUCCESS;
}

static int parse_numbers(const char *text, double *values, int count) {
    const char *at = text;
    for (int i = 0; i < count; i++) {
        char *end = NULL;
        values[i] = strtod(at, &end);
        if (end == at || values[i] != values[i]) return -1;
        at = end;
        if (i + 1 < count) {
            if (*at != ',') return -1;
            at++;
        }
    }
    return *at == '\0' ? 0 : -1;
}

// How one recording went: an IB_IMAGE_* status (the message in the caller's buffer),
// whether Cairo refused a path, and the shear it was recorded under.
typedef struct {
    int status;
    int invalid_path;
    double shear;
} recorded;

enum { CAIRO_STATUS_INVALID_PATH_DATA = 9 };

// Draws `handle` into `viewport` under `m` onto a new script surface of `extent`,
// its device space sheared by `shear` (x + shear·y, y + shear·x; 0 for none).
static recorded record_once(void *handle, const double viewport[4], const double m[6], const double extent[2],
                            double shear, script_buffer *script, char *message, size_t message_size) {
    const ib_cairo_functions *cairo = ib_cairo();
    recorded result = {IB_IMAGE_OK, 0, shear};
    // The sheared page reaches further by shear × the other side.
    double width = extent[0] + (shear > 0 ? extent[1] * shear + 1 : 0);
    double height = extent[1] + (shear > 0 ? extent[0] * shear + 1 : 0);
    void *device = cairo->script_create_for_stream(append_script, script);
    void *surface = cairo->script_surface_create(device, IB_CAIRO_CONTENT_COLOR_ALPHA, width, height);
    void *cr = cairo->create(surface);
    // S · M: M maps user space to the output's device space, S shears it.
    ib_cairo_matrix matrix = {m[0] + shear * m[1], m[1] + shear * m[0], m[2] + shear * m[3],
                              m[3] + shear * m[2], m[4] + shear * m[5], m[5] + shear * m[4]};
    cairo->set_matrix(cr, &matrix);
    int status = ib_svg_render(handle, cr, viewport[0], viewport[1], viewport[2], viewport[3], message, message_size);
    int drawn = cairo->status(cr);
    cairo->destroy(cr);
    cairo->surface_finish(surface);
    int finished = cairo->surface_status(surface);
    cairo->surface_destroy(surface);
    cairo->device_finish(device);
    int device_status = cairo->device_status(device);
    cairo->device_destroy(device);
    result.invalid_path = drawn == CAIRO_STATUS_INVALID_PATH_DATA || finished == CAIRO_STATUS_INVALID_PATH_DATA ||
                          (status != IB_IMAGE_OK && strstr(message, "InvalidPathData") != NULL);
    if (script->over) {
        snprintf(message, message_size, "drawing it as vectors takes more than %zu MiB of drawing commands",
                 script->limit >> 20);
        result.status = IB_IMAGE_TOO_LARGE;
    } else if (script->no_memory || drawn == IB_CAIRO_STATUS_NO_MEMORY || status == IB_IMAGE_NO_MEMORY ||
               finished == IB_CAIRO_STATUS_NO_MEMORY) {
        snprintf(message, message_size, "OOM");
        result.status = IB_IMAGE_NO_MEMORY;
    } else if (status != IB_IMAGE_OK) {
        result.status = status;
    } else if (drawn != IB_CAIRO_STATUS_SUCCESS || finished != IB_CAIRO_STATUS_SUCCESS ||
               device_status != IB_CAIRO_STATUS_SUCCESS) {
        snprintf(message, message_size, "Cairo could not record the drawing");
        result.status = IB_IMAGE_CORRUPT;
    }
    return result;
}

// `--isolated-decode record VIEWPORT MATRIX EXTENT EXTRA_PIXELS MAX_SCRIPT PARENT_PID`:
// the SVG on standard input drawn with librsvg into VIEWPORT under MATRIX (the user
// space of the output's context, in its device space) onto a script surface of EXTENT
// device pixels; the script is the drawing in device space, which iconbadge replays
// onto its output with Cairo's script interpreter, as vectors.
static int record_main(int argc, char **argv) {
    if (argc != 9) return 64;
    if (ib_child_begin(argv[8]) != 0) return 70;
    ib_loaders_child_mode();
    double viewport[4], m[6], extent[2];
    if (parse_numbers(argv[3], viewport, 4) != 0 || parse_numbers(argv[4], m, 6) != 0 ||
        parse_numbers(argv[5], extent, 2) != 0 || extent[0] < 1 || extent[1] < 1 || extent[0] > 1e6 ||
        extent[1] > 1e6)
        return 64;
    long long extra_pixels = atoll(argv[6]);
    long long max_script = atoll(argv[7]);
    if (extra_pixels < 0 || max_script <= 0) return 64;
    // The libraries and parsing, the images the document embeds, Cairo's fallback
    // images of the extent (librsvg's filters and groups), and the script itself.
    int64_t pixels = (int64_t)(extent[0] * extent[1]) + extra_pixels;
    ib_set_memory_cap(ib_memory_cap(pixels, 0) + (uint64_t)max_script);
    uint8_t *data = NULL;
    size_t size = 0;
    if (ib_read_all_input(&data, &size) != 0) return answer_error(IB_IMAGE_NO_MEMORY, "OOM");
    ib_set_memory_cap(ib_memory_cap(pixels, (int64_t)size) + (uint64_t)max_script);
    char message[512] = {0};
    double iw = 0, ih = 0;
    int has_size = 0, status = 0;
    void *handle = ib_svg_load(data, size, &iw, &ih, &has_size, &status, message, sizeof message);
    if (handle == NULL) {
        free(data);
        return answer_error(status, message);
    }
    if (!ib_cairo_has_script()) {
        ib_svg_free(handle);
        free(data);
        return answer_error(IB_IMAGE_UNAVAILABLE,
                            "this system's Cairo has no script surface, which SVG and PDF outputs of an SVG need "
                            "(Debian's libcairo2 has it)");
    }
    // Cairo 1.16's script surface fails a fill whose edges are all horizontal or
    // vertical but which is not a set of boxes (an L shape, an Adwaita "+"): "input
    // path data not valid" (its _emit_path_boxes). Such a drawing is recorded again
    // in a device space sheared by 1/256 each way, where no edge of a pixel or longer
    // stays axis-aligned; the answer names the matrix that maps it back. librsvg
    // before 2.52 aborts on that error (Debian 11's 2.50.3: "Cairo error \"input path
    // data not valid\"", a panic), so with it every drawing is recorded sheared.
    static const double shear = 1.0 / 256;
    script_buffer script = {NULL, 0, 0, (size_t)max_script, 0, 0};
    recorded result = record_once(handle, viewport, m, extent, ib_librsvg_before_2_52() ? shear : 0, &script,
                                  message, sizeof message);
    if (result.status == IB_IMAGE_CORRUPT && result.invalid_path && result.shear == 0) {
        free(script.bytes);
        script = (script_buffer){NULL, 0, 0, (size_t)max_script, 0, 0};
        result = record_once(handle, viewport, m, extent, shear, &script, message, sizeof message);
    }
    ib_svg_free(handle);
    free(data);
    int code;
    if (result.status != IB_IMAGE_OK) {
        code = answer_error(result.status, message);
    } else {
        // The matrix from the recording's device space to the output's: the shear's
        // inverse, or the identity.
        double k = result.shear, d = 1 - k * k;
        printf("SC %zu %.17g %.17g %.17g %.17g 0 0\n", script.size, 1 / d, -k / d, -k / d, 1 / d);
        fflush(stdout);
        code = write_all(script.bytes, script.size) == 0 ? 0 : 74;
    }
    free(script.bytes);
    return code;
}

// ------------------------------------------------------------------ versions

// `--isolated-decode versions PARENT_PID`: what `iconbadge --version` shows.
static int versions_main(int argc, char **argv) {
    if (argc != 4) return 64;
    if (ib_child_begin(argv[3]) != 0) return 70;
    char rsvg[300], pixbuf[300], cairo[300];
    ib_loader_versions(rsvg, sizeof rsvg, pixbuf, sizeof pixbuf, cairo, sizeof cairo);
    // One line each: no tab or newline from a library's message.
    char *fields[] = {rsvg, pixbuf, cairo};
    for (int i = 0; i < 3; i++) {
        for (char *c = fields[i]; *c; c++) {
            if (*c == '\t' || *c == '\n' || *c == '\r') *c = ' ';
        }
    }
    printf("VS\nlibrsvg\t%s\ngdk-pixbuf\t%s\ncairo\t%s\n", rsvg, pixbuf, cairo);
    fflush(stdout);
    return 0;
}

// ------------------------------------------------------------------ entry

int ib_loader_child_main(int argc, char **argv) {
    if (argc < 4 || strcmp(argv[1], "--isolated-decode") != 0) return 64;
    if (strcmp(argv[2], "record") == 0) return record_main(argc, argv);
    if (strcmp(argv[2], "versions") == 0) return versions_main(argc, argv);
    return decode_main(argc, argv);
}

static int served_job(int argc, char **argv) { return ib_loader_child_main(argc, argv); }

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--isolated-decode") == 0 && strcmp(argv[2], "serve") == 0) {
        return ib_server_main(argv[3], served_job, ib_loaders_preload);
    }
    if (argc >= 4 && strcmp(argv[1], "--isolated-decode") == 0) return ib_loader_child_main(argc, argv);
    fprintf(stderr, "iconbadge-loader: run by iconbadge only (iconbadge --version says where it is)\n");
    return 64;
}
