/* Joining raw deflate streams into one: libdeflate compresses whole buffers only (no sync
 * flush), so every band it compresses ends in a block marked final. To let the next band follow
 * in the same zlib stream, this finds the final block's header bit and the bit where its
 * end-of-block code ends, clears the final bit and appends an empty non-final stored block,
 * which ends on a byte boundary, so the next band's bytes can simply follow.
 *
 * A band of one block (libdeflate's fastest level ends blocks at 64 KiB of input or 8,192
 * matches, and the encoder's bands are smaller) has its header at bit 0 and its end found from the back, from the code
 * lengths in its header alone. Any other stream is walked: block headers and Huffman symbols
 * decoded without producing output, which is cheap because a match stands for many bytes, but
 * still took a tenth of a capture's compression time when every band was walked. */
#include "shotguard_png.h"

#include <string.h>

/* Table sizes: the literal/length table covers all but a few rare long codes (libdeflate's own
 * decoder picks 11 too; 10 makes more slow lookups, 12 costs more to build than it saves), the
 * distance table most distance codes; longer codes take the slow path. Code-length codes are
 * at most 7 bits long, so their table covers them all. */
enum { SG_LITLEN_BITS = 11, SG_DISTANCE_BITS = 8, SG_PRECODE_BITS = 7, SG_MAX_CODE_BITS = 15 };

/* A table entry. The walk needs no symbol values, only how many bits to skip, so an entry holds
 * that count in its low byte (a length or distance code's count includes its extra bits, so
 * one shift skips both) and, for the literal/length code, what the code was; a literal's entry
 * may cover the code after it too (sg_pair_literals). 0 means a code longer than the table's
 * bits, or no code at all: the slow path decides. */
enum {
    SG_LITERAL = 1 << 8,
    SG_MATCH = 1 << 9, /* a length code: a distance follows */
    SG_END = 1 << 10, /* the end-of-block code */
    SG_CODE_LENGTH_SHIFT = 11, /* a single code's own length, for pairing */
};

enum { SG_PRECODE, SG_LITLEN, SG_DISTANCE };

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SG_LITTLE_ENDIAN(word) __builtin_bswap64(word)
#else
#define SG_LITTLE_ENDIAN(word) (word)
#endif

static const unsigned char sg_length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                   2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const unsigned char sg_distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                                     6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* The stream's bits, least significant first, in a 64-bit buffer. `next` may run past `size`:
 * bytes there read as zeros, and the caller rejects a block that ends past the data. */
typedef struct {
    const unsigned char *data;
    size_t size;
    size_t next; /* the next byte to load into the buffer */
    uint64_t buffer;
    unsigned have; /* bits in the buffer */
} sg_bits;

static size_t sg_position(const sg_bits *bits) {
    return bits->next * 8 - bits->have;
}

/* Fills the buffer to at least 56 bits: a whole word at once while 8 bytes remain (the bits
 * past `have` it also sets are the same stream bits the next refill would put there), byte by
 * byte near the end. Returns -1 once it has run well past the end, so that a stream of zeros
 * cannot keep the walk going. */
#define SG_REFILL(data, size, next, buffer, have)                                                                \
    do {                                                                                                         \
        if ((next) + 8 <= (size)) {                                                                              \
            uint64_t word;                                                                                       \
            memcpy(&word, (data) + (next), 8);                                                                   \
            (buffer) |= SG_LITTLE_ENDIAN(word) << (have);                                                        \
            (next) += (63 - (have)) >> 3;                                                                        \
            (have) |= 56;                                                                                        \
        } else {                                                                                                 \
            while ((have) < 56) {                                                                               \
                (buffer) |= (uint64_t)((next) < (size) ? (data)[next] : 0) << (have);                            \
                (next)++;                                                                                        \
                (have) += 8;                                                                                     \
            }                                                                                                    \
            if ((next) > (size) + 16) {                                                                          \
                return -1;                                                                                       \
            }                                                                                                    \
        }                                                                                                        \
    } while (0)

