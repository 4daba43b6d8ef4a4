// Internal to CPngCodec: finding the last block of a raw deflate stream (RFC 1951), so
// that independently compressed pieces can be joined into one stream (png_strips.c).
#ifndef IB_DEFLATE_BLOCKS_H
#define IB_DEFLATE_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

// Walks the raw deflate stream `data` block by block, decoding every Huffman symbol but
// writing nothing. Returns 1 with `last_header` the bit offset of the final block's
// 3-bit header (its first bit is BFINAL) and `end` the bit offset just after the
// final block (after its end-of-block code, or its stored bytes); bit offsets count
// from bit 0 of data[0], least significant bit first. Returns 0 for a stream that is
// malformed or runs past `size` bytes.
int ib_deflate_last_block(const uint8_t *data, size_t size, size_t *last_header, size_t *end);

// Makes the complete raw deflate stream in `data` (`size` bytes, with room for 5 more)
// continue instead of ending: clears the final block's BFINAL bit and appends an empty
// stored block (RFC 1951 section 3.2.4; what zlib's Z_SYNC_FLUSH writes), which ends on
// a byte boundary, so that another raw deflate stream can follow it directly. Returns
// the new size (size + 4 or size + 5), or 0 when the stream cannot be walked.
size_t ib_deflate_make_continuable(uint8_t *data, size_t size);

#endif
