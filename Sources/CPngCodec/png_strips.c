// Parallel PNG compression in fixed strips, the way pigz (Mark Adler's parallel gzip)
// does it: each strip of Paeth-filtered rows is deflated on its own, primed with the
// 32 KiB of filtered data before it as its dictionary; every strip but the last ends
// on a byte boundary (Z_SYNC_FLUSH); the raw deflate pieces are joined under one zlib
// header and the Adler-32 of the whole (adler32_combine). The result is one ordinary
// zlib stream (RFC 1950/1951). Strip bounds depend only on the image's size, never on
// the number of threads, so the bytes are the same on every machine.
#include "png_strips.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

// About this many filtered bytes a strip: a 1024 × 1024 RGBA canvas makes 4 strips.
#define IB_STRIP_BYTES ((size_t)1 << 20)
#define IB_WINDOW ((size_t)32768)
#define IB_MAX_THREADS 16

typedef struct {
    uint32_t first_row, end_row;
    uint8_t *deflated;
    size_t deflated_size;
    uLong adler;
    size_t filtered_size;
    int failed;
} ib_strip;

typedef struct {
    ib_row_source rows;
    const void *context;
    uint32_t width;
    size_t channels;
    int level, strategy;
    ib_strip *strips;
    size_t count;
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

// Filters rows [first, end) into `out`, asking the row source again for the row above.
static int ib_filter_rows(const ib_strip_job *job, uint32_t first, uint32_t end, uint8_t *out) {
    size_t length = (size_t)job->width * job->channels;
    uint8_t *raw = malloc(length), *previous = malloc(length);
    if (raw == NULL || previous == NULL) {
        free(raw);
        free(previous);
        return -1;
    }
    int has_previous = first > 0;
    if (has_previous) job->rows(job->context, first - 1, previous, job->channels);
    for (uint32_t y = first; y < end; y++) {
        job->rows(job->context, y, raw, job->channels);
        ib_filter_paeth(raw, has_previous ? previous : NULL, length, job->channels,
                        out + (size_t)(y - first) * (length + 1));
        uint8_t *swap = previous;
        previous = raw;
        raw = swap;
        has_previous = 1;
    }
    free(raw);
    free(previous);
    return 0;
}

// Filters and deflates one strip. Its dictionary, the last 32 KiB of filtered rows
// above it, is filtered again here, so that strips never wait for each other.
static void ib_strip_compress(const ib_strip_job *job, size_t index) {
    ib_strip *strip = &job->strips[index];
    size_t line = (size_t)job->width * job->channels + 1;
    uint32_t context_rows = 0;
    if (index > 0) {
        size_t wanted = (IB_WINDOW + line - 1) / line;
        context_rows = (uint32_t)(wanted < strip->first_row ? wanted : strip->first_row);
    }
    uint32_t first = strip->first_row - context_rows;
    size_t total = (size_t)(strip->end_row - first) * line;
    uint8_t *filtered = malloc(total);
    if (filtered == NULL || ib_filter_rows(job, first, strip->end_row, filtered) != 0) {
        free(filtered);
        strip->failed = 1;
        return;
    }
    size_t context = (size_t)context_rows * line;
    size_t dictionary = context < IB_WINDOW ? context : IB_WINDOW;
    const uint8_t *input = filtered + context;
    size_t size = total - context;
    strip->filtered_size = size;
    strip->adler = adler32(adler32(0, Z_NULL, 0), input, (uInt)size);

    z_stream z;
    memset(&z, 0, sizeof z);
    int ok = deflateInit2(&z, job->level, Z_DEFLATED, -15, 8, job->strategy) == Z_OK;
    if (ok && dictionary > 0) ok = deflateSetDictionary(&z, input - dictionary, (uInt)dictionary) == Z_OK;
    size_t capacity = ok ? deflateBound(&z, size) + 16 : 0;
    strip->deflated = ok ? malloc(capacity) : NULL;
    if (ok && strip->deflated != NULL) {
        int last = index + 1 == job->count;
        z.next_in = (Bytef *)input;
        z.avail_in = (uInt)size;
        z.next_out = strip->deflated;
        z.avail_out = (uInt)capacity;
        int status = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
        ok = last ? status == Z_STREAM_END : (status == Z_OK && z.avail_in == 0);
        strip->deflated_size = capacity - z.avail_out;
    } else {
        ok = 0;
    }
    deflateEnd(&z);
    free(filtered);
    if (!ok) strip->failed = 1;
}

// Workers take whole strips from a shared atomic counter (no lock): which thread
// does which strip changes nothing in the bytes.
static void *ib_strip_worker(void *argument) {
    ib_strip_job *job = argument;
    for (;;) {
        size_t index = atomic_fetch_add(&job->next, 1);
        if (index >= job->count) return NULL;
        ib_strip_compress(job, index);
    }
}

size_t ib_png_strip_count(uint32_t width, uint32_t height, size_t channels) {
    size_t bytes = (size_t)height * ((size_t)width * channels + 1);
    size_t strips = bytes / IB_STRIP_BYTES;
    if (strips > height) strips = height;
    return strips < 1 ? 1 : strips;
}

// zlib's two header bytes for a level, as deflateInit writes them (RFC 1950: CMF 0x78
// is deflate with a 32 KiB window; FLEVEL from the level; FCHECK makes a multiple of 31).
static void ib_zlib_header(int level, uint8_t header[2]) {
    int flevel = (level == Z_DEFAULT_COMPRESSION || level == 6) ? 2 : level < 2 ? 0 : level < 6 ? 1 : 3;
    unsigned value = (0x78u << 8) | ((unsigned)flevel << 6);
    value += 31 - value % 31;
    header[0] = (uint8_t)(value >> 8);
    header[1] = (uint8_t)(value & 0xff);
}

int ib_png_deflate_strips(uint32_t width, uint32_t height, size_t channels, ib_row_source rows,
                          const void *context, int level, int strategy, int threads, uint8_t **out,
                          size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    size_t count = ib_png_strip_count(width, height, channels);
    ib_strip *strips = calloc(count, sizeof *strips);
    if (strips == NULL) return -1;
    for (size_t i = 0; i < count; i++) {
        strips[i].first_row = (uint32_t)((uint64_t)height * i / count);
        strips[i].end_row = (uint32_t)((uint64_t)height * (i + 1) / count);
    }
    if (count == 1) {
        threads = 1; // nothing to share: no thread, no sysconf
    } else if (threads < 1) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        threads = online < 1 ? 1 : online > IB_MAX_THREADS ? IB_MAX_THREADS : (int)online;
    }
    if (threads > IB_MAX_THREADS) threads = IB_MAX_THREADS;
    if ((size_t)threads > count) threads = (int)count;

    ib_strip_job job = {rows, context, width, channels, level, strategy, strips, count, 0};
    pthread_t helpers[IB_MAX_THREADS];
    int started = 0;
    for (int i = 1; i < threads; i++) {
        if (pthread_create(&helpers[started], NULL, ib_strip_worker, &job) != 0) break; // fewer threads, same bytes
        started++;
    }
    ib_strip_worker(&job);
    for (int i = 0; i < started; i++) pthread_join(helpers[i], NULL);

    int failed = 0;
    size_t total = 2 + 4;
    for (size_t i = 0; i < count; i++) {
        failed |= strips[i].failed;
        total += strips[i].deflated_size;
    }
    uint8_t *stream = failed ? NULL : malloc(total);
    if (stream != NULL) {
        ib_zlib_header(level, stream);
        size_t offset = 2;
        uLong adler = adler32(0, Z_NULL, 0);
        for (size_t i = 0; i < count; i++) {
            memcpy(stream + offset, strips[i].deflated, strips[i].deflated_size);
            offset += strips[i].deflated_size;
            adler = adler32_combine(adler, strips[i].adler, (z_off_t)strips[i].filtered_size);
        }
        stream[offset++] = (uint8_t)(adler >> 24);
        stream[offset++] = (uint8_t)(adler >> 16);
        stream[offset++] = (uint8_t)(adler >> 8);
        stream[offset++] = (uint8_t)adler;
        *out = stream;
        *out_size = offset;
    }
    for (size_t i = 0; i < count; i++) free(strips[i].deflated);
    free(strips);
    return stream != NULL ? 0 : -1;
}
