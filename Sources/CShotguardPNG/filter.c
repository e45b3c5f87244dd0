/* Rows as PNG wants them: B,G,R,X pixels converted to R,G,B(,A) and filtered, one band at a
 * time into a worker's buffer (no pass over the whole image). */
#include "shotguard_png.h"
#include "cpu.h"
#include "bands.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#include <tmmintrin.h>

/* Four B,G,R,X pixels to twelve R,G,B bytes per shuffle (SSSE3, which every x86-64 CPU of
 * the last fifteen years has; checked at run time). Each store writes 16 bytes, so it stops
 * early enough not to write past the row; returns the pixels done. */
__attribute__((target("ssse3"))) static uint32_t sg_convert_rgb_ssse3(const unsigned char *source, uint32_t width,
                                                                       unsigned char *out) {
    const __m128i order = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    uint32_t x = 0;
    for (; x + 6 <= width; x += 4) {
        const __m128i pixels = _mm_loadu_si128((const __m128i *)(const void *)(source + (size_t)x * 4));
        _mm_storeu_si128((__m128i *)(void *)(out + (size_t)x * 3), _mm_shuffle_epi8(pixels, order));
    }
    return x;
}

static uint32_t sg_convert_rgb_fast(const unsigned char *source, uint32_t width, unsigned char *out) {
    return sg_has_ssse3() ? sg_convert_rgb_ssse3(source, width, out) : 0;
}
#else
static uint32_t sg_convert_rgb_fast(const unsigned char *source, uint32_t width, unsigned char *out) {
    (void)source;
    (void)width;
    (void)out;
    return 0;
}
#endif

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
        for (uint32_t x = sg_convert_rgb_fast(source, width, out); x < width; x++) {
            out[x * 3 + 0] = source[x * 4 + 2];
            out[x * 3 + 1] = source[x * 4 + 1];
            out[x * 3 + 2] = source[x * 4 + 0];
        }
    }
}

/* One row as PNG wants it: the filter type byte, then the filtered bytes. raw is this row
 * unfiltered, previous the row above unfiltered (NULL for the image's first row, which UP
 * treats as zeros as the PNG spec does). */
static void sg_filter_row(const unsigned char *raw, const unsigned char *previous, size_t length, int channels,
                          int filter, unsigned char *row) {
    row[0] = (unsigned char)filter;
    if (filter == SG_PNG_FILTER_SUB) {
        for (size_t i = 0; i < (size_t)channels && i < length; i++) {
            row[1 + i] = raw[i];
        }
        for (size_t i = (size_t)channels; i < length; i++) {
            row[1 + i] = (unsigned char)(raw[i] - raw[i - channels]);
        }
    } else if (previous == NULL) {
        memcpy(row + 1, raw, length);
    } else {
        for (size_t i = 0; i < length; i++) {
            row[1 + i] = (unsigned char)(raw[i] - previous[i]);
        }
    }
}

/* How far from zero a filtered byte is, taken as signed (libpng's heuristic). */
static inline unsigned sg_cost(unsigned char value) {
    const int signed_value = (signed char)value;
    return (unsigned)(signed_value < 0 ? -signed_value : signed_value);
}

