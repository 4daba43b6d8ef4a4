#include "png_codec.h"
#include "png_decode_forms.h"
#include "png_fast.h"
#include "png_strips.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

_Static_assert(IB_ZLIB_DEFAULT_STRATEGY == Z_DEFAULT_STRATEGY && IB_ZLIB_FILTERED == Z_FILTERED &&
                   IB_ZLIB_RLE == Z_RLE,
               "zlib strategy values");

// Largest metadata chunk libpng may allocate; docs/DESIGN.md's 8 MB rule, so that a
// 57-byte file whose chunk claims 1 GiB cannot make libpng allocate it.
#define IB_PNG_CHUNK_MALLOC_MAX (8u * 1024u * 1024u)

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    char *error;
    size_t error_size;
    uint32_t height;        // the image's rows
    size_t idat_after_rows; // IDAT data bytes read after its last row
} ib_reader;

// The most IDAT data read after the last row (bytes). After the last row libpng
// (png_read_finish_IDAT) inflates whatever image data is left to find the zlib stream's
// end, 1 KiB at a time: a 10 × 10 PNG whose stream goes on for 3 MB of zeros inflates 3
// GB there (11 s), a 32 MiB one 33 GB. What a real encoder leaves after the last row is
// the stream's end (an end-of-block code, an empty flush block, the Adler-32) within
// libpng's 8 KiB read-ahead; more is refused, so that check inflates at most 64 MiB.
#define IB_PNG_IDAT_AFTER_ROWS_MAX ((size_t)64 << 10)

static void ib_set_error(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    strncpy(error, message, error_size - 1);
    error[error_size - 1] = '\0';
}

static void ib_png_error(png_structp png, png_const_charp message) {
    ib_reader *reader = (ib_reader *)png_get_error_ptr(png);
    ib_set_error(reader->error, reader->error_size, message);
    png_longjmp(png, 1);
}

