/* Composite's overlay window (libXcomposite), loaded when the shield first meets a compositing
 * manager: no other command and no shield without a compositor needs it, so it is not linked.
 *
 * The header is included for its types only. Each sg_ function calls the function of its name
 * without the prefix. Call sg_x_composite_load first and only when it returned 0: before that
 * nothing is resolved. */
#ifndef SG_X_COMPOSITE_H
#define SG_X_COMPOSITE_H

#include <stddef.h>
#include <X11/Xlib.h>
#include <X11/extensions/Xcomposite.h>

/* Loads libXcomposite.so.1 and resolves every function below, once per process (later calls
 * return the first outcome). 0 when loaded; -1 with a one-line reason in `error` otherwise.
 * Thread-safe. It comes with any X desktop's libraries (Debian: libxcomposite1). */
int sg_x_composite_load(char *error, size_t size);

Bool sg_XCompositeQueryExtension(Display *display, int *event_base, int *error_base);
Status sg_XCompositeQueryVersion(Display *display, int *major, int *minor);
Window sg_XCompositeGetOverlayWindow(Display *display, Window window);
void sg_XCompositeReleaseOverlayWindow(Display *display, Window window);

#endif
