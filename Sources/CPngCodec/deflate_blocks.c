// A walker over a raw deflate stream's blocks (RFC 1951, section 3.2), written from the
// specification: it decodes the Huffman codes to find where each block ends, and
// writes no output. png_strips.c uses it on libdeflate's own output: libdeflate
// compresses whole buffers only and always ends them with a final block, so joining
// independently compressed strips into one zlib stream needs that block's position.
// Canonical Huffman decoding one bit at a time (as in the specification's section
// 3.2.2): a strip of about 1 MiB compresses to some 10,000 to 60,000 symbols, so the
// walk costs a few per cent of the compression.
#include "deflate_blocks.h"

#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t bit; // next bit to read
    int failed; // read past the end
} ib_bit_reader;

static uint32_t ib_bits(ib_bit_reader *reader, unsigned count) {
    uint32_t value = 0;
    for (unsigned i = 0; i < count; i++) {
        size_t byte = reader->bit >> 3;
        if (byte >= reader->size) {
            reader->failed = 1;
            return 0;
        }
        value |= (uint32_t)((reader->data[byte] >> (reader->bit & 7)) & 1) << i;
        reader->bit++;
    }
    return value;
}

// A canonical Huffman code: how many codes of each length, and the symbols in code order.
typedef struct {
    uint16_t count[16];
    uint16_t symbol[320];
} ib_huffman;

// 0 when the lengths are over-subscribed (more codes than the lengths allow).
static int ib_huffman_build(ib_huffman *code, const uint8_t *lengths, unsigned n) {
    memset(code->count, 0, sizeof code->count);
    for (unsigned i = 0; i < n; i++) code->count[lengths[i]]++;
    int left = 1;
    for (int length = 1; length < 16; length++) {
        left = left * 2 - code->count[length];
        if (left < 0) return 0;
    }
    uint16_t offsets[16];
    offsets[1] = 0;
    for (int length = 1; length < 15; length++) offsets[length + 1] = offsets[length] + code->count[length];
    for (unsigned i = 0; i < n; i++)
        if (lengths[i] != 0) code->symbol[offsets[lengths[i]]++] = (uint16_t)i;
    return 1;
}

// The next symbol, or -1 for a code that is not in the table or a read past the end.
static int ib_huffman_decode(ib_bit_reader *reader, const ib_huffman *code) {
    int value = 0, first = 0, index = 0;
    for (int length = 1; length < 16; length++) {
        value |= (int)ib_bits(reader, 1);
        if (reader->failed) return -1;
        int count = code->count[length];
        if (value - first < count) return code->symbol[index + value - first];
        index += count;
        first = (first + count) << 1;
        value <<= 1;
    }
    return -1;
}

// Extra bits of the length symbols 257-285 and the distance symbols 0-29 (section 3.2.5).
static const uint8_t ib_length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                            2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint8_t ib_distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                              6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

// Skips one block's compressed symbols up to its end-of-block code.
static int ib_skip_symbols(ib_bit_reader *reader, const ib_huffman *literals, const ib_huffman *distances) {
    for (;;) {
        int symbol = ib_huffman_decode(reader, literals);
        if (symbol < 0) return 0;
        if (symbol < 256) continue;
        if (symbol == 256) return 1;
        symbol -= 257;
        if (symbol >= 29) return 0;
        ib_bits(reader, ib_length_extra[symbol]);
        int distance = ib_huffman_decode(reader, distances);
        if (distance < 0 || distance >= 30) return 0;
        ib_bits(reader, ib_distance_extra[distance]);
        if (reader->failed) return 0;
    }
}

