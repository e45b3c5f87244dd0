/* The resolved libtesseract functions, filled by load.c and called by calls.c. */
#ifndef SG_TESSERACT_FUNCTIONS_H
#define SG_TESSERACT_FUNCTIONS_H

#include "sg_tesseract.h"

struct sg_tess_functions {
    const char *(*TessVersion)(void);
    void (*TessDeleteText)(const char *);
    SGTessBaseAPI *(*TessBaseAPICreate)(void);
    void (*TessBaseAPIDelete)(SGTessBaseAPI *);
    int (*TessBaseAPIInit4)(SGTessBaseAPI *, const char *, const char *, SGTessOcrEngineMode, char **, int, char **,
                            char **, size_t, int);
    int (*TessBaseAPISetVariable)(SGTessBaseAPI *, const char *, const char *);
    void (*TessBaseAPISetPageSegMode)(SGTessBaseAPI *, SGTessPageSegMode);
    void (*TessBaseAPISetImage)(SGTessBaseAPI *, const unsigned char *, int, int, int, int);
    void (*TessBaseAPISetSourceResolution)(SGTessBaseAPI *, int);
    int (*TessBaseAPIRecognize)(SGTessBaseAPI *, void *);
    void (*TessBaseAPIClear)(SGTessBaseAPI *);
    void (*TessBaseAPIEnd)(SGTessBaseAPI *);
    SGTessResultIterator *(*TessBaseAPIGetIterator)(SGTessBaseAPI *);
    void (*TessResultIteratorDelete)(SGTessResultIterator *);
    int (*TessResultIteratorNext)(SGTessResultIterator *, SGTessPageIteratorLevel);
    char *(*TessResultIteratorGetUTF8Text)(const SGTessResultIterator *, SGTessPageIteratorLevel);
    float (*TessResultIteratorConfidence)(const SGTessResultIterator *, SGTessPageIteratorLevel);
    const SGTessPageIterator *(*TessResultIteratorGetPageIteratorConst)(const SGTessResultIterator *);
    int (*TessPageIteratorBoundingBox)(const SGTessPageIterator *, SGTessPageIteratorLevel, int *, int *, int *, int *);
    int (*TessPageIteratorIsAtBeginningOf)(const SGTessPageIterator *, SGTessPageIteratorLevel);
    SGTessChoiceIterator *(*TessResultIteratorGetChoiceIterator)(const SGTessResultIterator *);
    void (*TessChoiceIteratorDelete)(SGTessChoiceIterator *);
    int (*TessChoiceIteratorNext)(SGTessChoiceIterator *);
    const char *(*TessChoiceIteratorGetUTF8Text)(const SGTessChoiceIterator *);
    float (*TessChoiceIteratorConfidence)(const SGTessChoiceIterator *);
};

/* Valid once sg_tess_load returned 0. */
extern struct sg_tess_functions sg_tess_functions;

#endif
