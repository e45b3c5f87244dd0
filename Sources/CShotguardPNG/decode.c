/* A fast path for reading the PNGs screenshot tools write: 8-bit RGB or RGBA, not interlaced.
 * The IDAT data is inflated in one call by libdeflate (about three times as fast as libpng's
 * zlib inflate) and unfiltered straight into B,G,R,A pixels. Anything else — other colour
 * types, interlacing, a tRNS or PLTE chunk, a bad CRC, corrupt data — is declined, and the
 * caller reads the file with libpng's simplified API instead, which also words the error. */
#include "shotguard_png.h"
#include "cpu.h"
#include "memory.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static uint32_t sg_get32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Walks the chunks; fills the header and the IDAT total when the fast path can take the file. */
int sg_png_fast_probe(const unsigned char *png, size_t size, uint32_t *width, uint32_t *height, int *has_alpha,
                      size_t *idat_size) {
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (size < 8 + 25 || memcmp(png, signature, 8) != 0) {
        return 0;
    }
    size_t offset = 8, total = 0;
    int chunk_index = 0, idat_run = 0; /* 0 before IDAT, 1 inside the run, 2 after it */
    for (;;) {
        if (size - offset < 12) {
            return 0;
        }
        const uint32_t length = sg_get32(png + offset);
        if (length > 0x7FFFFFFFu || size - offset - 12 < length) {
            return 0;
        }
        const unsigned char *type = png + offset + 4;
        const unsigned char *data = type + 4;
        const int critical = !(type[0] & 0x20);
        if (critical && libdeflate_crc32(0, type, (size_t)length + 4) != sg_get32(data + length)) {
            return 0;
        }
        if (chunk_index == 0) {
            if (memcmp(type, "IHDR", 4) != 0 || length != 13) {
                return 0;
            }
            *width = sg_get32(data);
            *height = sg_get32(data + 4);
            const unsigned char depth = data[8], colour = data[9];
            if (*width == 0 || *height == 0 || *width > 0x7FFFFFFFu || *height > 0x7FFFFFFFu || depth != 8 ||
                (colour != 2 && colour != 6) || data[10] != 0 || data[11] != 0 || data[12] != 0) {
                return 0;
            }
            *has_alpha = colour == 6;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            if (idat_run == 2) {
                return 0;
            }
            idat_run = 1;
            total += length;
        } else {
            if (idat_run == 1) {
                idat_run = 2;
            }
            if (memcmp(type, "IEND", 4) == 0) {
                *idat_size = total;
                return idat_run == 2;
            }
            if (memcmp(type, "tRNS", 4) == 0 || memcmp(type, "PLTE", 4) == 0 || critical) {
                return 0;
            }
        }
        chunk_index++;
        offset += 12 + (size_t)length;
    }
}

static inline int sg_abs(int value) {
    return value < 0 ? -value : value;
}

/* The Paeth predictor without branches, so the compiler can use conditional moves. */
static inline unsigned char sg_paeth(int a, int b, int c) {
    const int pa = sg_abs(b - c), pb = sg_abs(a - c), pc = sg_abs(a + b - 2 * c);
    const int ab = pb < pa ? b : a;
    const int best = pb < pa ? pb : pa;
    return (unsigned char)(pc < best ? c : ab);
}

/* Undoes one row's filter in place; previous is the unfiltered row above, or NULL for the
 * image's first row (read as zeros, as the PNG spec says). The first pixel, which has no left
 * neighbour, is done apart, so the loops over the rest have no test in them: AVERAGE and
 * PAETH rows (which ImageMagick and others write) are most of a decode's time. */
static int sg_unfilter(unsigned char *row, const unsigned char *previous, size_t length, size_t bpp, int filter) {
    const size_t first = bpp < length ? bpp : length;
    switch (filter) {
    case 0:
        return 0;
    case 1:
        for (size_t i = bpp; i < length; i++) row[i] = (unsigned char)(row[i] + row[i - bpp]);
        return 0;
    case 2:
        if (previous) {
            for (size_t i = 0; i < length; i++) row[i] = (unsigned char)(row[i] + previous[i]);
        }
        return 0;
    case 3:
        if (previous == NULL) {
            for (size_t i = bpp; i < length; i++) row[i] = (unsigned char)(row[i] + (row[i - bpp] >> 1));
            return 0;
        }
        for (size_t i = 0; i < first; i++) row[i] = (unsigned char)(row[i] + (previous[i] >> 1));
        for (size_t i = bpp; i < length; i++) row[i] = (unsigned char)(row[i] + ((row[i - bpp] + previous[i]) >> 1));
        return 0;
    case 4:
        if (previous == NULL) {
            /* Paeth with no row above picks the left neighbour: SUB. */
            for (size_t i = bpp; i < length; i++) row[i] = (unsigned char)(row[i] + row[i - bpp]);
            return 0;
        }
        for (size_t i = 0; i < first; i++) row[i] = (unsigned char)(row[i] + previous[i]);
        for (size_t i = bpp; i < length; i++) {
            row[i] = (unsigned char)(row[i] + sg_paeth(row[i - bpp], previous[i], previous[i - bpp]));
        }
        return 0;
    default:
        return -1;
    }
}

