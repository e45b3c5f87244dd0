/* PNG encoding without libpng: the container (signature, IHDR, IDAT, IEND) is a handful of
 * bytes and CRCs, so it is written here directly and no libpng longjmp can happen. The image
 * data is compressed in horizontal bands of 64 KiB on one thread per core with libdeflate
 * (about twice as fast as zlib at level 1 on busy rows, and smaller). libdeflate ends every
 * band with a final block; deflate_join.c turns that into a non-final one followed by an empty
 * stored block, so the bands follow each other in ONE zlib stream whose Adler-32 is combined
 * from the bands'. At level 1, a band whose filtered bytes are mostly zeros (flat areas, the
 * rows between lines of text) goes to zlib's level 2 instead: libdeflate's fastest level still
 * hashes every byte inside a long match, 2.5 ns a byte, and zlib's do not (alone and warm, such
 * a band compresses two to three times faster at the same size); zlib's sync flush ends it the
 * same way.
 * The filter is chosen per band, then per row: a mostly flat band whose few changes are sharp
 * (text and flat UI: glyph edges, not a gradient's steps of one or two) is written unfiltered,
 * as deflate then finds each glyph's rows again where the same letter comes back, which no row
 * filter keeps (docs/performance.md: 12% fewer bytes on such bands); every other band gets
 * each row's filter from libpng's heuristic.
 * Each worker filters its rows (filter.c) straight from the caller's pixels (an X image, say)
 * into a band buffer it reuses: no pass over the whole image, no copy of it. */
#include "shotguard_png.h"
#include "bands.h"
#include "memory.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* Bands of under 64 KiB: libdeflate's fastest level makes one block of them (it ends blocks at
 * 64 KiB of input, or 8,192 matches), which deflate_join.c ends without walking its codes. On
 * screenshots the PNG is 0.3% larger than with 256 KiB bands (back-references cannot cross a
 * band, but few reach far). */
enum { SG_BAND_BYTES = 65000 };

/* A band whose filtered bytes are at least this many tenths zeros is flat: at level 1 it goes
 * to zlib. On a 1080p screenshot's bands compressed one after the other, the caches cleared
 * between them as in a capture, 7 took 16.9 ms against 18.5 for libdeflate alone, for 0.1%
 * more bytes; 6 took longer (zlib is slower on busy bands) and 9 kept less of the gain. */
enum { SG_FLAT_ZERO_TENTHS = 7 };

/* A flat band whose changes (its non-zero filtered bytes) are on average at least this far
 * from zero is written unfiltered. Text and UI bands are 20 or more; gradients, where a band
 * unfiltered is larger (a radial gradient: 11% larger), 1 to 3. */
enum { SG_SHARP_MAGNITUDE = 6 };

/* zlib's level for flat bands: unfiltered text bands are 3% smaller at 2 than at 1, for 1%
 * more instructions (callgrind, a 1080p screenshot's bands); 3 took 3% more. */
enum { SG_FLAT_ZLIB_LEVEL = 2 };

/* The most filtered bytes one band may hold: each worker maps an input buffer of this size and
 * an output buffer of its compress bound. 256 MiB is a whole 8K frame's rows in one band. */
#define SG_MAX_BAND_BYTES ((size_t)256 << 20)


void sg_set_error(char *err, size_t err_size, const char *message) {
    if (err != NULL && err_size > 0 && err[0] == '\0') {
        strncpy(err, message, err_size - 1);
        err[err_size - 1] = '\0';
    }
}