// Warnings are dropped: libpng would print them on stderr, and the CLI's promise
// is one line per failure, ours.
static void ib_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void ib_png_read(png_structp png, png_bytep out, png_size_t length) {
    ib_reader *reader = (ib_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->offset) {
        png_error(png, "file is truncated");
    }
    // Past the last row: its row number is the height, or (interlaced) the pass 7.
    int rows_done = png_get_current_pass_number(png) >= 7 || png_get_current_row_number(png) >= reader->height;
    if (rows_done && png_get_io_chunk_type(png) == 0x49444154u /* IDAT */ &&
        (png_get_io_state(png) & PNG_IO_MASK_LOC) == PNG_IO_CHUNK_DATA) {
        reader->idat_after_rows += length;
        if (reader->idat_after_rows > IB_PNG_IDAT_AFTER_ROWS_MAX)
            png_error(png, "more image data after the last row than any image leaves (over 64 KiB)");
    }
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

void ib_straight_pixels_free(ib_straight_pixels *lost) {
    if (lost == NULL) return;
    free(lost->pixels);
    lost->pixels = NULL;
    lost->count = 0;
}

int ib_straight_pixels_append(ib_straight_pixels *lost, size_t *capacity, ib_straight_pixel pixel) {
    if (lost->count == *capacity) {
        size_t grown = *capacity ? *capacity * 2 : 256;
        ib_straight_pixel *more = realloc(lost->pixels, grown * sizeof(ib_straight_pixel));
        if (more == NULL) return 0;
        lost->pixels = more;
        *capacity = grown;
    }
    lost->pixels[lost->count++] = pixel;
    return 1;
}

int ib_rgba_to_argb32(uint8_t *pixels, uint32_t width, uint32_t height, ib_straight_pixels *lost) {
    size_t capacity = 0;
    for (uint32_t y = 0; y < height; y++) {
        uint8_t *row = pixels + (size_t)y * width * 4;
        if (!ib_emit_rgba_row(row, row, width, y, IB_DECODE_PREMULTIPLIED, lost, &capacity)) {
            ib_straight_pixels_free(lost);
            return 0;
        }
    }
    return 1;
}

int ib_emit_rgba_row(const uint8_t *rgba, uint8_t *out, uint32_t width, uint32_t y, int form,
                     ib_straight_pixels *lost, size_t *lost_capacity) {
    if (form == IB_DECODE_STRAIGHT_KEEP) {
        if (out != rgba) memcpy(out, rgba, (size_t)width * 4);
        return 1;
    }
    uint32_t x = 0;
    if (form == IB_DECODE_STRAIGHT) {
        // A fully transparent pixel is stored as transparent black, the one form every
        // premultiplying pipeline (Cairo's included) gives it back in.
#if defined(__SSE2__)
        const __m128i alpha = _mm_set1_epi32((int)0xff000000u), zero = _mm_setzero_si128();
        for (; x + 4 <= width; x += 4) {
            __m128i v = _mm_loadu_si128((const __m128i *)(rgba + (size_t)x * 4));
            __m128i clear = _mm_cmpeq_epi32(_mm_and_si128(v, alpha), zero);
            _mm_storeu_si128((__m128i *)(out + (size_t)x * 4), _mm_andnot_si128(clear, v));
        }
#endif
        for (; x < width; x++) {
            const uint8_t *p = rgba + (size_t)x * 4;
            uint8_t *o = out + (size_t)x * 4;
            uint8_t a = p[3];
            o[0] = a == 0 ? 0 : p[0];
            o[1] = a == 0 ? 0 : p[1];
            o[2] = a == 0 ? 0 : p[2];
            o[3] = a;
        }
        return 1;
    }
    // Premultiplied native-endian ARGB words; what the premultiplied form cannot give
    // back is kept in `lost`. Four opaque pixels at a time only swap red and blue (a
    // little-endian word of bytes R, G, B, A becomes A, R, G, B from the top); four
    // transparent ones are 0.
    for (; x < width; x++) {
#if defined(__SSE2__)
        if (x + 4 <= width) {
            __m128i v = _mm_loadu_si128((const __m128i *)(rgba + (size_t)x * 4));
            __m128i alpha = _mm_srli_epi32(v, 24);
            if (_mm_movemask_epi8(_mm_cmpeq_epi32(alpha, _mm_setzero_si128())) == 0xffff) {
                _mm_storeu_si128((__m128i *)(out + (size_t)x * 4), _mm_setzero_si128()); // transparent: 0
                x += 3;
                continue;
            }
            if (_mm_movemask_epi8(_mm_cmpeq_epi32(alpha, _mm_set1_epi32(0xff))) == 0xffff) {
                __m128i ag = _mm_and_si128(v, _mm_set1_epi32((int)0xff00ff00u));
                __m128i r = _mm_and_si128(v, _mm_set1_epi32(0xff)), b = _mm_and_si128(_mm_srli_epi32(v, 16),
                                                                                  _mm_set1_epi32(0xff));
                _mm_storeu_si128((__m128i *)(out + (size_t)x * 4),
                                 _mm_or_si128(ag, _mm_or_si128(_mm_slli_epi32(r, 16), b)));
                x += 3;
                continue;
            }
        }
#endif
        const uint8_t *p = rgba + (size_t)x * 4;
        uint32_t r = p[0], g = p[1], b = p[2], a = p[3];
        if (a != 0xff) {
            uint32_t pr = ib_multiply_alpha(a, r), pg = ib_multiply_alpha(a, g), pb = ib_multiply_alpha(a, b);
            if (lost != NULL && a != 0 &&
                (ib_divide_alpha(a, pr) != r || ib_divide_alpha(a, pg) != g || ib_divide_alpha(a, pb) != b)) {
                ib_straight_pixel kept = {y * width + x, (uint8_t)r, (uint8_t)g, (uint8_t)b, (uint8_t)a};
                if (!ib_straight_pixels_append(lost, lost_capacity, kept)) return 0;
            }
            r = pr;
            g = pg;
            b = pb;
        }
        uint32_t word = (a << 24) | (r << 16) | (g << 8) | b;
        memcpy(out + (size_t)x * 4, &word, 4);
    }
    return 1;
}

static int ib_png_decode(const uint8_t *data, size_t size, uint32_t width, uint32_t height, uint8_t *pixels,
                         size_t stride, size_t capacity, int form, ib_straight_pixels *lost, ib_png_color *color,
                         char *error, size_t error_size);

int ib_png_decode_argb32(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                         uint8_t *pixels, size_t stride, size_t capacity, ib_straight_pixels *lost,
                         ib_png_color *color, char *error, size_t error_size) {
    return ib_png_decode(data, size, width, height, pixels, stride, capacity, IB_DECODE_PREMULTIPLIED, lost, color,
                         error, error_size);
}

int ib_png_decode_rgba(const uint8_t *data, size_t size, uint32_t width, uint32_t height, uint8_t *pixels,
                       size_t capacity, int keep_transparent_color, char *error, size_t error_size) {
    return ib_png_decode(data, size, width, height, pixels, (size_t)width * 4, capacity,
                         keep_transparent_color ? IB_DECODE_STRAIGHT_KEEP : IB_DECODE_STRAIGHT, NULL, NULL, error,
                         error_size);
}

void ib_png_color_free(ib_png_color *color) {
    if (color == NULL) return;
    free(color->icc);
    color->icc = NULL;
    color->icc_size = 0;
}

/// Copies the colour chunks libpng read (after png_read_info) into `color`.
/// Returns 0 when memory for the profile cannot be had.
static int ib_png_read_color(png_structp png, png_infop info, ib_png_color *color) {
    memset(color, 0, sizeof(*color));
    color->bit_depth = png_get_bit_depth(png, info);
    int intent = 0;
    if (png_get_sRGB(png, info, &intent)) {
        color->has_srgb = 1;
        color->srgb_intent = intent;
    }
    png_fixed_point gama = 0;
    if (png_get_gAMA_fixed(png, info, &gama)) {
        color->has_gama = 1;
        color->gama = gama;
    }
    png_fixed_point c[8];
    if (png_get_cHRM_fixed(png, info, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7])) {
        color->has_chrm = 1;
        for (int i = 0; i < 8; i++) color->chrm[i] = c[i];
    }
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    if (png_get_iCCP(png, info, &name, &compression, &profile, &length) && profile != NULL && length > 0) {
        color->icc = malloc(length);
        if (color->icc == NULL) return 0;
        memcpy(color->icc, profile, length);
        color->icc_size = length;
        snprintf(color->icc_name, sizeof(color->icc_name), "%s", name != NULL ? name : "ICC profile");
    }
    return 1;
}

