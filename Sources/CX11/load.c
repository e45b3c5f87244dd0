/* Loads libXtst and libXRes on first use (sg_x_sensing.h says why not at start-up). */
#include <pthread.h>
#include <stdio.h>
#include "functions.h"
#include "sg_library.h"

/* The sonames of Debian's libxtst6 and libxres1 (and every distribution's). */
#define XTST "libXtst.so.6"
#define XRES "libXRes.so.1"

struct sg_x_sensing_functions sg_x_sensing_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int outcome = -1;
static char reason[512];

#define SG_X_SENSING_ENTRY(name) { #name, (void **)&sg_x_sensing_functions.name },

/* libX11 and libXext, which both need, are the ones already loaded: the Display pointers
 * handed to them are the same library's. */
static void load(void) {
    const struct sg_symbol xtst[] = { SG_XTST_SYMBOLS(SG_X_SENSING_ENTRY) };
    const struct sg_symbol xres[] = { SG_XRES_SYMBOLS(SG_X_SENSING_ENTRY) };
    if (sg_library_load(XTST, xtst, sizeof xtst / sizeof xtst[0], reason, sizeof reason) != 0) return;
    if (sg_library_load(XRES, xres, sizeof xres / sizeof xres[0], reason, sizeof reason) != 0) return;
    outcome = 0;
}

int sg_x_sensing_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}
