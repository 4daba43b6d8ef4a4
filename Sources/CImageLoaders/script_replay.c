// The vector half of an SVG icon in an SVG or PDF output: iconbadge-loader records
// librsvg's drawing as a Cairo script (loader/main.c, `record`), and this replays it
// onto the output's context with Cairo's script interpreter, linked statically
// (libcairo-script-interpreter.a, scripts/link-static-libs.sh). The drawing stays
// vectors: paths, text (the script embeds each font, and its glyphs are drawn from
// it), gradients, clips, groups and images as librsvg drew them.
#include "image_loaders.h"

#include <cairo/cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// Cairo's script interpreter (cairo-script-interpreter.h, Cairo 1.12 on), declared here:
// its header includes <cairo.h>, which is not on the include path (<cairo/cairo.h> is).
typedef struct _cairo_script_interpreter cairo_script_interpreter_t;
typedef struct {
    void *closure;
    cairo_surface_t *(*surface_create)(void *closure, cairo_content_t content, double width, double height, long uid);
    void (*surface_destroy)(void *closure, void *ptr);
    cairo_t *(*context_create)(void *closure, cairo_surface_t *surface);
    void (*context_destroy)(void *closure, void *ptr);
    void (*show_page)(void *closure, cairo_t *cr);
    void (*copy_page)(void *closure, cairo_t *cr);
    cairo_surface_t *(*create_source_image)(void *closure, cairo_format_t format, int width, int height, long uid);
} cairo_script_interpreter_hooks_t;
cairo_script_interpreter_t *cairo_script_interpreter_create(void);
void cairo_script_interpreter_install_hooks(cairo_script_interpreter_t *ctx, const cairo_script_interpreter_hooks_t *hooks);
cairo_status_t cairo_script_interpreter_feed_string(cairo_script_interpreter_t *ctx, const char *line, int len);
cairo_status_t cairo_script_interpreter_finish(cairo_script_interpreter_t *ctx);
cairo_status_t cairo_script_interpreter_destroy(cairo_script_interpreter_t *ctx);

// The surfaces the script creates (its page first), as recording surfaces.
typedef struct {
    cairo_surface_t *page;
    int no_memory;
} replay;

static cairo_surface_t *create_surface(void *closure, cairo_content_t content, double width, double height,
                                       long uid) {
    (void)uid;
    replay *target = closure;
    cairo_rectangle_t extents = {0, 0, width, height};
    cairo_surface_t *surface = cairo_recording_surface_create(content, width > 0 && height > 0 ? &extents : NULL);
    if (cairo_surface_status(surface) == CAIRO_STATUS_NO_MEMORY) target->no_memory = 1;
    if (target->page == NULL) target->page = cairo_surface_reference(surface);
    return surface;
}

// ---------------------------------------------------------------- compressed strings

// Cairo's script surface writes images and fonts as compressed strings, `<|` base85
// of a 4-byte big-endian length and zlib data `~>`; Cairo 1.16's interpreter decodes
// only the first 4 bytes of such a string (an image comes back with one pixel and
// the rest transparent). So before replaying, each is inflated here and written as a
// plain base85 string, `<~ ... ~>`, which it reads correctly.

typedef struct {
    uint8_t *bytes;
    size_t size, capacity;
    int failed;
} growing;

static void put(growing *out, const void *bytes, size_t count) {
    if (out->failed) return;
    if (count > out->capacity - out->size) {
        size_t grown = out->capacity ? out->capacity : 1 << 16;
        while (grown - out->size < count) {
            if (grown > SIZE_MAX / 2) {
                out->failed = 1;
                return;
            }
            grown *= 2;
        }
        uint8_t *bigger = realloc(out->bytes, grown);
        if (bigger == NULL) {
            out->failed = 1;
            return;
        }
        out->bytes = bigger;
        out->capacity = grown;
    }
    memcpy(out->bytes + out->size, bytes, count);
    out->size += count;
}

