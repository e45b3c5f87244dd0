/* Fresh memory for whole frames: a 4K frame is 8,100 pages, and faulting them in one at a
 * time cost as much as compressing them (docs/performance.md). MADV_POPULATE_WRITE (Linux
 * 5.14) maps a buffer's pages in one call. Transparent huge pages were tried for these buffers
 * too: they made a 4K capture's peak memory 35 MB larger for no measurable time, so they are not
 * asked for (nor for a capture's frame: FrameMemory.swift says why). */
#include "memory.h"
#include "shotguard_png.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

void sg_prefault(void *memory, size_t size) {
    if (memory == NULL) {
        return;
    }
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t start = (uintptr_t)memory, end = start + size;
    const uintptr_t first = (start + page - 1) & ~(page - 1), last = end & ~(page - 1);
    if (last > first) {
        madvise((void *)first, last - first, MADV_POPULATE_WRITE);
    }
}

void sg_map_for_reading(const void *memory, size_t size) {
    if (memory == NULL || size == 0) {
        return;
    }
    /* Every page the range touches, its partial first and last pages included. */
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t first = (uintptr_t)memory & ~(page - 1);
    const uintptr_t last = ((uintptr_t)memory + size + page - 1) & ~(page - 1);
    madvise((void *)first, last - first, MADV_POPULATE_READ);
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

unsigned char *sg_png_map_rows(size_t size) {
    /* Not mapped here: sg_png_fast_unfilter_rows maps the pages while it fills them. */
    void *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return memory == MAP_FAILED ? NULL : memory;
}

void sg_png_free_rows(unsigned char *rows, size_t size) {
    sg_unmap(rows, size);
}
