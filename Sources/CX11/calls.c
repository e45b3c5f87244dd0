/* The prefixed entry points of sg_x_sensing.h: each calls the resolved function of its name. */
#include "functions.h"

#define F sg_x_sensing_functions

Status sg_XRecordQueryVersion(Display *display, int *major, int *minor) {
    return F.XRecordQueryVersion(display, major, minor);
}
XID sg_XRecordIdBaseMask(Display *display) { return F.XRecordIdBaseMask(display); }
XRecordRange *sg_XRecordAllocRange(void) { return F.XRecordAllocRange(); }
XRecordContext sg_XRecordCreateContext(Display *display, int datum_flags, XRecordClientSpec *clients, int nclients,
                                       XRecordRange **ranges, int nranges) {
    return F.XRecordCreateContext(display, datum_flags, clients, nclients, ranges, nranges);
}
Status sg_XRecordDisableContext(Display *display, XRecordContext context) {
    return F.XRecordDisableContext(display, context);
}
Status sg_XRecordFreeContext(Display *display, XRecordContext context) { return F.XRecordFreeContext(display, context); }
Status sg_XRecordRegisterClients(Display *display, XRecordContext context, int datum_flags, XRecordClientSpec *clients,
                                 int nclients, XRecordRange **ranges, int nranges) {
    return F.XRecordRegisterClients(display, context, datum_flags, clients, nclients, ranges, nranges);
}
Status sg_XRecordUnregisterClients(Display *display, XRecordContext context, XRecordClientSpec *clients, int nclients) {
    return F.XRecordUnregisterClients(display, context, clients, nclients);
}

Bool sg_XResQueryExtension(Display *display, int *event_base, int *error_base) {
    return F.XResQueryExtension(display, event_base, error_base);
}
Status sg_XResQueryClientIds(Display *display, long num_specs, XResClientIdSpec *client_specs, long *num_ids,
                             XResClientIdValue **client_ids) {
    return F.XResQueryClientIds(display, num_specs, client_specs, num_ids, client_ids);
}
void sg_XResClientIdsDestroy(long num_ids, XResClientIdValue *client_ids) { F.XResClientIdsDestroy(num_ids, client_ids); }
pid_t sg_XResGetClientPid(XResClientIdValue *value) { return F.XResGetClientPid(value); }