// Decodes base85 (Adobe's, `z` for four zero bytes, whitespace skipped) from `text`
// up to its `~>`; returns the bytes (malloc'd) and sets `*end` past the `~>`, or NULL.
static uint8_t *base85_decode(const uint8_t *text, size_t size, size_t *decoded, size_t *end) {
    // Room for every group up to the `~>`: four bytes a `z` (one character) and four
    // for each other five characters. Sized by the whole rest of the script, a run of
    // `z` (deflated zeros, as a filter's result holds) overran it and the drawing was
    // refused as malformed.
    size_t zeros = 0, others = 0;
    for (size_t i = 0; i < size && !(text[i] == '~' && i + 1 < size && text[i + 1] == '>'); i++) {
        if (text[i] == 'z') {
            zeros++;
        } else {
            others++;
        }
    }
    size_t capacity = zeros * 4 + others / 5 * 4 + 8, count = 0;
    uint8_t *out = malloc(capacity);
    if (out == NULL) return NULL;
    uint32_t group[5];
    int n = 0;
    for (size_t i = 0; i < size; i++) {
        uint8_t c = text[i];
        if (c == '~') {
            if (i + 1 >= size || text[i + 1] != '>') break;
            if (n == 1) break; // one character cannot encode a byte
            if (n > 1) {
                for (int k = n; k < 5; k++) group[k] = 84; // padded with 'u'
                uint64_t value = 0;
                for (int k = 0; k < 5; k++) value = value * 85 + group[k];
                if (value > 0xffffffffu) break;
                for (int k = 0; k < n - 1; k++) out[count++] = (uint8_t)(value >> (24 - 8 * k));
            }
            *decoded = count;
            *end = i + 2;
            return out;
        }
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
        if (count + 4 > capacity) break; // cannot happen: capacity covers every group
        if (c == 'z' && n == 0) {
            memset(out + count, 0, 4);
            count += 4;
            continue;
        }
        if (c < '!' || c > 'u') break;
        group[n++] = (uint32_t)(c - '!');
        if (n == 5) {
            uint64_t value = 0;
            for (int k = 0; k < 5; k++) value = value * 85 + group[k];
            if (value > 0xffffffffu) break;
            out[count++] = (uint8_t)(value >> 24);
            out[count++] = (uint8_t)(value >> 16);
            out[count++] = (uint8_t)(value >> 8);
            out[count++] = (uint8_t)value;
            n = 0;
        }
    }
    free(out);
    return NULL;
}

static void base85_encode(growing *out, const uint8_t *bytes, size_t count) {
    char chunk[5];
    for (size_t i = 0; i < count; i += 4) {
        size_t take = count - i < 4 ? count - i : 4;
        uint32_t value = 0;
        for (size_t k = 0; k < 4; k++) value = value << 8 | (k < take ? bytes[i + k] : 0);
        if (value == 0 && take == 4) {
            put(out, "z", 1);
            continue;
        }
        for (int k = 4; k >= 0; k--) {
            chunk[k] = (char)('!' + value % 85);
            value /= 85;
        }
        put(out, chunk, take + 1);
    }
}

