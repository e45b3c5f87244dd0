/* TIFF through libtiff, loaded (dlopen) on first use: libtiff brings libjpeg, libwebp, libzstd,
 * liblzma, libjbig, libLerc and libdeflate, which every command would otherwise load at
 * start-up for a format few screenshots are in.
 *
 * A TIFF is read and written whole in memory. libtiff reports errors through callbacks, not
 * longjmp: each file opened here gets its own handlers (TIFFOpenOptions, libtiff 4.5), which
 * keep the first error's text for the caller and print nothing; its largest allocation is
 * capped. Call sg_tiff_load first and the others only when it returned 0. */
#ifndef SG_TIFF_H
#define SG_TIFF_H

#include <stddef.h>
#include <stdint.h>

/* Loads libtiff.so.6 and resolves what the functions below call, once per process (later
 * calls give the first outcome). 0 when loaded; -1 with a one-line reason in `error`. */
int sg_tiff_load(char *error, size_t size);

/* What a TIFF's first image is, as its tags say. */
struct sg_tiff_info {
    uint32_t width, height;
    /* How many images (directories) the file holds. */
    uint32_t directories;
    uint16_t samples_per_pixel, bits_per_sample, photometric, compression, planar, predictor;
    /* Whether one of the extra samples is alpha (associated or not). */
    int has_alpha;
};

typedef struct sg_tiff_reader sg_tiff_reader;

/* Opens `length` bytes at `bytes` (kept by the caller until sg_tiff_close) and reads the first
 * directory into `info`; no single allocation of libtiff's may exceed `max_allocation` bytes.
 * NULL with the reason in `error` when it is not a TIFF libtiff reads. */
sg_tiff_reader *sg_tiff_open(const unsigned char *bytes, size_t length, uint64_t max_allocation,
                             struct sg_tiff_info *info, char *error, size_t size);

/* Decodes the first image as RGBA into `pixels`, which holds `count` 32-bit values (at least
 * width x height): each is 0xAABBGGRR, top row first (TIFFReadRGBAImageOriented). 0, or -1 with
 * the reason in `error`. */
int sg_tiff_read_rgba(sg_tiff_reader *reader, uint32_t *pixels, size_t count, char *error, size_t size);

void sg_tiff_close(sg_tiff_reader *reader);

/* How sg_tiff_write lays out the file. */
struct sg_tiff_layout {
    /* 1 (grey, MINISBLACK) or 3 (RGB) colour samples, 8 bits each, and alpha after them when `alpha`. */
    uint16_t colours;
    int alpha;
    /* A libtiff COMPRESSION_ value (NONE, LZW, ADOBE_DEFLATE, PACKBITS, JPEG…) and its
     * predictor (1 none, 2 horizontal) where the compression takes one. */
    uint16_t compression, predictor;
    /* JPEG quality 1-100, for COMPRESSION_JPEG. */
    int jpeg_quality;
};

/* Writes the `width` x `height` image of `pixels` (`length` bytes of 8-bit samples, row by
 * row, `layout.colours` + alpha a pixel) as a one-image TIFF in memory. 0 with the file in
 * `*output` (`*output_length` bytes, freed with sg_tiff_free), or -1 with the reason in `error`. */
int sg_tiff_write(const unsigned char *pixels, size_t length, uint32_t width, uint32_t height,
                  struct sg_tiff_layout layout, unsigned char **output, size_t *output_length, char *error, size_t size);

void sg_tiff_free(unsigned char *output);

#endif
