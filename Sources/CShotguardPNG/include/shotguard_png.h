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

/* What the entry points below return: every one that takes a buffer takes its length too, and
 * checks it against what it will read or write before touching it. */
enum {
    SG_PNG_OK = 0,
    /* The data is not what its chunks say (a decoder), or something failed (an encoder: the
     * message in err). */
    SG_PNG_FAILED = -1,
    /* A buffer handed in does not hold what the other arguments say is read or written of it
     * (fewer bytes than the rows, rows closer together than a row's pixels): nothing of it was
     * touched. */
    SG_PNG_BAD_BUFFER = -2,
    /* There was no memory for the work. */
    SG_PNG_NO_MEMORY = -3
};

/* Row filters shotguard can ask for. */
enum {
    SG_PNG_FILTER_NONE = 0,
    SG_PNG_FILTER_SUB = 1,
    SG_PNG_FILTER_UP = 2,
    /* Each row the filter of NONE, SUB and UP that libpng's heuristic picks. */
    SG_PNG_FILTER_ADAPTIVE = 5
};

/* How the pixels the encoder reads are laid out. */
enum {
    /* 32 bits a pixel, B,G,R,X (or B,G,R,A) in memory: an X image's rows, a PixelBuffer. */
    SG_PNG_SOURCE_BGRX = 0,
    /* R,G,B (or R,G,B,A with alpha) bytes, as a PNG holds them: rows a decoder unfiltered. */
    SG_PNG_SOURCE_RGB = 1
};

/* A PNG compressed and waiting to be written (encode.c). */
typedef struct sg_png_job sg_png_job;

/* Compresses a 32-bit image stored as B,G,R,X (or B,G,R,A) bytes per pixel, rows
 * bytes_per_row apart (an X image's rows can be used as they are), in the pixels_size bytes at
 * pixels (checked: they must hold every row).
 * has_alpha = 0 writes RGB and drops the fourth byte; 1 writes RGBA.
 * level is the libdeflate level 0-12 (0-9 as in zlib); filter one SG_PNG_FILTER_* for every row.
 * band_rows is the rows per compressed band, 0 for just under 64 KiB each; any other value is
 * taken at most as the image's height and as 256 MiB of filtered rows, so there is always
 * at least one band.
 * Compresses on up to one thread per core. Returns SG_PNG_OK with the job in *job (its PNG's size
 * from sg_png_size); otherwise SG_PNG_BAD_BUFFER (the pixels or bytes_per_row do not hold the
 * rows) or another SG_PNG_* code, with a message in err (NUL-terminated). */
int sg_png_compress_bgrx(const unsigned char *pixels, size_t pixels_size, uint32_t width, uint32_t height,
                         size_t bytes_per_row, int has_alpha, int level, int filter, uint32_t band_rows,
                         sg_png_job **job, char *err, size_t err_size);

/* The size of the PNG a job writes. */
size_t sg_png_size(const sg_png_job *job);

/* Writes the whole PNG (only IHDR, IDAT and IEND) into out, which holds out_size bytes: the
 * caller's buffer, so the file is not copied again. SG_PNG_OK, or SG_PNG_BAD_BUFFER, writing
 * nothing, when out_size is not sg_png_size. */
int sg_png_write(const sg_png_job *job, unsigned char *out, size_t out_size);

void sg_png_job_free(sg_png_job *job);

/* Compresses as sg_png_compress_bgrx does and writes the PNG to fd as its bands finish, in
 * order (stream.c): the file is never whole in memory. Returns SG_PNG_OK, or an SG_PNG_* code
 * with a message in err (a failed write names its errno); what was written before a failure is
 * not a PNG. */
int sg_png_write_bgrx(const unsigned char *pixels, size_t pixels_size, uint32_t width, uint32_t height,
                      size_t bytes_per_row, int has_alpha, int level, int filter, uint32_t band_rows,
                      int fd, char *err, size_t err_size);