/* The next `count` (at most 32) bits, consumed. */
static int sg_take(sg_bits *bits, unsigned count, uint32_t *value) {
    if (bits->have < count) {
        SG_REFILL(bits->data, bits->size, bits->next, bits->buffer, bits->have);
    }
    *value = (uint32_t)(bits->buffer & ((1ull << count) - 1));
    bits->buffer >>= count;
    bits->have -= count;
    return 0;
}

/* A canonical Huffman code: the table of its short codes, and for the rare longer ones the
 * first code and the symbols of each length (RFC 1951 3.2.2). */
typedef struct {
    uint16_t fast[1 << SG_LITLEN_BITS];
    uint16_t count[SG_MAX_CODE_BITS + 1];
    uint16_t offset[SG_MAX_CODE_BITS + 1]; /* where each length's symbols start in `symbol` */
    uint32_t first[SG_MAX_CODE_BITS + 1];
    uint16_t symbol[288];
} sg_huffman;

static uint32_t sg_reverse(uint32_t code, unsigned length) {
#if defined(__has_builtin)
#if __has_builtin(__builtin_bitreverse16)
    return (uint32_t)__builtin_bitreverse16((uint16_t)code) >> (16 - length);
#define SG_HAVE_BITREVERSE 1
#endif
#endif
#ifndef SG_HAVE_BITREVERSE
    uint32_t reversed = 0;
    for (unsigned i = 0; i < length; i++) {
        reversed = (reversed << 1) | ((code >> i) & 1);
    }
    return reversed;
#endif
}

static uint16_t sg_entry(int kind, int symbol, unsigned length) {
    if (kind == SG_PRECODE) {
        return (uint16_t)(symbol << 8 | (int)length);
    }
    if (kind == SG_DISTANCE) {
        return symbol < 30 ? (uint16_t)(length + sg_distance_extra[symbol]) : 0;
    }
    const unsigned own = length << SG_CODE_LENGTH_SHIFT | length;
    if (symbol < 256) {
        return (uint16_t)(SG_LITERAL | own);
    }
    if (symbol == 256) {
        return (uint16_t)(SG_END | own);
    }
    return symbol <= 285 ? (uint16_t)(SG_MATCH | (own + sg_length_extra[symbol - 257])) : 0;
}

/* The next code of the same length, bit-reversed as the table indexes it: adding one to the
 * code carries from its last bit, which is the top bit of `reversed`. reversed must not be
 * all ones. */
static uint32_t sg_next_reversed(uint32_t reversed, uint32_t all_ones) {
    const uint32_t bit = 1u << (31 - __builtin_clz(reversed ^ all_ones)); /* the top zero bit */
    return (reversed & (bit - 1)) | bit;
}

/* The table of a set of code lengths, and what the slow path needs for the longer codes.
 * Returns 0, or -1 for an over-subscribed set of lengths (incomplete sets are legal). */
static int sg_build_table(sg_huffman *h, const unsigned char *lengths, int n, int kind, unsigned table_bits) {
    uint16_t next_index[SG_MAX_CODE_BITS + 1];
    memset(h->count, 0, sizeof h->count);
    for (int s = 0; s < n; s++) {
        h->count[lengths[s]]++;
    }
    h->count[0] = 0;
    int left = 1;
    uint32_t code = 0;
    uint16_t index = 0;
    for (int len = 1; len <= SG_MAX_CODE_BITS; len++) {
        left = (left << 1) - h->count[len];
        if (left < 0) {
            return -1;
        }
        code = (code + h->count[len - 1]) << 1;
        h->first[len] = code;
        h->offset[len] = next_index[len] = index;
        index = (uint16_t)(index + h->count[len]);
    }
    next_index[0] = index; /* unused symbols go last, out of the way */
    for (int s = 0; s < n; s++) {
        h->symbol[next_index[lengths[s]]++] = (uint16_t)s;
    }
    /* The table, shortest codes first, as libdeflate builds it: while the table is 1 << len
     * entries long, each code of that length takes one entry, and going to the next length
     * doubles the table with a copy, so that a shorter code fills all the entries it prefixes.
     * Codes are canonical, so they take the entries in (bit-reversed) counting order. */
    uint16_t *const fast = h->fast;
    uint32_t size = 1, reversed = 0;
    fast[0] = 0; /* what unfilled entries copy until they are filled or cleared */
    int sorted = h->offset[1];
    for (unsigned len = 1; len <= table_bits; len++) {
        memcpy(fast + size, fast, size * sizeof *fast);
        size <<= 1;
        for (unsigned left_of_length = h->count[len]; left_of_length > 0; left_of_length--) {
            fast[reversed] = sg_entry(kind, h->symbol[sorted++], len);
            if (reversed == size - 1) { /* the last code: the table is full */
                for (len++; len <= table_bits; len++) {
                    memcpy(fast + size, fast, size * sizeof *fast);
                    size <<= 1;
                }
                return 0;
            }
            reversed = sg_next_reversed(reversed, size - 1);
        }
    }
    /* The entries left are for longer codes, or for none when the set is incomplete. */
    for (;;) {
        fast[reversed] = 0;
        if (reversed == size - 1) {
            return 0;
        }
        reversed = sg_next_reversed(reversed, size - 1);
    }
}