int sg_check_encode_arguments(const unsigned char *pixels, uint32_t width, uint32_t height, size_t pixels_size,
                              size_t bytes_per_row, uint32_t rows_held, int layout, int has_alpha, int level, int filter,
                              char *err, size_t err_size) {
    if (err != NULL && err_size > 0) {
        err[0] = '\0';
    }
    if (width == 0 || height == 0) {
        sg_set_error(err, err_size, "image has no pixels");
        return SG_PNG_FAILED;
    }
    if (width > 0x7FFFFFFFu || height > 0x7FFFFFFFu) {
        sg_set_error(err, err_size, "image is wider or taller than PNG allows (2^31 - 1 pixels)");
        return SG_PNG_FAILED;
    }
    if (level < 0 || level > 12) {
        sg_set_error(err, err_size, "compression level out of range");
        return SG_PNG_FAILED;
    }
    if (layout != SG_PNG_SOURCE_BGRX && layout != SG_PNG_SOURCE_RGB) {
        sg_set_error(err, err_size, "unknown pixel layout");
        return SG_PNG_FAILED;
    }
    if (filter != SG_PNG_FILTER_NONE && filter != SG_PNG_FILTER_SUB && filter != SG_PNG_FILTER_UP &&
        filter != SG_PNG_FILTER_ADAPTIVE) {
        sg_set_error(err, err_size, "unknown row filter");
        return SG_PNG_FAILED;
    }
    /* What the workers read of each row: 4 bytes a pixel from B,G,R,X rows, 3 or 4 from a
     * PNG's own rows. A row closer to the next than that would read the next row's pixels as
     * its own, and the last row past the buffer. */
    const size_t pixel_bytes = layout == SG_PNG_SOURCE_RGB && !has_alpha ? 3 : 4;
    size_t row_bytes = 0;
    if (__builtin_mul_overflow((size_t)width, pixel_bytes, &row_bytes) || bytes_per_row < row_bytes) {
        sg_set_error(err, err_size, "the rows are closer together than a row's pixels");
        return SG_PNG_BAD_BUFFER;
    }
    /* Every row read must lie in the buffer: the last row held starts rows_held - 1 rows in.
     * A ring holds fewer rows than the image, never more. */
    size_t last_start = 0, end = 0;
    if (pixels == NULL || rows_held == 0 || rows_held > height ||
        __builtin_mul_overflow((size_t)(rows_held - 1), bytes_per_row, &last_start) ||
        __builtin_add_overflow(last_start, row_bytes, &end) || end > pixels_size) {
        sg_set_error(err, err_size, "the pixel buffer is smaller than its rows");
        return SG_PNG_BAD_BUFFER;
    }
    return SG_PNG_OK;
}

static uint64_t sg_zlib_bands;

uint64_t sg_png_bands_by_zlib(void) {
    return __atomic_load_n(&sg_zlib_bands, __ATOMIC_RELAXED);
}

/* The compressors of one worker. zlib's is made on the first flat band. */
typedef struct {
    struct libdeflate_compressor *libdeflate;
    z_stream zlib;
    int zlib_ready;
} sg_compressors;

/* Compresses input with zlib (SG_FLAT_ZLIB_LEVEL) as raw deflate that ends as the joined bands must: a
 * sync flush (non-final blocks, then an empty stored block on a byte boundary), or a final
 * block for the last band. Returns the size, or 0 when zlib could not (then libdeflate does). */