static int ib_png_decode(const uint8_t *data, size_t size, uint32_t width, uint32_t height, uint8_t *pixels,
                         size_t stride, size_t capacity, int form, ib_straight_pixels *lost, ib_png_color *color,
                         char *error, size_t error_size) {
    ib_reader reader = {data, size, 0, error, error_size, height, 0};
    png_bytep *volatile rows = NULL;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, ib_png_error,
                                             ib_png_warning);
    if (png == NULL) {
        ib_set_error(error, error_size, "cannot create a PNG reader");
        return IB_PNG_NO_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        ib_set_error(error, error_size, "cannot create a PNG reader");
        return IB_PNG_NO_MEMORY;
    }
    volatile int status = IB_PNG_CORRUPT;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        ib_png_color_free(color);
        png_destroy_read_struct(&png, &info, NULL);
        return status;
    }
    png_set_read_fn(png, &reader, ib_png_read);
    png_set_user_limits(png, width, height);
    png_set_chunk_malloc_max(png, IB_PNG_CHUNK_MALLOC_MAX);
    // Text and suggested-palette chunks are never used, and libpng would keep every
    // one, inflated (zTXt/iTXt): 1000 chunks of 8 MB each from a 7 MB file. They are
    // skipped unread, and at most 64 ancillary chunks of any kind are kept.
    static const png_byte ignored[] = {'t', 'E', 'X', 't', 0, 'z', 'T', 'X', 't', 0, 'i', 'T', 'X', 't', 0,
                                       's', 'P', 'L', 'T', 0};
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, ignored, 4);
    png_set_chunk_cache_max(png, 64);
    png_read_info(png, info);
    if (color != NULL && !ib_png_read_color(png, info, color)) {
        status = IB_PNG_NO_MEMORY;
        png_error(png, "out of memory for the colour profile");
    }

    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        status = IB_PNG_MISMATCH;
        png_error(png, "image header changed between checks");
    }
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    ib_advise_huge_pages(pixels, capacity);
    if (lost != NULL) {
        lost->pixels = NULL;
        lost->count = 0;
    }
    // The common formats' image data: whole-buffer inflate (png_fast.c), or libpng
    // below when that path declines (the pixels are then written again).
    unsigned channels = color_type == PNG_COLOR_TYPE_GRAY         ? 1
                        : color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? 2
                        : color_type == PNG_COLOR_TYPE_RGB        ? 3
                        : color_type == PNG_COLOR_TYPE_RGB_ALPHA  ? 4
                                                                  : 0;
    if (channels != 0 && bit_depth == 8 && png_get_interlace_type(png, info) == PNG_INTERLACE_NONE &&
        !png_get_valid(png, info, PNG_INFO_tRNS) && reader.offset >= 8 &&
        memcmp(data + reader.offset - 4, "IDAT", 4) == 0) {
        ib_png_fast_input fast = {
            .data = data, .size = size, .idat_offset = reader.offset - 8, .width = width, .height = height,
            .channels = channels, .chunk_malloc_max = IB_PNG_CHUNK_MALLOC_MAX, .form = form, .pixels = pixels,
            .stride = stride, .capacity = capacity, .lost = lost};
        int outcome = ib_png_fast_decode(&fast);
        if (outcome == IB_FAST_DONE) {
            png_destroy_read_struct(&png, &info, NULL);
            return IB_PNG_OK;
        }
        if (outcome == IB_FAST_NO_MEMORY) {
            ib_straight_pixels_free(lost);
            ib_png_color_free(color);
            png_destroy_read_struct(&png, &info, NULL);
            ib_set_error(error, error_size, "out of memory while decoding PNG");
            return IB_PNG_NO_MEMORY;
        }
    }
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unexpected row size after expansion");
    }

    rows = malloc(sizeof(png_bytep) * height);
    if (rows == NULL) {
        status = IB_PNG_NO_MEMORY;
        png_error(png, "out of memory for row pointers");
    }
    for (uint32_t y = 0; y < height; y++) rows[y] = pixels + (size_t)y * stride;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    // RGBA rows into the caller's form, in place (ib_emit_rgba_row).
    size_t lost_capacity = 0;
    for (uint32_t y = 0; form != IB_DECODE_STRAIGHT_KEEP && y < height; y++) {
        if (!ib_emit_rgba_row(rows[y], rows[y], width, y, form, lost, &lost_capacity)) {
            ib_straight_pixels_free(lost);
            ib_png_color_free(color);
            free(rows);
            png_destroy_read_struct(&png, &info, NULL);
            ib_set_error(error, error_size, "out of memory while decoding PNG");
            return IB_PNG_NO_MEMORY;
        }
    }
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return IB_PNG_OK;
}

