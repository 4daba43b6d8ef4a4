// Parallel PNG compression in fixed strips, the way pigz (Mark Adler's parallel gzip)
// does it: each strip of Paeth-filtered rows is deflated on its own, primed with the
// 32 KiB of filtered data before it as its dictionary; every strip but the last ends
// on a byte boundary (Z_SYNC_FLUSH); the raw deflate pieces are joined under one zlib
// header and the Adler-32 of the whole (adler32_combine). The result is one ordinary
// zlib stream (RFC 1950/1951). Strip bounds depend only on the image's size, never on
// the number of threads, so the bytes are the same on every machine.
//
// With libdeflate (IB_DEFLATE_LIBDEFLATE), which compresses whole buffers only and has
// no dictionary to prime, each strip is compressed on its own, and every strip but the
// last is made to continue instead of ending (deflate_blocks.c: its final block's
// BFINAL bit cleared, an empty stored block appended, as Z_SYNC_FLUSH would end it).
// The cost of the missing dictionary: about 0.2 to 0.4 % of size (measured on renders
// of 1024 to 4096 px and the odiff screenshots).
#define _GNU_SOURCE // sched_getaffinity, CPU_COUNT
#include "png_strips.h"
#include "deflate_blocks.h"

#include <libdeflate.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

// About this many filtered bytes a strip: a 1024 × 1024 RGBA canvas makes 4 strips.
#define IB_STRIP_BYTES ((size_t)1 << 20)
#define IB_WINDOW ((size_t)32768)
#define IB_MAX_THREADS 16

struct ib_png_strips {
    size_t count;
    struct ib_strip {
        uint32_t first_row, end_row;
        uint8_t *buffer;   // 2 bytes of room for the zlib header, the deflated data, 4 for the trailer
        size_t size;       // deflated bytes, after the 2 bytes of room
        uLong adler;       // of this strip's filtered bytes
        size_t filtered_size;
        int failed;
    } strips[];
};
typedef struct ib_strip ib_strip;

typedef struct {
    ib_row_source rows;
    const void *context;
    uint32_t width;
    size_t channels;
    int deflater, level, strategy, window_bits;
    ib_png_strips *result;
    atomic_size_t next;
} ib_strip_job;

// One filtered row: the filter-type byte 4 (Paeth, PNG specification ISO/IEC
// 15948:2003 section 9.4), then raw minus predictor. `previous` is NULL for the
// image's first row (the row above counts as zeros, so Paeth picks the left byte).
static void ib_filter_paeth(const uint8_t *restrict raw, const uint8_t *restrict previous, size_t length,
                            size_t bpp, uint8_t *restrict out) {
    out[0] = 4;
    out++;
    if (previous == NULL) {
        for (size_t i = 0; i < bpp && i < length; i++) out[i] = raw[i];
        for (size_t i = bpp; i < length; i++) out[i] = (uint8_t)(raw[i] - raw[i - bpp]);
        return;
    }
    for (size_t i = 0; i < bpp && i < length; i++) out[i] = (uint8_t)(raw[i] - previous[i]);
    size_t i = bpp;
#if defined(__SSE2__)
    // 16 bytes a step, each half in 16-bit lanes (every value fits: -510 to 510); the
    // rows are known, so no byte waits for another. Ties as below.
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= length; i += 16) {
        __m128i av = _mm_loadu_si128((const __m128i *)(raw + i - bpp));
        __m128i bv = _mm_loadu_si128((const __m128i *)(previous + i));
        __m128i cv = _mm_loadu_si128((const __m128i *)(previous + i - bpp));
        __m128i predictor[2];
        for (int half = 0; half < 2; half++) {
            __m128i a = half ? _mm_unpackhi_epi8(av, zero) : _mm_unpacklo_epi8(av, zero);
            __m128i b = half ? _mm_unpackhi_epi8(bv, zero) : _mm_unpacklo_epi8(bv, zero);
            __m128i c = half ? _mm_unpackhi_epi8(cv, zero) : _mm_unpacklo_epi8(cv, zero);
            __m128i bc = _mm_sub_epi16(b, c), ac = _mm_sub_epi16(a, c), sum = _mm_add_epi16(ac, bc);
            __m128i pa = _mm_max_epi16(bc, _mm_sub_epi16(zero, bc));
            __m128i pb = _mm_max_epi16(ac, _mm_sub_epi16(zero, ac));
            __m128i pc = _mm_max_epi16(sum, _mm_sub_epi16(zero, sum));
            __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
            __m128i use_c = _mm_cmpgt_epi16(pb, pc);
            __m128i b_or_c = _mm_or_si128(_mm_and_si128(use_c, c), _mm_andnot_si128(use_c, b));
            predictor[half] = _mm_or_si128(_mm_and_si128(not_a, b_or_c), _mm_andnot_si128(not_a, a));
        }
        __m128i p = _mm_packus_epi16(predictor[0], predictor[1]);
        _mm_storeu_si128((__m128i *)(out + i),
                         _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(raw + i)), p));
    }
