/* Loads libXtst and libXRes on first use (sg_x_sensing.h says why not at start-up). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "functions.h"

/* The sonames of Debian's libxtst6 and libxres1 (and every distribution's). */
#define XTST "libXtst.so.6"
#define XRES "libXRes.so.1"

struct sg_x_sensing_functions sg_x_sensing_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int outcome = -1;
static char reason[512];

struct entry {
    const char *name;
    void **slot;
};

#define SG_X_SENSING_ENTRY(name) { #name, (void **)&sg_x_sensing_functions.name },

/* Loads `library` and fills each of `entries`; 0, or -1 with `reason` set. RTLD_NOW: a missing
 * function shows here, not as a crash at its first call. RTLD_LOCAL: nothing loaded later binds
 * to these symbols by accident. libX11 and libXext, which both need, are the ones already
 * loaded: the Display pointers handed to them are the same library's. */
static int resolve(const char *library, const struct entry *entries, size_t count) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(reason, sizeof reason, "cannot load %s (%s)", library, dlerror());
        return -1;
    }
    for (size_t index = 0; index < count; index++) {
        dlerror();
        *entries[index].slot = dlsym(handle, entries[index].name);
        if (*entries[index].slot == NULL) {
            const char *error = dlerror();
            snprintf(reason, sizeof reason, "cannot load %s (%s)", library, error != NULL ? error : entries[index].name);
            return -1;
        }
    }
    return 0;
}

static void load(void) {
    const struct entry xtst[] = { SG_XTST_SYMBOLS(SG_X_SENSING_ENTRY) };
    const struct entry xres[] = { SG_XRES_SYMBOLS(SG_X_SENSING_ENTRY) };
    if (resolve(XTST, xtst, sizeof xtst / sizeof xtst[0]) != 0) return;
    if (resolve(XRES, xres, sizeof xres / sizeof xres[0]) != 0) return;
    outcome = 0;
}

int sg_x_sensing_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}
