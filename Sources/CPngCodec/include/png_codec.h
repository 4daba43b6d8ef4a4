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

/// A pixel whose straight colour premultiplied ARGB32 cannot carry: 0 < alpha < 255
/// and un-premultiplying its premultiplied form does not give it back (at alpha 16,
/// for one, sixteen straight values share each premultiplied one).
typedef struct {
    uint32_t index; // y * width + x in the decoded image
    uint8_t r, g, b, a;
} ib_straight_pixel;

/// The straight pixels an image loses to premultiplication, by ascending index;
/// `pixels` is malloc'd (free it with ib_straight_pixels_free), NULL when none.
typedef struct {
    ib_straight_pixel *pixels;
    size_t count;
} ib_straight_pixels;

/// The colour chunks of a PNG (sRGB, gAMA, cHRM, iCCP) and its bit depth: what a
/// badged copy keeps so that it displays as the original did. Fixed-point values are
/// libpng's (× 100000). `icc` is malloc'd (free with ib_png_color_free), NULL when
/// there is no iCCP chunk.
typedef struct {
    int has_srgb;
    int srgb_intent;
    int has_gama;
    int32_t gama;
    int has_chrm;
    int32_t chrm[8]; // white x, y; red x, y; green x, y; blue x, y
    uint8_t *icc;
    uint32_t icc_size;
    char icc_name[80];
    int bit_depth;   // per channel in the file: 1, 2, 4, 8 or 16
} ib_png_color;

/// Frees the profile ib_png_decode_argb32 copied into `color`.
void ib_png_color_free(ib_png_color *color);

/// Frees what ib_png_decode_argb32 recorded in `lost`.
void ib_straight_pixels_free(ib_straight_pixels *lost);

/// Decodes a whole PNG held in memory into premultiplied ARGB32 pixels.
/// Every colour type, bit depth and interlacing is expanded to 8-bit RGBA first
/// (16-bit samples are scaled, not truncated); gAMA/cHRM/iCCP/sRGB are not applied.
/// `width` and `height` must equal the IHDR's; `stride` is bytes per output row;
/// `capacity` is the bytes writable at `pixels` (at least stride × height): with
/// `height` bytes more than the pixels need (and stride width × 4), the common formats
/// are inflated inside the output buffer instead of a second image-sized one.
/// With `lost` not NULL, the straight pixels premultiplication cannot carry are
/// recorded there, so that an encoder can write them back exactly (ib_restore).
/// Returns IB_PNG_OK, or a failure code with a NUL-terminated reason in `error`.
/// With `color` not NULL, the colour chunks are copied there (the pixels are not
/// converted: they stay in the file's colour space).
///
/// libpng reads and checks every chunk before the image data, and decodes the image
/// data of palette, tRNS, 16-bit, low-bit-depth and interlaced files; the image data
/// of 8-bit grey, grey + alpha, RGB and RGBA files is inflated in one call by
/// libdeflate and unfiltered here when every check libpng would make passes, else
/// libpng decodes it (png_fast.c says which checks and why).
int ib_png_decode_argb32(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                         uint8_t *pixels, size_t stride, size_t capacity, ib_straight_pixels *lost,
                         ib_png_color *color, char *error, size_t error_size);

/// Converts `width` × `height` straight 8-bit RGBA pixels (rows of width × 4 bytes,
/// as libwebp decodes them) into premultiplied native-endian ARGB32 words in place,
/// with Cairo's rounding, as ib_png_decode_argb32 converts a PNG's: the straight
/// pixels premultiplication cannot carry are recorded in `lost` (may be NULL), so
/// that an encoder writes them back exactly (ib_restore). Returns 0 when `lost`
/// cannot grow (out of memory; what it holds is then freed), 1 otherwise.
int ib_rgba_to_argb32(uint8_t *pixels, uint32_t width, uint32_t height, ib_straight_pixels *lost);