#if defined(__x86_64__)
/* The two 64-bit halves of a psadbw running sum, added. */
static inline unsigned sg_total(__m128i sums) {
    return (unsigned)(_mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
}
#endif

/* The filter of NONE, SUB and UP whose output has the smallest sum of signed magnitudes
 * (libpng's heuristic), then that output. AVERAGE and PAETH are left out: on screenshots they
 * cost more time than they save bytes (docs/performance.md). previous is never NULL here (the
 * image's first row is filtered against a row of zeros). */
static void sg_filter_adaptive(const unsigned char *raw, const unsigned char *previous, size_t length, int channels,
                               unsigned char *row) {
    unsigned none = 0, sub = 0, up = 0;
    const size_t bpp = (size_t)channels < length ? (size_t)channels : length;
    for (size_t i = 0; i < bpp; i++) {
        none += sg_cost(raw[i]);
        sub += sg_cost(raw[i]);
        up += sg_cost((unsigned char)(raw[i] - previous[i]));
    }
    size_t i = bpp;
#if defined(__x86_64__)
    /* Sixteen bytes a step (SSE2, which every x86-64 CPU has): a byte's signed magnitude is the
     * smaller of it and its negation, and psadbw adds sixteen of them at once. The compiler's
     * own vectorisation of the loop below widens to 32 bits and does four. */
    __m128i none_sum = _mm_setzero_si128(), sub_sum = _mm_setzero_si128(), up_sum = _mm_setzero_si128();
    const __m128i zero = _mm_setzero_si128();
    for (; i + 16 <= length; i += 16) {
        const __m128i here = _mm_loadu_si128((const __m128i *)(const void *)(raw + i));
        const __m128i left = _mm_loadu_si128((const __m128i *)(const void *)(raw + i - bpp));
        const __m128i above = _mm_loadu_si128((const __m128i *)(const void *)(previous + i));
        const __m128i by_left = _mm_sub_epi8(here, left), by_above = _mm_sub_epi8(here, above);
        none_sum = _mm_add_epi64(none_sum, _mm_sad_epu8(_mm_min_epu8(here, _mm_sub_epi8(zero, here)), zero));
        sub_sum = _mm_add_epi64(sub_sum, _mm_sad_epu8(_mm_min_epu8(by_left, _mm_sub_epi8(zero, by_left)), zero));
        up_sum = _mm_add_epi64(up_sum, _mm_sad_epu8(_mm_min_epu8(by_above, _mm_sub_epi8(zero, by_above)), zero));
    }
    none += sg_total(none_sum);
    sub += sg_total(sub_sum);
    up += sg_total(up_sum);
#endif
    for (; i < length; i++) {
        none += sg_cost(raw[i]);
        sub += sg_cost((unsigned char)(raw[i] - raw[i - bpp]));
        up += sg_cost((unsigned char)(raw[i] - previous[i]));
    }
    const int filter = (sub < none && sub <= up) ? SG_PNG_FILTER_SUB : (up < none ? SG_PNG_FILTER_UP : SG_PNG_FILTER_NONE);
    if (filter == SG_PNG_FILTER_NONE) {
        row[0] = 0;
        memcpy(row + 1, raw, length);
    } else {
        sg_filter_row(raw, previous, length, channels, filter, row);
    }
}

/* Row y of the job's pixels as PNG wants its bytes: converted into scratch from B,G,R,X, or
 * the row itself when the pixels are R,G,B(,A) already (a PNG being decoded). Rows wrap
 * around a ring of ring_rows. */
static const unsigned char *sg_source_row(const sg_job *job, uint32_t y, unsigned char *scratch) {
    const unsigned char *row = job->pixels + (size_t)(y % job->ring_rows) * job->bytes_per_row;
    if (job->layout == SG_PNG_SOURCE_RGB) {
        return row;
    }
    sg_convert_row(row, job->width, job->has_alpha, scratch);
    return scratch;
}

size_t sg_filter_band(const sg_job *job, const sg_band *band, int filter, unsigned char *input, unsigned char *raw,
                      unsigned char *previous) {
    const int channels = job->has_alpha ? 4 : 3;
    const size_t length = (size_t)job->width * channels;
    /* The two scratch rows take turns holding the row and the row above. */
    unsigned char *scratch[2] = {raw, previous};
    if (filter != SG_PNG_FILTER_SUB && filter != SG_PNG_FILTER_UP && filter != SG_PNG_FILTER_ADAPTIVE) {
        for (uint32_t i = 0; i < band->row_count; i++) {
            unsigned char *row = input + i * (length + 1);
            row[0] = 0;
            if (job->layout == SG_PNG_SOURCE_RGB) {
                memcpy(row + 1, sg_source_row(job, band->first_row + i, NULL), length);
            } else {
                sg_convert_row(job->pixels + (size_t)((band->first_row + i) % job->ring_rows) * job->bytes_per_row,
                               job->width, job->has_alpha, row + 1);
            }
        }
        return band->row_count * (length + 1);
    }
    /* The first row of a band is filtered against the last row of the band before; the
     * image's first row against none (adaptive: a row of zeros, as the PNG spec reads it). */
    const unsigned char *above = NULL;
    if (band->first_row > 0) {
        above = sg_source_row(job, band->first_row - 1, scratch[1]);
    } else if (filter == SG_PNG_FILTER_ADAPTIVE) {
        memset(scratch[1], 0, length);
        above = scratch[1];
    }
    for (uint32_t i = 0; i < band->row_count; i++) {
        const unsigned char *row = sg_source_row(job, band->first_row + i, scratch[i & 1]);
        unsigned char *out = input + i * (length + 1);
        if (filter == SG_PNG_FILTER_ADAPTIVE) {
            sg_filter_adaptive(row, above, length, channels, out);
        } else {
            sg_filter_row(row, above, length, channels, filter, out);
        }
        above = row;
    }
    return band->row_count * (length + 1);
}

void sg_band_stats(const unsigned char *data, size_t size, size_t *zeros, size_t *magnitude) {
    size_t zero_count = 0, sum = 0, i = 0;
#if defined(__x86_64__)
    /* 16 bytes a step: each compared with zero to 0xFF or 0, masked to 1 or 0, and its signed
     * magnitude (the smaller of it and its negation) beside it, both summed by psadbw. */
    const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
    __m128i zero_sums = _mm_setzero_si128(), magnitude_sums = _mm_setzero_si128();
    for (; i + 16 <= size; i += 16) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)(const void *)(data + i));
        zero_sums = _mm_add_epi64(zero_sums, _mm_sad_epu8(_mm_and_si128(_mm_cmpeq_epi8(bytes, zero), one), zero));
        magnitude_sums =
            _mm_add_epi64(magnitude_sums, _mm_sad_epu8(_mm_min_epu8(bytes, _mm_sub_epi8(zero, bytes)), zero));
    }
    zero_count = sg_total(zero_sums);
    sum = sg_total(magnitude_sums);
#endif
    for (; i < size; i++) {
        zero_count += data[i] == 0;
        sum += sg_cost(data[i]);
    }
    *zeros = zero_count;
    *magnitude = sum;
}
