/* C side of shotguard's PNG support.
 *
 * Why this exists: libpng reports errors with longjmp, which must never cross a Swift frame.
 * Reading goes through libpng's simplified API, whose setjmp stays inside libpng, so Swift
 * calls it directly; this header only re-exports format constants that Swift cannot import
 * (they are macros built from other macros). Writing uses the classic API, wrapped here in
 * one C function that calls setjmp itself.
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

/* Encodes a 32-bit image stored as B,G,R,X (or B,G,R,A) bytes per pixel.
 * has_alpha = 0 writes RGB and drops the fourth byte; 1 writes RGBA.
 * level is the zlib level 0-9; filter one SG_PNG_FILTER_* for every row.
 * Writes only IHDR, IDAT and IEND. Compresses on up to one thread per core.
 * Returns 0 on success; otherwise -1 with a message in err (NUL-terminated). */
int sg_png_encode_bgrx(const unsigned char *pixels, uint32_t width, uint32_t height,
                       size_t bytes_per_row, int has_alpha, int level, int filter,
                       sg_png_buffer *out, char *err, size_t err_size);

void sg_png_buffer_free(sg_png_buffer *buffer);

#endif