ib_png_settings ib_png_default_settings(void) {
    ib_png_settings settings = {6, Z_DEFAULT_STRATEGY, PNG_ALL_FILTERS, 0, IB_DEFLATE_ZLIB};
    return settings;
}

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed;
    char *error;
    size_t error_size;
} ib_writer;

static void ib_png_write(png_structp png, png_bytep bytes, png_size_t length) {
    ib_writer *writer = (ib_writer *)png_get_io_ptr(png);
    if (length > SIZE_MAX - writer->size) png_error(png, "PNG too large");
    size_t needed = writer->size + length;
    if (needed > writer->capacity) {
        size_t capacity = writer->capacity ? writer->capacity : 4096;
        while (capacity < needed) capacity *= 2;
        uint8_t *grown = realloc(writer->data, capacity);
        if (grown == NULL) png_error(png, "out of memory while encoding PNG");
        writer->data = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->data + writer->size, bytes, length);
    writer->size = needed;
}

static void ib_png_flush(png_structp png) { (void)png; }

static void ib_png_write_error(png_structp png, png_const_charp message) {
    ib_writer *writer = (ib_writer *)png_get_error_ptr(png);
    ib_set_error(writer->error, writer->error_size, message);
    png_longjmp(png, 1);
}

// Un-premultiplies row `y` of ARGB32 pixels with Cairo's rounding into `out`, then
// writes back the straight pixels `restore` holds where the canvas still has them.
typedef struct {
    const uint8_t *pixels;
    uint32_t width;
    size_t stride;
    const ib_restore *restore;
} ib_argb32_rows;

