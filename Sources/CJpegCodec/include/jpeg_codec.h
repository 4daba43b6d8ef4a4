#ifndef ICONBADGE_JPEG_CODEC_H
#define ICONBADGE_JPEG_CODEC_H
#include <stddef.h>
#include <stdint.h>

// JPEG decoding in this process with libjpeg-turbo (linked into the binary; see
// scripts/link-static-libs.sh), for the files it reads cleanly;
// every other file is declined and goes to the isolated gdk-pixbuf child as before,
// which then gives its own result or error. See jpeg_codec.c.

enum {
    IB_JPEG_OK = 0,
    IB_JPEG_DECLINED = 1, // not read here: decode it as before (the isolated child)
};

/// What ib_jpeg_decode writes: straight RGBA bytes, or premultiplied native-endian
/// ARGB32 words (Cairo's layout); a JPEG is opaque, so both hold alpha 255.
enum { IB_JPEG_RGBA = 0, IB_JPEG_ARGB32 = 1 };

typedef struct ib_jpeg_reader ib_jpeg_reader;

/// Reads the header of the JPEG `data` (which must outlive the reader): returns a
/// reader and its size in `width` × `height` pixels, or NULL (declined) when the
/// header is damaged, the image is over `max_side` or `max_pixels`,
/// or it is not an 8-bit grey, YCbCr or RGB image.
ib_jpeg_reader *ib_jpeg_open(const uint8_t *data, size_t size, uint32_t max_side, uint64_t max_pixels,
                             uint32_t *width, uint32_t *height);

/// Decodes every row into `pixels` (width × 4 bytes a row) in `form`; returns
/// IB_JPEG_OK, or IB_JPEG_DECLINED for any libjpeg error or warning (corrupt data,
/// a truncated file) and for more than `max_scans` progressive scans.
int ib_jpeg_read(ib_jpeg_reader *reader, uint8_t *pixels, int form, int max_scans);

/// Frees a reader (NULL is allowed).
void ib_jpeg_close(ib_jpeg_reader *reader);

/// libjpeg-turbo's version ("2.1.5"), from the headers it was built with, for --version.
const char *ib_jpeg_version(void);

/// A function of libjpeg-turbo, for --version to tell whether it is linked in.
const void *ib_jpeg_library_function(void);

#endif
