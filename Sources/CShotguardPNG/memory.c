/* Fresh memory for whole frames: a 4K frame is 8,100 pages, and faulting them in one at a
 * time cost as much as compressing them (docs/performance.md). Transparent huge pages (when
 * the system allows them on request) and MADV_POPULATE_WRITE (Linux 5.14) fill a buffer in a
 * few calls. */
#include "memory.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { SG_HUGE_PAGE = 2 << 20 };

void sg_prefault(void *memory, size_t size) {
    if (memory == NULL) {
        return;
    }
    const uintptr_t start = (uintptr_t)memory, end = start + size;
    const uintptr_t huge_start = (start + SG_HUGE_PAGE - 1) & ~(uintptr_t)(SG_HUGE_PAGE - 1);
    const uintptr_t huge_end = end & ~(uintptr_t)(SG_HUGE_PAGE - 1);
    if (huge_end > huge_start) {
        madvise((void *)huge_start, huge_end - huge_start, MADV_HUGEPAGE);
    }
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t first = (start + page - 1) & ~(page - 1), last = end & ~(page - 1);
    if (last > first) {
        madvise((void *)first, last - first, MADV_POPULATE_WRITE);
    }
}

unsigned char *sg_map(size_t size) {
    void *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
        return NULL;
    }
    sg_prefault(memory, size);
    return memory;
}

void sg_unmap(unsigned char *memory, size_t size) {
    if (memory != NULL) {
        munmap(memory, size);
    }
}
