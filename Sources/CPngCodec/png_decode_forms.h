// Internal to CPngCodec: what the decoders write, shared by png_codec.c and png_fast.c.
#ifndef IB_PNG_DECODE_FORMS_H
#define IB_PNG_DECODE_FORMS_H

#include "png_codec.h"

#include <stddef.h>
#include <stdint.h>

// What ib_png_decode writes: straight RGBA bytes with fully transparent pixels cleared
// to (0, 0, 0, 0), premultiplied native-endian ARGB32 words, or straight RGBA bytes
// with the colour under alpha 0 kept as stored.
enum { IB_DECODE_STRAIGHT = 0, IB_DECODE_PREMULTIPLIED = 1, IB_DECODE_STRAIGHT_KEEP = 2 };

// Cairo's own premultiplication (cairo-png.c), so pixels match its loader.
static inline uint32_t ib_multiply_alpha(uint32_t alpha, uint32_t color) {
    uint32_t temp = alpha * color + 0x80;
    return (temp + (temp >> 8)) >> 8;
}

// Cairo's un-premultiplication rounding (cairo-png.c), for 0 < alpha < 255.
static inline uint32_t ib_divide_alpha(uint32_t alpha, uint32_t color) {
    return (color * 255 + alpha / 2) / alpha;
}

// Appends to `lost`, doubling its buffer; 0 when out of memory (png_codec.c).
int ib_straight_pixels_append(ib_straight_pixels *lost, size_t *capacity, ib_straight_pixel pixel);

// Converts one row of straight 8-bit RGBA (`width` pixels) into `form` at `out`, in
// place when `out` is `rgba`: transparent pixels cleared (IB_DECODE_STRAIGHT), kept
// (IB_DECODE_STRAIGHT_KEEP), or premultiplied ARGB32 words with the pixels
// premultiplication cannot give back appended to `lost` (may be NULL) with their
// index y * width + x. Returns 0 when `lost` cannot grow (out of memory).
int ib_emit_rgba_row(const uint8_t *rgba, uint8_t *out, uint32_t width, uint32_t y, int form,
                     ib_straight_pixels *lost, size_t *lost_capacity);

#endif