// The script with every `<|...~>` written as `<~...~>`; -1 when malformed, -2 out of
// memory, -3 when the strings would inflate to more than `max_inflated` bytes in all
// (checked against each string's declared length before anything is allocated: a
// deflated string can claim 1000 times its size). Strings `(...)` (nested, with
// escapes), comments and plain base85 strings are copied as they are, so that a `<|`
// inside one is not taken for a compressed string.
static int inflate_compressed_strings(const uint8_t *script, size_t size, size_t max_inflated, size_t max_commands,
                                      size_t max_stops, growing *out) {
    size_t i = 0, copied = 0, inflated_total = 0, strings = 0, stops = 0;
    static const char stop_operator[] = "add-color-stop";
    while (i < size) {
        uint8_t c = script[i];
        // Each colour stop costs Cairo's PDF and SVG writers work at every use of its
        // gradient: a 50,000-stop gradient on 4 shapes took 30 s to write as PDF.
        if (c == 'a' && size - i >= sizeof stop_operator - 1 &&
            memcmp(script + i, stop_operator, sizeof stop_operator - 1) == 0 && ++stops > max_stops) {
            return -5;
        }
        if (c == '%') {
            while (i < size && script[i] != '\n') i++;
        } else if (c == '(') {
            int depth = 0;
            for (; i < size; i++) {
                if (script[i] == '\\') {
                    i++;
                } else if (script[i] == '(') {
                    depth++;
                } else if (script[i] == ')' && --depth == 0) {
                    i++;
                    break;
                }
            }
        } else if (c == '<' && i + 1 < size && script[i + 1] == '~') {
            const uint8_t *end = NULL;
            for (size_t k = i + 2; k + 1 < size; k++) {
                if (script[k] == '~' && script[k + 1] == '>') {
                    end = script + k + 2;
                    break;
                }
            }
            if (end == NULL) return -1;
            strings += (size_t)(end - script) - i;
            i = (size_t)(end - script);
        } else if (c == '<' && i + 1 < size && script[i + 1] == '|') {
            put(out, script + copied, i - copied);
            size_t decoded = 0, end = 0;
            uint8_t *packed = base85_decode(script + i + 2, size - i - 2, &decoded, &end);
            if (packed == NULL || decoded < 4) {
                free(packed);
                return -1;
            }
            uLongf length = (uLongf)packed[0] << 24 | (uLongf)packed[1] << 16 | (uLongf)packed[2] << 8 | packed[3];
            if (length > max_inflated - inflated_total) {
                free(packed);
                return -3;
            }
            inflated_total += length;
            uint8_t *plain = malloc(length ? length : 1);
            uLongf got = length;
            int inflated = plain ? uncompress(plain, &got, packed + 4, (uLong)(decoded - 4)) : Z_MEM_ERROR;
            free(packed);
            if (inflated != Z_OK || got != length) {
                free(plain);
                return inflated == Z_MEM_ERROR ? -2 : -1;
            }
            put(out, "<~", 2);
            base85_encode(out, plain, length);
            put(out, "~>", 2);
            free(plain);
            strings += 2 + end;
            i += 2 + end;
            copied = i;
        } else {
            i++;
        }
    }
    // What is not an image or a font is drawing commands, whose replay costs a
    // multiple of their size (a pattern billion-laughs, 23 times).
    if (size - strings > max_commands) return -4;
    put(out, script + copied, size - copied);
    return out->failed ? -2 : 0;
}