/* Lets a literal's entries also skip the code after it when both are within the table's bits,
 * so a walk through a run of literals takes half the lookups, each waiting on the one before.
 * The entries behind a literal code of `len` bits are those ending in its bits; what follows
 * in them is what the first entries of the table say, when that code's bits are in them too. */
static void sg_pair_literals(sg_huffman *h, unsigned table_bits) {
    uint16_t single[1 << SG_LITLEN_BITS];
    memcpy(single, h->fast, sizeof(uint16_t) << table_bits);
    unsigned shortest = 1;
    while (shortest < table_bits && h->count[shortest] == 0) {
        shortest++;
    }
    for (unsigned len = shortest; len + shortest <= table_bits; len++) {
        const uint32_t behind = 1u << (table_bits - len);
        const uint32_t alone = SG_LITERAL | len << SG_CODE_LENGTH_SHIFT | len;
        for (unsigned rank = 0; rank < h->count[len]; rank++) {
            if (h->symbol[h->offset[len] + rank] >= 256) {
                continue;
            }
            const uint32_t first = sg_reverse(h->first[len] + rank, len);
            for (uint32_t j = 0; j < behind; j++) {
                const uint32_t second = single[j];
                const int fits = second != 0 && len + (second >> SG_CODE_LENGTH_SHIFT) <= table_bits;
                h->fast[first | j << len] =
                    (uint16_t)(fits ? (second & (SG_LITERAL | SG_MATCH | SG_END)) | (len + (uint8_t)second) : alone);
            }
        }
    }
}

static int sg_build(sg_huffman *h, const unsigned char *lengths, int n, int kind, unsigned table_bits) {
    if (sg_build_table(h, lengths, n, kind, table_bits) != 0) {
        return -1;
    }
    if (kind == SG_LITLEN) {
        sg_pair_literals(h, table_bits);
    }
    return 0;
}

/* A code longer than the table's bits at the bottom of `buffer`: symbol << 4 | length, or -1
 * when the bits match no code. */
static int sg_decode_long(const sg_huffman *h, uint64_t buffer, unsigned table_bits) {
    const uint32_t ahead = sg_reverse((uint32_t)buffer & 0x7FFF, SG_MAX_CODE_BITS); /* first bit on top */
    for (unsigned len = table_bits + 1; len <= SG_MAX_CODE_BITS; len++) {
        const uint32_t rank = (ahead >> (SG_MAX_CODE_BITS - len)) - h->first[len];
        if (rank < h->count[len]) {
            return h->symbol[h->offset[len] + rank] << 4 | (int)len;
        }
    }
    return -1;
}

