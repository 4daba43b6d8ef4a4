// Internal to CPngCodec: the whole-buffer decoder of a PNG's image data (libdeflate),
// taken for the common formats once libpng has read and checked everything before the
// first IDAT chunk. See png_fast.c.
#ifndef IB_PNG_FAST_H
#define IB_PNG_FAST_H

#include "png_codec.h"

#include <stddef.h>
#include <stdint.h>

enum {
    IB_FAST_DONE = 0,      // every pixel written
    IB_FAST_DECLINED = 1,  // not taken: libpng decodes the file as before (pixels may be overwritten)
    IB_FAST_NO_MEMORY = 2, // out of memory while recording lost straight pixels
};

typedef struct {
    const uint8_t *data;       // the whole PNG file
    size_t size;
    size_t idat_offset;        // where the first IDAT chunk starts (its length field)
    uint32_t width, height;    // from IHDR, already checked against the limits
    unsigned channels;         // 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA; 8 bits a sample
    uint32_t chunk_malloc_max; // libpng's limit on a chunk's length (png_set_chunk_malloc_max)
    int form;                  // IB_DECODE_* (png_decode_forms.h)
    uint8_t *pixels;           // output rows, `stride` bytes apart
    size_t stride;
    size_t capacity;           // bytes writable at `pixels` (at least stride × height)
    ib_straight_pixels *lost;  // premultiplied form only; may be NULL
} ib_png_fast_input;

// Decodes the IDAT chunks of a non-interlaced 8-bit grey, grey + alpha, RGB or RGBA
// PNG without tRNS into `form`, the same pixels libpng gives; declines anything it
// does not decode exactly as libpng would (see png_fast.c).
int ib_png_fast_decode(const ib_png_fast_input *input);

// Asks the kernel for transparent huge pages under a large buffer not yet touched, so
// that writing it costs a fault per 2 MiB instead of per 4 KiB (Linux; a no-op
// elsewhere and below 4 MiB).
void ib_advise_huge_pages(void *buffer, size_t size);

#endif