int ib_script_replay(void *cairo, uint8_t *script, size_t size, const double replay_matrix[6], size_t max_inflated,
                     size_t max_commands, size_t max_stops, char *error, size_t error_size) {
    cairo_t *cr = cairo;
    if (size > (size_t)0x7fffffff) {
        free(script);
        snprintf(error, error_size, "the recorded drawing is over 2 GiB");
        return IB_IMAGE_TOO_LARGE;
    }
    growing plain = {NULL, 0, 0, 0};
    int rewritten = inflate_compressed_strings(script, size, max_inflated, max_commands, max_stops, &plain);
    // Freed before the interpreter runs: a large drawing is held once, not twice.
    free(script);
    if (rewritten == -3) {
        free(plain.bytes);
        snprintf(error, error_size, "drawing it as vectors inflates to more than %zu MiB of images and fonts",
                 (max_inflated + (1 << 20) - 1) >> 20);
        return IB_IMAGE_TOO_LARGE;
    }
    if (rewritten == -4) {
        free(plain.bytes);
        snprintf(error, error_size, "drawing it as vectors takes more than %zu MiB of drawing commands",
                 max_commands >> 20);
        return IB_IMAGE_TOO_LARGE;
    }
    if (rewritten == -5) {
        free(plain.bytes);
        snprintf(error, error_size, "drawing it as vectors takes more than %zu gradient colour stops", max_stops);
        return IB_IMAGE_TOO_LARGE;
    }
    if (rewritten != 0 || plain.size > (size_t)0x7fffffff) {
        free(plain.bytes);
        snprintf(error, error_size, rewritten == -1 ? "the recorded drawing is malformed" : "OOM");
        return rewritten == -1 ? IB_IMAGE_CORRUPT : IB_IMAGE_NO_MEMORY;
    }
    replay target = {NULL, 0};
    cairo_script_interpreter_hooks_t hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.closure = &target;
    hooks.surface_create = create_surface;
    cairo_script_interpreter_t *interpreter = cairo_script_interpreter_create();
    cairo_script_interpreter_install_hooks(interpreter, &hooks);
    cairo_status_t fed = cairo_script_interpreter_feed_string(interpreter, (const char *)plain.bytes, (int)plain.size);
    free(plain.bytes);
    cairo_status_t finished = cairo_script_interpreter_finish(interpreter);
    cairo_status_t destroyed = cairo_script_interpreter_destroy(interpreter);
    cairo_status_t status = fed != CAIRO_STATUS_SUCCESS ? fed : finished != CAIRO_STATUS_SUCCESS ? finished : destroyed;
    if (target.page != NULL && status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(target.page);
    if (status == CAIRO_STATUS_NO_MEMORY || target.no_memory) {
        if (target.page) cairo_surface_destroy(target.page);
        snprintf(error, error_size, "OOM");
        return IB_IMAGE_NO_MEMORY;
    }
    if (status != CAIRO_STATUS_SUCCESS) {
        if (target.page) cairo_surface_destroy(target.page);
        snprintf(error, error_size, "the recorded drawing cannot be replayed (%s)", cairo_status_to_string(status));
        return IB_IMAGE_CORRUPT;
    }
    // A document that draws nothing records no page.
    if (target.page == NULL) return IB_IMAGE_OK;
    // Recorded in the device space of the context it was made for (sheared, when the
    // loader had to): painted there.
    cairo_matrix_t matrix;
    cairo_matrix_init(&matrix, replay_matrix[0], replay_matrix[1], replay_matrix[2], replay_matrix[3],
                      replay_matrix[4], replay_matrix[5]);
    cairo_save(cr);
    cairo_set_matrix(cr, &matrix);
    cairo_set_source_surface(cr, target.page, 0, 0);
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_surface_destroy(target.page);
    if (cairo_status(cr) == CAIRO_STATUS_NO_MEMORY) {
        snprintf(error, error_size, "OOM");
        return IB_IMAGE_NO_MEMORY;
    }
    return IB_IMAGE_OK;
}

// The executable's bounds, from the linker (lld and GNU ld define both).
extern const char __executable_start[];
extern const char _end[];

int ib_is_linked_in(const void *function) {
    const char *at = function;
    return at >= __executable_start && at < _end;
}

// LZO, which Cairo's script interpreter calls for the compressed strings of a binary
// script (cairo_script_interpreter_translate_stream): never in the text scripts Cairo's
// script surface writes, whose strings are deflate-compressed (zlib). LZO is GPL-2+,
// iconbadge MIT: rather than link liblzo2, these stand-ins fail, and such a string is
// refused (LZO_E_ERROR, -1) like any malformed script.
int lzo2a_decompress(const unsigned char *source, unsigned long source_length, unsigned char *destination,
                     unsigned long *destination_length, void *work);
int lzo2a_decompress(const unsigned char *source, unsigned long source_length, unsigned char *destination,
                     unsigned long *destination_length, void *work) {
    (void)source, (void)source_length, (void)destination, (void)destination_length, (void)work;
    return -1;
}
int lzo2a_999_compress(const unsigned char *source, unsigned long source_length, unsigned char *destination,
                       unsigned long *destination_length, void *work);
int lzo2a_999_compress(const unsigned char *source, unsigned long source_length, unsigned char *destination,
                       unsigned long *destination_length, void *work) {
    (void)source, (void)source_length, (void)destination, (void)destination_length, (void)work;
    return -1;
}