/* Skips the symbols of one Huffman-coded block, up to and including its end-of-block code.
 * This is the hot loop, so it keeps the bits in a register and tops them up to 56 or more only
 * when a step might run short: a literal/length lookup takes at most 20 bits (a code and its
 * extra bits, or a literal and a code after it), a distance 28. Each lookup waits for the one
 * before, so the fewer lookups, the faster: literals, most of the symbols, go by in pairs where
 * they can, and a code's extra bits go with it. With 31 bits at the top, a second lookup after
 * literals (11 bits at most) needs no check of its own. */
static int sg_skip_codes(sg_bits *bits, const sg_huffman *literals, const sg_huffman *distances) {
    const unsigned char *const data = bits->data;
    const size_t size = bits->size;
    size_t next = bits->next;
    uint64_t buffer = bits->buffer;
    unsigned have = bits->have;
    for (;;) {
        if (have < 31) {
            SG_REFILL(data, size, next, buffer, have);
        }
        uint32_t entry = literals->fast[buffer & ((1u << SG_LITLEN_BITS) - 1)];
        buffer >>= (uint8_t)entry;
        have -= (uint8_t)entry;
        if (entry & SG_LITERAL) {
            entry = literals->fast[buffer & ((1u << SG_LITLEN_BITS) - 1)];
            buffer >>= (uint8_t)entry;
            have -= (uint8_t)entry;
            if (entry & SG_LITERAL) {
                continue;
            }
        }
        if (!(entry & SG_MATCH)) {
            if (entry & SG_END) {
                break;
            }
            const int decoded = sg_decode_long(literals, buffer, SG_LITLEN_BITS);
            const int symbol = decoded >> 4;
            if (decoded < 0 || symbol > 285) {
                return -1;
            }
            buffer >>= decoded & 15;
            have -= decoded & 15;
            if (symbol < 256) {
                continue;
            }
            if (symbol == 256) {
                break;
            }
            buffer >>= sg_length_extra[symbol - 257];
            have -= sg_length_extra[symbol - 257];
        }
        if (have < 28) {
            SG_REFILL(data, size, next, buffer, have);
        }
        entry = distances->fast[buffer & ((1u << SG_DISTANCE_BITS) - 1)];
        if (entry == 0) {
            const int decoded = sg_decode_long(distances, buffer, SG_DISTANCE_BITS);
            if (decoded < 0 || (decoded >> 4) > 29) {
                return -1;
            }
            entry = (uint32_t)(decoded & 15) + sg_distance_extra[decoded >> 4];
        }
        buffer >>= (uint8_t)entry;
        have -= (uint8_t)entry;
    }
    bits->next = next;
    bits->buffer = buffer;
    bits->have = have;
    return 0;
}

/* Reads a dynamic block's code lengths (after its 3 header bits) into lengths: the
 * literal/length code's, then the distance code's. `scratch` holds the code-length code. */
static int sg_read_code_lengths(sg_bits *bits, sg_huffman *scratch, unsigned char lengths[320], int *literal_count,
                                int *distance_count) {
    static const unsigned char order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    uint32_t header;
    if (sg_take(bits, 14, &header) != 0) {
        return -1;
    }
    *literal_count = (int)(header & 31) + 257;
    *distance_count = (int)((header >> 5) & 31) + 1;
    const int length_count = (int)(header >> 10) + 4;
    if (*literal_count > 286 || *distance_count > 30) {
        return -1;
    }
    memset(lengths, 0, 19);
    for (int i = 0; i < length_count; i++) {
        uint32_t length;
        if (sg_take(bits, 3, &length) != 0) {
            return -1;
        }
        lengths[order[i]] = (unsigned char)length;
    }
    if (sg_build(scratch, lengths, 19, SG_PRECODE, SG_PRECODE_BITS) != 0) {
        return -1;
    }
    const int total = *literal_count + *distance_count;
    for (int i = 0; i < total;) {
        /* 7 bits of code and 7 of extra bits at most. */
        if (bits->have < 14) {
            SG_REFILL(bits->data, bits->size, bits->next, bits->buffer, bits->have);
        }
        const uint16_t entry = scratch->fast[bits->buffer & ((1u << SG_PRECODE_BITS) - 1)];
        if (entry == 0) {
            return -1;
        }
        bits->buffer >>= (uint8_t)entry;
        bits->have -= (uint8_t)entry;
        const int symbol = entry >> 8;
        if (symbol < 16) {
            lengths[i++] = (unsigned char)symbol;
            continue;
        }
        static const unsigned char extra[3] = {2, 3, 7}, base[3] = {3, 3, 11};
        const int repeat = base[symbol - 16] + (int)(bits->buffer & ((1u << extra[symbol - 16]) - 1));
        bits->buffer >>= extra[symbol - 16];
        bits->have -= extra[symbol - 16];
        unsigned char value = 0;
        if (symbol == 16) {
            if (i == 0) {
                return -1;
            }
            value = lengths[i - 1];
        }
        if (i + repeat > total) {
            return -1;
        }
        memset(lengths + i, value, (size_t)repeat);
        i += repeat;
    }
    return lengths[256] == 0 ? -1 : 0;
}

