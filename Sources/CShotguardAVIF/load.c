/* Loads libavif on first use (sg_avif.h says why not at start-up). */
#include <pthread.h>
#include <stdio.h>
#include "functions.h"
#include "sg_avif.h"
#include "sg_library.h"

/* The soname of Debian 12's libavif15 (libavif 0.11). */
#define LIBRARY "libavif.so.15"

struct sg_avif_functions sg_avif_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int outcome = -1;
static char reason[512];

#define SG_AVIF_ENTRY(name) { #name, (void **)&sg_avif_functions.name },

static void load(void) {
    const struct sg_symbol entries[] = { SG_AVIF_SYMBOLS(SG_AVIF_ENTRY) };
    if (sg_library_load(LIBRARY, entries, sizeof entries / sizeof entries[0], reason, sizeof reason) != 0) return;
    outcome = 0;
}

int sg_avif_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}
