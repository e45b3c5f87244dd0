/* TIFF in memory through the resolved libtiff functions: client I/O procs over a buffer,
 * per-file error handlers that keep the first message, whole-image reads and writes. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "functions.h"
#include "sg_tiff.h"

#define F sg_tiff_functions

/* A file in memory: read from `input`, or written into `output` as it grows. */
struct sg_memory {
    const unsigned char *input;
    unsigned char *output;
    size_t length, capacity, position;
    int failed;
    char error[256];
};

struct sg_tiff_reader {
    TIFF *tiff;
    struct sg_memory memory;
};

static tmsize_t read_proc(thandle_t handle, void *buffer, tmsize_t size) {
    struct sg_memory *memory = handle;
    if (size < 0 || memory->input == NULL || memory->position >= memory->length) return 0;
    size_t count = memory->length - memory->position;
    if ((size_t)size < count) count = (size_t)size;
    memcpy(buffer, memory->input + memory->position, count);
    memory->position += count;
    return (tmsize_t)count;
}

static tmsize_t write_proc(thandle_t handle, void *buffer, tmsize_t size) {
    struct sg_memory *memory = handle;
    if (size < 0 || memory->input != NULL || memory->failed) return -1;
    size_t end = memory->position + (size_t)size;
    if (end < memory->position) return -1;
    if (end > memory->capacity) {
        size_t capacity = memory->capacity < 65536 ? 65536 : memory->capacity;
        while (capacity < end) {
            if (capacity > SIZE_MAX / 2) return -1;
            capacity *= 2;
        }
        unsigned char *grown = realloc(memory->output, capacity);
        if (grown == NULL) {
            memory->failed = 1;
            return -1;
        }
        /* A seek past the end leaves a gap: zeros, as a file would read. */
        memset(grown + memory->capacity, 0, capacity - memory->capacity);
        memory->output = grown;
        memory->capacity = capacity;
    }
    memcpy(memory->output + memory->position, buffer, (size_t)size);
    memory->position = end;
    if (end > memory->length) memory->length = end;
    return size;
}

static toff_t seek_proc(thandle_t handle, toff_t offset, int whence) {
    struct sg_memory *memory = handle;
    uint64_t base = whence == SEEK_CUR ? memory->position : whence == SEEK_END ? memory->length : 0;
    if (offset > UINT64_MAX - base || base + offset > SIZE_MAX / 2) return (toff_t)-1;
    memory->position = (size_t)(base + offset);
    return memory->position;
}

static int close_proc(thandle_t handle) { (void)handle; return 0; }
static toff_t size_proc(thandle_t handle) { return ((struct sg_memory *)handle)->length; }
/* No mapping: every read goes through read_proc, which checks its bounds. */
static int map_proc(thandle_t handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }
static void unmap_proc(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

/* The first error is the cause; later ones follow from it. Nothing is printed. */
static int on_error(TIFF *tiff, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)module;
    struct sg_memory *memory = user_data;
    if (memory->error[0] == '\0') vsnprintf(memory->error, sizeof memory->error, format, arguments);
    return 1;
}

static int on_warning(TIFF *tiff, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tiff, (void)user_data, (void)module, (void)format, (void)arguments;
    return 1;
}

static TIFF *open_memory(struct sg_memory *memory, const char *mode, uint64_t max_allocation) {
    TIFFOpenOptions *options = F.TIFFOpenOptionsAlloc();
    if (options == NULL) {
        snprintf(memory->error, sizeof memory->error, "out of memory");
        return NULL;
    }
    if (max_allocation > 0) F.TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_allocation);
    F.TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, memory);
    F.TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, NULL);
    TIFF *tiff = F.TIFFClientOpenExt("TIFF", mode, memory, read_proc, write_proc, seek_proc, close_proc, size_proc,
                                     map_proc, unmap_proc, options);
    F.TIFFOpenOptionsFree(options);
    if (tiff == NULL && memory->error[0] == '\0') snprintf(memory->error, sizeof memory->error, "not a TIFF libtiff reads");
    return tiff;
}

sg_tiff_reader *sg_tiff_open(const unsigned char *bytes, size_t length, uint64_t max_allocation,
                             struct sg_tiff_info *info, char *error, size_t size) {
    sg_tiff_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    reader->memory.input = bytes;
    reader->memory.length = length;
    reader->tiff = open_memory(&reader->memory, "rm", max_allocation);
    if (reader->tiff == NULL) {
        snprintf(error, size, "%s", reader->memory.error);
        free(reader);
        return NULL;
    }
    TIFF *tiff = reader->tiff;
    memset(info, 0, sizeof *info);
    F.TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &info->width);
    F.TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &info->height);
    F.TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &info->samples_per_pixel);
    F.TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &info->bits_per_sample);
    F.TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &info->photometric);
    F.TIFFGetFieldDefaulted(tiff, TIFFTAG_COMPRESSION, &info->compression);
    F.TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &info->planar);
    F.TIFFGetFieldDefaulted(tiff, TIFFTAG_PREDICTOR, &info->predictor);
    uint16_t extra_count = 0;
    uint16_t *extra_types = NULL;
    if (F.TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra_types) == 1 && extra_types != NULL) {
        for (uint16_t index = 0; index < extra_count; index++) {
            if (extra_types[index] == EXTRASAMPLE_ASSOCALPHA || extra_types[index] == EXTRASAMPLE_UNASSALPHA) info->has_alpha = 1;
        }
    }
    info->directories = F.TIFFNumberOfDirectories(tiff);
    return reader;
}