#endif
    for (; i < length; i++) {
        int a = raw[i - bpp], b = previous[i], c = previous[i - bpp];
        // p = a + b - c; |p - a| = |b - c|, |p - b| = |a - c|, |p - c| = |a + b - 2c|.
        int pa = b - c, pb = a - c, pc = a + b - 2 * c;
        pa = pa < 0 ? -pa : pa;
        pb = pb < 0 ? -pb : pb;
        pc = pc < 0 ? -pc : pc;
        int predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
        out[i] = (uint8_t)(raw[i] - predictor);
    }
}

// Filters and deflates one strip a row at a time, so a thread holds two raw rows,
// one filtered row and zlib's state, whatever the strip's size. The strip's
// dictionary, the last 32 KiB of filtered rows above it, is filtered again here, so
// that strips never wait for each other.
static void ib_strip_compress(const ib_strip_job *job, ib_strip *strip, int last) {
    size_t length = (size_t)job->width * job->channels, line = length + 1;
    uint32_t context_rows = 0;
    if (strip->first_row > 0) {
        size_t wanted = (IB_WINDOW + line - 1) / line;
        context_rows = (uint32_t)(wanted < strip->first_row ? wanted : strip->first_row);
    }
    size_t size = (size_t)(strip->end_row - strip->first_row) * line;
    uint8_t *raw = malloc(length), *previous = malloc(length);
    uint8_t *filtered = malloc(context_rows > 0 ? (size_t)context_rows * line : line);
    z_stream z;
    memset(&z, 0, sizeof z);
    int ok = raw != NULL && previous != NULL && filtered != NULL &&
             deflateInit2(&z, job->level, Z_DEFLATED, -job->window_bits, 8, job->strategy) == Z_OK;
    int initialised = ok;
    // deflateBound is for one Z_FINISH call; the 1 KiB covers the sync flush. The
    // allocation is virtual: only the pages written are touched.
    size_t capacity = ok ? deflateBound(&z, size) + 1024 + 6 : 0;
    strip->buffer = ok ? malloc(capacity) : NULL;
    ok = ok && strip->buffer != NULL;

    uint32_t y = strip->first_row - context_rows;
    int has_previous = y > 0;
    if (ok && has_previous) job->rows(job->context, y - 1, previous, job->channels);
    // The dictionary: the context rows, filtered into one buffer.
    for (uint32_t i = 0; ok && i < context_rows; i++, y++) {
        job->rows(job->context, y, raw, job->channels);
        ib_filter_paeth(raw, has_previous ? previous : NULL, length, job->channels, filtered + (size_t)i * line);
        uint8_t *swap = previous;
        previous = raw;
        raw = swap;
        has_previous = 1;
    }
    if (ok && context_rows > 0) {
        size_t context = (size_t)context_rows * line, take = context < IB_WINDOW ? context : IB_WINDOW;
        ok = deflateSetDictionary(&z, filtered + context - take, (uInt)take) == Z_OK;
    }
    uLong adler = adler32(0, Z_NULL, 0);
    z.next_out = ok ? strip->buffer + 2 : NULL;
    z.avail_out = ok ? (uInt)(capacity - 6) : 0;
    for (; ok && y < strip->end_row; y++) {
        job->rows(job->context, y, raw, job->channels);
        ib_filter_paeth(raw, has_previous ? previous : NULL, length, job->channels, filtered);
        uint8_t *swap = previous;
        previous = raw;
        raw = swap;
        has_previous = 1;
        adler = adler32(adler, filtered, (uInt)line);
        z.next_in = filtered;
        z.avail_in = (uInt)line;
        ok = deflate(&z, Z_NO_FLUSH) == Z_OK && z.avail_in == 0;
    }
    if (ok) {
        int status = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
        ok = last ? status == Z_STREAM_END : status == Z_OK;
        strip->size = capacity - 6 - z.avail_out;
    }
    if (initialised) deflateEnd(&z);
    free(raw);
    free(previous);
    free(filtered);
    strip->adler = adler;
    strip->filtered_size = size;
    if (!ok) strip->failed = 1;
}

