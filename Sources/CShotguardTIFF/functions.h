/* The resolved libtiff functions, filled by load.c and called by tiff.c. Each slot has the type
 * of the declaration in tiffio.h, so the compiler checks every call against the real prototype. */
#ifndef SG_TIFF_FUNCTIONS_H
#define SG_TIFF_FUNCTIONS_H

#include <tiffio.h>

#define SG_TIFF_SYMBOLS(X)                                                                                     \
    X(TIFFOpenOptionsAlloc) X(TIFFOpenOptionsFree) X(TIFFOpenOptionsSetMaxSingleMemAlloc)                     \
    X(TIFFOpenOptionsSetErrorHandlerExtR) X(TIFFOpenOptionsSetWarningHandlerExtR) X(TIFFClientOpenExt)        \
    X(TIFFClose) X(TIFFGetField) X(TIFFGetFieldDefaulted) X(TIFFSetField) X(TIFFNumberOfDirectories)         \
    X(TIFFReadRGBAImageOriented) X(TIFFWriteScanline) X(TIFFDefaultStripSize) X(TIFFIsCODECConfigured)

/* __typeof__ only names the declaration's type: nothing here makes the linker look for libtiff. */
#define SG_TIFF_SLOT(name) __typeof__(name) *name;
struct sg_tiff_functions {
    SG_TIFF_SYMBOLS(SG_TIFF_SLOT)
};
#undef SG_TIFF_SLOT

/* Valid once sg_tiff_load returned 0. */
extern struct sg_tiff_functions sg_tiff_functions;

#endif
