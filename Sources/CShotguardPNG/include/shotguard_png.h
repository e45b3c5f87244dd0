/* C side of shotguard's PNG support.
 *
 * Why this exists: libpng reports errors with longjmp, which must never cross a Swift frame.
 * Reading goes through libpng's simplified API, whose setjmp stays inside libpng, so Swift
 * calls it directly; this header only re-exports format constants that Swift cannot import
 * (they are macros built from other macros). Writing does not use libpng at all: encode.c
 * writes the container itself and compresses with libdeflate, so nothing there can longjmp.
 */
#ifndef SHOTGUARD_PNG_H
#define SHOTGUARD_PNG_H

#include <png.h>
#include <stddef.h>
#include <stdint.h>

static const png_uint_32 sg_png_format_bgra = PNG_FORMAT_BGRA;
static const png_uint_32 sg_png_format_linear_rgba = PNG_FORMAT_LINEAR_RGB_ALPHA;

/* A growable memory buffer that receives an encoded PNG. Free with sg_png_buffer_free. */
typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
} sg_png_buffer;

/* Row filters shotguard can ask for. */
enum {
    SG_PNG_FILTER_NONE = 0,
    SG_PNG_FILTER_SUB = 1,
    SG_PNG_FILTER_UP = 2
};

/* Encodes a 32-bit image stored as B,G,R,X (or B,G,R,A) bytes per pixel, rows bytes_per_row
 * apart (an X image's rows can be used as they are).
 * has_alpha = 0 writes RGB and drops the fourth byte; 1 writes RGBA.
 * level is the libdeflate level 0-12 (0-9 as in zlib); filter one SG_PNG_FILTER_* for every row.
 * band_rows is the rows per compressed band, 0 for about a megabyte each.
 * Writes only IHDR, IDAT and IEND. Compresses on up to one thread per core.
 * Returns 0 on success; otherwise -1 with a message in err (NUL-terminated). */
int sg_png_encode_bgrx(const unsigned char *pixels, uint32_t width, uint32_t height,
                       size_t bytes_per_row, int has_alpha, int level, int filter, uint32_t band_rows,
                       sg_png_buffer *out, char *err, size_t err_size);

/* Makes the raw deflate stream in data[0..size) continuable: its final block becomes
 * non-final and an empty stored block follows, ending on a byte boundary. data must have 5
 * bytes of room past size. Returns 0 and the new size, or -1 when the stream is malformed. */
int sg_deflate_unfinish(unsigned char *data, size_t size, size_t *new_size);

void sg_png_buffer_free(sg_png_buffer *buffer);

#endif
