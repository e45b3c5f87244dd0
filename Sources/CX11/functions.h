/* The resolved RECORD and X-Resource functions, filled by load.c and called by calls.c. Each
 * slot has the type of the declaration in the library's header, so the compiler checks every
 * call against the real prototype. */
#ifndef SG_X_SENSING_FUNCTIONS_H
#define SG_X_SENSING_FUNCTIONS_H

#include "sg_x_sensing.h"

/* One list per library, for the slots and for load.c's lookups. */
#define SG_XTST_SYMBOLS(X)                                                                                    \
    X(XRecordQueryVersion) X(XRecordIdBaseMask) X(XRecordAllocRange) X(XRecordCreateContext)                  \
    X(XRecordDisableContext) X(XRecordFreeContext) X(XRecordRegisterClients) X(XRecordUnregisterClients)
#define SG_XRES_SYMBOLS(X) X(XResQueryExtension) X(XResQueryClientIds) X(XResClientIdsDestroy) X(XResGetClientPid)

/* __typeof__ only names the declaration's type: it does not reference the symbol, so nothing
 * here makes the linker look for the libraries. */
#define SG_X_SENSING_SLOT(name) __typeof__(name) *name;
struct sg_x_sensing_functions {
    SG_XTST_SYMBOLS(SG_X_SENSING_SLOT)
    SG_XRES_SYMBOLS(SG_X_SENSING_SLOT)
};
#undef SG_X_SENSING_SLOT

/* Valid once sg_x_sensing_load returned 0. */
extern struct sg_x_sensing_functions sg_x_sensing_functions;

#endif