static void ib_argb32_row(const void *context, uint32_t y, uint8_t *out, size_t channels) {
    const ib_argb32_rows *source = context;
    const uint8_t *row = source->pixels + (size_t)y * source->stride;
    uint8_t *o = out;
    for (uint32_t x = 0; x < source->width; x++) {
#if defined(__SSE2__)
        // Four transparent pixels are (0, 0, 0, 0); four opaque ones into RGBA: red and
        // blue swapped back, nothing divided.
        if (channels == 4 && x + 4 <= source->width) {
            __m128i v = _mm_loadu_si128((const __m128i *)(row + (size_t)x * 4));
            if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_srli_epi32(v, 24), _mm_setzero_si128())) == 0xffff) {
                _mm_storeu_si128((__m128i *)o, _mm_setzero_si128()); // transparent: (0, 0, 0, 0)
                o += 16;
                x += 3;
                continue;
            }
            if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_srli_epi32(v, 24), _mm_set1_epi32(0xff))) == 0xffff) {
                __m128i ag = _mm_and_si128(v, _mm_set1_epi32((int)0xff00ff00u));
                __m128i b = _mm_and_si128(v, _mm_set1_epi32(0xff)), r = _mm_and_si128(_mm_srli_epi32(v, 16),
                                                                                  _mm_set1_epi32(0xff));
                _mm_storeu_si128((__m128i *)o, _mm_or_si128(ag, _mm_or_si128(_mm_slli_epi32(b, 16), r)));
                o += 16;
                x += 3;
                continue;
            }
        }
#endif
        uint32_t word;
        memcpy(&word, row + (size_t)x * 4, 4);
        uint32_t a = word >> 24;
        uint32_t r = (word >> 16) & 0xff, g = (word >> 8) & 0xff, b = word & 0xff;
        if (a == 0) {
            r = g = b = 0;
        } else if (a != 0xff) {
            r = ib_divide_alpha(a, r);
            g = ib_divide_alpha(a, g);
            b = ib_divide_alpha(a, b);
        }
        o[0] = (uint8_t)r;
        o[1] = (uint8_t)g;
        o[2] = (uint8_t)b;
        if (channels == 4) o[3] = (uint8_t)a;
        o += channels;
    }
    const ib_restore *restore = source->restore;
    if (restore == NULL || restore->count == 0 || restore->width == 0) return;
    int64_t image_y = (int64_t)y - restore->y;
    if (image_y < 0) return;
    uint64_t first = (uint64_t)image_y * restore->width, end = first + restore->width;
    // The kept pixels are sorted by index: find the row's first by bisection.
    size_t low = 0, high = restore->count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (restore->pixels[middle].index < first) low = middle + 1; else high = middle;
    }
    for (size_t i = low; i < restore->count && restore->pixels[i].index < end; i++) {
        ib_straight_pixel kept = restore->pixels[i];
        int64_t x = restore->x + (int64_t)(kept.index - first);
        if (x < 0 || x >= (int64_t)source->width) continue;
        uint32_t word;
        memcpy(&word, row + (size_t)x * 4, 4);
        uint32_t expected = ((uint32_t)kept.a << 24) | (ib_multiply_alpha(kept.a, kept.r) << 16) |
                            (ib_multiply_alpha(kept.a, kept.g) << 8) | ib_multiply_alpha(kept.a, kept.b);
        if (word != expected) continue; // drawn over: the canvas pixel is new
        uint8_t *p = out + (size_t)x * channels;
        p[0] = kept.r;
        p[1] = kept.g;
        p[2] = kept.b;
        if (channels == 4) p[3] = kept.a;
    }
}

void ib_argb32_to_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                       const ib_restore *restore, uint8_t *out) {
    ib_argb32_rows source = {pixels, width, stride, restore};
    for (uint32_t y = 0; y < height; y++) ib_argb32_row(&source, y, out + (size_t)y * width * 4, 4);
}

typedef struct {
    const uint8_t *pixels;
    uint32_t width;
} ib_rgba_rows;

static void ib_rgba_row(const void *context, uint32_t y, uint8_t *out, size_t channels) {
    const ib_rgba_rows *source = context;
    const uint8_t *row = source->pixels + (size_t)y * source->width * 4;
    for (uint32_t x = 0; x < source->width; x++) {
        const uint8_t *p = row + (size_t)x * 4;
        uint8_t *o = out + (size_t)x * channels;
        int clear = p[3] == 0;
        o[0] = clear ? 0 : p[0];
        o[1] = clear ? 0 : p[1];
        o[2] = clear ? 0 : p[2];
        if (channels == 4) o[3] = p[3];
    }
}

