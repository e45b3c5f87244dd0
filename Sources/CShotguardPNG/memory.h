/* Fresh memory for whole frames without a page fault per 4 KiB (memory.c). */
#ifndef SHOTGUARD_MEMORY_H
#define SHOTGUARD_MEMORY_H

#include <stddef.h>

/* Maps every page of the range now, writable:
 * one call instead of a fault per page. Advice only: on a kernel without these calls the
 * pages fault in as they are touched, as before. */
void sg_prefault(void *memory, size_t size);

/* Maps every page the range touches for reading, in one call: pages someone else filled (an
 * X server's copy into a shared segment) are then read without a fault per page. */
void sg_map_for_reading(const void *memory, size_t size);

/* An anonymous private mapping of size bytes, prefaulted; NULL when there is no memory. */
unsigned char *sg_map(size_t size);

void sg_unmap(unsigned char *memory, size_t size);

#endif