// What a thread keeps from strip to strip with libdeflate: its compressor and its
// buffers (allocated once: on this machine a first touch of a page costs about 3 µs,
// a tenth of compressing it).
typedef struct {
    struct libdeflate_compressor *compressor;
    uint8_t *raw, *previous, *filtered;
    size_t filtered_capacity;
} ib_strip_worker_state;

// Filters a strip into one buffer and compresses it with libdeflate as a raw deflate
// stream on its own; every strip but the last is then made to continue
// (ib_deflate_make_continuable).
static void ib_strip_compress_libdeflate(const ib_strip_job *job, ib_strip *strip, int last,
                                         ib_strip_worker_state *state) {
    size_t length = (size_t)job->width * job->channels, line = length + 1;
    size_t size = (size_t)(strip->end_row - strip->first_row) * line;
    if (state->raw == NULL) state->raw = malloc(length);
    if (state->previous == NULL) state->previous = malloc(length);
    if (state->filtered_capacity < size) {
        free(state->filtered);
        state->filtered = malloc(size);
        state->filtered_capacity = state->filtered != NULL ? size : 0;
    }
    uint8_t *raw = state->raw, *previous = state->previous, *filtered = state->filtered;
    int ok = state->compressor != NULL && raw != NULL && previous != NULL && filtered != NULL;
    int has_previous = strip->first_row > 0;
    if (ok && has_previous) job->rows(job->context, strip->first_row - 1, previous, job->channels);
    for (uint32_t y = strip->first_row; ok && y < strip->end_row; y++) {
        job->rows(job->context, y, raw, job->channels);
        ib_filter_paeth(raw, has_previous ? previous : NULL, length, job->channels,
                        filtered + (size_t)(y - strip->first_row) * line);
        uint8_t *swap = previous;
        previous = raw;
        raw = swap;
        has_previous = 1;
    }
    // 2 bytes of room for the zlib header, 5 for the stored block, 4 for the trailer.
    size_t capacity = ok ? libdeflate_deflate_compress_bound(state->compressor, size) + 2 + 5 + 4 : 0;
    strip->buffer = ok ? malloc(capacity) : NULL;
    ok = ok && strip->buffer != NULL;
    size_t compressed = ok ? libdeflate_deflate_compress(state->compressor, filtered, size, strip->buffer + 2,
                                                         capacity - 2 - 5 - 4)
                           : 0;
    ok = ok && compressed > 0;
    if (ok && !last) {
        compressed = ib_deflate_make_continuable(strip->buffer + 2, compressed);
        ok = compressed > 0;
    }
    strip->size = compressed;
    strip->adler = ok ? libdeflate_adler32(1, filtered, size) : 0;
    strip->filtered_size = size;
    if (!ok) strip->failed = 1;
}

// Workers take whole strips from a shared atomic counter (no lock): which thread
// does which strip changes nothing in the bytes.
static void *ib_strip_worker(void *argument) {
    ib_strip_job *job = argument;
    ib_strip_worker_state state = {NULL, NULL, NULL, NULL, 0};
    if (job->deflater == IB_DEFLATE_LIBDEFLATE) state.compressor = libdeflate_alloc_compressor(job->level);
    for (;;) {
        size_t index = atomic_fetch_add(&job->next, 1);
        if (index >= job->result->count) break;
        ib_strip *strip = &job->result->strips[index];
        int last = index + 1 == job->result->count;
        if (job->deflater == IB_DEFLATE_LIBDEFLATE) {
            ib_strip_compress_libdeflate(job, strip, last, &state);
        } else {
            ib_strip_compress(job, strip, last);
        }
    }
    if (state.compressor != NULL) libdeflate_free_compressor(state.compressor);
    free(state.raw);
    free(state.previous);
    free(state.filtered);
    return NULL;
}

size_t ib_png_strip_count(uint32_t width, uint32_t height, size_t channels) {
    size_t bytes = (size_t)height * ((size_t)width * channels + 1);
    size_t strips = bytes / IB_STRIP_BYTES;
    if (strips > height) strips = height;
    return strips < 1 ? 1 : strips;
}

int ib_available_cpus(void) {
#ifdef __linux__
    // The affinity mask (taskset, cpusets), not the machine's count.
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int count = CPU_COUNT(&set);
        if (count > 0) return count;
    }
#endif
    // macOS (untested here) has no affinity masks: the online CPUs.
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online < 1 ? 1 : (int)online;
}