/* A PNG written to a file descriptor while its rows still arrive (stream.c): a capture grabbed
 * in strips, a PNG being decoded. Start writes the signature and IHDR and starts one worker
 * per core but one; each band is compressed once sg_png_stream_rows says its rows are final,
 * and written as soon as the bands above it are. NULL with err set and the SG_PNG_* code in
 * *status (when status is not NULL) when it cannot start.
 * layout is one SG_PNG_SOURCE_*; pixels_size the bytes at pixels, which must hold every row.
 * ring_rows 0: the rows are all there, height of them. Otherwise the pixels hold ring_rows
 * rows and row y of the image is row y % ring_rows of them: the rows of a capture arrive in
 * strips that take the place of rows already compressed (sg_png_stream_reserve), and one
 * worker runs per core (the caller's thread grabs). */
typedef struct sg_png_stream sg_png_stream;

sg_png_stream *sg_png_stream_start(const unsigned char *pixels, size_t pixels_size, uint32_t width, uint32_t height,
                                   size_t bytes_per_row, uint32_t ring_rows, int layout, int has_alpha, int level,
                                   int filter, uint32_t band_rows, int fd, int *status, char *err, size_t err_size);

/* The rows of each band (all but the last) that an encoder of this image would use, with
 * band_rows asked for as sg_png_compress_bgrx takes it: what a ring must hold besides a strip.
 * 0 when there is no memory to tell. */
uint32_t sg_png_band_rows(uint32_t width, uint32_t height, int has_alpha, uint32_t band_rows);

/* For a ring: waits until rows up to `until` (not included) may be written into it, that is
 * until every row whose place they take is read no more. Returns 0; -1 when the stream was
 * cancelled, or when they could never be written: more than ring_rows - band_rows - 1 rows past
 * the rows already in (the bands that hold the rows they replace would wait for them). */
int sg_png_stream_reserve(sg_png_stream *stream, uint32_t until);

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
 * and the total of its IDAT data; 0 otherwise. Nothing is allocated.
 * The decoders below trust nothing the probe said of the bytes they are given: they walk the
 * chunks again, each chunk's length checked against the bytes left and each IDAT copied only
 * into the room left of idat_size, so bytes that are not the ones probed (another file, one
 * cut short or grown since, chunk lengths that lie) are SG_PNG_FAILED, never a read or write
 * out of bounds. */
int sg_png_fast_probe(const unsigned char *png, size_t size, uint32_t *width, uint32_t *height, int *has_alpha,
                      size_t *idat_size);

/* Inflates and unfilters a probed PNG into pixels, which holds pixel_count B,G,R,A pixels
 * (0xAARRGGBB words): width * height of them. Returns SG_PNG_OK; SG_PNG_BAD_BUFFER when
 * pixel_count is not width * height (nothing written); SG_PNG_FAILED for data that is not what
 * was probed or is corrupt, SG_PNG_NO_MEMORY (then read it with libpng instead). */
int sg_png_fast_decode(const unsigned char *png, size_t size, uint32_t width, uint32_t height, int has_alpha,
                       size_t idat_size, uint32_t *pixels, size_t pixel_count);

/* Inflates a probed PNG into rows, which holds exactly its filtered data ((width * channels
 * + 1) * height bytes: each row's filter byte, then its bytes), and unfilters each row in
 * place, calling rows_done(context, n) each time rows 0..<n are unfiltered (every few rows, and
 * once at the end), so that they can be worked on, and encoded as SG_PNG_SOURCE_RGB rows one
 * byte in and width * channels + 1 apart, during the decode. Returns SG_PNG_OK;
 * SG_PNG_BAD_BUFFER for a rows buffer of another size (nothing touched); SG_PNG_FAILED for
 * corrupt data or data that is not what was probed; SG_PNG_NO_MEMORY. A failure can come after
 * some calls (a bad filter byte), and the rows reported are right. */
int sg_png_fast_unfilter_rows(const unsigned char *png, size_t size, uint32_t width, uint32_t height, int has_alpha,
                              size_t idat_size, unsigned char *rows, size_t rows_size,
                              void (*rows_done)(void *context, uint32_t rows), void *context);

/* Fresh anonymous memory of size bytes for sg_png_fast_unfilter_rows (which maps its pages as it
 * fills them), NULL when there is none; freed by sg_png_free_rows with the same size. */
unsigned char *sg_png_map_rows(size_t size);
void sg_png_free_rows(unsigned char *rows, size_t size);

#endif
