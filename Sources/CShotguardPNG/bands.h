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
} sg_band;

/* The whole job, shared by the workers; bands are taken one at a time, so a worker that drew
 * flat rows takes more of them than one that drew a photo. */
typedef struct {
    const unsigned char *pixels;
    uint32_t width;
    size_t bytes_per_row;
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
    int cancelled;
    pthread_mutex_t gate_lock;
    pthread_cond_t gate_moved;
} sg_job;

/* Up to this many workers compress a job's bands. */
enum { SG_MAX_THREADS = 8 };

/* The job's worker threads, started by sg_start_workers. */
typedef struct {
    pthread_t threads[SG_MAX_THREADS];
    int count;
} sg_workers;

/* Fills input with the band's filtered rows (filter.c); returns the byte count. raw and
 * previous are scratch rows of width * channels bytes. */
size_t sg_filter_band(const sg_job *job, const sg_band *band, unsigned char *input, unsigned char *raw,
                      unsigned char *previous);

/* How many of the bytes are zero (filter.c, beside the filters' own SIMD sums). */
size_t sg_count_zeros(const unsigned char *data, size_t size);

/* Splits the image into bands (band_rows each, 0 for just under 64 KiB; see
 * sg_png_compress_bgrx for the bounds) in a new array of *count bands, at least one, and sets
 * *band_rows to the rows it used; NULL when there is no memory. */
sg_band *sg_make_bands(uint32_t width, uint32_t height, int has_alpha, uint32_t *band_rows, int *count);

/* Compresses every band of job, all its rows in, on this thread and one worker per further core.
 * Returns 0, or -1 when the gate's lock cannot be made (no band is compressed then). */
int sg_run_bands(sg_job *job);

/* Starts one worker per core but one (the caller's thread is the last, in sg_work_and_join). */
void sg_start_workers(sg_job *job, sg_workers *workers);

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

/* Clears err, then checks what every encoder entry point takes: a size PNG can hold and a
   compression level from 0 to 12. Returns 0, or -1 with err set. */
int sg_check_encode_arguments(uint32_t width, uint32_t height, int level, char *err, size_t err_size);

#endif