// zlib's two header bytes, as deflateInit writes them (RFC 1950: CMF is deflate
// with the window size; FLEVEL from the level and strategy as zlib's deflate.c sets
// it, or as libdeflate's zlib_compress.c sets it for its levels: 0 below 2, 1 below 6,
// 2 below 8, else 3; FCHECK makes the pair a multiple of 31).
static void ib_zlib_header(int deflater, int level, int strategy, int window_bits, uint8_t header[2]) {
    int flevel;
    if (deflater == IB_DEFLATE_LIBDEFLATE) flevel = level < 2 ? 0 : level < 6 ? 1 : level < 8 ? 2 : 3;
    else if (strategy >= Z_HUFFMAN_ONLY || level < 2) flevel = 0;
    else if (level < 6) flevel = 1;
    else if (level == 6 || level == Z_DEFAULT_COMPRESSION) flevel = 2;
    else flevel = 3;
    unsigned value = ((unsigned)(0x08 | (window_bits - 8) << 4) << 8) | ((unsigned)flevel << 6);
    value += 31 - value % 31;
    header[0] = (uint8_t)(value >> 8);
    header[1] = (uint8_t)(value & 0xff);
}

ib_png_strips *ib_png_compress_strips(uint32_t width, uint32_t height, size_t channels, ib_row_source rows,
                                      const void *context, int deflater, int level, int strategy, int threads) {
    size_t count = ib_png_strip_count(width, height, channels);
    ib_png_strips *result = calloc(1, sizeof *result + count * sizeof(ib_strip));
    if (result == NULL) return NULL;
    result->count = count;
    for (size_t i = 0; i < count; i++) {
        result->strips[i].first_row = (uint32_t)((uint64_t)height * i / count);
        result->strips[i].end_row = (uint32_t)((uint64_t)height * (i + 1) / count);
    }
    // A small image gets a smaller window, as libpng sizes it (pngwutil.c): less for
    // zlib to set up, the same matches. Strips (large images only) keep 32 KiB.
    int window_bits = 15;
    size_t total = (size_t)height * ((size_t)width * channels + 1);
    // libdeflate has no window setting, but its distances never exceed the data, so the
    // same smaller window is as true of its stream (and the header is zlib's).
    if (count == 1 && total <= 16384) {
        while (window_bits > 9 && total + 262 <= ((size_t)1 << (window_bits - 1))) window_bits--;
    }
    if (count == 1) {
        threads = 1; // nothing to share: no thread, no CPU count
    } else if (threads < 1) {
        threads = ib_available_cpus();
    }
    if (threads > IB_MAX_THREADS) threads = IB_MAX_THREADS;
    if ((size_t)threads > count) threads = (int)count;

    ib_strip_job job = {rows, context, width, channels, deflater, level, strategy, window_bits, result, 0};
    pthread_t helpers[IB_MAX_THREADS];
    int started = 0;
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&helpers[started], NULL, ib_strip_worker, &job) != 0) break; // fewer threads, same bytes
        started++;
    }
    ib_strip_worker(&job);
    for (int i = 0; i < started; i++) pthread_join(helpers[i], NULL);

    int failed = 0;
    uLong adler = adler32(0, Z_NULL, 0);
    for (size_t i = 0; i < count; i++) {
        failed |= result->strips[i].failed;
        adler = adler32_combine(adler, result->strips[i].adler, (z_off_t)result->strips[i].filtered_size);
    }
    if (failed) {
        ib_png_strips_free(result);
        return NULL;
    }
    ib_zlib_header(deflater, level, strategy, window_bits, result->strips[0].buffer);
    ib_strip *final = &result->strips[count - 1];
    uint8_t *trailer = final->buffer + 2 + final->size;
    trailer[0] = (uint8_t)(adler >> 24);
    trailer[1] = (uint8_t)(adler >> 16);
    trailer[2] = (uint8_t)(adler >> 8);
    trailer[3] = (uint8_t)adler;
    return result;
}

size_t ib_png_strips_count(const ib_png_strips *strips) { return strips->count; }

const uint8_t *ib_png_strips_piece(const ib_png_strips *strips, size_t index, size_t *size) {
    const ib_strip *strip = &strips->strips[index];
    int first = index == 0, last = index + 1 == strips->count;
    *size = strip->size + (first ? 2 : 0) + (last ? 4 : 0);
    return strip->buffer + (first ? 0 : 2);
}

void ib_png_strips_release(ib_png_strips *strips, size_t index) {
    free(strips->strips[index].buffer);
    strips->strips[index].buffer = NULL;
}

void ib_png_strips_free(ib_png_strips *strips) {
    if (strips == NULL) return;
    for (size_t i = 0; i < strips->count; i++) free(strips->strips[i].buffer);
    free(strips);
}
