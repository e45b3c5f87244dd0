/* The GNU extensions behind shotguard_sys.h, compiled with _GNU_SOURCE here alone. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <spawn.h>
#include <stdlib.h>
#include <errno.h>
#include <sys/eventfd.h>
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

int sg_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
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

int sg_thread_join_within(pthread_t thread, int seconds) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += seconds;
    return pthread_timedjoin_np(thread, NULL, &deadline);
}