static int sg_read_dynamic_codes(sg_bits *bits, sg_huffman *literals, sg_huffman *distances) {
    unsigned char lengths[320];
    int literal_count, distance_count;
    /* The code-length code's table goes in `literals`, which is rebuilt after. */
    if (sg_read_code_lengths(bits, literals, lengths, &literal_count, &distance_count) != 0 ||
        sg_build(literals, lengths, literal_count, SG_LITLEN, SG_LITLEN_BITS) != 0 ||
        sg_build(distances, lengths + literal_count, distance_count, SG_DISTANCE, SG_DISTANCE_BITS) != 0) {
        return -1;
    }
    return 0;
}

static void sg_fixed_codes(sg_huffman *literals, sg_huffman *distances) {
    unsigned char lengths[288];
    memset(lengths, 8, 144);
    memset(lengths + 144, 9, 112);
    memset(lengths + 256, 7, 24);
    memset(lengths + 280, 8, 8);
    sg_build(literals, lengths, 288, SG_LITLEN, SG_LITLEN_BITS);
    memset(lengths, 5, 30);
    sg_build(distances, lengths, 30, SG_DISTANCE, SG_DISTANCE_BITS);
}

/* Makes the block whose header is at bit `header` not final, and ends the data with an empty
 * stored block at bit `end`: three zero header bits, zeros to the byte boundary, then LEN = 0
 * and NLEN = 0xFFFF. The caller leaves 5 bytes of room. */
static void sg_end_with_empty_block(unsigned char *data, size_t header, size_t end, size_t *new_size) {
    data[header >> 3] &= (unsigned char)~(1u << (header & 7));
    const size_t bytes = (end + 3 + 7) >> 3;
    data[end >> 3] &= (unsigned char)((1u << (end & 7)) - 1);
    if (bytes - 1 > (end >> 3)) {
        data[bytes - 1] = 0;
    }
    data[bytes + 0] = 0x00;
    data[bytes + 1] = 0x00;
    data[bytes + 2] = 0xFF;
    data[bytes + 3] = 0xFF;
    *new_size = bytes + 4;
}

/* `count` (at most 16) bits from bit `at` on, least significant first. */
static uint32_t sg_bits_at(const unsigned char *data, size_t size, size_t at, unsigned count) {
    uint32_t word = 0;
    for (size_t byte = at >> 3, shift = 0; byte < size && shift < 24; byte++, shift += 8) {
        word |= (uint32_t)data[byte] << shift;
    }
    return (word >> (at & 7)) & ((1u << count) - 1);
}

/* The end of a stream that is one dynamic Huffman block, found from the back without walking
 * its symbols: the block ends in its end-of-block code, then zeros to the byte boundary (as
 * libdeflate pads), so the end is one of the 8 bits from the last byte's boundaries where the
 * bits after it are zeros and the bits before it spell that code. When exactly one of them
 * does, it is the end; returns -1 when there is not one block, or more than one place fits.
 * Two places fit only if the code is all zero bits (a code that also fits k bits later or
 * earlier repeats itself every k bits and ends in k zeros), which a code given to one symbol
 * of a block rarely is. */
