/* What the PNG encoders share (encode.c, filter.c, stream.c): bands of rows compressed on workers. */
#ifndef SHOTGUARD_BANDS_H
#define SHOTGUARD_BANDS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* One band of rows, compressed by one worker. */
typedef struct {
    uint32_t first_row, row_count;
    unsigned char *data; /* raw deflate, not final unless it is the last band */
    size_t size;
    uint32_t adler;
    size_t raw_size;
    int failed;
    int read; /* its rows are read no more (under the gate's lock) */
} sg_band;

/* The whole job, shared by the workers; bands are taken one at a time, so a worker that drew
 * flat rows takes more of them than one that drew a photo. */
typedef struct {
    /* Row y is at pixels + (y % ring_rows) * bytes_per_row: ring_rows is the height unless the
     * rows are a ring a capture's strips take turns in (sg_png_stream_reserve). */
    const unsigned char *pixels;
    uint32_t width;
    size_t bytes_per_row;
    uint32_t ring_rows;
    int layout; /* SG_PNG_SOURCE_* */
    int has_alpha, level, filter;
    uint32_t band_rows;
    sg_band *bands;
    int count;
    int next;
    /* When set, called by the worker that finished band `index` (failed or not). */
    void (*band_done)(void *context, int index);
    void *context;
    /* The rows that may be read: a worker compresses a band only once ready_rows covers it
     * (rows still arriving: a capture grabbed in strips, a PNG being decoded), and skips every
     * band left (failed) once cancelled. */
    uint32_t ready_rows;
    /* Rows 0..<free_rows are read no more: every band that reads them (its rows and the row
     * above it) is filtered; next_unread is the first band that is not. */
    uint32_t free_rows;
    int next_unread;
    int cancelled;
    pthread_mutex_t gate_lock;
    pthread_cond_t gate_moved;
} sg_job;

/* Marks the band's rows as read no more, and moves free_rows on past every band read. */
void sg_gate_band_read(sg_job *job, int index);

/* Up to this many workers compress a job's bands. */
enum { SG_MAX_THREADS = 8 };

/* The job's worker threads, started by sg_start_workers. */
typedef struct {
    pthread_t threads[SG_MAX_THREADS];
    int count;
} sg_workers;

/* Fills input with the band's rows filtered by filter (one SG_PNG_FILTER_*; the job's, or
 * another the band is tried with) (filter.c); returns the byte count. raw and previous are
 * scratch rows of width * channels bytes. */
size_t sg_filter_band(const sg_job *job, const sg_band *band, int filter, unsigned char *input, unsigned char *raw,
                      unsigned char *previous);

/* How many of the bytes are zero, and the sum of their magnitudes taken as signed bytes
 * (filter.c, beside the filters' own SIMD sums). */
void sg_band_stats(const unsigned char *data, size_t size, size_t *zeros, size_t *magnitude);

/* Splits the image into bands (band_rows each, 0 for just under 64 KiB; see
 * sg_png_compress_bgrx for the bounds) in a new array of *count bands, at least one, and sets
 * *band_rows to the rows it used; NULL when there is no memory. */
sg_band *sg_make_bands(uint32_t width, uint32_t height, int has_alpha, uint32_t *band_rows, int *count);

/* Compresses every band of job, all its rows in, on this thread and one worker per further core.
 * Returns 0, or -1 when the gate's lock cannot be made (no band is compressed then). */
int sg_run_bands(sg_job *job);

/* Starts one worker per core but one (the caller's thread is the last, in sg_work_and_join),
 * or one per core with every_core (the caller's thread has other work: it grabs the rows). */
void sg_start_workers(sg_job *job, sg_workers *workers, int every_core);

/* Works on the job's bands on this thread too, then waits for the workers to end. */
void sg_work_and_join(sg_job *job, sg_workers *workers);

/* Waits for the workers to end (after a cancel: they skip what is left). */
void sg_join_workers(sg_workers *workers);

/* The gate: open with the rows already in (0, or -1 when its lock or condition cannot be
 * made, and then there is nothing to close); sg_gate_rows says rows 0..<rows are final (never
 * moves back); cancel makes the workers skip every band they have not begun. */
int sg_gate_open(sg_job *job, uint32_t rows);
void sg_gate_rows(sg_job *job, uint32_t rows);
void sg_gate_cancel(sg_job *job);
void sg_gate_close(sg_job *job);

/* Big-endian 32 bits at out; returns out + 4. */
unsigned char *sg_put32(unsigned char *out, uint32_t value);

/* The two bytes of a zlib header for deflate at level. */
void sg_zlib_header(int level, unsigned char header[2]);

/* Copies message into err unless err already holds one. */
void sg_set_error(char *err, size_t err_size, const char *message);

/* Clears err, then checks what every encoder entry point takes before anything reads the
   pixels: a size PNG can hold, a compression level from 0 to 12, a known layout and filter, rows
   at least a row's pixels apart (width * 4 bytes of B,G,R,X; width * 3 or 4 of a PNG's rows),
   and pixels_size bytes at pixels holding every row read (rows_held of them: the height, or a
   ring's rows, never more than the height), all in overflow-checked arithmetic. Returns
   SG_PNG_OK; SG_PNG_BAD_BUFFER when the buffer does not hold the rows; SG_PNG_FAILED for the
   rest; err set either way. */
int sg_check_encode_arguments(const unsigned char *pixels, uint32_t width, uint32_t height, size_t pixels_size,
                              size_t bytes_per_row, uint32_t rows_held, int layout, int has_alpha, int level, int filter,
                              char *err, size_t err_size);

#endif