/// zlib strategies (the values of zlib.h's Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE;
/// png_codec.c checks that they agree).
enum { IB_ZLIB_DEFAULT_STRATEGY = 0, IB_ZLIB_FILTERED = 1, IB_ZLIB_RLE = 3 };

/// Decodes a whole PNG held in memory into straight (not premultiplied) 8-bit RGBA,
/// width × 4 bytes a row, with the same expansions as ib_png_decode_argb32: the
/// form images are compared in, with no rounding through premultiplied alpha. A
/// fully transparent pixel comes out as (0, 0, 0, 0) whatever the file stores, unless
/// `keep_transparent_color` is non-zero: then its stored colour is kept (expanded as
/// every other pixel's is). `capacity` as for ib_png_decode_argb32: width × height × 4
/// plus `height` spares a second buffer.
int ib_png_decode_rgba(const uint8_t *data, size_t size, uint32_t width, uint32_t height, uint8_t *pixels,
                       size_t capacity, int keep_transparent_color, char *error, size_t error_size);

/// Which deflate compressor writes the image data: zlib (streaming, so each strip is
/// primed with the 32 KiB before it) or libdeflate (whole buffers: each strip alone).
enum { IB_DEFLATE_ZLIB = 0, IB_DEFLATE_LIBDEFLATE = 1 };

/// Settings of the PNG encoder (compression level: zlib's 0-9 or libdeflate's 1-12,
/// zlib strategy, libpng filter mask).
typedef struct {
    int compression_level;
    int strategy;      // Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE, ... (zlib only)
    int filters;       // PNG_FILTER_* mask, or PNG_ALL_FILTERS
    int threads;       // for Paeth alone: compression threads, 0 = one a core; same bytes either way
    int deflater;      // IB_DEFLATE_ZLIB or IB_DEFLATE_LIBDEFLATE (Paeth alone)
} ib_png_settings;

/// Default settings: zlib level 6, default strategy, adaptive filtering, threads 0.
/// With `filters` exactly PNG_FILTER_PAETH the rows are compressed in parallel strips
/// of about 1 MiB (pigz's method: one zlib stream, each strip primed with the 32 KiB
/// before it, or compressed alone with libdeflate), so large images encode about twice
/// as fast on two cores.
ib_png_settings ib_png_default_settings(void);

/// A decoded image's lost straight pixels (ib_straight_pixels) placed on a canvas:
/// where its top-left pixel sits, and its width. Un-premultiplying a canvas pixel
/// that still equals the premultiplied form of the image's pixel under it gives
/// that straight pixel exactly; any other canvas pixel is un-premultiplied as usual.
typedef struct {
    const ib_straight_pixel *pixels;
    size_t count;
    int64_t x, y;
    uint32_t width;
} ib_restore;

/// Encodes premultiplied ARGB32 pixels as an 8-bit PNG held in a malloc'd buffer
/// (free it with ib_png_free). Pixels are un-premultiplied with Cairo's rounding,
/// or restored exactly where `restore` (may be NULL) says so.
/// An image whose every pixel is opaque is written as RGB, otherwise as RGBA.
/// No other ancillary chunks (no time or text), so equal pixels give equal bytes.
/// With `color` not NULL, its colour chunks are written (sRGB, gAMA, cHRM, iCCP, as
/// the decoded file had them), so the copy displays as the original did.
int ib_png_encode_argb32(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                         const ib_restore *restore, const ib_png_color *color, ib_png_settings settings,
                         uint8_t **out, size_t *out_size, char *error, size_t error_size);

/// Encodes straight 8-bit RGBA (width × 4 bytes a row) as ib_png_encode_argb32 does,
/// with no rounding: a fully transparent pixel is written as (0, 0, 0, 0).
int ib_png_encode_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, ib_png_settings settings,
                       uint8_t **out, size_t *out_size, char *error, size_t error_size);