static int ib_png_encode(uint32_t width, uint32_t height, int opaque, ib_row_source rows, const void *context,
                         const ib_png_color *color, ib_png_settings settings, uint8_t **out, size_t *out_size,
                         char *error, size_t error_size) {
    *out = NULL;
    *out_size = 0;
    ib_writer writer = {NULL, 0, 0, 0, error, error_size};
    size_t channels = opaque ? 3 : 4;
    uint8_t *row_buffer = malloc((size_t)width * channels + 1);
    if (row_buffer == NULL) {
        ib_set_error(error, error_size, "out of memory while encoding PNG");
        return IB_PNG_NO_MEMORY;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer,
                                              ib_png_write_error, ib_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, &info);
        free(row_buffer);
        ib_set_error(error, error_size, "cannot create a PNG writer");
        return IB_PNG_NO_MEMORY;
    }
    ib_png_strips *volatile strips = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row_buffer);
        free(writer.data);
        ib_png_strips_free(strips);
        return IB_PNG_NO_MEMORY;
    }
    png_set_write_fn(png, &writer, ib_png_write, ib_png_flush);
    int paeth_strips = settings.filters == PNG_FILTER_PAETH;
    if (!paeth_strips) {
        png_set_compression_level(png, settings.compression_level);
        png_set_compression_strategy(png, settings.strategy);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, settings.filters);
    }
    png_set_IHDR(png, info, width, height, 8,
                 opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (color != NULL) {
        // As the source had them. libpng checks them against each other (an sRGB
        // chunk beside a profile that is not sRGB, say) and drops what conflicts,
        // with a warning, never failing the write.
        if (color->has_srgb) png_set_sRGB(png, info, color->srgb_intent);
        if (color->has_gama) png_set_gAMA_fixed(png, info, color->gama);
        if (color->has_chrm)
            png_set_cHRM_fixed(png, info, color->chrm[0], color->chrm[1], color->chrm[2], color->chrm[3],
                               color->chrm[4], color->chrm[5], color->chrm[6], color->chrm[7]);
        if (color->icc != NULL && color->icc_size > 0)
            png_set_iCCP(png, info, color->icc_name, PNG_COMPRESSION_TYPE_BASE, color->icc, color->icc_size);
    }
    png_write_info(png, info);
    if (paeth_strips) {
        // Paeth alone: compressed in parallel strips (png_strips.c), one IDAT chunk
        // a strip (about 1 MiB of pixels each; decoders join them).
        ib_png_strips *compressed = ib_png_compress_strips(width, height, channels, rows, context, settings.deflater,
                                                           settings.compression_level, settings.strategy,
                                                           settings.threads);
        if (compressed == NULL) {
            ib_set_error(error, error_size, "out of memory while encoding PNG");
            png_longjmp(png, 1);
        }
        strips = compressed; // freed by the error path if a write below fails
        for (size_t i = 0; i < ib_png_strips_count(compressed); i++) {
            size_t length = 0;
            const uint8_t *piece = ib_png_strips_piece(compressed, i, &length);
            png_write_chunk(png, (png_const_bytep) "IDAT", piece, length);
            ib_png_strips_release(compressed, i);
        }
        png_write_chunk(png, (png_const_bytep) "IEND", NULL, 0);
        strips = NULL;
        ib_png_strips_free(compressed);
    } else {
        for (uint32_t y = 0; y < height; y++) {
            rows(context, y, row_buffer, channels);
            png_write_row(png, row_buffer);
        }
        png_write_end(png, NULL);
    }
    png_destroy_write_struct(&png, &info);
    free(row_buffer);
    *out = writer.data;
    *out_size = writer.size;
    return IB_PNG_OK;
}

int ib_png_encode_argb32(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                         const ib_restore *restore, const ib_png_color *color, ib_png_settings settings,
                         uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    int opaque = 1;
    for (uint32_t y = 0; y < height && opaque; y++) {
        const uint8_t *row = pixels + (size_t)y * stride;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t word;
            memcpy(&word, row + (size_t)x * 4, 4);
            if ((word >> 24) != 0xff) { opaque = 0; break; }
        }
    }
    ib_argb32_rows source = {pixels, width, stride, restore};
    return ib_png_encode(width, height, opaque, ib_argb32_row, &source, color, settings, out, out_size, error,
                         error_size);
}

