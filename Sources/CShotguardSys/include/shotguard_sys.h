/* System calls that Swift's Glibc module does not import. */
#ifndef SHOTGUARD_SYS_H
#define SHOTGUARD_SYS_H

#include <sys/signalfd.h>
#include <signal.h>

/* signalfd(2): not exported by Swift's Glibc overlay. */
static inline int sg_signalfd(int fd, const sigset_t *mask, int flags) {
    return signalfd(fd, mask, flags);
}

#endif
