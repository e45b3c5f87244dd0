/* PNG encoding: libpng writes the container (signature, IHDR, chunk framing and CRCs) inside
 * one C function that calls setjmp itself, so libpng's longjmp never unwinds a Swift frame.
 * The image data is compressed here, in horizontal bands on several threads (pigz-style: each
 * band is a raw deflate stream ended with a sync flush, the last one finished, and the Adler-32
 * checksums combined), because a single zlib stream at level 1 takes ~40 ms for a 1080p screen
 * while a screenshot tool should be done in less. Each worker turns its rows from B,G,R,X into
 * filtered R,G,B(,A) one row at a time: there is no conversion pass over the whole image. */
#include "shotguard_png.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

enum { SG_MAX_THREADS = 8, SG_MAX_BANDS = 64, SG_MIN_BAND_ROWS = 32, SG_IDAT_SIZE = 1 << 20 };

typedef struct {
    sg_png_buffer *out;
    char *err;
    size_t err_size;
} sg_write_state;

/* One band of rows, compressed by one worker. */
typedef struct {
    const unsigned char *pixels;
    uint32_t width, first_row, row_count;
    size_t bytes_per_row;
    int has_alpha, level, filter, is_last;
    unsigned char *data; /* compressed output */
    size_t size;
    uLong adler;
    size_t raw_size; /* bytes before compression, for adler32_combine */
    int failed;
} sg_band;

static void sg_set_error(char *err, size_t err_size, const char *message) {
    if (err != NULL && err_size > 0 && err[0] == '\0') {
        strncpy(err, message, err_size - 1);
        err[err_size - 1] = '\0';
    }
}

static void sg_on_error(png_structp png, png_const_charp message) {
    sg_write_state *state = (sg_write_state *)png_get_error_ptr(png);
    sg_set_error(state->err, state->err_size, message);
    png_longjmp(png, 1);
}

static void sg_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static int sg_append(sg_png_buffer *out, const void *data, size_t length) {
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 65536;
        while (capacity < out->size + length) {
            capacity *= 2;
        }
        unsigned char *grown = realloc(out->data, capacity);
        if (grown == NULL) {
            return -1;
        }
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, data, length);
    out->size += length;
    return 0;
}

static void sg_on_write(png_structp png, png_bytep data, size_t length) {
    sg_write_state *state = (sg_write_state *)png_get_io_ptr(png);
    if (sg_append(state->out, data, length) != 0) {
        sg_set_error(state->err, state->err_size, "out of memory while encoding PNG");
        png_longjmp(png, 1);
    }
}

static void sg_on_flush(png_structp png) {
    (void)png;
}

/* B,G,R,X (or B,G,R,A) pixels to R,G,B (or R,G,B,A) bytes. Two loops, so that neither has a
 * branch in it and the compiler can unroll them. */
static void sg_convert_row(const unsigned char *source, uint32_t width, int has_alpha, unsigned char *out) {
    if (has_alpha) {
        for (uint32_t x = 0; x < width; x++) {
            out[x * 4 + 0] = source[x * 4 + 2];
            out[x * 4 + 1] = source[x * 4 + 1];
            out[x * 4 + 2] = source[x * 4 + 0];
            out[x * 4 + 3] = source[x * 4 + 3];
        }
    } else {
        for (uint32_t x = 0; x < width; x++) {
            out[x * 3 + 0] = source[x * 4 + 2];
            out[x * 3 + 1] = source[x * 4 + 1];
            out[x * 3 + 2] = source[x * 4 + 0];
        }
    }
}

/* One row as PNG wants it: the filter type byte, then R,G,B(,A) with the filter applied.
 * raw receives the unfiltered row; previous is the unfiltered previous row (NULL for the
 * image's first row, which UP treats as zeros, as the PNG spec does). With no filter the
 * row is converted straight into place. */
