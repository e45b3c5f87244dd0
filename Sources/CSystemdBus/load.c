/* Loads libsystemd on first use (sg_sd_bus.h says why not at start-up). */
#include <pthread.h>
#include <stdio.h>
#include "functions.h"
#include "sg_library.h"

/* The soname of Debian's libsystemd0 (and every distribution's): ABI 0 since sd-bus became public. */
#define LIBRARY "libsystemd.so.0"

struct sg_sd_bus_functions sg_sd_bus_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int outcome = -1;
static char reason[512];

#define SG_SD_BUS_ENTRY(name) { #name, (void **)&sg_sd_bus_functions.name },

static void load(void) {
    const struct sg_symbol entries[] = { SG_SD_BUS_SYMBOLS(SG_SD_BUS_ENTRY) };
    if (sg_library_load(LIBRARY, entries, sizeof entries / sizeof entries[0], reason, sizeof reason) != 0) return;
    outcome = 0;
}

int sg_sd_bus_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}