static size_t sg_zlib_band(sg_compressors *compressors, const unsigned char *input, size_t size,
                           unsigned char *output, size_t capacity, int is_last) {
    z_stream *z = &compressors->zlib;
    if (size > UINT32_MAX || capacity > UINT32_MAX) { /* zlib counts in 32 bits */
        return 0;
    }
    if (!compressors->zlib_ready) {
        memset(z, 0, sizeof *z);
        if (deflateInit2(z, SG_FLAT_ZLIB_LEVEL, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            return 0;
        }
        compressors->zlib_ready = 1;
    } else if (deflateReset(z) != Z_OK) {
        return 0;
    }
    z->next_in = (unsigned char *)input;
    z->avail_in = (uInt)size;
    z->next_out = output;
    z->avail_out = (uInt)capacity;
    const int result = deflate(z, is_last ? Z_FINISH : Z_SYNC_FLUSH);
    const int whole = is_last ? result == Z_STREAM_END : result == Z_OK && z->avail_in == 0 && z->avail_out > 0;
    return whole ? (size_t)z->total_out : 0;
}

/* Filters and compresses one band; it stays failed when something goes wrong. */
static void sg_compress_band(sg_job *job, sg_band *band, int is_last, sg_compressors *compressors,
                             unsigned char *input, unsigned char *raw, unsigned char *previous, unsigned char *output,
                             size_t output_capacity) {
    /* The band's rows and the row above, mapped in one call each side of the ring's end (a
     * fresh X segment's pages are not mapped in this process yet; elsewhere this finds them
     * mapped and costs next to nothing). */
    const uint32_t above = band->first_row > 0 ? 1 : 0;
    const uint32_t first = (band->first_row - above) % job->ring_rows;
    const uint32_t rows = band->row_count + above;
    const uint32_t before_end = rows < job->ring_rows - first ? rows : job->ring_rows - first;
    sg_map_for_reading(job->pixels + (size_t)first * job->bytes_per_row, (size_t)before_end * job->bytes_per_row);
    if (before_end < rows) {
        sg_map_for_reading(job->pixels, (size_t)(rows - before_end) * job->bytes_per_row);
    }
    size_t raw_size = sg_filter_band(job, band, job->filter, input, raw, previous);
    size_t zeros = 0, magnitude = 0;
    sg_band_stats(input, raw_size, &zeros, &magnitude);
    const int flat = zeros * 10 >= raw_size * SG_FLAT_ZERO_TENTHS;
    if (flat && job->filter == SG_PNG_FILTER_ADAPTIVE && magnitude >= (raw_size - zeros) * SG_SHARP_MAGNITUDE) {
        raw_size = sg_filter_band(job, band, SG_PNG_FILTER_NONE, input, raw, previous);
    }
    /* Its pixels are read no more: a ring's strips may take their place. */
    sg_gate_band_read(job, (int)(band - job->bands));
    size_t size = 0;
    if (job->level == 1 && flat) {
        size = sg_zlib_band(compressors, input, raw_size, output, output_capacity, is_last);
        if (size > 0) {
            __atomic_fetch_add(&sg_zlib_bands, 1, __ATOMIC_RELAXED);
        }
    }
    if (size == 0) {
        size = libdeflate_deflate_compress(compressors->libdeflate, input, raw_size, output, output_capacity - 5);
        if (size == 0 || (!is_last && sg_deflate_unfinish(output, size, output_capacity, &size) != 0)) {
            return;
        }
    }
    band->data = malloc(size);
    if (band->data == NULL) {
        return;
    }
    memcpy(band->data, output, size);
    band->size = size;
    band->adler = libdeflate_adler32(1, input, raw_size);
    band->raw_size = raw_size;
    band->failed = 0;
}

/* Waits until the band's rows are all in; 0 when the job was cancelled instead. */
static int sg_wait_for_rows(sg_job *job, const sg_band *band) {
    const uint32_t needed = band->first_row + band->row_count;
    pthread_mutex_lock(&job->gate_lock);
    while (!job->cancelled && job->ready_rows < needed) {
        pthread_cond_wait(&job->gate_moved, &job->gate_lock);
    }
    const int go = !job->cancelled;
    pthread_mutex_unlock(&job->gate_lock);
    return go;
}

int sg_gate_open(sg_job *job, uint32_t rows) {
    job->ready_rows = rows;
    job->free_rows = 0;
    job->next_unread = 0;
    job->cancelled = 0;
    if (pthread_mutex_init(&job->gate_lock, NULL) != 0) {
        return -1;
    }
    if (pthread_cond_init(&job->gate_moved, NULL) != 0) {
        pthread_mutex_destroy(&job->gate_lock);
        return -1;
    }
    return 0;
}

void sg_gate_rows(sg_job *job, uint32_t rows) {
    pthread_mutex_lock(&job->gate_lock);
    if (rows > job->ready_rows) {
        job->ready_rows = rows;
        pthread_cond_broadcast(&job->gate_moved);
    }
    pthread_mutex_unlock(&job->gate_lock);
}

void sg_gate_band_read(sg_job *job, int index) {
    pthread_mutex_lock(&job->gate_lock);
    job->bands[index].read = 1;
    const int before = job->next_unread;
    while (job->next_unread < job->count && job->bands[job->next_unread].read) {
        job->next_unread++;
    }
    if (job->next_unread != before) {
        /* The first band not read still needs the row above it. */
        const sg_band *next = job->next_unread < job->count ? &job->bands[job->next_unread] : NULL;
        job->free_rows = next == NULL ? UINT32_MAX : next->first_row > 0 ? next->first_row - 1 : 0;
        pthread_cond_broadcast(&job->gate_moved);
    }
    pthread_mutex_unlock(&job->gate_lock);
}

void sg_gate_cancel(sg_job *job) {
    pthread_mutex_lock(&job->gate_lock);
    job->cancelled = 1;
    pthread_cond_broadcast(&job->gate_moved);
    pthread_mutex_unlock(&job->gate_lock);
}

void sg_gate_close(sg_job *job) {
    pthread_mutex_destroy(&job->gate_lock);
    pthread_cond_destroy(&job->gate_moved);
}

static void *sg_worker(void *argument) {
    sg_job *job = (sg_job *)argument;
    const size_t length = (size_t)job->width * (job->has_alpha ? 4 : 3);
    const size_t input_capacity = (length + 1) * job->band_rows;
    sg_compressors compressors = {.libdeflate = libdeflate_alloc_compressor(job->level), .zlib_ready = 0};
    unsigned char *input = sg_map(input_capacity);
    unsigned char *raw = malloc(length);
    unsigned char *previous = malloc(length);
    /* 5 more bytes than libdeflate may use: room for the empty stored block after a band (zlib
     * says when it runs out of room, and libdeflate then takes the band). */
    const size_t output_capacity =
        compressors.libdeflate ? libdeflate_deflate_compress_bound(compressors.libdeflate, input_capacity) + 5 : 0;
    unsigned char *output = compressors.libdeflate ? sg_map(output_capacity) : NULL;
    const int ready = compressors.libdeflate != NULL && input != NULL && raw != NULL && previous != NULL && output != NULL;
    for (;;) {
        const int index = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED);
        if (index >= job->count) {
            break;
        }
        sg_band *band = &job->bands[index];
        if (ready && sg_wait_for_rows(job, band)) {
            sg_compress_band(job, band, index + 1 == job->count, &compressors, input, raw, previous, output,
                             output_capacity);
        }
        /* A band that failed or was skipped holds no rows back either. */
        sg_gate_band_read(job, index);
        if (job->band_done != NULL) {
            job->band_done(job->context, index);
        }
    }
    libdeflate_free_compressor(compressors.libdeflate);
    if (compressors.zlib_ready) {
        deflateEnd(&compressors.zlib);
    }
    sg_unmap(input, input_capacity);
    free(raw);
    free(previous);
    sg_unmap(output, output_capacity);
    return NULL;
}

