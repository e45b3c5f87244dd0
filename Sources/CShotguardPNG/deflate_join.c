/* Joining raw deflate streams into one: libdeflate compresses whole buffers only (no sync
 * flush), so every band it compresses ends in a block marked final. To let the next band follow
 * in the same zlib stream, this walks the band's blocks — decoding block headers and Huffman
 * symbols without producing any output, which is cheap because a match stands for many bytes —
 * to find the final block's header bit and the bit where its end-of-block code ends. It clears
 * the final bit there and appends an empty non-final stored block, which ends on a byte
 * boundary, so the next band's bytes can simply follow. */
#include "shotguard_png.h"

#include <string.h>

enum { SG_FAST_BITS = 10, SG_MAX_CODE_BITS = 15 };

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SG_LITTLE_ENDIAN(word) __builtin_bswap64(word)
#else
#define SG_LITTLE_ENDIAN(word) (word)
#endif

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t pos; /* in bits */
    size_t limit; /* size * 8 */
} sg_bits;

/* Up to 32 bits at the current position, not consumed; bits past the end read as zeros. */
static uint32_t sg_peek(const sg_bits *bits, unsigned count) {
    const size_t byte = bits->pos >> 3;
    uint64_t word = 0;
    if (byte + 8 <= bits->size) {
        memcpy(&word, bits->data + byte, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
    } else {
        for (size_t i = 0; byte + i < bits->size && i < 8; i++) {
            word |= (uint64_t)bits->data[byte + i] << (8 * i);
        }
    }
    word >>= bits->pos & 7;
    return (uint32_t)(word & ((count >= 32) ? 0xFFFFFFFFu : ((1u << count) - 1)));
}

static uint32_t sg_take(sg_bits *bits, unsigned count) {
    const uint32_t value = sg_peek(bits, count);
    bits->pos += count;
    return value;
}

/* A canonical Huffman code: a table of the codes up to SG_FAST_BITS long, indexed by the next
 * bits of the stream, and puff-style counts and sorted symbols for the rare longer codes. */
typedef struct {
    uint16_t fast[1 << SG_FAST_BITS]; /* symbol << 4 | length, 0 when the code is longer */
    uint16_t count[SG_MAX_CODE_BITS + 1];
    uint16_t symbol[288];
} sg_huffman;

static uint32_t sg_reverse(uint32_t code, unsigned length) {
    uint32_t reversed = 0;
    for (unsigned i = 0; i < length; i++) {
        reversed = (reversed << 1) | ((code >> i) & 1);
    }
    return reversed;
}

/* Returns 0, or -1 for an over-subscribed set of lengths (incomplete sets are legal). */
static int sg_build(sg_huffman *h, const unsigned char *lengths, int n) {
    uint16_t offsets[SG_MAX_CODE_BITS + 2];
    uint32_t next_code[SG_MAX_CODE_BITS + 1];
    memset(h->count, 0, sizeof h->count);
    memset(h->fast, 0, sizeof h->fast);
    for (int s = 0; s < n; s++) {
        h->count[lengths[s]]++;
    }
    h->count[0] = 0;
    int left = 1;
    for (int len = 1; len <= SG_MAX_CODE_BITS; len++) {
        left = (left << 1) - h->count[len];
        if (left < 0) {
            return -1;
        }
    }
    /* Where each length's symbols start in `symbol`, and its first code (RFC 1951 3.2.2). */
    offsets[1] = 0;
    uint32_t code = 0;
    for (int len = 1; len <= SG_MAX_CODE_BITS; len++) {
        offsets[len + 1] = (uint16_t)(offsets[len] + h->count[len]);
        code = (code + h->count[len - 1]) << 1;
        next_code[len] = code;
    }
    for (int s = 0; s < n; s++) {
        const unsigned len = lengths[s];
        if (len == 0) {
            continue;
        }
        h->symbol[offsets[len]++] = (uint16_t)s;
        const uint32_t assigned = next_code[len]++;
        if (len <= SG_FAST_BITS) {
            const uint32_t reversed = sg_reverse(assigned, len);
            for (uint32_t fill = reversed; fill < (1u << SG_FAST_BITS); fill += 1u << len) {
                h->fast[fill] = (uint16_t)(s << 4 | len);
            }
        }
    }
    return 0;
}

/* The next symbol, or -1 when the bits match no code. */
static int sg_decode(sg_bits *bits, const sg_huffman *h) {
    const uint16_t entry = h->fast[sg_peek(bits, SG_FAST_BITS)];
    if (entry != 0) {
        bits->pos += entry & 15;
        return entry >> 4;
    }
    const uint32_t ahead = sg_peek(bits, SG_MAX_CODE_BITS);
    int code = 0, first = 0, index = 0;
    for (int len = 1; len <= SG_MAX_CODE_BITS; len++) {
        code |= (int)((ahead >> (len - 1)) & 1);
        const int count = h->count[len];
        if (code - count < first) {
            bits->pos += (size_t)len;
            return h->symbol[index + (code - first)];
        }
        index += count;
        first = (first + count) << 1;
        code <<= 1;
    }
    return -1;
}

static const unsigned char sg_length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                   2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const unsigned char sg_distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                                     6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* Skips the symbols of one Huffman-coded block, up to and including its end-of-block code.
 * This is the hot loop, so it keeps the bits in a 64-bit register and refills it only when a
 * code might not fit: 15 bits for a literal/length code, 33 more for a length's extra bits, a
 * distance code and its extra bits. Most symbols are literals, several per refill. */
static int sg_skip_codes(sg_bits *bits, const sg_huffman *literals, const sg_huffman *distances) {
    const unsigned char *in = bits->data + (bits->pos >> 3);
    const unsigned char *const end = bits->data + bits->size;
    uint64_t buffer = 0;
    unsigned have = 0;
    const unsigned skip = (unsigned)(bits->pos & 7);
#define SG_REFILL()                                                                                             \
    do {                                                                                                        \
        if (end - in >= 8) {                                                                                    \
            uint64_t word;                                                                                      \
            memcpy(&word, in, 8);                                                                               \
            word = SG_LITTLE_ENDIAN(word);                                                                      \
            buffer |= word << have;                                                                             \
            in += (63 - have) >> 3;                                                                             \
            have |= 56;                                                                                         \
        } else {                                                                                                \
            while (have <= 56) {                                                                                \
                buffer |= (uint64_t)(in < end ? *in : 0) << have;                                               \
                in++;                                                                                           \
                have += 8;                                                                                      \
            }                                                                                                   \
            if (in > end + 8) {                                                                                 \
                return -1; /* ran well past the end: not a stream libdeflate wrote */                          \
            }                                                                                                   \
        }                                                                                                       \
    } while (0)
    SG_REFILL();
    buffer >>= skip;
    have -= skip;
    for (;;) {
        if (have < SG_MAX_CODE_BITS) {
            SG_REFILL();
        }
        int symbol;
        uint16_t entry = literals->fast[buffer & ((1u << SG_FAST_BITS) - 1)];
        if (entry != 0) {
            buffer >>= entry & 15;
            have -= entry & 15;
            symbol = entry >> 4;
        } else {
            sg_bits slow = {(const unsigned char *)&buffer, 8, 0, 64};
            symbol = sg_decode(&slow, literals);
            buffer >>= slow.pos;
            have -= (unsigned)slow.pos;
        }
        if (symbol < 256) {
            if (symbol < 0) {
                return -1;
            }
            continue;
        }
        if (symbol == 256) {
            bits->pos = (size_t)(in - bits->data) * 8 - have;
            return bits->pos <= bits->limit ? 0 : -1;
        }
        if (symbol > 285) {
            return -1;
        }
        if (have < 33) {
            SG_REFILL();
        }
        const unsigned extra = sg_length_extra[symbol - 257];
        buffer >>= extra;
        have -= extra;
        int distance;
        entry = distances->fast[buffer & ((1u << SG_FAST_BITS) - 1)];
        if (entry != 0) {
            buffer >>= entry & 15;
            have -= entry & 15;
            distance = entry >> 4;
        } else {
            sg_bits slow = {(const unsigned char *)&buffer, 8, 0, 64};
            distance = sg_decode(&slow, distances);
            buffer >>= slow.pos;
            have -= (unsigned)slow.pos;
        }
        if (distance < 0 || distance > 29) {
            return -1;
        }
        buffer >>= sg_distance_extra[distance];
        have -= sg_distance_extra[distance];
    }
#undef SG_REFILL
}

static int sg_read_dynamic_codes(sg_bits *bits, sg_huffman *literals, sg_huffman *distances) {
    static const unsigned char order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    unsigned char lengths[320];
    const int literal_count = (int)sg_take(bits, 5) + 257;
    const int distance_count = (int)sg_take(bits, 5) + 1;
    const int length_count = (int)sg_take(bits, 4) + 4;
    if (literal_count > 286 || distance_count > 30) {
        return -1;
    }
    memset(lengths, 0, 19);
    for (int i = 0; i < length_count; i++) {
        lengths[order[i]] = (unsigned char)sg_take(bits, 3);
    }
    if (sg_build(literals, lengths, 19) != 0) {
        return -1;
    }
    const int total = literal_count + distance_count;
    for (int i = 0; i < total;) {
        const int symbol = sg_decode(bits, literals);
        if (symbol < 0) {
            return -1;
        }
        if (symbol < 16) {
            lengths[i++] = (unsigned char)symbol;
            continue;
        }
        int repeat;
        unsigned char value = 0;
        if (symbol == 16) {
            if (i == 0) {
                return -1;
            }
            value = lengths[i - 1];
            repeat = 3 + (int)sg_take(bits, 2);
        } else if (symbol == 17) {
            repeat = 3 + (int)sg_take(bits, 3);
        } else {
            repeat = 11 + (int)sg_take(bits, 7);
        }
        if (i + repeat > total) {
            return -1;
        }
        while (repeat-- > 0) {
            lengths[i++] = value;
        }
    }
    if (lengths[256] == 0) {
        return -1;
    }
    if (sg_build(literals, lengths, literal_count) != 0 || sg_build(distances, lengths + literal_count, distance_count) != 0) {
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
    sg_build(literals, lengths, 288);
    memset(lengths, 5, 30);
    sg_build(distances, lengths, 30);
}

int sg_deflate_unfinish(unsigned char *data, size_t size, size_t *new_size) {
    sg_huffman literals, distances;
    sg_bits bits = {data, size, 0, size * 8};
    for (;;) {
        const size_t header = bits.pos;
        const uint32_t final = sg_take(&bits, 1);
        const uint32_t type = sg_take(&bits, 2);
        if (type == 0) {
            bits.pos = (bits.pos + 7) & ~(size_t)7;
            const uint32_t length = sg_take(&bits, 16);
            const uint32_t complement = sg_take(&bits, 16);
            if ((length ^ 0xFFFF) != complement) {
                return -1;
            }
            bits.pos += (size_t)length * 8;
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
        if (bits.pos > bits.limit) {
            return -1;
        }
        if (final) {
            const size_t end = bits.pos;
            data[header >> 3] &= (unsigned char)~(1u << (header & 7));
            /* An empty stored block: three zero header bits at `end`, zeros to the byte
             * boundary, then LEN = 0 and NLEN = 0xFFFF. The caller leaves 5 bytes of room. */
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
            return 0;
        }
    }
}
