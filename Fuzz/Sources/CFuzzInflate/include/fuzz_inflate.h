/* zlib's inflate for the band-join fuzz target: the reference that joined deflate streams are
 * checked against. A C shim because inflateInit2 is a macro, which Swift cannot call. */
#ifndef FUZZ_INFLATE_H
#define FUZZ_INFLATE_H

#include <stddef.h>

/* Inflates the raw deflate stream in[0..size) into out (capacity bytes). Returns 1 when the
 * stream ends, with *out_size bytes out, *consumed bytes of input read, and *end_bit the bit
 * just after its final block's end-of-block code (counted from the first byte's least
 * significant bit, as deflate packs them); 0 when the stream is invalid, ends early or does not
 * fit in out. */
int fuzz_inflate_raw(const unsigned char *in, size_t size, unsigned char *out, size_t capacity, size_t *out_size,
                     size_t *consumed, size_t *end_bit);

#endif
