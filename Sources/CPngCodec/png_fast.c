// The fast path of PNG decoding: the image data inflated in one call by libdeflate
// (whole-buffer inflate; libdeflate 1.14), unfiltered with SSE2, converted row by row.
//
// Why: on the odiff benchmark screenshots (3446 × 8192 RGBA), libpng spent about 55 %
// of its decode in zlib's inflate and Adler-32 and most of the rest unfiltering;
// libdeflate inflated the same streams 2 to 9 times faster than zlib (the screenshots,
// a 4096² and a 1024² icon, pixelmatch's 1a), and libspng (measured too: 0.7.3, zlib
// inside) decoded them 0 to 45 % slower than libpng, so it was not taken. Whole files,
// this path decodes them 1.4 to 2.7 times faster than libpng. libpng keeps everything
// it checks today and this file replaces only its IDAT reading, and only where the
// result is provably libpng's:
//
// - libpng has already read and checked every chunk before the first IDAT
//   (png_read_info: CRCs, order, PLTE, tRNS, colour chunks, the size limits);
// - the format is one libpng expands by copying samples: 8 bits, not interlaced, grey,
//   grey + alpha, RGB or RGBA, no tRNS (16-bit, palettes, low bit depths, tRNS and
//   interlacing stay with libpng, as do their expansions);
// - every chunk from the first IDAT to IEND passes what libpng's png_read_end would
//   hold against it: in bounds, a valid chunk name, a matching CRC, a length within
//   libpng's limits (png_check_chunk_length in libpng 1.6.39), the IDAT chunks in one
//   run, only ancillary chunks after it, IEND present and empty;
// - the zlib stream is complete and valid (header, every block, Adler-32) and inflates
//   to exactly the image's size; its declared window covers the whole image, so no
//   distance zlib would refuse as "too far back" can occur; bytes after the stream are
//   allowed (libpng only warns: "Extra compressed data"); every row's filter type is
//   0 to 4.
//
// Anything else is declined and libpng decodes the file as before, so every error and
// its message stay libpng's. One difference remains by design: libdeflate is more
// lenient than zlib with a few malformed Huffman code sets (an incomplete code of one
// codeword, an empty distance code that is then used); a stream built that way whose
// output also has the right size and Adler-32 decodes here where zlib would refuse it.
#define _GNU_SOURCE // madvise, MADV_HUGEPAGE
#include "png_fast.h"
#include "png_decode_forms.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static uint32_t ib_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

// libpng's png_check_chunk_name: four ASCII letters.
static int ib_chunk_name_ok(const uint8_t *name) {
    for (int i = 0; i < 4; i++) {
        uint8_t c = name[i];
        if (c < 65 || c > 122 || (c > 90 && c < 97)) return 0;
    }
    return 1;
}

void ib_advise_huge_pages(void *buffer, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (buffer == NULL || size < ((size_t)4 << 20)) return;
    const uintptr_t page = 4096;
    uintptr_t start = ((uintptr_t)buffer + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)buffer + size) & ~(page - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE); // advice only: failure changes nothing
#else
    (void)buffer;
    (void)size;
#endif
}

// ---- Unfiltering (PNG specification, ISO/IEC 15948:2003, section 9) ----
// Each function reads the filtered row `in` (without its type byte) and the row above
// `prev` (unfiltered; zeros for the first row) and writes the unfiltered row to `out`.

static inline uint8_t ib_paeth(int a, int b, int c) {
    int pa = b - c, pb = a - c, pc = a + b - 2 * c;
    pa = pa < 0 ? -pa : pa;
    pb = pb < 0 ? -pb : pb;
    pc = pc < 0 ? -pc : pc;
    return (uint8_t)((pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c));
}

static void ib_unfilter_scalar(int type, const uint8_t *restrict in, const uint8_t *restrict prev,
                               uint8_t *restrict out, size_t length, size_t bpp) {
    switch (type) {
    case 0:
        memcpy(out, in, length);
        break;
    case 1:
        for (size_t i = 0; i < bpp && i < length; i++) out[i] = in[i];
        for (size_t i = bpp; i < length; i++) out[i] = (uint8_t)(in[i] + out[i - bpp]);
        break;
    case 2:
        for (size_t i = 0; i < length; i++) out[i] = (uint8_t)(in[i] + prev[i]);
        break;
    case 3:
        for (size_t i = 0; i < bpp && i < length; i++) out[i] = (uint8_t)(in[i] + (prev[i] >> 1));
        for (size_t i = bpp; i < length; i++) out[i] = (uint8_t)(in[i] + ((out[i - bpp] + prev[i]) >> 1));
        break;
    default:
        for (size_t i = 0; i < bpp && i < length; i++) out[i] = (uint8_t)(in[i] + prev[i]);
        for (size_t i = bpp; i < length; i++)
            out[i] = (uint8_t)(in[i] + ib_paeth(out[i - bpp], prev[i], prev[i - bpp]));
        break;
    }
}

