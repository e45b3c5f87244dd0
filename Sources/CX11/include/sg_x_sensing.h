/* RECORD (libXtst) and X-Resource (libXRes), loaded when capture sensing first needs them:
 * linked, every command loaded both at start-up (docs/performance.md has the cost),
 * and only the agent's screen-read source and its process lookups use them.
 *
 * The headers are included for their types only. Each sg_ function calls the function of its
 * name without the prefix; calling that one directly would need the library linked, and the
 * build fails to link instead. Call sg_x_sensing_load first and only when it returned 0: before
 * that nothing is resolved. */
#ifndef SG_X_SENSING_H
#define SG_X_SENSING_H

#include <stddef.h>
#include <X11/Xlib.h>
#include <X11/extensions/record.h>
#include <X11/extensions/XRes.h>

/* Loads libXtst.so.6 and libXRes.so.1 and resolves every function below, once per process
 * (later calls return the first outcome). 0 when loaded; -1 with a one-line reason in `error`
 * otherwise. Thread-safe. Both come with any X session's libraries (Debian: libxtst6, libxres1). */
int sg_x_sensing_load(char *error, size_t size);

/* record.h (libXtst) */
Status sg_XRecordQueryVersion(Display *display, int *major, int *minor);
XID sg_XRecordIdBaseMask(Display *display);
XRecordRange *sg_XRecordAllocRange(void);
XRecordContext sg_XRecordCreateContext(Display *display, int datum_flags, XRecordClientSpec *clients, int nclients,
                                       XRecordRange **ranges, int nranges);
Status sg_XRecordDisableContext(Display *display, XRecordContext context);
Status sg_XRecordFreeContext(Display *display, XRecordContext context);
Status sg_XRecordRegisterClients(Display *display, XRecordContext context, int datum_flags, XRecordClientSpec *clients,
                                 int nclients, XRecordRange **ranges, int nranges);
Status sg_XRecordUnregisterClients(Display *display, XRecordContext context, XRecordClientSpec *clients, int nclients);

/* XRes.h (libXRes) */
Bool sg_XResQueryExtension(Display *display, int *event_base, int *error_base);
Status sg_XResQueryClientIds(Display *display, long num_specs, XResClientIdSpec *client_specs, long *num_ids,
                             XResClientIdValue **client_ids);
void sg_XResClientIdsDestroy(long num_ids, XResClientIdValue *client_ids);
pid_t sg_XResGetClientPid(XResClientIdValue *value);

#endif