/* One thread per online core, read once: glibc reads a file under /sys for every call. */
static int sg_thread_count(void) {
    static int cached = 0;
    int threads = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (threads == 0) {
        const long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores <= 0 ? 1 : cores > SG_MAX_THREADS ? SG_MAX_THREADS : (int)cores;
        __atomic_store_n(&cached, threads, __ATOMIC_RELAXED);
    }
    return threads;
}

unsigned char *sg_put32(unsigned char *out, uint32_t value) {
    out[0] = (unsigned char)(value >> 24);
    out[1] = (unsigned char)(value >> 16);
    out[2] = (unsigned char)(value >> 8);
    out[3] = (unsigned char)value;
    return out + 4;
}

/* One chunk: length, type, the parts of its data in order, CRC over type and data. */
static unsigned char *sg_put_chunk(unsigned char *out, const char *type, const unsigned char *const *parts,
                                   const size_t *sizes, int part_count) {
    size_t length = 0;
    for (int i = 0; i < part_count; i++) {
        length += sizes[i];
    }
    out = sg_put32(out, (uint32_t)length);
    unsigned char *typed = out;
    memcpy(out, type, 4);
    out += 4;
    for (int i = 0; i < part_count; i++) {
        if (sizes[i] > 0) {
            memcpy(out, parts[i], sizes[i]);
            out += sizes[i];
        }
    }
    return sg_put32(out, (uint32_t)libdeflate_crc32(0, typed, (size_t)(out - typed)));
}

