#include "image_loaders.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void set_error(char *error, size_t error_size, const char *message) {
    if (error == NULL || error_size == 0) return;
    strncpy(error, message, error_size - 1);
    error[error_size - 1] = '\0';
}

int ib_gunzip(const uint8_t *data, size_t size, size_t max_size, uint8_t **out, size_t *out_size, char *error,
              size_t error_size) {
    *out = NULL;
    *out_size = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) {
        set_error(error, error_size, "cannot start zlib");
        return IB_IMAGE_NO_MEMORY;
    }
    size_t capacity = size * 4 < 65536 ? 65536 : size * 4;
    if (capacity > max_size + 1) capacity = max_size + 1;
    uint8_t *buffer = malloc(capacity);
    if (buffer == NULL) {
        inflateEnd(&stream);
        set_error(error, error_size, "out of memory");
        return IB_IMAGE_NO_MEMORY;
    }
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)size;
    size_t produced = 0;
    int status = IB_IMAGE_OK;
    for (;;) {
        if (produced == capacity) {
            if (capacity > max_size) {
                status = IB_IMAGE_TOO_LARGE;
                set_error(error, error_size, "decompressed size is over the limit");
                break;
            }
            size_t grown = capacity * 2 > max_size + 1 ? max_size + 1 : capacity * 2;
            uint8_t *bigger = realloc(buffer, grown);
            if (bigger == NULL) {
                status = IB_IMAGE_NO_MEMORY;
                set_error(error, error_size, "out of memory");
                break;
            }
            buffer = bigger;
            capacity = grown;
        }
        stream.next_out = buffer + produced;
        stream.avail_out = (uInt)(capacity - produced);
        int result = inflate(&stream, Z_NO_FLUSH);
        produced = capacity - stream.avail_out;
        if (result == Z_STREAM_END) break;
        if (result != Z_OK) {
            status = IB_IMAGE_CORRUPT;
            set_error(error, error_size, stream.msg ? stream.msg : "corrupt gzip data");
            break;
        }
        if (stream.avail_in == 0 && stream.avail_out != 0) {
            status = IB_IMAGE_CORRUPT;
            set_error(error, error_size, "truncated gzip data");
            break;
        }
    }
    inflateEnd(&stream);
    if (status == IB_IMAGE_OK && produced > max_size) {
        status = IB_IMAGE_TOO_LARGE;
        set_error(error, error_size, "decompressed size is over the limit");
    }
    if (status != IB_IMAGE_OK) {
        free(buffer);
        return status;
    }
    *out = buffer;
    *out_size = produced;
    return IB_IMAGE_OK;
}

void ib_image_free(void *buffer) { free(buffer); }

const char *ib_zlib_version(void) { return zlibVersion(); }

const void *ib_zlib_library_function(void) { return (const void *)zlibVersion; }