#if defined(__SSE2__)
// 3- and 4-byte pixels with SSE2, one pixel a step where each depends on its left
// neighbour (Average, Paeth: the method of libpng's filter_sse2_intrinsics.c), four
// at a time by prefix sums for Sub.
static inline __m128i ib_load4(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return _mm_cvtsi32_si128(v);
}
static inline void ib_store4(uint8_t *p, __m128i v) {
    int32_t x = _mm_cvtsi128_si32(v);
    memcpy(p, &x, 4);
}
// Three bytes put together in a register: a 3-byte memcpy into a 4-byte variable
// went through the stack, and the 4-byte load after two smaller stores cost a failed
// store forward (about 20 ns a pixel instead of 4).
static inline __m128i ib_load3(const uint8_t *p) {
    return _mm_cvtsi32_si128((int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16));
}
static inline void ib_store3(uint8_t *p, __m128i v) {
    uint32_t x = (uint32_t)_mm_cvtsi128_si32(v);
    p[0] = (uint8_t)x;
    p[1] = (uint8_t)(x >> 8);
    p[2] = (uint8_t)(x >> 16);
}
static inline __m128i ib_load_pixel(const uint8_t *p, size_t bpp) { return bpp == 4 ? ib_load4(p) : ib_load3(p); }
static inline void ib_store_pixel(uint8_t *p, __m128i v, size_t bpp) {
    if (bpp == 4) ib_store4(p, v); else ib_store3(p, v);
}
static inline __m128i ib_abs16(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }
static inline __m128i ib_select(__m128i mask, __m128i yes, __m128i no) {
    return _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no));
}

// Inlined for each pixel size (3, 4) so that the loops hold no test of it.
static inline __attribute__((always_inline)) void ib_unfilter_sse2(int type, const uint8_t *restrict in,
                                                                   const uint8_t *restrict prev,
                                                                   uint8_t *restrict out, size_t length,
                                                                   const size_t bpp) {
    const __m128i zero = _mm_setzero_si128();
    size_t i = 0;
    switch (type) {
    case 1: {
        // Four pixels (bpp 4) or four of 3 bytes (bpp 3) a step: the left pixel carried in
        // at position 0, then running sums over 1 and 2 pixels.
        __m128i left = zero;
        const __m128i low3 = _mm_cvtsi32_si128(0x00ffffff);
        if (bpp == 4) {
            for (; i + 16 <= length; i += 16) {
                __m128i x = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(in + i)), left);
                x = _mm_add_epi8(x, _mm_slli_si128(x, 4));
                x = _mm_add_epi8(x, _mm_slli_si128(x, 8));
                _mm_storeu_si128((__m128i *)(out + i), x);
                left = _mm_srli_si128(x, 12);
            }
        } else {
            for (; i + 16 <= length; i += 12) {
                __m128i x = _mm_add_epi8(_mm_loadu_si128((const __m128i *)(in + i)), left);
                x = _mm_add_epi8(x, _mm_slli_si128(x, 3));
                x = _mm_add_epi8(x, _mm_slli_si128(x, 6));
                _mm_storeu_si128((__m128i *)(out + i), x); // the last 4 bytes are rewritten next step
                left = _mm_and_si128(_mm_srli_si128(x, 9), low3);
            }
        }
        for (; i + bpp <= length; i += bpp) {
            left = _mm_add_epi8(ib_load_pixel(in + i, bpp), left);
            ib_store_pixel(out + i, left, bpp);
        }
        break;
    }
    case 2:
        for (; i + 16 <= length; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(in + i));
            __m128i b = _mm_loadu_si128((const __m128i *)(prev + i));
            _mm_storeu_si128((__m128i *)(out + i), _mm_add_epi8(x, b));
        }
        for (; i < length; i++) out[i] = (uint8_t)(in[i] + prev[i]);
        break;
    case 3: {
        // (a + b) >> 1 = the rounded-up average minus the bit the rounding added.
        const __m128i one = _mm_set1_epi8(1);
        __m128i a = zero;
        for (; i + bpp <= length; i += bpp) {
            __m128i b = ib_load_pixel(prev + i, bpp);
            __m128i average = _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), one));
            a = _mm_add_epi8(average, ib_load_pixel(in + i, bpp));
            ib_store_pixel(out + i, a, bpp);
        }
        break;
    }
    default: {
        // In 16-bit lanes: pa = |b - c|, pb = |a - c|, pc = |a + b - 2c| = |(a - c) + (b - c)|;
        // a wins unless pa > pb or pa > pc, then b unless pb > pc, then c (the
        // specification's order of ties). Only what depends on a is in the chain from one
        // pixel to the next; the sum is taken byte-wise (the high bytes stay 0).
        __m128i a = zero, c = zero;
        for (; i + bpp <= length; i += bpp) {
            __m128i b = _mm_unpacklo_epi8(ib_load_pixel(prev + i, bpp), zero);
            __m128i x = _mm_unpacklo_epi8(ib_load_pixel(in + i, bpp), zero);
            __m128i bc = _mm_sub_epi16(b, c);
            __m128i pa = ib_abs16(bc);
            __m128i ac = _mm_sub_epi16(a, c);
            __m128i pb = ib_abs16(ac);
            __m128i pc = ib_abs16(_mm_add_epi16(ac, bc));
            __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
            __m128i b_or_c = ib_select(_mm_cmpgt_epi16(pb, pc), c, b);
            a = _mm_add_epi8(ib_select(not_a, b_or_c, a), x);
            ib_store_pixel(out + i, _mm_packus_epi16(a, a), bpp);
            c = b;
        }
        break;
    }
    }
}
#endif

