/* AVIF in memory through the resolved libavif functions: parse, decode to B,G,R,A, encode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "functions.h"
#include "sg_avif.h"

#define F sg_avif_functions

struct sg_avif_reader {
    avifDecoder *decoder;
};

static void say(char *error, size_t size, const char *what, avifResult result, const avifDiagnostics *diagnostics) {
    const char *detail = diagnostics != NULL && diagnostics->error[0] != '\0' ? diagnostics->error : F.avifResultToString(result);
    snprintf(error, size, "%s: %s", what, detail);
}

sg_avif_reader *sg_avif_open(const unsigned char *bytes, size_t length, uint32_t max_pixels, struct sg_avif_info *info,
                             char *error, size_t size) {
    sg_avif_reader *reader = calloc(1, sizeof *reader);
    avifDecoder *decoder = reader == NULL ? NULL : F.avifDecoderCreate();
    if (decoder == NULL) {
        snprintf(error, size, "out of memory");
        free(reader);
        return NULL;
    }
    reader->decoder = decoder;
    /* One thread: the agent decodes in its loop; a still image needs no more. */
    decoder->maxThreads = 1;
    decoder->imageSizeLimit = max_pixels;
    decoder->imageCountLimit = 2;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    avifResult result = F.avifDecoderSetIOMemory(decoder, bytes, length);
    if (result == AVIF_RESULT_OK) result = F.avifDecoderParse(decoder);
    if (result != AVIF_RESULT_OK) {
        say(error, size, "not an AVIF libavif reads", result, &decoder->diag);
        sg_avif_close(reader);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    info->width = decoder->image->width;
    info->height = decoder->image->height;
    info->depth = decoder->image->depth;
    info->yuv_format = (int)decoder->image->yuvFormat - 1;
    info->identity_matrix = decoder->image->matrixCoefficients == AVIF_MATRIX_COEFFICIENTS_IDENTITY;
    info->has_alpha = decoder->alphaPresent ? 1 : 0;
    info->image_count = decoder->imageCount;
    return reader;
}

int sg_avif_read_bgra(sg_avif_reader *reader, unsigned char *pixels, size_t length, char *error, size_t size) {
    avifDecoder *decoder = reader->decoder;
    avifResult result = F.avifDecoderNextImage(decoder);
    if (result != AVIF_RESULT_OK) {
        say(error, size, "its image cannot be decoded", result, &decoder->diag);
        return -1;
    }
    avifRGBImage rgb;
    F.avifRGBImageSetDefaults(&rgb, decoder->image);
    rgb.format = AVIF_RGB_FORMAT_BGRA;
    rgb.depth = 8;
    /* The rows libavif writes, checked in arithmetic that cannot wrap: rowBytes is 32 bits. */
    uint64_t row_bytes = (uint64_t)rgb.width * 4, needed = 0;
    if (rgb.width == 0 || row_bytes > UINT32_MAX || __builtin_mul_overflow(row_bytes, (uint64_t)rgb.height, &needed) ||
        needed > length) {
        snprintf(error, size, "its %ux%u image does not fit %zu bytes", rgb.width, rgb.height, length);
        return -1;
    }
    rgb.rowBytes = (uint32_t)row_bytes;
    rgb.pixels = pixels;
    result = F.avifImageYUVToRGB(decoder->image, &rgb);
    if (result != AVIF_RESULT_OK) {
        say(error, size, "its colours cannot be converted", result, NULL);
        return -1;
    }
    return 0;
}

void sg_avif_close(sg_avif_reader *reader) {
    if (reader == NULL) return;
    if (reader->decoder != NULL) F.avifDecoderDestroy(reader->decoder);
    free(reader);
}

int sg_avif_write(const unsigned char *pixels, size_t length, uint32_t width, uint32_t height, int alpha,
                  struct sg_avif_settings settings, unsigned char **output, size_t *output_length, char *error, size_t size) {
    /* width * 4 is the rows' 32-bit rowBytes; width * height * 4 must not wrap past the check. */
    uint64_t needed = 0;
    if (width == 0 || height == 0 || (uint64_t)width * 4 > UINT32_MAX ||
        __builtin_mul_overflow((uint64_t)width * 4, (uint64_t)height, &needed) || needed > length || settings.quality < 0 ||
        settings.quality > 100) {
        snprintf(error, size, "cannot write a %ux%u image at quality %d from %zu bytes", width, height, settings.quality, length);
        return -1;
    }
    avifPixelFormat format = settings.lossless || settings.full_chroma ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420;
    avifImage *image = F.avifImageCreate(width, height, 8, format);
    avifEncoder *encoder = image == NULL ? NULL : F.avifEncoderCreate();
    if (encoder == NULL) {
        snprintf(error, size, "out of memory");
        if (image != NULL) F.avifImageDestroy(image);
        return -1;
    }
    image->yuvRange = AVIF_RANGE_FULL;
    if (settings.lossless) image->matrixCoefficients = AVIF_MATRIX_COEFFICIENTS_IDENTITY;
    avifRGBImage rgb;
    F.avifRGBImageSetDefaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_BGRA;
    rgb.depth = 8;
    rgb.rowBytes = width * 4;
    rgb.ignoreAlpha = alpha ? AVIF_FALSE : AVIF_TRUE;
    /* libavif only reads from it when converting to YUV. */
    rgb.pixels = (uint8_t *)pixels;
    avifResult result = F.avifImageRGBToYUV(image, &rgb);
    int quantizer = settings.lossless ? AVIF_QUANTIZER_LOSSLESS : (100 - settings.quality) * AVIF_QUANTIZER_WORST_QUALITY / 100;
    encoder->maxThreads = 2;
    encoder->speed = settings.speed;
    encoder->minQuantizer = encoder->maxQuantizer = quantizer;
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = AVIF_QUANTIZER_LOSSLESS;
    avifRWData written = AVIF_DATA_EMPTY;
    if (result == AVIF_RESULT_OK) result = F.avifEncoderWrite(encoder, image, &written);
    int status = -1;
    if (result != AVIF_RESULT_OK) {
        say(error, size, "libavif cannot encode it", result, &encoder->diag);
    } else if ((*output = malloc(written.size > 0 ? written.size : 1)) == NULL) {
        snprintf(error, size, "out of memory");
    } else {
        memcpy(*output, written.data, written.size);
        *output_length = written.size;
        status = 0;
    }
    F.avifRWDataFree(&written);
    F.avifEncoderDestroy(encoder);
    F.avifImageDestroy(image);
    return status;
}

void sg_avif_free(unsigned char *output) { free(output); }