#if defined(__x86_64__)
#include <tmmintrin.h>

/* Four R,G,B pixels (12 bytes) to four 0xFFRRGGBB words per shuffle (SSSE3, checked at run
 * time). Each load reads 16 bytes, so it stops early enough not to read past the row; returns
 * the pixels done. */
__attribute__((target("ssse3"))) static uint32_t sg_rgb_to_words_ssse3(const unsigned char *in, uint32_t width,
                                                                        uint32_t *out) {
    const __m128i order = _mm_setr_epi8(2, 1, 0, -1, 5, 4, 3, -1, 8, 7, 6, -1, 11, 10, 9, -1);
    const __m128i opaque = _mm_set1_epi32((int)0xFF000000u);
    uint32_t x = 0;
    for (; x + 6 <= width; x += 4) {
        const __m128i pixels = _mm_loadu_si128((const __m128i *)(const void *)(in + (size_t)x * 3));
        _mm_storeu_si128((__m128i *)(void *)(out + x), _mm_or_si128(_mm_shuffle_epi8(pixels, order), opaque));
    }
    return x;
}

static uint32_t sg_rgb_to_words_fast(const unsigned char *in, uint32_t width, uint32_t *out) {
    return sg_has_ssse3() ? sg_rgb_to_words_ssse3(in, width, out) : 0;
}
#else
static uint32_t sg_rgb_to_words_fast(const unsigned char *in, uint32_t width, uint32_t *out) {
    (void)in;
    (void)width;
    (void)out;
    return 0;
}
#endif

/* One unfiltered row to 0xAARRGGBB words. */
static void sg_row_to_words(const unsigned char *in, uint32_t width, int has_alpha, uint32_t *out) {
    if (has_alpha) {
        for (uint32_t x = 0; x < width; x++, in += 4) {
            out[x] = (uint32_t)in[3] << 24 | (uint32_t)in[0] << 16 | (uint32_t)in[1] << 8 | in[2];
        }
        return;
    }
    uint32_t x = sg_rgb_to_words_fast(in, width, out);
    for (in += (size_t)x * 3; x < width; x++, in += 3) {
        out[x] = 0xFF000000u | (uint32_t)in[0] << 16 | (uint32_t)in[1] << 8 | in[2];
    }
}

/* Gathers the IDAT data and inflates it into filtered, which holds exactly (width * bpp + 1) *
 * height bytes. Nothing the probe said is trusted but as a bound: the chunks are walked again
 * in the bytes given, each chunk's length checked against the bytes left before it is read,
 * each IDAT copied only into the room left of the idat_size bytes gathered, and the walk must
 * end at IEND with exactly idat_size bytes gathered. Bytes that are not the ones probed (a file
 * cut short or grown since, chunk lengths that lie) are SG_PNG_FAILED. */
static int sg_inflate(const unsigned char *png, size_t size, size_t idat_size, unsigned char *filtered,
                      size_t filtered_size) {
    /* The IDAT data lies in the file, after its signature and IHDR. */
    if (size < 8 + 25 || idat_size > size - 8 - 25) {
        return SG_PNG_FAILED;
    }
    unsigned char *compressed = malloc(idat_size ? idat_size : 1);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    int status = SG_PNG_NO_MEMORY;
    if (compressed == NULL || inflater == NULL) {
        goto done;
    }
    status = SG_PNG_FAILED;
    size_t offset = 8, gathered = 0;
    int ended = 0;
    while (!ended) {
        if (size - offset < 12) {
            goto done; /* cut short: no room for another chunk, and no IEND seen */
        }
        const uint32_t chunk = sg_get32(png + offset);
        if (chunk > 0x7FFFFFFFu || chunk > size - offset - 12) {
            goto done; /* a length past the end of the bytes */
        }
        if (memcmp(png + offset + 4, "IDAT", 4) == 0) {
            if (chunk > idat_size - gathered) {
                goto done; /* more IDAT data than was probed */
            }
            memcpy(compressed + gathered, png + offset + 8, chunk);
            gathered += chunk;
        } else if (memcmp(png + offset + 4, "IEND", 4) == 0) {
            ended = 1;
        }
        offset += 12 + (size_t)chunk;
    }
    /* No actual-size pointer: libdeflate fails unless the data fills the buffer exactly. */
    if (gathered == idat_size &&
        libdeflate_zlib_decompress(inflater, compressed, idat_size, filtered, filtered_size, NULL) == LIBDEFLATE_SUCCESS) {
        status = SG_PNG_OK;
    }
done:
    libdeflate_free_decompressor(inflater);
    free(compressed);
    return status;
}

/* The bytes of a width x height image's filtered data, (width * bpp + 1) * height, in *size;
 * 0 when the header is one the probe takes and the size fits in memory's arithmetic. */
