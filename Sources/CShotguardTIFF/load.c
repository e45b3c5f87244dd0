/* Loads libtiff on first use (sg_tiff.h says why not at start-up). */
#include <pthread.h>
#include <stdio.h>
#include "functions.h"
#include "sg_library.h"
#include "sg_tiff.h"

/* The soname of Debian 12's libtiff6 (libtiff 4.5). */
#define LIBRARY "libtiff.so.6"

struct sg_tiff_functions sg_tiff_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int outcome = -1;
static char reason[512];

#define SG_TIFF_ENTRY(name) { #name, (void **)&sg_tiff_functions.name },

static void load(void) {
    const struct sg_symbol entries[] = { SG_TIFF_SYMBOLS(SG_TIFF_ENTRY) };
    if (sg_library_load(LIBRARY, entries, sizeof entries / sizeof entries[0], reason, sizeof reason) != 0) return;
    outcome = 0;
}

int sg_tiff_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}
