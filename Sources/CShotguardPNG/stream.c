/* PNG encoding straight to a file descriptor: each band's IDAT chunk is written as soon as it
 * and every band above it are compressed, and its memory freed, so the PNG is never whole in
 * memory. A capture's rows can be a ring of strips too, each strip grabbed where rows already
 * compressed were (sg_png_stream_reserve): then not even the frame is whole in memory, and a 4K
 * capture holds the ring, the process's own baseline and the bands in flight
 * (docs/performance.md). */
#include "shotguard_png.h"
#include "bands.h"

#include <errno.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

typedef struct {
    int fd;
    sg_band *bands;
    int count;
    pthread_mutex_t lock;
    char *finished; /* per band */
    int next;       /* the first band not yet written */
    int failed;     /* a band could not be compressed or written */
    int error;      /* errno of the failed write */
    uint32_t adler;
    unsigned char zlib_header[2];
} sg_sink;

/* Writes all of the parts in order, in as few calls as the kernel takes them (one, for a file),
 * retrying interrupted and partial writes. Returns 0 or an errno. */
static int sg_write_parts(int fd, struct iovec *parts, int count) {
    while (count > 0) {
        const ssize_t written = writev(fd, parts, count);
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        if (written == 0 && parts->iov_len > 0) {
            return EIO; /* no progress: do not spin */
        }
        size_t left = (size_t)written;
        while (count > 0 && left >= parts->iov_len) {
            left -= parts->iov_len;
            parts++;
            count--;
        }
        if (count > 0) {
            parts->iov_base = (unsigned char *)parts->iov_base + left;
            parts->iov_len -= left;
        }
    }
    return 0;
}

/* One chunk whose data is prefix (may be empty) then body, in one write: a capture writes
 * one chunk per band, about a hundred. Returns 0 or an errno. */
static int sg_write_chunk(int fd, const char *type, const unsigned char *prefix, size_t prefix_size,
                          const unsigned char *body, size_t body_size) {
    unsigned char head[8], tail[4];
    sg_put32(head, (uint32_t)(prefix_size + body_size));
    memcpy(head + 4, type, 4);
    /* libdeflate_crc32 restarts at 0 when given NULL, so empty parts are skipped. */
    uint32_t crc = (uint32_t)libdeflate_crc32(0, head + 4, 4);
    if (prefix_size > 0) {
        crc = (uint32_t)libdeflate_crc32(crc, prefix, prefix_size);
    }
    if (body_size > 0) {
        crc = (uint32_t)libdeflate_crc32(crc, body, body_size);
    }
    sg_put32(tail, crc);
    struct iovec parts[4] = {{head, 8}, {(void *)prefix, prefix_size}, {(void *)body, body_size}, {tail, 4}};
    return sg_write_parts(fd, parts, 4);
}

/* Called by the worker that finished band `index`: writes every finished band in order. */
static void sg_band_finished(void *context, int index) {
    sg_sink *sink = (sg_sink *)context;
    pthread_mutex_lock(&sink->lock);
    sink->finished[index] = 1;
    while (sink->next < sink->count && sink->finished[sink->next]) {
        sg_band *band = &sink->bands[sink->next];
        if (!sink->failed && band->failed) {
            sink->failed = 1;
        }
        if (!sink->failed) {
            const int first = sink->next == 0;
            const int error = sg_write_chunk(sink->fd, "IDAT", sink->zlib_header, first ? 2 : 0, band->data, band->size);
            if (error != 0) {
                sink->failed = 1;
                sink->error = error;
            }
            sink->adler = first ? band->adler
                                : (uint32_t)adler32_combine(sink->adler, band->adler, (z_off_t)band->raw_size);
        }
        free(band->data);
        band->data = NULL;
        sink->next++;
    }
    pthread_mutex_unlock(&sink->lock);
}

static int sg_fail_write(int error, char *err, size_t err_size) {
    char message[160];
    snprintf(message, sizeof message, "cannot write: %s", strerror(error));
    sg_set_error(err, err_size, message);
    return -1;
}

/* A PNG on its way to a file descriptor: the bands, their writer and the workers. */
struct sg_png_stream {
    sg_job job;
    sg_sink sink;
    sg_workers workers;
};

static void sg_stream_free(sg_png_stream *stream) {
    for (int i = 0; i < stream->job.count; i++) {
        free(stream->job.bands[i].data);
    }
    free(stream->job.bands);
    free(stream->sink.finished);
    pthread_mutex_destroy(&stream->sink.lock);
    sg_gate_close(&stream->job);
    free(stream);
}

