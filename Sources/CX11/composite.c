/* Loads libXcomposite on first use (sg_x_composite.h says why not at start-up), and its entry points. */
#include <pthread.h>
#include <stdio.h>
#include "sg_library.h"
#include "sg_x_composite.h"

/* The soname of Debian's libxcomposite1 (and every distribution's). */
#define XCOMPOSITE "libXcomposite.so.1"

/* __typeof__ only names the declaration's type: the compiler checks each call against the real
 * prototype without the linker looking for the library. */
static struct {
    __typeof__(XCompositeQueryExtension) *XCompositeQueryExtension;
    __typeof__(XCompositeQueryVersion) *XCompositeQueryVersion;
    __typeof__(XCompositeGetOverlayWindow) *XCompositeGetOverlayWindow;
    __typeof__(XCompositeReleaseOverlayWindow) *XCompositeReleaseOverlayWindow;
} functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int outcome = -1;
static char reason[512];

/* libX11, which it needs, is the one already loaded: the Display pointers handed to it are the same library's. */
static void load(void) {
    const struct sg_symbol symbols[] = {
        { "XCompositeQueryExtension", (void **)&functions.XCompositeQueryExtension },
        { "XCompositeQueryVersion", (void **)&functions.XCompositeQueryVersion },
        { "XCompositeGetOverlayWindow", (void **)&functions.XCompositeGetOverlayWindow },
        { "XCompositeReleaseOverlayWindow", (void **)&functions.XCompositeReleaseOverlayWindow },
    };
    if (sg_library_load(XCOMPOSITE, symbols, sizeof symbols / sizeof symbols[0], reason, sizeof reason) != 0) return;
    outcome = 0;
}

int sg_x_composite_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}

Bool sg_XCompositeQueryExtension(Display *display, int *event_base, int *error_base) {
    return functions.XCompositeQueryExtension(display, event_base, error_base);
}
Status sg_XCompositeQueryVersion(Display *display, int *major, int *minor) {
    return functions.XCompositeQueryVersion(display, major, minor);
}
Window sg_XCompositeGetOverlayWindow(Display *display, Window window) {
    return functions.XCompositeGetOverlayWindow(display, window);
}
void sg_XCompositeReleaseOverlayWindow(Display *display, Window window) {
    functions.XCompositeReleaseOverlayWindow(display, window);
}
