/* zlib's raw inflate, a block at a time, for the band-join fuzz target. */
#include "fuzz_inflate.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

int fuzz_inflate_raw(const unsigned char *in, size_t size, unsigned char *out, size_t capacity, size_t *out_size,
                     size_t *consumed, size_t *end_bit) {
    if (size > UINT_MAX || capacity > UINT_MAX) {
        return 0;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -15) != Z_OK) {
        return 0;
    }
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)size;
    z.next_out = out;
    z.avail_out = (uInt)capacity;
    int ended = 0, found = 0;
    /* Z_BLOCK stops at each block's end. Just after the final block's end-of-block code
     * data_type has 64 (the last block) and 128 (at a block's end) set, and its low bits count
     * the bits of the last byte read that lie past the code: zlib drops them only on the next
     * call, so Z_FINISH alone would show the end rounded up to a byte. */
    for (size_t calls = 0; calls <= size * 8 + 2; calls++) {
        const int result = inflate(&z, Z_BLOCK);
        if (!found && (z.data_type & 192) == 192) {
            found = 1;
            *end_bit = (size_t)z.total_in * 8 - (size_t)(z.data_type & 7);
        }
        if (result == Z_STREAM_END) {
            ended = 1;
            break;
        }
        if (result != Z_OK) {
            break;
        }
    }
    *out_size = z.total_out;
    *consumed = z.total_in;
    inflateEnd(&z);
    return ended && found;
}