sg_png_stream *sg_png_stream_start(const unsigned char *pixels, size_t pixels_size, uint32_t width, uint32_t height,
                                   size_t bytes_per_row, uint32_t ring_rows, int layout, int has_alpha, int level,
                                   int filter, uint32_t band_rows, int fd, int *status, char *err, size_t err_size) {
    int ignored = SG_PNG_OK;
    if (status == NULL) {
        status = &ignored;
    }
    const uint32_t rows_held = ring_rows > 0 && ring_rows < height ? ring_rows : height;
    *status = sg_check_encode_arguments(pixels, width, height, pixels_size, bytes_per_row, rows_held, layout, has_alpha,
                                        level, filter, err, err_size);
    if (*status != SG_PNG_OK) {
        return NULL;
    }
    /* Failures from here on are the ring's size (below), a write, or memory. */
    *status = SG_PNG_FAILED;
    int count = 0;
    sg_band *bands = sg_make_bands(width, height, has_alpha, &band_rows, &count);
    /* A band and the row above it must fit in the ring beside at least one row being grabbed. */
    if (bands != NULL && rows_held < height && (uint64_t)band_rows + 2 > rows_held) {
        free(bands);
        sg_set_error(err, err_size, "the ring of rows is too small for the encoder's bands");
        return NULL;
    }
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    unsigned char header[13];
    sg_put32(header, width);
    sg_put32(header + 4, height);
    header[8] = 8;
    header[9] = has_alpha ? 6 : 2;
    header[10] = header[11] = header[12] = 0;
    struct iovec start = {(void *)signature, sizeof signature};
    int error = bands != NULL ? sg_write_parts(fd, &start, 1) : 0;
    if (bands != NULL && error == 0) {
        error = sg_write_chunk(fd, "IHDR", NULL, 0, header, sizeof header);
    }
    if (error != 0) {
        free(bands);
        sg_fail_write(error, err, err_size);
        return NULL;
    }
    sg_png_stream *stream = bands ? calloc(1, sizeof *stream) : NULL;
    char *finished = stream ? calloc((size_t)count, 1) : NULL;
    if (finished == NULL) {
        free(stream);
        free(bands);
        sg_set_error(err, err_size, "out of memory while compressing PNG data");
        *status = SG_PNG_NO_MEMORY;
        return NULL;
    }
    stream->sink = (sg_sink){.fd = fd, .bands = bands, .count = count, .finished = finished};
    sg_zlib_header(level, stream->sink.zlib_header);
    stream->job = (sg_job){.pixels = pixels, .width = width, .bytes_per_row = bytes_per_row, .ring_rows = rows_held,
                           .layout = layout, .has_alpha = has_alpha, .level = level, .filter = filter,
                           .band_rows = band_rows, .bands = bands, .count = count, .band_done = sg_band_finished,
                           .context = &stream->sink};
    if (pthread_mutex_init(&stream->sink.lock, NULL) != 0) {
        free(finished);
        free(bands);
        free(stream);
        sg_set_error(err, err_size, "cannot make a lock for the PNG encoder's threads");
        return NULL;
    }
    if (sg_gate_open(&stream->job, 0) != 0) {
        pthread_mutex_destroy(&stream->sink.lock);
        free(finished);
        free(bands);
        free(stream);
        sg_set_error(err, err_size, "cannot make a lock for the PNG encoder's threads");
        return NULL;
    }
    /* With a ring the calling thread grabs the strips, so every core gets a worker. */
    sg_start_workers(&stream->job, &stream->workers, rows_held < height);
    *status = SG_PNG_OK;
    return stream;
}

int sg_png_stream_reserve(sg_png_stream *stream, uint32_t until) {
    sg_job *job = &stream->job;
    pthread_mutex_lock(&job->gate_lock);
    /* The rows in so far, and the rows the new ones take the place of. */
    const uint32_t in = job->ready_rows;
    int status = 0;
    const int is_ring = stream->sink.count > 0 && job->ring_rows < job->bands[job->count - 1].first_row +
                                                                      job->bands[job->count - 1].row_count;
    if (!is_ring) {
        /* Every row has a place of its own. */
    } else if (until > in && (uint64_t)(until - in) + job->band_rows + 1 > job->ring_rows) {
        status = -1;
    } else if (until > job->ring_rows) {
        const uint32_t replaced = until - job->ring_rows;
        while (!job->cancelled && job->free_rows < replaced) {
            pthread_cond_wait(&job->gate_moved, &job->gate_lock);
        }
    }
    if (job->cancelled) {
        status = -1;
    }
    pthread_mutex_unlock(&job->gate_lock);
    return status;
}

void sg_png_stream_rows(sg_png_stream *stream, uint32_t rows) {
    sg_gate_rows(&stream->job, rows);
}

int sg_png_stream_finish(sg_png_stream *stream, int cancel, char *err, size_t err_size) {
    if (err != NULL && err_size > 0) {
        err[0] = '\0';
    }
    if (cancel) {
        sg_gate_cancel(&stream->job);
        sg_join_workers(&stream->workers);
    } else {
        sg_gate_rows(&stream->job, UINT32_MAX);
        sg_work_and_join(&stream->job, &stream->workers);
    }
    const sg_sink sink = stream->sink;
    sg_stream_free(stream);
    if (cancel) {
        sg_set_error(err, err_size, "cancelled");
        return -1;
    }
    if (sink.failed) {
        if (sink.error != 0) {
            return sg_fail_write(sink.error, err, err_size);
        }
        sg_set_error(err, err_size, "out of memory while compressing PNG data");
        return -1;
    }
    /* The Adler-32 of all bands ends the zlib stream, in an IDAT of its own. */
    unsigned char trailer[4];
    sg_put32(trailer, sink.adler);
    int error = sg_write_chunk(sink.fd, "IDAT", NULL, 0, trailer, 4);
    if (error == 0) {
        error = sg_write_chunk(sink.fd, "IEND", NULL, 0, NULL, 0);
    }
    return error == 0 ? 0 : sg_fail_write(error, err, err_size);
}

int sg_png_write_bgrx(const unsigned char *pixels, size_t pixels_size, uint32_t width, uint32_t height,
                      size_t bytes_per_row, int has_alpha, int level, int filter, uint32_t band_rows, int fd, char *err,
                      size_t err_size) {
    int status = SG_PNG_FAILED;
    sg_png_stream *stream = sg_png_stream_start(pixels, pixels_size, width, height, bytes_per_row, 0, SG_PNG_SOURCE_BGRX,
                                                has_alpha, level, filter, band_rows, fd, &status, err, err_size);
    return stream == NULL ? status : sg_png_stream_finish(stream, 0, err, err_size);
}