void sg_zlib_header(int level, unsigned char header[2]) {
    /* Deflate with a 32 KiB window, check bits making it a multiple of 31. */
    const unsigned char level_bits = level <= 1 ? 0 : level <= 5 ? 1 : level == 6 ? 2 : 3;
    header[0] = 0x78;
    header[1] = (unsigned char)(level_bits << 6);
    header[1] |= (unsigned char)(31 - ((0x78 * 256 + header[1]) % 31));
}

sg_band *sg_make_bands(uint32_t width, uint32_t height, int has_alpha, uint32_t *band_rows, int *count) {
    const int threads = sg_thread_count();
    const size_t row_bytes = (size_t)width * (has_alpha ? 4 : 3) + 1;
    if (*band_rows == 0) {
        size_t rows = SG_BAND_BYTES / row_bytes;
        const uint32_t per_thread = (uint32_t)(((uint64_t)height + (uint32_t)threads - 1) / (uint32_t)threads);
        *band_rows = rows < 1 ? 1 : rows > per_thread ? per_thread : (uint32_t)rows;
    }
    /* A caller's band_rows is bounded: by the height (a larger one made the band count 0, as
     * height + band_rows - 1 wrapped around), and by the largest band a worker's buffers hold. */
    const size_t most_rows = SG_MAX_BAND_BYTES / row_bytes;
    if (*band_rows > most_rows) {
        *band_rows = most_rows < 1 ? 1 : (uint32_t)most_rows;
    }
    if (*band_rows > height) {
        *band_rows = height;
    }
    const uint64_t bands_needed = ((uint64_t)height + *band_rows - 1) / *band_rows;
    if (height == 0 || bands_needed > INT32_MAX) {
        *count = 0;
        return NULL;
    }
    *count = (int)bands_needed;
    sg_band *bands = calloc((size_t)*count, sizeof *bands);
    for (int i = 0; bands != NULL && i < *count; i++) {
        bands[i].first_row = (uint32_t)i * *band_rows;
        bands[i].row_count = i + 1 == *count ? height - bands[i].first_row : *band_rows;
        bands[i].failed = 1;
    }
    return bands;
}

uint32_t sg_png_band_rows(uint32_t width, uint32_t height, int has_alpha, uint32_t band_rows) {
    int count = 0;
    sg_band *bands = width > 0 && height > 0 ? sg_make_bands(width, height, has_alpha, &band_rows, &count) : NULL;
    free(bands);
    return bands != NULL ? band_rows : 0;
}

void sg_start_workers(sg_job *job, sg_workers *workers, int every_core) {
    const int threads = sg_thread_count();
    workers->count = 0;
    for (int i = every_core ? 0 : 1; i < threads && i < job->count; i++) {
        if (pthread_create(&workers->threads[workers->count], NULL, sg_worker, job) == 0) {
            workers->count++;
        }
    }
}

void sg_join_workers(sg_workers *workers) {
    for (int i = 0; i < workers->count; i++) {
        pthread_join(workers->threads[i], NULL);
    }
    workers->count = 0;
}

void sg_work_and_join(sg_job *job, sg_workers *workers) {
    sg_worker(job);
    sg_join_workers(workers);
}

int sg_run_bands(sg_job *job) {
    sg_workers workers;
    if (sg_gate_open(job, UINT32_MAX) != 0) {
        return -1;
    }
    sg_start_workers(job, &workers, 0);
    sg_work_and_join(job, &workers);
    sg_gate_close(job);
    return 0;
}

/* What sg_png_compress_bgrx leaves for sg_png_write: the compressed bands and the header. */
struct sg_png_job {
    sg_band *bands;
    int count;
    uint32_t width, height;
    int has_alpha, level;
    uint32_t adler;
    size_t size;
};

/* Signature, IHDR, one IDAT per band (the first also holds the zlib header, the last the
 * Adler-32), IEND: exactly job->size bytes into out, which must hold that many. */