static void sg_filter_row(const unsigned char *source, uint32_t width, int has_alpha, int filter,
                          const unsigned char *previous, unsigned char *raw, unsigned char *row) {
    const int channels = has_alpha ? 4 : 3;
    const size_t length = (size_t)width * channels;
    if (filter != SG_PNG_FILTER_SUB && filter != SG_PNG_FILTER_UP) {
        row[0] = 0;
        sg_convert_row(source, width, has_alpha, row + 1);
        return;
    }
    sg_convert_row(source, width, has_alpha, raw);
    row[0] = (unsigned char)filter;
    if (filter == SG_PNG_FILTER_SUB) {
        for (size_t i = 0; i < length; i++) {
            row[1 + i] = (unsigned char)(raw[i] - (i >= (size_t)channels ? raw[i - channels] : 0));
        }
    } else {
        for (size_t i = 0; i < length; i++) {
            row[1 + i] = (unsigned char)(raw[i] - (previous ? previous[i] : 0));
        }
    }
}

static void *sg_compress_band(void *argument) {
    sg_band *band = (sg_band *)argument;
    const int channels = band->has_alpha ? 4 : 3;
    const size_t raw_length = (size_t)band->width * channels;
    unsigned char *raw = malloc(raw_length);
    unsigned char *previous = malloc(raw_length);
    unsigned char *row = malloc(raw_length + 1);
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    band->failed = 1;
    if (raw == NULL || previous == NULL || row == NULL ||
        deflateInit2(&stream, band->level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(raw);
        free(previous);
        free(row);
        return NULL;
    }
    size_t capacity = deflateBound(&stream, (raw_length + 1) * band->row_count) + 64;
    band->data = malloc(capacity);
    band->adler = adler32(0L, Z_NULL, 0);
    band->raw_size = 0;
    int ok = band->data != NULL;
    stream.next_out = band->data;
    stream.avail_out = (uInt)capacity;
    if (ok && band->first_row > 0 && band->filter == SG_PNG_FILTER_UP) {
        const unsigned char *above = band->pixels + (size_t)(band->first_row - 1) * band->bytes_per_row;
        sg_convert_row(above, band->width, band->has_alpha, previous);
    }
    for (uint32_t i = 0; ok && i < band->row_count; i++) {
        const uint32_t y = band->first_row + i;
        const unsigned char *source = band->pixels + (size_t)y * band->bytes_per_row;
        sg_filter_row(source, band->width, band->has_alpha, band->filter, y > 0 ? previous : NULL, raw, row);
        unsigned char *swap = previous;
        previous = raw;
        raw = swap;
        band->adler = adler32(band->adler, row, (uInt)(raw_length + 1));
        band->raw_size += raw_length + 1;
        stream.next_in = row;
        stream.avail_in = (uInt)(raw_length + 1);
        const int last_row = i + 1 == band->row_count;
        const int flush = last_row ? (band->is_last ? Z_FINISH : Z_SYNC_FLUSH) : Z_NO_FLUSH;
        const int status = deflate(&stream, flush);
        /* The output buffer holds deflateBound of the band, so every row is taken whole and a
         * finished band ends its stream; anything else is a failure, never a short image. */
        ok = stream.avail_in == 0 && (flush == Z_FINISH ? status == Z_STREAM_END : status == Z_OK);
    }
    band->size = capacity - stream.avail_out;
    band->failed = !ok;
    deflateEnd(&stream);
    free(raw);
    free(previous);
    free(row);
    return NULL;
}

static int sg_thread_count(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores > 0 ? (int)cores : 1;
    return threads > SG_MAX_THREADS ? SG_MAX_THREADS : threads;
}

/* Bands are handed out one at a time, so a thread that drew flat rows takes more of them
 * than one that drew a photo: the work stays balanced whatever the screen shows. */
typedef struct {
    sg_band *bands;
    int count;
    int next;
} sg_band_queue;

static void *sg_compress_queue(void *argument) {
    sg_band_queue *queue = (sg_band_queue *)argument;
    for (;;) {
        const int index = __atomic_fetch_add(&queue->next, 1, __ATOMIC_RELAXED);
        if (index >= queue->count) {
            return NULL;
        }
        sg_compress_band(&queue->bands[index]);
    }
}

/* Compresses every band (on this thread and on workers) and joins them into one zlib stream
 * in out. Returns 0 on success. Never touches libpng. */
static int sg_compress(const unsigned char *pixels, uint32_t width, uint32_t height, size_t bytes_per_row,
                       int has_alpha, int level, int filter, sg_png_buffer *out) {
    sg_band bands[SG_MAX_BANDS];
    pthread_t threads[SG_MAX_THREADS];
    int started[SG_MAX_THREADS] = {0};
    const int thread_count = sg_thread_count();
    int count = thread_count * 4;
    if (count > SG_MAX_BANDS) {
        count = SG_MAX_BANDS;
    }
    while (count > 1 && height / (uint32_t)count < SG_MIN_BAND_ROWS) {
        count--;
    }
    uint32_t row = 0;
    for (int i = 0; i < count; i++) {
        const uint32_t rows = height / count + ((uint32_t)i < height % count ? 1 : 0);
        bands[i] = (sg_band){pixels, width, row, rows, bytes_per_row, has_alpha, level, filter,
                             i == count - 1, NULL, 0, 0, 0, 1};
        row += rows;
    }
    sg_band_queue queue = {bands, count, 0};
    for (int i = 1; i < thread_count && i < count; i++) {
        started[i] = pthread_create(&threads[i], NULL, sg_compress_queue, &queue) == 0;
    }
    sg_compress_queue(&queue);
    for (int i = 1; i < thread_count && i < count; i++) {
        if (started[i]) {
            pthread_join(threads[i], NULL);
        }
    }
    int ok = 1;
    /* zlib header: deflate with a 32 KiB window, check bits making it a multiple of 31. */
    const unsigned char cmf = 0x78;
    const unsigned char level_bits = level <= 1 ? 0 : level <= 5 ? 1 : level == 6 ? 2 : 3;
    unsigned char header[2] = {cmf, (unsigned char)(level_bits << 6)};
    header[1] |= (unsigned char)(31 - ((cmf * 256 + header[1]) % 31));
    ok = sg_append(out, header, 2) == 0;
    uLong adler = bands[0].adler;
    for (int i = 0; i < count; i++) {
        ok = ok && !bands[i].failed && sg_append(out, bands[i].data, bands[i].size) == 0;
        if (i > 0) {
            adler = adler32_combine(adler, bands[i].adler, (z_off_t)bands[i].raw_size);
        }
        free(bands[i].data);
    }
    const unsigned char trailer[4] = {(unsigned char)(adler >> 24), (unsigned char)(adler >> 16),
                                      (unsigned char)(adler >> 8), (unsigned char)adler};
    return ok && sg_append(out, trailer, 4) == 0 ? 0 : -1;
}

int sg_png_encode_bgrx(const unsigned char *pixels, uint32_t width, uint32_t height,
                       size_t bytes_per_row, int has_alpha, int level, int filter,
                       sg_png_buffer *out, char *err, size_t err_size) {
    if (err != NULL && err_size > 0) {
        err[0] = '\0';
    }
    memset(out, 0, sizeof *out);
    if (width == 0 || height == 0) {
        sg_set_error(err, err_size, "image has no pixels");
        return -1;
    }
    sg_png_buffer compressed = {NULL, 0, 0};
    if (sg_compress(pixels, width, height, bytes_per_row, has_alpha, level, filter, &compressed) != 0) {
        sg_png_buffer_free(&compressed);
        sg_set_error(err, err_size, "out of memory while compressing PNG data");
        return -1;
    }

    sg_write_state state = {out, err, err_size};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, sg_on_error, sg_on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, NULL);
        sg_png_buffer_free(&compressed);
        sg_set_error(err, err_size, "cannot create PNG writer");
        return -1;
    }
    /* Only png, info, compressed and out are used after a longjmp; none is modified between
     * this setjmp and a possible longjmp except through pointers, so none needs volatile. */
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        sg_png_buffer_free(&compressed);
        sg_png_buffer_free(out);
        sg_set_error(err, err_size, "PNG encoding failed");
        return -1;
    }
    png_set_write_fn(png, &state, sg_on_write, sg_on_flush);
    png_set_IHDR(png, info, width, height, 8, has_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    for (size_t offset = 0; offset < compressed.size; offset += SG_IDAT_SIZE) {
        const size_t length = compressed.size - offset < SG_IDAT_SIZE ? compressed.size - offset : SG_IDAT_SIZE;
        png_write_chunk(png, (png_const_bytep) "IDAT", compressed.data + offset, length);
    }
    png_write_chunk(png, (png_const_bytep) "IEND", NULL, 0);
    png_destroy_write_struct(&png, &info);
    sg_png_buffer_free(&compressed);
    return 0;
}

void sg_png_buffer_free(sg_png_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}
