// The vector half of an SVG icon in an SVG or PDF output: iconbadge-loader records
// librsvg's drawing as a Cairo script (loader/main.c, `record`), and this replays it
// onto the output's context with Cairo's script interpreter, linked statically
// (libcairo-script-interpreter.a, scripts/link-static-libs.sh). The drawing stays
// vectors: paths, text (the script embeds each font, and its glyphs are drawn from
// it), gradients, clips, groups and images as librsvg drew them.
#include "image_loaders.h"

#include <cairo/cairo.h>
#include <stdio.h>
#include <string.h>

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

int ib_script_replay(void *cairo, const uint8_t *script, size_t size, char *error, size_t error_size) {
    cairo_t *cr = cairo;
    if (size > (size_t)0x7fffffff) {
        snprintf(error, error_size, "the recorded drawing is over 2 GiB");
        return IB_IMAGE_TOO_LARGE;
    }
    replay target = {NULL, 0};
    cairo_script_interpreter_hooks_t hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.closure = &target;
    hooks.surface_create = create_surface;
    cairo_script_interpreter_t *interpreter = cairo_script_interpreter_create();
    cairo_script_interpreter_install_hooks(interpreter, &hooks);
    cairo_status_t fed = cairo_script_interpreter_feed_string(interpreter, (const char *)script, (int)size);
    cairo_status_t finished = cairo_script_interpreter_finish(interpreter);
    cairo_status_t destroyed = cairo_script_interpreter_destroy(interpreter);
    cairo_status_t status = fed != CAIRO_STATUS_SUCCESS ? fed : finished != CAIRO_STATUS_SUCCESS ? finished : destroyed;
    if (target.page != NULL && status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(target.page);
    if (status == CAIRO_STATUS_NO_MEMORY || target.no_memory) {
        if (target.page) cairo_surface_destroy(target.page);
        snprintf(error, error_size, "OOM");
        return IB_IMAGE_NO_MEMORY;
    }
    if (status != CAIRO_STATUS_SUCCESS || target.page == NULL) {
        if (target.page) cairo_surface_destroy(target.page);
        snprintf(error, error_size, "the recorded drawing cannot be replayed (%s)",
                 target.page == NULL ? "it draws nothing" : cairo_status_to_string(status));
        return IB_IMAGE_CORRUPT;
    }
    // Recorded in the device space of the context it was made for: painted there.
    cairo_save(cr);
    cairo_identity_matrix(cr);
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
