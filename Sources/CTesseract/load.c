/* Loads libtesseract on first use (sg_tesseract.h says why not at start-up). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "functions.h"

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
    /* RTLD_LOCAL: the libraries it brings stay out of the global namespace; RTLD_NOW: a missing
     * function shows here, not as a crash at its first call. */
    void *library = dlopen(LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(reason, sizeof reason, "cannot load %s (%s)", LIBRARY, dlerror());
        return;
    }
    const struct { const char *name; void **slot; } entries[] = {
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
    for (size_t index = 0; index < sizeof entries / sizeof entries[0]; index++) {
        dlerror();
        *entries[index].slot = dlsym(library, entries[index].name);
        if (*entries[index].slot == NULL) {
            const char *error = dlerror();
            snprintf(reason, sizeof reason, "cannot load %s (%s)", LIBRARY,
                     error != NULL ? error : entries[index].name);
            /* The library stays loaded: unloading C++ code after its constructors ran is unsafe. */
            return;
        }
    }
    outcome = 0;
}

int sg_tess_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}