// Reads a dynamic block's code definitions (section 3.2.7).
static int ib_read_dynamic_codes(ib_bit_reader *reader, ib_huffman *literals, ib_huffman *distances) {
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    unsigned literal_count = ib_bits(reader, 5) + 257;
    unsigned distance_count = ib_bits(reader, 5) + 1;
    unsigned length_count = ib_bits(reader, 4) + 4;
    if (reader->failed || literal_count > 286 || distance_count > 30) return 0;
    uint8_t lengths[320];
    memset(lengths, 0, sizeof lengths);
    for (unsigned i = 0; i < length_count; i++) lengths[order[i]] = (uint8_t)ib_bits(reader, 3);
    ib_huffman length_code;
    if (reader->failed || !ib_huffman_build(&length_code, lengths, 19)) return 0;
    unsigned total = literal_count + distance_count;
    memset(lengths, 0, sizeof lengths);
    for (unsigned i = 0; i < total;) {
        int symbol = ib_huffman_decode(reader, &length_code);
        if (symbol < 0) return 0;
        if (symbol < 16) {
            lengths[i++] = (uint8_t)symbol;
            continue;
        }
        uint8_t repeated = 0;
        unsigned times;
        if (symbol == 16) {
            if (i == 0) return 0;
            repeated = lengths[i - 1];
            times = 3 + ib_bits(reader, 2);
        } else if (symbol == 17) {
            times = 3 + ib_bits(reader, 3);
        } else {
            times = 11 + ib_bits(reader, 7);
        }
        if (reader->failed || i + times > total) return 0;
        while (times-- > 0) lengths[i++] = repeated;
    }
    if (lengths[256] == 0) return 0; // no end-of-block code
    return ib_huffman_build(literals, lengths, literal_count) &&
           ib_huffman_build(distances, lengths + literal_count, distance_count);
}

int ib_deflate_last_block(const uint8_t *data, size_t size, size_t *last_header, size_t *end) {
    ib_bit_reader reader = {data, size, 0, 0};
    ib_huffman fixed_literals, fixed_distances, literals, distances;
    int fixed_built = 0;
    for (;;) {
        size_t header = reader.bit;
        uint32_t final = ib_bits(&reader, 1);
        uint32_t type = ib_bits(&reader, 2);
        if (reader.failed) return 0;
        if (type == 0) {
            // Stored: to the byte boundary, LEN and its complement, LEN bytes.
            reader.bit = (reader.bit + 7) & ~(size_t)7;
            uint32_t length = ib_bits(&reader, 16), complement = ib_bits(&reader, 16);
            if (reader.failed || (length ^ 0xffffu) != complement) return 0;
            if ((reader.bit >> 3) + length > size) return 0;
            reader.bit += (size_t)length * 8;
        } else if (type == 1) {
            if (!fixed_built) {
                // Section 3.2.6: literal/length lengths 8, 9, 7, 8; distances all 5.
                uint8_t lengths[288];
                memset(lengths, 8, 144);
                memset(lengths + 144, 9, 112);
                memset(lengths + 256, 7, 24);
                memset(lengths + 280, 8, 8);
                ib_huffman_build(&fixed_literals, lengths, 288);
                memset(lengths, 5, 30);
                ib_huffman_build(&fixed_distances, lengths, 30);
                fixed_built = 1;
            }
            if (!ib_skip_symbols(&reader, &fixed_literals, &fixed_distances)) return 0;
        } else if (type == 2) {
            if (!ib_read_dynamic_codes(&reader, &literals, &distances)) return 0;
            if (!ib_skip_symbols(&reader, &literals, &distances)) return 0;
        } else {
            return 0;
        }
        if (final) {
            *last_header = header;
            *end = reader.bit;
            return 1;
        }
    }
}

size_t ib_deflate_make_continuable(uint8_t *data, size_t size) {
    size_t header = 0, end = 0;
    if (!ib_deflate_last_block(data, size, &header, &end)) return 0;
    data[header >> 3] &= (uint8_t) ~(1u << (header & 7));
    // The empty stored block: header bits 000 (not final, stored), zeros to the byte
    // boundary, then LEN 0x0000 and NLEN 0xffff. Its header goes in the unused bits of
    // the last byte when 3 are left, else spills into one more zero byte.
    size_t used = end >> 3, bits = end & 7;
    if (bits != 0) data[used] &= (uint8_t)((1u << bits) - 1); // the unused bits, zero
    size_t at = bits == 0 ? used : used + 1;
    if (bits == 0 || bits > 5) data[at++] = 0;
    static const uint8_t stored[4] = {0x00, 0x00, 0xff, 0xff};
    memcpy(data + at, stored, 4);
    return at + 4;
}