int sg_tiff_read_rgba(sg_tiff_reader *reader, uint32_t *pixels, size_t count, char *error, size_t size) {
    uint32_t width = 0, height = 0;
    F.TIFFGetField(reader->tiff, TIFFTAG_IMAGEWIDTH, &width);
    F.TIFFGetField(reader->tiff, TIFFTAG_IMAGELENGTH, &height);
    uint64_t needed = 0;
    if (pixels == NULL || __builtin_mul_overflow((uint64_t)width, (uint64_t)height, &needed) || needed > count) {
        snprintf(error, size, "a %ux%u image does not fit %zu pixels", width, height, count);
        return -1;
    }
    reader->memory.error[0] = '\0';
    if (F.TIFFReadRGBAImageOriented(reader->tiff, width, height, pixels, ORIENTATION_TOPLEFT, 1) != 1) {
        snprintf(error, size, "%s", reader->memory.error[0] != '\0' ? reader->memory.error : "its image data cannot be read");
        return -1;
    }
    return 0;
}

void sg_tiff_close(sg_tiff_reader *reader) {
    if (reader == NULL) return;
    F.TIFFClose(reader->tiff);
    free(reader);
}

static int uses_predictor(uint16_t compression) {
    return compression == COMPRESSION_LZW || compression == COMPRESSION_ADOBE_DEFLATE || compression == COMPRESSION_DEFLATE
        || compression == COMPRESSION_ZSTD || compression == COMPRESSION_LZMA;
}

int sg_tiff_write(const unsigned char *pixels, size_t length, uint32_t width, uint32_t height,
                  struct sg_tiff_layout layout, unsigned char **output, size_t *output_length, char *error, size_t size) {
    uint16_t samples = (uint16_t)(layout.colours + (layout.alpha ? 1 : 0));
    size_t row_bytes = (size_t)width * samples;
    if ((layout.colours != 1 && layout.colours != 3) || pixels == NULL || width == 0 || height == 0
        || row_bytes / samples != width || length / row_bytes < height) {
        snprintf(error, size, "cannot write a %ux%u image of %u samples from %zu bytes", width, height, samples, length);
        return -1;
    }
    if (!F.TIFFIsCODECConfigured(layout.compression)) {
        snprintf(error, size, "libtiff here cannot write compression %u", layout.compression);
        return -1;
    }
    struct sg_memory memory = { 0 };
    unsigned char *row = malloc(row_bytes);
    TIFF *tiff = row == NULL ? NULL : open_memory(&memory, "w", 0);
    if (tiff == NULL) {
        snprintf(error, size, "%s", row == NULL ? "out of memory" : memory.error);
        free(row);
        free(memory.output);
        return -1;
    }
    int ok = F.TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, width) && F.TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, height)
        && F.TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, 8) && F.TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, samples)
        && F.TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, layout.colours == 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK)
        && F.TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG)
        && F.TIFFSetField(tiff, TIFFTAG_COMPRESSION, layout.compression);
    if (ok && layout.alpha) {
        uint16_t type = EXTRASAMPLE_UNASSALPHA;
        ok = F.TIFFSetField(tiff, TIFFTAG_EXTRASAMPLES, 1, &type);
    }
    if (ok && uses_predictor(layout.compression) && layout.predictor == PREDICTOR_HORIZONTAL) {
        ok = F.TIFFSetField(tiff, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
    }
    if (ok && layout.compression == COMPRESSION_JPEG) ok = F.TIFFSetField(tiff, TIFFTAG_JPEGQUALITY, layout.jpeg_quality);
    if (ok) ok = F.TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, F.TIFFDefaultStripSize(tiff, 0));
    for (uint32_t line = 0; ok && line < height; line++) {
        /* The encoder may change the row it is handed (the predictor works in place). */
        memcpy(row, pixels + (size_t)line * row_bytes, row_bytes);
        ok = F.TIFFWriteScanline(tiff, row, line, 0) == 1;
    }
    F.TIFFClose(tiff);
    free(row);
    if (!ok || memory.failed || memory.error[0] != '\0') {
        snprintf(error, size, "%s", memory.error[0] != '\0' ? memory.error : "out of memory");
        free(memory.output);
        return -1;
    }
    *output = memory.output;
    *output_length = memory.length;
    return 0;
}

void sg_tiff_free(unsigned char *output) { free(output); }