int ib_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, ib_png_settings settings,
                       uint8_t **out, size_t *out_size, char *error, size_t error_size) {
    int opaque = 1;
    size_t count = (size_t)width * height;
    for (size_t i = 0; i < count && opaque; i++) {
        if (pixels[i * 4 + 3] != 0xff) opaque = 0;
    }
    ib_rgba_rows source = {pixels, width};
    return ib_png_encode(width, height, opaque, ib_rgba_row, &source, NULL, settings, out, out_size, error,
                         error_size);
}

void ib_png_free(uint8_t *buffer) { free(buffer); }

int ib_png_encode_rgba_alpha(const uint8_t *pixels, uint32_t width, uint32_t height, const ib_png_color *color,
                             ib_png_settings settings, uint8_t **out, size_t *out_size, char *error,
                             size_t error_size) {
    ib_rgba_rows source = {pixels, width};
    return ib_png_encode(width, height, 0, ib_rgba_row, &source, color, settings, out, out_size, error, error_size);
}

uint32_t ib_crc32(uint32_t crc, const uint8_t *data, size_t size) {
    // zlib's crc32 takes a uInt length: feed it in pieces.
    while (size > 0) {
        uInt piece = size > 0x40000000u ? 0x40000000u : (uInt)size;
        crc = (uint32_t)crc32(crc, data, piece);
        data += piece;
        size -= piece;
    }
    return crc;
}

// ---- Rows a few at a time: the streamed comparison of large images. ----

struct ib_png_rows {
    png_structp png;
    png_infop info;
    ib_reader reader;
    char message[256];
    uint32_t width, height, next;
    int form;
};

int ib_png_rows_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int keep_transparent_color,
                     ib_png_rows **out, int *has_alpha, char *error, size_t error_size) {
    *out = NULL;
    ib_png_rows *rows = calloc(1, sizeof(ib_png_rows));
    if (rows == NULL) {
        ib_set_error(error, error_size, "out of memory for a PNG reader");
        return IB_PNG_NO_MEMORY;
    }
    rows->reader = (ib_reader){data, size, 0, rows->message, sizeof(rows->message), height, 0};
    rows->width = width;
    rows->height = height;
    rows->form = keep_transparent_color ? IB_DECODE_STRAIGHT_KEEP : IB_DECODE_STRAIGHT;
    rows->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &rows->reader, ib_png_error, ib_png_warning);
    rows->info = rows->png ? png_create_info_struct(rows->png) : NULL;
    if (rows->png == NULL || rows->info == NULL) {
        ib_png_rows_close(rows);
        ib_set_error(error, error_size, "cannot create a PNG reader");
        return IB_PNG_NO_MEMORY;
    }
    volatile int status = IB_PNG_CORRUPT;
    if (setjmp(png_jmpbuf(rows->png))) {
        ib_set_error(error, error_size, rows->message);
        ib_png_rows_close(rows);
        return status;
    }
    png_structp png = rows->png;
    png_infop info = rows->info;
    png_set_read_fn(png, &rows->reader, ib_png_read);
    png_set_user_limits(png, width, height);
    png_set_chunk_malloc_max(png, IB_PNG_CHUNK_MALLOC_MAX);
    // As ib_png_decode: text and suggested palettes skipped unread, at most 64
    // ancillary chunks kept.
    static const png_byte ignored[] = {'t', 'E', 'X', 't', 0, 'z', 'T', 'X', 't', 0, 'i', 'T', 'X', 't', 0,
                                       's', 'P', 'L', 'T', 0};
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, ignored, 4);
    png_set_chunk_cache_max(png, 64);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        status = IB_PNG_MISMATCH;
        png_error(png, "image header changed between checks");
    }
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) {
        status = IB_PNG_MISMATCH;
        png_error(png, "an interlaced PNG cannot be read row by row");
    }
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int transparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    *has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || transparency;
    // The expansions of ib_png_decode, so the pixels are the same.
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (transparency) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unexpected row size after expansion");
    }
    *out = rows;
    return IB_PNG_OK;
}

int ib_png_rows_read(ib_png_rows *rows, uint8_t *out, uint32_t count, char *error, size_t error_size) {
    if (count > rows->height - rows->next) {
        ib_set_error(error, error_size, "rows asked for past the image's end");
        return IB_PNG_MISMATCH;
    }
    if (setjmp(png_jmpbuf(rows->png))) {
        ib_set_error(error, error_size, rows->message);
        return IB_PNG_CORRUPT;
    }
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *row = out + (size_t)i * rows->width * 4;
        png_read_row(rows->png, row, NULL);
        if (rows->form != IB_DECODE_STRAIGHT_KEEP) ib_emit_rgba_row(row, row, rows->width, 0, rows->form, NULL, NULL);
        rows->next++;
    }
    if (rows->next == rows->height) png_read_end(rows->png, NULL);
    return IB_PNG_OK;
}