int sg_deflate_end_from_back(const unsigned char *data, size_t size, size_t *end) {
    if (size < 2 || (data[0] & 7) != (1 | 2 << 1)) { /* final, dynamic */
        return -1;
    }
    sg_bits bits = {data, size, 0, 0, 0};
    sg_huffman scratch;
    unsigned char lengths[320];
    int literal_count, distance_count;
    uint32_t fields;
    if (sg_take(&bits, 3, &fields) != 0 ||
        sg_read_code_lengths(&bits, &scratch, lengths, &literal_count, &distance_count) != 0) {
        return -1;
    }
    /* The end-of-block code, canonical (RFC 1951 3.2.2): the first code of its length plus
     * the symbols of that length before it. */
    const unsigned length = lengths[256];
    uint16_t count[SG_MAX_CODE_BITS + 1] = {0};
    for (int s = 0; s < literal_count; s++) {
        count[lengths[s]]++;
    }
    count[0] = 0;
    uint32_t code = 0;
    for (unsigned len = 1; len <= length; len++) {
        code = (code + count[len - 1]) << 1;
    }
    for (int s = 0; s < 256; s++) {
        code += lengths[s] == length;
    }
    const uint32_t reversed = sg_reverse(code, length); /* as the stream's bits read */
    const size_t total = size * 8, codes_start = sg_position(&bits);
    int found = 0;
    for (unsigned padding = 0; padding < 8; padding++) {
        const size_t candidate = total - padding;
        if (candidate < codes_start + length || (padding > 0 && data[size - 1] >> (8 - padding) != 0)) {
            continue;
        }
        if (sg_bits_at(data, size, candidate - length, length) == reversed) {
            *end = candidate;
            found++;
        }
    }
    return found == 1 ? 0 : -1;
}

int sg_deflate_end_by_walking(const unsigned char *data, size_t size, size_t *header, size_t *end) {
    sg_huffman literals, distances;
    sg_bits bits = {data, size, 0, 0, 0};
    for (;;) {
        const size_t start = sg_position(&bits);
        uint32_t fields;
        if (sg_take(&bits, 3, &fields) != 0) {
            return -1;
        }
        const uint32_t final = fields & 1, type = fields >> 1;
        if (type == 0) {
            uint32_t length, complement;
            bits.buffer >>= bits.have & 7; /* to the byte boundary */
            bits.have -= bits.have & 7;
            if (sg_take(&bits, 16, &length) != 0 || sg_take(&bits, 16, &complement) != 0 ||
                (length ^ 0xFFFF) != complement) {
                return -1;
            }
            /* Past the stored bytes, with the buffer emptied; `next` may pass the end here. */
            bits.next = sg_position(&bits) / 8 + length;
            bits.buffer = 0;
            bits.have = 0;
        } else if (type == 1) {
            sg_fixed_codes(&literals, &distances);
            if (sg_skip_codes(&bits, &literals, &distances) != 0) {
                return -1;
            }
        } else if (type == 2) {
            if (sg_read_dynamic_codes(&bits, &literals, &distances) != 0 ||
                sg_skip_codes(&bits, &literals, &distances) != 0) {
                return -1;
            }
        } else {
            return -1;
        }
        if (sg_position(&bits) > size * 8) {
            return -1;
        }
        if (final) {
            *header = start;
            *end = sg_position(&bits);
            return 0;
        }
    }
}

int sg_deflate_unfinish(unsigned char *data, size_t size, size_t capacity, size_t *new_size) {
    size_t header = 0, end;
    if (size > capacity ||
        (sg_deflate_end_from_back(data, size, &end) != 0 && sg_deflate_end_by_walking(data, size, &header, &end) != 0)) {
        return -1;
    }
    /* The end is inside the stream; the stored block's 3 header bits, padding and 4 bytes of
     * lengths follow it (sg_end_with_empty_block). */
    if (end / 8 > size || (end + 3 + 7) / 8 + 4 > capacity) {
        return -1;
    }
    sg_end_with_empty_block(data, header, end, new_size);
    return 0;
}
