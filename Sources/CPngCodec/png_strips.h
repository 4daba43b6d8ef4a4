// Internal to CPngCodec: the parallel, strip-wise zlib stream of a PNG's IDAT data.
#ifndef IB_PNG_STRIPS_H
#define IB_PNG_STRIPS_H

#include "png_codec.h"

#include <stddef.h>
#include <stdint.h>

// One row of straight RGB or RGBA (`channels` bytes a pixel) for row `y`.
typedef void (*ib_row_source)(const void *context, uint32_t y, uint8_t *out, size_t channels);

// How many strips an image of this size is cut into (about 1 MiB of filtered data each).
size_t ib_png_strip_count(uint32_t width, uint32_t height, size_t channels);

// The zlib stream of an image's Paeth-filtered rows (RFC 1950), compressed in strips
// on `threads` threads (< 1: one per available CPU, at most 16; the bytes do not
// depend on it) by `deflater` (IB_DEFLATE_ZLIB with `level` and `strategy`, or
// IB_DEFLATE_LIBDEFLATE with `level`, 1-12). Its pieces, in order, joined, are the
// stream: write each as an IDAT chunk. NULL when memory runs out. Free with
// ib_png_strips_free.
typedef struct ib_png_strips ib_png_strips;
ib_png_strips *ib_png_compress_strips(uint32_t width, uint32_t height, size_t channels, ib_row_source rows,
                                      const void *context, int deflater, int level, int strategy, int threads);
size_t ib_png_strips_count(const ib_png_strips *strips);
const uint8_t *ib_png_strips_piece(const ib_png_strips *strips, size_t index, size_t *size);
// Frees piece `index` once it is written, so that the compressed image is not held
// twice (here and in the PNG being written).
void ib_png_strips_release(ib_png_strips *strips, size_t index);
void ib_png_strips_free(ib_png_strips *strips);

#endif
