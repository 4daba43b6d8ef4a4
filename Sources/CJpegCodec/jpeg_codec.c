// JPEG decoding with libjpeg-turbo in this process.
//
// Why: a JPEG went to the isolated gdk-pixbuf child (a process start, GLib and
// gdk-pixbuf loaded, the pixels sent back): on odiff's 1000 × 667 tiger pair that was
// about 40 ms of each 50 ms decode, libjpeg's own work the rest.
//
// The pixels are gdk-pixbuf 2.42's (io-jpeg.c, its incremental loader, which the
// isolated child uses): libjpeg's defaults (the accurate integer DCT, fancy
// upsampling), YCbCr and RGB to RGB, grey repeated in R, G and B; block smoothing off
// (the loader turns it off before its output passes; it only matters when a
// progressive file leaves coefficients out). Only what libjpeg reads without a single
// error or warning is taken: a damaged or truncated file, CMYK, 12-bit samples, a size
// over the limits, more than `max_scans` progressive scans (the
// work of a progressive file grows with its scans: libjpeg-turbo's advice is a scan
// limit) or more memory than IB_JPEG_MEMORY are declined, and the isolated child
// decodes them as before, with its memory cap, time limit and messages.
#define _GNU_SOURCE
#include "jpeg_codec.h"

#include <setjmp.h>
#include <stdio.h> // jpeglib.h needs FILE
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

// What libjpeg may allocate for one image (its coefficient buffer for a progressive
// file, 128 bytes an 8 × 8 block a component): 1 GiB, gdk-pixbuf's own limit.
#define IB_JPEG_MEMORY (1024L * 1024L * 1024L)

struct ib_jpeg_reader {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    int max_scans;
    int created;
};

// Every error, and every warning (msg_level -1: corrupt data), declines.
static void ib_jpeg_error_exit(j_common_ptr info) { longjmp(((ib_jpeg_reader *)info->client_data)->jump, 1); }

static void ib_jpeg_emit_message(j_common_ptr info, int level) {
    if (level < 0) longjmp(((ib_jpeg_reader *)info->client_data)->jump, 1);
}

static void ib_jpeg_progress(j_common_ptr info) {
    ib_jpeg_reader *reader = info->client_data;
    if (reader->max_scans > 0 && reader->info.input_scan_number > reader->max_scans) longjmp(reader->jump, 1);
}

void ib_jpeg_close(ib_jpeg_reader *reader) {
    if (reader == NULL) return;
    if (reader->created) jpeg_destroy_decompress(&reader->info);
    free(reader);
}

ib_jpeg_reader *ib_jpeg_open(const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels,
                             uint32_t *width, uint32_t *height) {
    if (size < 3 || size > (unsigned long)-1) return NULL;
    ib_jpeg_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) return NULL;
    reader->info.err = jpeg_std_error(&reader->errors);
    reader->errors.error_exit = ib_jpeg_error_exit;
    reader->errors.emit_message = ib_jpeg_emit_message;
    reader->info.client_data = reader;
    if (setjmp(reader->jump)) {
        ib_jpeg_close(reader);
        return NULL;
    }
    jpeg_CreateDecompress(&reader->info, JPEG_LIB_VERSION, sizeof reader->info);
    reader->created = 1;
    reader->info.client_data = reader; // jpeg_CreateDecompress clears the struct but for err
    reader->info.mem->max_memory_to_use = IB_JPEG_MEMORY;
    reader->progress.progress_monitor = ib_jpeg_progress;
    reader->info.progress = &reader->progress;
    jpeg_mem_src(&reader->info, data, (unsigned long)size);
    if (jpeg_read_header(&reader->info, TRUE) != JPEG_HEADER_OK) {
        ib_jpeg_close(reader);
        return NULL;
    }
    struct jpeg_decompress_struct *info = &reader->info;
    int colors = info->jpeg_color_space == JCS_GRAYSCALE || info->jpeg_color_space == JCS_YCbCr ||
                 info->jpeg_color_space == JCS_RGB;
    if (!colors || info->data_precision != 8 || info->image_width == 0 || info->image_height == 0 ||
        info->image_width > max_side || info->image_height > max_side ||
        (uint64_t)info->image_width * info->image_height > max_pixels) {
        ib_jpeg_close(reader);
        return NULL;
    }
    info->do_block_smoothing = FALSE;
    *width = info->image_width;
    *height = info->image_height;
    return reader;
}

int ib_jpeg_read(ib_jpeg_reader *reader, uint8_t *pixels, int form, int max_scans) {
    struct jpeg_decompress_struct *info = &reader->info;
    reader->max_scans = max_scans;
    if (setjmp(reader->jump)) return IB_JPEG_DECLINED;
    // libjpeg-turbo writes the 4-byte pixels itself (its extended colour spaces: the
    // same colour conversion, R, G and B placed as asked, the fourth byte 0xff; grey is
    // repeated in R, G and B): RGBA for straight bytes, BGRA for an ARGB32 word on a
    // little-endian machine (ARGB on a big-endian one).
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    info->out_color_space = form == IB_JPEG_ARGB32 ? JCS_EXT_ARGB : JCS_EXT_RGBA;
#else
    info->out_color_space = form == IB_JPEG_ARGB32 ? JCS_EXT_BGRA : JCS_EXT_RGBA;
#endif
    jpeg_start_decompress(info);
    uint32_t width = info->output_width, height = info->output_height;
    if (width != info->image_width || height != info->image_height || info->output_components != 4) {
        return IB_JPEG_DECLINED;
    }
    while (info->output_scanline < height) {
        JSAMPROW rows[1] = {pixels + (size_t)info->output_scanline * width * 4};
        if (jpeg_read_scanlines(info, rows, 1) != 1) return IB_JPEG_DECLINED;
    }
    jpeg_finish_decompress(info);
    return IB_JPEG_OK;
}

#define IB_STRING(x) #x
#define IB_EXPAND(x) IB_STRING(x)
const char *ib_jpeg_version(void) { return IB_EXPAND(LIBJPEG_TURBO_VERSION); }

const void *ib_jpeg_library_function(void) { return (const void *)jpeg_std_error; }