static int sg_filtered_size(uint32_t width, uint32_t height, int has_alpha, size_t *size) {
    const size_t bpp = has_alpha ? 4 : 3;
    size_t length = 0;
    if (width == 0 || height == 0 || width > 0x7FFFFFFFu || height > 0x7FFFFFFFu ||
        __builtin_mul_overflow((size_t)width, bpp, &length) || __builtin_mul_overflow(length + 1, (size_t)height, size)) {
        return -1;
    }
    return 0;
}

/* A buffer whose pages a thread of its own maps (sg_populate) while the caller fills it. */
typedef struct {
    unsigned char *memory;
    size_t size;
} sg_region;

/* Maps the region's pages a megabyte at a time, from the front: ahead of the inflate that
 * fills it from the front too, which would otherwise fault them in one by one, or wait for one
 * madvise over the whole buffer before starting. */
static void *sg_populate(void *argument) {
    const sg_region *region = argument;
    const size_t step = (size_t)1 << 20;
    for (size_t offset = 0; offset < region->size; offset += step) {
        sg_prefault(region->memory + offset, region->size - offset < step ? region->size - offset : step);
    }
    return NULL;
}

/* Rows are reported in batches of this many: often enough that an encoder waiting for them
 * starts early, rarely enough that the callback costs nothing. */
enum { SG_ROWS_PER_REPORT = 16 };

int sg_png_fast_decode(const unsigned char *png, size_t size, uint32_t width, uint32_t height, int has_alpha,
                       size_t idat_size, uint32_t *pixels, size_t pixel_count) {
    const size_t bpp = has_alpha ? 4 : 3;
    const size_t length = (size_t)width * bpp;
    size_t filtered_size = 0, needed = 0;
    if (sg_filtered_size(width, height, has_alpha, &filtered_size) != 0) {
        return SG_PNG_FAILED;
    }
    if (pixels == NULL || __builtin_mul_overflow((size_t)width, (size_t)height, &needed) || pixel_count != needed) {
        return SG_PNG_BAD_BUFFER;
    }
    if (png == NULL) {
        return SG_PNG_FAILED;
    }
    unsigned char *filtered = sg_map(filtered_size);
    int status = filtered == NULL ? SG_PNG_NO_MEMORY : sg_inflate(png, size, idat_size, filtered, filtered_size);
    if (status != SG_PNG_OK) {
        goto done;
    }
    sg_prefault(pixels, pixel_count * 4);
    for (uint32_t y = 0; y < height; y++) {
        unsigned char *row = filtered + (size_t)y * (length + 1);
        const unsigned char *previous = y > 0 ? row - length : NULL;
        if (sg_unfilter(row + 1, previous, length, bpp, row[0]) != 0) {
            status = SG_PNG_FAILED;
            goto done;
        }
        sg_row_to_words(row + 1, width, has_alpha, pixels + (size_t)y * width);
    }
done:
    sg_unmap(filtered, filtered_size);
    return status;
}

int sg_png_fast_unfilter_rows(const unsigned char *png, size_t size, uint32_t width, uint32_t height, int has_alpha,
                              size_t idat_size, unsigned char *rows, size_t rows_size,
                              void (*rows_done)(void *context, uint32_t rows), void *context) {
    const size_t bpp = has_alpha ? 4 : 3;
    const size_t length = (size_t)width * bpp;
    size_t needed = 0;
    if (sg_filtered_size(width, height, has_alpha, &needed) != 0) {
        return SG_PNG_FAILED;
    }
    if (rows == NULL || rows_size != needed) {
        return SG_PNG_BAD_BUFFER;
    }
    if (png == NULL) {
        return SG_PNG_FAILED;
    }
    /* Each row is unfiltered against a copy of the row above as it was decoded: a row reported
     * may be covered in place (a redaction) before the next one is unfiltered. */
    unsigned char *above = malloc(length);
    /* The buffer's pages are mapped on a thread of their own while the data is inflated into it
     * (at 1080p, 2.7 ms that came before the inflate). */
    sg_region region = {rows, rows_size};
    pthread_t populating;
    const int populated = pthread_create(&populating, NULL, sg_populate, &region) == 0;
    int status = above == NULL ? SG_PNG_NO_MEMORY : sg_inflate(png, size, idat_size, rows, rows_size);
    if (populated) {
        pthread_join(populating, NULL);
    }
    if (status != SG_PNG_OK) {
        free(above);
        return status;
    }
    for (uint32_t y = 0; y < height; y++) {
        unsigned char *row = rows + (size_t)y * (length + 1);
        if (sg_unfilter(row + 1, y > 0 ? above : NULL, length, bpp, row[0]) != 0) {
            status = SG_PNG_FAILED;
            break;
        }
        memcpy(above, row + 1, length);
        if (rows_done != NULL && ((y + 1) % SG_ROWS_PER_REPORT == 0 || y + 1 == height)) {
            rows_done(context, y + 1);
        }
    }
    free(above);
    return status;
}