static void ib_unfilter(int type, const uint8_t *in, const uint8_t *prev, uint8_t *out, size_t length,
                        size_t bpp) {
#if defined(__SSE2__)
    if (bpp == 4 && type != 0) {
        ib_unfilter_sse2(type, in, prev, out, length, 4);
        return;
    }
    if (bpp == 3 && type != 0) {
        ib_unfilter_sse2(type, in, prev, out, length, 3);
        return;
    }
#endif
    ib_unfilter_scalar(type, in, prev, out, length, bpp);
}

// Grey, grey + alpha and RGB samples to RGBA, as libpng's gray_to_rgb and filler
// transformations do (copies; no rounding).
static void ib_expand_to_rgba(const uint8_t *in, uint8_t *out, uint32_t width, unsigned channels) {
    for (uint32_t x = 0; x < width; x++, out += 4) {
        switch (channels) {
        case 1: out[0] = out[1] = out[2] = in[x]; out[3] = 0xff; break;
        case 2: out[0] = out[1] = out[2] = in[2 * x]; out[3] = in[2 * x + 1]; break;
        default: memcpy(out, in + 3 * (size_t)x, 3); out[3] = 0xff; break;
        }
    }
}

// ---- The chunks from the first IDAT on ----

// Walks the chunks from the first IDAT to IEND; on success the IDAT run's total length
// and count are set. 0 declines (see the top of this file).
static int ib_walk_image_chunks(const ib_png_fast_input *input, size_t *idat_total, size_t *idat_count) {
    const uint8_t *data = input->data;
    size_t size = input->size, offset = input->idat_offset;
    // libpng 1.6.39's png_check_chunk_length: an IDAT may be as long as the
    // uncompressed image plus deflate's overhead, or the chunk limit if larger.
    uint64_t row_factor = (uint64_t)input->width * input->channels + 1;
    uint64_t idat_limit = 0x7fffffffu;
    if (input->height <= 0xffffffffu / row_factor) idat_limit = (uint64_t)input->height * row_factor;
    uint64_t factor = row_factor > 32566 ? 32566 : row_factor;
    idat_limit += 6 + 5 * (idat_limit / factor + 1);
    if (idat_limit > 0x7fffffffu) idat_limit = 0x7fffffffu;
    uint64_t chunk_limit = input->chunk_malloc_max > 0 && input->chunk_malloc_max < 0x7fffffffu
                               ? input->chunk_malloc_max
                               : 0x7fffffffu;
    if (idat_limit < chunk_limit) idat_limit = chunk_limit;

    int in_idat_run = 1;
    *idat_total = 0;
    *idat_count = 0;
    for (;;) {
        if (offset > size || size - offset < 12) return 0; // no IEND: libpng says "truncated"
        uint32_t length = ib_be32(data + offset);
        const uint8_t *name = data + offset + 4;
        if (length > 0x7fffffffu || length > size - offset - 12) return 0;
        if (!ib_chunk_name_ok(name)) return 0;
        int is_idat = memcmp(name, "IDAT", 4) == 0;
        if (is_idat ? length > idat_limit : length > chunk_limit) return 0;
        if (libdeflate_crc32(0, name, (size_t)length + 4) != ib_be32(name + 4 + length)) return 0;
        if (is_idat) {
            if (!in_idat_run) return 0; // a second run of IDAT chunks
            *idat_total += length;
            *idat_count += 1;
        } else {
            if (*idat_count == 0) return 0; // the first chunk must be an IDAT
            in_idat_run = 0;
            if (memcmp(name, "IEND", 4) == 0) return length == 0;
            if ((name[0] & 0x20) == 0) return 0; // critical: PLTE, IHDR or unknown after the image data
        }
        offset += 12 + (size_t)length;
    }
}

