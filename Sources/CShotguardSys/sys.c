/* The GNU extensions behind shotguard_sys.h, compiled with _GNU_SOURCE here alone. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdlib.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include "shotguard_sys.h"

int sg_signalfd(int fd, const sigset_t *mask, int flags) {
    return signalfd(fd, mask, flags);
}

void *sg_memmem(const void *haystack, size_t haystack_length, const void *needle,
                size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

int sg_rename_exchange(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE);
}

int sg_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

const short sg_posix_spawn_setsid = POSIX_SPAWN_SETSID;

int sg_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

typedef struct {
    void *memory;
    size_t size;
} sg_mapping;

static void *sg_unmap_thread(void *argument) {
    sg_mapping *mapping = argument;
    munmap(mapping->memory, mapping->size);
    free(mapping);
    return NULL;
}

void sg_unmap_in_background(void *memory, size_t size) {
    sg_mapping *mapping = malloc(sizeof *mapping);
    pthread_attr_t attributes;
    pthread_t thread;
    if (mapping != NULL && pthread_attr_init(&attributes) == 0) {
        mapping->memory = memory;
        mapping->size = size;
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        /* Small stack: the thread makes one system call. */
        pthread_attr_setstacksize(&attributes, 64 * 1024);
        const int made = pthread_create(&thread, &attributes, sg_unmap_thread, mapping) == 0;
        pthread_attr_destroy(&attributes);
        if (made) {
            return;
        }
    }
    free(mapping);
    munmap(memory, size);
}
