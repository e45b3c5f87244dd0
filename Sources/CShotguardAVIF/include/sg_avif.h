/* AVIF through libavif, loaded (dlopen) on first use: libavif brings four AV1 codecs (aom,
 * dav1d, rav1e, SVT-AV1, libgav1) and libyuv, tens of megabytes that every command would
 * otherwise load at start-up. libavif reports errors as result codes (no longjmp, no
 * callbacks). Call sg_avif_load first and the others only when it returned 0. */
#ifndef SG_AVIF_H
#define SG_AVIF_H

#include <stddef.h>
#include <stdint.h>

/* Loads libavif.so.15 (libavif 0.11) and resolves what the functions below call, once per
 * process (later calls give the first outcome). 0 when loaded; -1 with a one-line reason in
 * `error`. */
int sg_avif_load(char *error, size_t size);

/* What an AVIF's image is, as its boxes say. */
struct sg_avif_info {
    uint32_t width, height, depth;
    /* 0 YUV444, 1 YUV422, 2 YUV420, 3 YUV400 (libavif's order after NONE, less one). */
    int yuv_format;
    /* Whether its colour is stored as RGB (identity matrix, the lossless layout). */
    int identity_matrix;
    int has_alpha;
    /* How many images it holds: 1 for a still image; more for a sequence (an animation). */
    int image_count;
};

typedef struct sg_avif_reader sg_avif_reader;

/* Parses `length` bytes at `bytes` (kept by the caller until sg_avif_close), refusing images
 * of more than `max_pixels` pixels and sequences of more than two images (enough to tell one
 * from a still) before decoding anything. NULL with the reason in `error`. */
sg_avif_reader *sg_avif_open(const unsigned char *bytes, size_t length, uint32_t max_pixels, struct sg_avif_info *info,
                             char *error, size_t size);

/* Decodes the first image into `pixels` as 8-bit B,G,R,A (`length` bytes, at least width x
 * height x 4; opaque where the file has no alpha). 0, or -1 with the reason in `error`. */
int sg_avif_read_bgra(sg_avif_reader *reader, unsigned char *pixels, size_t length, char *error, size_t size);

void sg_avif_close(sg_avif_reader *reader);

/* How sg_avif_write encodes. */
struct sg_avif_settings {
    /* 0-100, mapped onto AV1's quantizer 63-0; ignored when `lossless`. */
    int quality;
    /* RGB stored losslessly (identity matrix, 4:4:4, quantizer 0). */
    int lossless;
    /* 4:4:4 colour (1) or 4:2:0 (0), for a lossy image. */
    int full_chroma;
    /* AV1 encoder speed 0 (slowest) to 10 (fastest). */
    int speed;
};

/* Encodes the `width` x `height` B,G,R,A image of `pixels` (`length` bytes, rows of width x 4)
 * as a still AVIF, with alpha when `alpha`. 0 with the file in `*output` (`*output_length`
 * bytes, freed with sg_avif_free), or -1 with the reason in `error`. */
int sg_avif_write(const unsigned char *pixels, size_t length, uint32_t width, uint32_t height, int alpha,
                  struct sg_avif_settings settings, unsigned char **output, size_t *output_length, char *error, size_t size);

void sg_avif_free(unsigned char *output);

#endif