int ib_png_fast_decode(const ib_png_fast_input *input) {
    const uint32_t width = input->width, height = input->height;
    const size_t bpp = input->channels;
    const size_t line = (size_t)width * bpp + 1, filtered_size = line * height;
    size_t idat_total = 0, idat_count = 0;
    if (bpp < 1 || bpp > 4 || !ib_walk_image_chunks(input, &idat_total, &idat_count)) return IB_FAST_DECLINED;

    // The zlib stream: one IDAT is read where it lies, several are joined.
    const uint8_t *stream = input->data + input->idat_offset + 8;
    uint8_t *joined = NULL;
    if (idat_count > 1) {
        joined = malloc(idat_total > 0 ? idat_total : 1);
        if (joined == NULL) return IB_FAST_DECLINED;
        size_t offset = input->idat_offset, at = 0;
        for (size_t i = 0; i < idat_count; i++) {
            uint32_t length = ib_be32(input->data + offset);
            memcpy(joined + at, input->data + offset + 8, length);
            at += length;
            offset += 12 + (size_t)length;
        }
        stream = joined;
    }
    // zlib's window is the header's (libpng 1.6.39 inflates IDAT with windowBits 0):
    // distances beyond it are an error to zlib but not to libdeflate, so a window
    // smaller than the image is left to libpng.
    if (idat_total < 2 || (((size_t)1 << ((stream[0] >> 4) + 8)) < filtered_size && (stream[0] >> 4) < 7)) {
        free(joined);
        return IB_FAST_DECLINED;
    }

    // The filtered rows go at the end of the output buffer when it has room for them
    // (the caller allocates height bytes more than the pixels need): row y's output then
    // never reaches row y + 1's filtered bytes, so no second image-sized buffer is needed.
    uint8_t *pixels = input->pixels;
    size_t stride = input->stride;
    uint8_t *filtered = NULL, *own = NULL;
    if (input->capacity >= filtered_size) {
        size_t start = input->capacity - filtered_size;
        // Row y's output ends at y·stride + 4·width; row y + 1's filtered bytes start at
        // start + (y + 1)·line. Both grow linearly in y: checking the ends checks all.
        int fits = (size_t)width * 4 <= start + line &&
                   (size_t)(height - 1) * stride + (size_t)width * 4 <= start + (size_t)height * line;
        if (fits) filtered = pixels + start;
    }
    if (filtered == NULL) {
        own = malloc(filtered_size);
        if (own == NULL) {
            free(joined);
            return IB_FAST_DECLINED;
        }
        filtered = own;
    }
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    // With `consumed` given, bytes after the stream are allowed; with no actual output
    // size asked for, the stream must fill `filtered_size` exactly.
    size_t consumed = 0;
    int inflated = inflater != NULL &&
                   libdeflate_zlib_decompress_ex(inflater, stream, idat_total, filtered, filtered_size, &consumed,
                                                 NULL) == LIBDEFLATE_SUCCESS;
    libdeflate_free_decompressor(inflater);
    free(joined);
    for (uint32_t y = 0; inflated && y < height; y++) inflated = filtered[(size_t)y * line] <= 4;
    uint8_t *rows = inflated ? malloc(3 * (size_t)width * 4 + 16) : NULL; // two unfiltered rows, one RGBA
    if (rows == NULL) {
        free(own);
        return IB_FAST_DECLINED;
    }
    uint8_t *current = rows, *previous = rows + (size_t)width * 4, *rgba = rows + 2 * (size_t)width * 4;
    memset(previous, 0, (size_t)width * 4);
    size_t capacity = 0;
    if (input->lost != NULL) {
        input->lost->pixels = NULL;
        input->lost->count = 0;
    }
    int status = IB_FAST_DONE;
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = filtered + (size_t)y * line;
        ib_unfilter(row[0], row + 1, previous, current, line - 1, bpp);
        const uint8_t *source = current;
        if (bpp != 4) {
            ib_expand_to_rgba(current, rgba, width, (unsigned)bpp);
            source = rgba;
        }
        if (!ib_emit_rgba_row(source, pixels + (size_t)y * stride, width, y, input->form, input->lost, &capacity)) {
            status = IB_FAST_NO_MEMORY;
            break;
        }
        uint8_t *swap = previous;
        previous = current;
        current = swap;
    }
    free(rows);
    free(own);
    return status;
}

const char *ib_deflate_version(void) { return LIBDEFLATE_VERSION_STRING; }

const void *ib_deflate_library_function(void) { return (const void *)libdeflate_alloc_decompressor; }