void ib_png_rows_close(ib_png_rows *rows) {
    if (rows == NULL) return;
    if (rows->png != NULL) png_destroy_read_struct(&rows->png, rows->info ? &rows->info : NULL, NULL);
    free(rows);
}

struct ib_png_row_writer {
    png_structp png;
    png_infop info;
    ib_writer writer;
    char message[256];
    uint8_t *row; // one row in the written form
    uint32_t width, height, next;
    int opaque;
};

void ib_png_row_writer_free(ib_png_row_writer *writer) {
    if (writer == NULL) return;
    if (writer->png != NULL) png_destroy_write_struct(&writer->png, writer->info ? &writer->info : NULL);
    free(writer->writer.data);
    free(writer->row);
    free(writer);
}

int ib_png_row_writer_open(uint32_t width, uint32_t height, int opaque, ib_png_settings settings,
                           ib_png_row_writer **out, char *error, size_t error_size) {
    *out = NULL;
    ib_png_row_writer *writer = calloc(1, sizeof(ib_png_row_writer));
    if (writer == NULL) {
        ib_set_error(error, error_size, "out of memory for a PNG writer");
        return IB_PNG_NO_MEMORY;
    }
    writer->writer = (ib_writer){NULL, 0, 0, 0, writer->message, sizeof(writer->message)};
    writer->width = width;
    writer->height = height;
    writer->opaque = opaque;
    writer->row = malloc((size_t)width * 4 + 1);
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer->writer, ib_png_write_error, ib_png_warning);
    writer->info = writer->png ? png_create_info_struct(writer->png) : NULL;
    if (writer->row == NULL || writer->png == NULL || writer->info == NULL) {
        ib_png_row_writer_free(writer);
        ib_set_error(error, error_size, "cannot create a PNG writer");
        return IB_PNG_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        ib_set_error(error, error_size, writer->message);
        ib_png_row_writer_free(writer);
        return IB_PNG_NO_MEMORY;
    }
    png_set_write_fn(writer->png, &writer->writer, ib_png_write, ib_png_flush);
    png_set_compression_level(writer->png, settings.compression_level);
    png_set_compression_strategy(writer->png, settings.strategy);
    png_set_filter(writer->png, PNG_FILTER_TYPE_BASE, settings.filters);
    png_set_IHDR(writer->png, writer->info, width, height, 8, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(writer->png, writer->info);
    *out = writer;
    return IB_PNG_OK;
}

int ib_png_row_writer_rows(ib_png_row_writer *writer, const uint8_t *rgba, uint32_t count, char *error,
                           size_t error_size) {
    if (count > writer->height - writer->next) {
        ib_set_error(error, error_size, "rows written past the image's end");
        return IB_PNG_MISMATCH;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        ib_set_error(error, error_size, writer->message);
        return IB_PNG_NO_MEMORY;
    }
    ib_rgba_rows source = {rgba, writer->width};
    size_t channels = writer->opaque ? 3 : 4;
    for (uint32_t i = 0; i < count; i++) {
        ib_rgba_row(&source, i, writer->row, channels);
        png_write_row(writer->png, writer->row);
        writer->next++;
    }
    return IB_PNG_OK;
}

int ib_png_row_writer_finish(ib_png_row_writer *writer, uint8_t **out, size_t *out_size, char *error,
                             size_t error_size) {
    *out = NULL;
    *out_size = 0;
    if (writer->next != writer->height) {
        ib_set_error(error, error_size, "the PNG is missing rows");
        ib_png_row_writer_free(writer);
        return IB_PNG_MISMATCH;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        ib_set_error(error, error_size, writer->message);
        ib_png_row_writer_free(writer);
        return IB_PNG_NO_MEMORY;
    }
    png_write_end(writer->png, NULL);
    *out = writer->writer.data;
    *out_size = writer->writer.size;
    writer->writer.data = NULL;
    ib_png_row_writer_free(writer);
    return IB_PNG_OK;
}