/// As ib_png_encode_rgba, but always written as RGBA (colour type 6), opaque or not,
/// and with `color`'s chunks when it is not NULL: every frame of an animated PNG
/// shares the one IHDR of its default image.
int ib_png_encode_rgba_alpha(const uint8_t *pixels, uint32_t width, uint32_t height, const ib_png_color *color,
                             ib_png_settings settings, uint8_t **out, size_t *out_size, char *error,
                             size_t error_size);

/// Premultiplied ARGB32 to straight RGBA (width × 4 bytes a row in `out`), as the
/// encoder un-premultiplies: Cairo's rounding, `restore` (may be NULL) applied.
void ib_argb32_to_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                       const ib_restore *restore, uint8_t *out);

/// The CPUs this process may run on: its affinity mask, so taskset and cpusets
/// count (sysconf's online count otherwise; at least 1).
int ib_available_cpus(void);

/// The CRC-32 of PNG chunks (zlib's crc32): `crc` is 0 to start, or the value so far.
uint32_t ib_crc32(uint32_t crc, const uint8_t *data, size_t size);

/// Frees a buffer returned by ib_png_encode_argb32 or ib_png_encode_rgba.
void ib_png_free(uint8_t *buffer);

/// libdeflate's version ("1.14"), from the headers it was built with, for --version.
const char *ib_deflate_version(void);

/// A function of libdeflate, for --version to tell whether it is linked in.
const void *ib_deflate_library_function(void);

/// A PNG read a few rows at a time (a streamed comparison of large images): the same
/// checks and the same straight RGBA pixels as ib_png_decode_rgba, through libpng's
/// sequential reader, so that no more than the rows asked for are ever in memory. For
/// non-interlaced PNGs only (an interlaced image is whole only after its last pass).
typedef struct ib_png_rows ib_png_rows;

/// Opens the PNG held in `data` (which must stay valid until ib_png_rows_close):
/// `width` and `height` must equal the IHDR's. Sets `*has_alpha` to 0 when no pixel
/// can be translucent (no alpha channel, no tRNS). Returns IB_PNG_OK and the reader in
/// `*rows`, or a failure code with a NUL-terminated reason in `error` (IB_PNG_MISMATCH
/// also for an interlaced image).
int ib_png_rows_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int keep_transparent_color,
                     ib_png_rows **rows, int *has_alpha, char *error, size_t error_size);

/// Decodes the next `count` rows into `out` (width × 4 bytes a row); after the last
/// row, reads the chunks that follow the image data (their CRCs checked, as a whole
/// decode does). Returns IB_PNG_OK or a failure code with its reason.
int ib_png_rows_read(ib_png_rows *rows, uint8_t *out, uint32_t count, char *error, size_t error_size);

/// Frees the reader.
void ib_png_rows_close(ib_png_rows *rows);

/// A PNG written a few rows at a time, into a growing buffer: 8-bit RGB (`opaque`:
/// each row's alpha bytes dropped) or RGBA, Paeth filter, zlib with `settings`'
/// level and strategy, no ancillary chunk, so equal pixels give equal bytes.
typedef struct ib_png_row_writer ib_png_row_writer;

/// Starts a `width` × `height` PNG. Returns IB_PNG_OK and the writer in `*writer`.
int ib_png_row_writer_open(uint32_t width, uint32_t height, int opaque, ib_png_settings settings,
                           ib_png_row_writer **writer, char *error, size_t error_size);

/// Writes the next `count` rows of straight RGBA (width × 4 bytes a row); a fully
/// transparent pixel is written as (0, 0, 0, 0).
int ib_png_row_writer_rows(ib_png_row_writer *writer, const uint8_t *rgba, uint32_t count, char *error,
                           size_t error_size);

/// Ends the PNG (every row written) and hands over its bytes (free them with
/// ib_png_free). The writer is freed either way.
int ib_png_row_writer_finish(ib_png_row_writer *writer, uint8_t **out, size_t *out_size, char *error,
                             size_t error_size);

/// Frees a writer that is not finished.
void ib_png_row_writer_free(ib_png_row_writer *writer);

#endif
