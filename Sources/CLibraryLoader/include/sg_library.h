/* Loading a system library on first use: one dlopen, each function looked up into its slot. */
#ifndef SG_LIBRARY_H
#define SG_LIBRARY_H

#include <stddef.h>

/* A function to look up and where its address goes. */
struct sg_symbol {
    const char *name;
    void **slot;
};

/* Opens `library` with RTLD_NOW (a missing function shows here, not as a crash at its first
 * call) and RTLD_LOCAL (nothing loaded later binds to its symbols by accident), then fills the
 * slot of each of the `count` symbols; dlsym on the handle searches the library's own
 * dependencies too. Returns 0, or -1 with "cannot load LIBRARY (why)" in `reason`. On a missing
 * function the library stays loaded: its dependencies' constructors ran, unloading is unsafe. */
int sg_library_load(const char *library, const struct sg_symbol *symbols, size_t count, char *reason, size_t size);

#endif