int sg_png_write(const sg_png_job *job, unsigned char *out, size_t out_size) {
    if (job == NULL || out == NULL || out_size != job->size) {
        return SG_PNG_BAD_BUFFER;
    }
    sg_prefault(out, job->size);
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    unsigned char *p = out;
    memcpy(p, signature, sizeof signature);
    p += sizeof signature;
    unsigned char header[13];
    sg_put32(header, job->width);
    sg_put32(header + 4, job->height);
    header[8] = 8;
    header[9] = job->has_alpha ? 6 : 2;
    header[10] = header[11] = header[12] = 0;
    const unsigned char *header_part[1] = {header};
    const size_t header_size[1] = {13};
    p = sg_put_chunk(p, "IHDR", header_part, header_size, 1);
    unsigned char zlib_header[2];
    sg_zlib_header(job->level, zlib_header);
    unsigned char trailer[4];
    sg_put32(trailer, job->adler);
    for (int i = 0; i < job->count; i++) {
        const unsigned char *parts[3] = {zlib_header, job->bands[i].data, trailer};
        const size_t sizes[3] = {i == 0 ? 2 : 0, job->bands[i].size, i + 1 == job->count ? 4 : 0};
        p = sg_put_chunk(p, "IDAT", parts, sizes, 3);
    }
    sg_put_chunk(p, "IEND", NULL, NULL, 0);
    return SG_PNG_OK;
}

void sg_png_job_free(sg_png_job *job) {
    if (job == NULL) {
        return;
    }
    for (int i = 0; i < job->count; i++) {
        free(job->bands[i].data);
    }
    free(job->bands);
    free(job);
}

int sg_png_compress_bgrx(const unsigned char *pixels, size_t pixels_size, uint32_t width, uint32_t height,
                         size_t bytes_per_row, int has_alpha, int level, int filter, uint32_t band_rows,
                         sg_png_job **result, char *err, size_t err_size) {
    *result = NULL;
    const int checked = sg_check_encode_arguments(pixels, width, height, pixels_size, bytes_per_row, height,
                                                  SG_PNG_SOURCE_BGRX, has_alpha, level, filter, err, err_size);
    if (checked != SG_PNG_OK) {
        return checked;
    }
    int count = 0;
    sg_png_job *job = calloc(1, sizeof *job);
    sg_band *bands = job ? sg_make_bands(width, height, has_alpha, &band_rows, &count) : NULL;
    if (bands == NULL) {
        free(job);
        sg_set_error(err, err_size, "out of memory while compressing PNG data");
        return SG_PNG_NO_MEMORY;
    }
    *job = (sg_png_job){bands, count, width, height, has_alpha, level, 0, 0};
    sg_job work = {.pixels = pixels, .width = width, .bytes_per_row = bytes_per_row, .ring_rows = height,
                   .layout = SG_PNG_SOURCE_BGRX, .has_alpha = has_alpha, .level = level, .filter = filter,
                   .band_rows = band_rows, .bands = bands, .count = count};
    if (sg_run_bands(&work) != 0) {
        sg_png_job_free(job);
        sg_set_error(err, err_size, "cannot make a lock for the PNG encoder's threads");
        return SG_PNG_FAILED;
    }
    size_t total = 8 + 25 + 12 + 2 + 4;
    uint32_t adler = bands[0].adler;
    for (int i = 0; i < count; i++) {
        if (bands[i].failed || bands[i].size > 0x7FFFFF00u) {
            sg_png_job_free(job);
            sg_set_error(err, err_size, "out of memory while compressing PNG data");
            return SG_PNG_NO_MEMORY;
        }
        total += 12 + bands[i].size;
        if (i > 0) {
            adler = (uint32_t)adler32_combine(adler, bands[i].adler, (z_off_t)bands[i].raw_size);
        }
    }
    job->adler = adler;
    job->size = total;
    *result = job;
    return SG_PNG_OK;
}

size_t sg_png_size(const sg_png_job *job) {
    return job->size;
}
