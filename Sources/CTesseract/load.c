/* Loads libtesseract on first use (sg_tesseract.h says why not at start-up). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "functions.h"
#include "sg_library.h"

/* The soname of Debian 12's libtesseract5 (Tesseract 5.x). */
#define LIBRARY "libtesseract.so.5"

struct sg_tess_functions sg_tess_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int outcome = -1;
static char reason[512];

#define ENTRY(name) { #name, (void **)&sg_tess_functions.name }

static void load(void) {
    /* Before libgomp is loaded (with libtesseract): it reads the limit once, at its start. */
    setenv("OMP_THREAD_LIMIT", "1", 0);
    const struct sg_symbol entries[] = {
        ENTRY(TessVersion), ENTRY(TessDeleteText), ENTRY(TessBaseAPICreate), ENTRY(TessBaseAPIDelete),
        ENTRY(TessBaseAPIInit4), ENTRY(TessBaseAPISetVariable), ENTRY(TessBaseAPISetPageSegMode),
        ENTRY(TessBaseAPISetImage), ENTRY(TessBaseAPISetSourceResolution), ENTRY(TessBaseAPIRecognize),
        ENTRY(TessBaseAPIClear), ENTRY(TessBaseAPIEnd), ENTRY(TessBaseAPIGetIterator),
        ENTRY(TessResultIteratorDelete), ENTRY(TessResultIteratorNext), ENTRY(TessResultIteratorGetUTF8Text),
        ENTRY(TessResultIteratorConfidence), ENTRY(TessResultIteratorGetPageIteratorConst),
        ENTRY(TessPageIteratorBoundingBox), ENTRY(TessPageIteratorIsAtBeginningOf),
        ENTRY(TessResultIteratorGetChoiceIterator), ENTRY(TessChoiceIteratorDelete), ENTRY(TessChoiceIteratorNext),
        ENTRY(TessChoiceIteratorGetUTF8Text), ENTRY(TessChoiceIteratorConfidence),
    };
    /* Its other libraries stay out of the global namespace; unloading C++ code is unsafe. */
    if (sg_library_load(LIBRARY, entries, sizeof entries / sizeof entries[0], reason, sizeof reason) != 0) return;
    outcome = 0;
}

int sg_tess_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}
