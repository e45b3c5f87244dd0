/* The resolved libavif functions, filled by load.c and called by avif.c. Each slot has the type
 * of the declaration in avif.h, so the compiler checks every call against the real prototype. */
#ifndef SG_AVIF_FUNCTIONS_H
#define SG_AVIF_FUNCTIONS_H

#include <avif/avif.h>

#define SG_AVIF_SYMBOLS(X)                                                                                      \
    X(avifDecoderCreate) X(avifDecoderDestroy) X(avifDecoderSetIOMemory) X(avifDecoderParse)                   \
    X(avifDecoderNextImage) X(avifRGBImageSetDefaults) X(avifImageYUVToRGB) X(avifImageRGBToYUV)                \
    X(avifImageCreate) X(avifImageDestroy) X(avifEncoderCreate) X(avifEncoderWrite) X(avifEncoderDestroy)      \
    X(avifRWDataFree) X(avifResultToString)

/* __typeof__ only names the declaration's type: nothing here makes the linker look for libavif. */
#define SG_AVIF_SLOT(name) __typeof__(name) *name;
struct sg_avif_functions {
    SG_AVIF_SYMBOLS(SG_AVIF_SLOT)
};
#undef SG_AVIF_SLOT

/* Valid once sg_avif_load returned 0. */
extern struct sg_avif_functions sg_avif_functions;

#endif
