// Parallel PNG compression in fixed strips, the way pigz (Mark Adler's parallel gzip)
// does it: each strip of Paeth-filtered rows is deflated on its own, primed with the
// 32 KiB of filtered data before it as its dictionary; every strip but the last ends
// on a byte boundary (Z_SYNC_FLUSH); the raw deflate pieces are joined under one zlib
// header and the Adler-32 of the whole (adler32_combine). The result is one ordinary
// zlib stream (RFC 1950/1951). Strip bounds depend only on the image's size, never on
// the number of threads, so the bytes are the same on every machine.
#define _GNU_SOURCE // sched_getaffinity, CPU_COUNT
#include "png_strips.h"

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
    int level, strategy, window_bits;
    ib_png_strips *result;
    atomic_size_t next;
} ib_strip_job;

// One filtered row: the filter-type byte 4 (Paeth, PNG specification ISO/IEC
// 15948:2003 section 9.4), then raw minus predictor. `previous` is NULL for the
// image's first row (the row above counts as zeros, so Paeth picks the left byte).
// Written without branches in the main loop so that the compiler vectorises it.
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
    for (size_t i = bpp; i < length; i++) {
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

// Workers take whole strips from a shared atomic counter (no lock): which thread
// does which strip changes nothing in the bytes.
static void *ib_strip_worker(void *argument) {
    ib_strip_job *job = argument;
    for (;;) {
        size_t index = atomic_fetch_add(&job->next, 1);
        if (index >= job->result->count) return NULL;
        ib_strip_compress(job, &job->result->strips[index], index + 1 == job->result->count);
    }
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
// it; FCHECK makes the pair a multiple of 31).
static void ib_zlib_header(int level, int strategy, int window_bits, uint8_t header[2]) {
    int flevel;
    if (strategy >= Z_HUFFMAN_ONLY || level < 2) flevel = 0;
    else if (level < 6) flevel = 1;
    else if (level == 6 || level == Z_DEFAULT_COMPRESSION) flevel = 2;
    else flevel = 3;
    unsigned value = ((unsigned)(0x08 | (window_bits - 8) << 4) << 8) | ((unsigned)flevel << 6);
    value += 31 - value % 31;
    header[0] = (uint8_t)(value >> 8);
    header[1] = (uint8_t)(value & 0xff);
}

ib_png_strips *ib_png_compress_strips(uint32_t width, uint32_t height, size_t channels, ib_row_source rows,
                                      const void *context, int level, int strategy, int threads) {
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

    ib_strip_job job = {rows, context, width, channels, level, strategy, window_bits, result, 0};
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
    ib_zlib_header(level, strategy, window_bits, result->strips[0].buffer);
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
