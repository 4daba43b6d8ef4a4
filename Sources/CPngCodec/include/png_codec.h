#ifndef ICONBADGE_PNG_CODEC_H
#define ICONBADGE_PNG_CODEC_H
#include <stddef.h>
#include <stdint.h>

// libpng glue for iconbadge. libpng reports errors by longjmp, which Swift cannot
// catch, so every libpng call lives here and failures come back as a status and a
// message. Pixels cross this boundary in Cairo's CAIRO_FORMAT_ARGB32 layout:
// premultiplied alpha, one native-endian 32-bit word per pixel (0xAARRGGBB).

enum {
    IB_PNG_OK = 0,
    IB_PNG_CORRUPT = 1,   // libpng rejected the data; message says why
    IB_PNG_TOO_LARGE = 2, // over the caller's limits
    IB_PNG_MISMATCH = 3,  // IHDR differs from the size the caller expected
    IB_PNG_NO_MEMORY = 4
};

/// Decodes a whole PNG held in memory into premultiplied ARGB32 pixels.
/// Every colour type, bit depth and interlacing is expanded to 8-bit RGBA first
/// (16-bit samples are scaled, not truncated); gAMA/iCCP/sRGB are ignored.
/// `width` and `height` must equal the IHDR's; `stride` is bytes per output row.
/// Returns IB_PNG_OK, or a failure code with a NUL-terminated reason in `error`.
int ib_png_decode_argb32(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                         uint8_t *pixels, size_t stride, char *error, size_t error_size);

/// zlib strategies (the values of zlib.h's Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE;
/// png_codec.c checks that they agree).
enum { IB_ZLIB_DEFAULT_STRATEGY = 0, IB_ZLIB_FILTERED = 1, IB_ZLIB_RLE = 3 };

/// Decodes a whole PNG held in memory into straight (not premultiplied) 8-bit RGBA,
/// width × 4 bytes a row, with the same expansions as ib_png_decode_argb32: the
/// form images are compared in, with no rounding through premultiplied alpha. A
/// fully transparent pixel comes out as (0, 0, 0, 0) whatever the file stores.
int ib_png_decode_rgba(const uint8_t *data, size_t size, uint32_t width, uint32_t height, uint8_t *pixels,
                       char *error, size_t error_size);

/// Settings of the PNG encoder (zlib level 0-9, zlib strategy, libpng filter mask).
typedef struct {
    int compression_level;
    int strategy;      // Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE, ...
    int filters;       // PNG_FILTER_* mask, or PNG_ALL_FILTERS
} ib_png_settings;

/// Default settings: zlib level 6, default strategy, adaptive filtering.
ib_png_settings ib_png_default_settings(void);

/// Encodes premultiplied ARGB32 pixels as an 8-bit PNG held in a malloc'd buffer
/// (free it with ib_png_free). Pixels are un-premultiplied with Cairo's rounding.
/// An image whose every pixel is opaque is written as RGB, otherwise as RGBA.
/// No ancillary chunks (no time, text or gamma), so equal pixels give equal bytes.
int ib_png_encode_argb32(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                         ib_png_settings settings, uint8_t **out, size_t *out_size,
                         char *error, size_t error_size);

/// Frees a buffer returned by ib_png_encode_argb32.
void ib_png_free(uint8_t *buffer);

#endif
