/* Loads libsystemd on first use (sg_sd_bus.h says why not at start-up). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include "functions.h"

/* The soname of Debian's libsystemd0 (and every distribution's): ABI 0 since sd-bus became public. */
#define LIBRARY "libsystemd.so.0"

struct sg_sd_bus_functions sg_sd_bus_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int outcome = -1;
static char reason[512];

#define SG_SD_BUS_ENTRY(name) { #name, (void **)&sg_sd_bus_functions.name },

static void load(void) {
    /* RTLD_NOW: a missing function shows here, not as a crash at its first call. RTLD_LOCAL:
     * nothing loaded later binds to libsystemd's symbols by accident. */
    void *library = dlopen(LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(reason, sizeof reason, "cannot load %s (%s)", LIBRARY, dlerror());
        return;
    }
    const struct { const char *name; void **slot; } entries[] = { SG_SD_BUS_SYMBOLS(SG_SD_BUS_ENTRY) };
    for (size_t index = 0; index < sizeof entries / sizeof entries[0]; index++) {
        dlerror();
        *entries[index].slot = dlsym(library, entries[index].name);
        if (*entries[index].slot == NULL) {
            const char *error = dlerror();
            snprintf(reason, sizeof reason, "cannot load %s (%s)", LIBRARY,
                     error != NULL ? error : entries[index].name);
            /* The library stays loaded: its dependencies' constructors ran, unloading them is unsafe. */
            return;
        }
    }
    outcome = 0;
}

int sg_sd_bus_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}
