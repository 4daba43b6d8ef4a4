// Internal to CPngCodec: the parallel, strip-wise zlib stream of a PNG's IDAT data.
#ifndef IB_PNG_STRIPS_H
#define IB_PNG_STRIPS_H

#include <stddef.h>
#include <stdint.h>

// One row of straight RGB or RGBA (`channels` bytes a pixel) for row `y`.
typedef void (*ib_row_source)(const void *context, uint32_t y, uint8_t *out, size_t channels);

// How many strips an image of this size is cut into (about 1 MiB of filtered data each).
size_t ib_png_strip_count(uint32_t width, uint32_t height, size_t channels);

// The complete zlib stream of the image's Paeth-filtered rows, in a malloc'd buffer.
// `threads` < 1 means one a core (at most 16); the bytes do not depend on it.
// Returns 0, or -1 when memory runs out.
int ib_png_deflate_strips(uint32_t width, uint32_t height, size_t channels, ib_row_source rows,
                          const void *context, int level, int strategy, int threads, uint8_t **out,
                          size_t *out_size);

#endif
