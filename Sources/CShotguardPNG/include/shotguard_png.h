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

/* Row filters shotguard can ask for. */
enum {
    SG_PNG_FILTER_NONE = 0,
    SG_PNG_FILTER_SUB = 1,
    SG_PNG_FILTER_UP = 2,
    /* Each row the filter of NONE, SUB and UP that libpng's heuristic picks. */
    SG_PNG_FILTER_ADAPTIVE = 5
};

/* A PNG compressed and waiting to be written (encode.c). */
typedef struct sg_png_job sg_png_job;

/* Compresses a 32-bit image stored as B,G,R,X (or B,G,R,A) bytes per pixel, rows
 * bytes_per_row apart (an X image's rows can be used as they are).
 * has_alpha = 0 writes RGB and drops the fourth byte; 1 writes RGBA.
 * level is the libdeflate level 0-12 (0-9 as in zlib); filter one SG_PNG_FILTER_* for every row.
 * band_rows is the rows per compressed band, 0 for just under 64 KiB each; any other value is
 * taken at most as the image's height and as 256 MiB of filtered rows, so there is always
 * at least one band.
 * Compresses on up to one thread per core. Returns 0 with the job in *job (its PNG's size from
 * sg_png_size); otherwise -1 with a message in err (NUL-terminated). */
int sg_png_compress_bgrx(const unsigned char *pixels, uint32_t width, uint32_t height,
                         size_t bytes_per_row, int has_alpha, int level, int filter, uint32_t band_rows,
                         sg_png_job **job, char *err, size_t err_size);

/* The size of the PNG a job writes. */
size_t sg_png_size(const sg_png_job *job);

/* Writes the whole PNG (only IHDR, IDAT and IEND) into out, which holds sg_png_size bytes:
 * the caller's buffer, so the file is not copied again. */
void sg_png_write(const sg_png_job *job, unsigned char *out);

void sg_png_job_free(sg_png_job *job);

/* Compresses as sg_png_compress_bgrx does and writes the PNG to fd as its bands finish, in
 * order (stream.c): the file is never whole in memory. Returns 0, or -1 with a message in err
 * (a failed write names its errno); what was written before a failure is not a PNG. */
int sg_png_write_bgrx(const unsigned char *pixels, uint32_t width, uint32_t height,
                      size_t bytes_per_row, int has_alpha, int level, int filter, uint32_t band_rows,
                      int fd, char *err, size_t err_size);

/* A PNG written to a file descriptor while its rows still arrive (stream.c): a capture grabbed
 * in strips, a PNG being decoded. Start writes the signature and IHDR and starts one worker
 * per core but one; each band is compressed once sg_png_stream_rows says its rows are final,
 * and written as soon as the bands above it are. NULL with err set when it cannot start. */
typedef struct sg_png_stream sg_png_stream;

sg_png_stream *sg_png_stream_start(const unsigned char *pixels, uint32_t width, uint32_t height,
                                   size_t bytes_per_row, int has_alpha, int level, int filter, uint32_t band_rows,
                                   int fd, char *err, size_t err_size);

/* Rows 0..<rows are final (grabbed and redacted) and may be read; a smaller count than before
 * changes nothing. */
void sg_png_stream_rows(sg_png_stream *stream, uint32_t rows);

/* Ends the stream and frees it. With cancel = 0 every row counts as final, this thread helps
 * compress what is left, and the zlib trailer and IEND are written: returns 0, or -1 with err
 * set. With cancel = 1 the workers stop before their next band, nothing more is written and it
 * returns -1: what the file holds by then is not a PNG. */
int sg_png_stream_finish(sg_png_stream *stream, int cancel, char *err, size_t err_size);

/* Makes the raw deflate stream in data[0..size) continuable: its final block becomes
 * non-final and an empty stored block follows, ending on a byte boundary. The stream must end
 * with its final block, padded with zero bits to the byte (as libdeflate and zlib write it).
 * data holds capacity bytes (at least size); the new stream takes up to size + 5. Returns 0
 * and the new size, or -1, changing nothing, when the stream is malformed or does not fit. */
int sg_deflate_unfinish(unsigned char *data, size_t size, size_t capacity, size_t *new_size);

/* How many bands this process has had compressed by zlib (flat bands at level 1, encode.c):
 * for tests. */
uint64_t sg_png_bands_by_zlib(void);

/* The two ways sg_deflate_unfinish finds the final block's end (the bit after its end-of-block
 * code), apart, for tests: from the back, for a stream of one dynamic block (as libdeflate's
 * fastest level makes of 64 KiB or less, unless it holds over 8,192 matches), returning -1 when
 * that cannot tell (only when the end-of-block code is all zero bits); and by walking
 * every block's codes, which also gives the final block's header bit. 0 when found. */
int sg_deflate_end_from_back(const unsigned char *data, size_t size, size_t *end);
int sg_deflate_end_by_walking(const unsigned char *data, size_t size, size_t *header, size_t *end);

/* The fast read path (decode.c). Probe returns 1 when png is an 8-bit RGB or RGBA,
 * non-interlaced PNG without tRNS or PLTE whose critical chunks have good CRCs, with its size
 * and the total of its IDAT data; 0 otherwise. Nothing is allocated. */
int sg_png_fast_probe(const unsigned char *png, size_t size, uint32_t *width, uint32_t *height, int *has_alpha,
                      size_t *idat_size);

/* Inflates and unfilters a probed PNG into width * height B,G,R,A pixels (0xAARRGGBB words).
 * Returns 0, or -1 for corrupt data or no memory (then read it with libpng instead). */
int sg_png_fast_decode(const unsigned char *png, size_t size, uint32_t width, uint32_t height, int has_alpha,
                       size_t idat_size, uint32_t *pixels);

/* As sg_png_fast_decode, calling rows_done(context, n) each time rows 0..<n are in pixels (every
 * few rows, and once at the end), so that the rows can be worked on during the decode. A
 * failure can come after some calls (a bad filter byte); the rows reported are right. */
int sg_png_fast_decode_rows(const unsigned char *png, size_t size, uint32_t width, uint32_t height, int has_alpha,
                            size_t idat_size, uint32_t *pixels, void (*rows_done)(void *context, uint32_t rows),
                            void *context);

#endif
