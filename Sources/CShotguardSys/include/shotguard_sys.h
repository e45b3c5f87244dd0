/* System calls and GNU extensions that Swift's Glibc module does not import. Each can go
 * when the Glibc overlay exports it. */
#ifndef SHOTGUARD_SYS_H
#define SHOTGUARD_SYS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/signalfd.h>

/* signalfd(2). */
static inline int sg_signalfd(int fd, const sigset_t *mask, int flags) {
    return signalfd(fd, mask, flags);
}

/* memmem(3), for finding a row of pixels in a screen capture. */
static inline void *sg_memmem(const void *haystack, size_t haystack_length, const void *needle,
                              size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}

/* renameat2(2) with RENAME_EXCHANGE: guard swaps the redacted file with the original in one
 * step, then checks that what it swapped out is the file it read (and swaps back if not). */
static inline int sg_rename_exchange(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE);
}

/* posix_spawnattr_setflags' POSIX_SPAWN_SETSID (glibc 2.26), a GNU extension the Glibc
 * module leaves out: the child starts its own session, out of the parent's process group. */
static const short sg_posix_spawn_setsid = POSIX_SPAWN_SETSID;

#endif
