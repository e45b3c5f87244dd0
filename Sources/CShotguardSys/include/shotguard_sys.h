/* System calls and GNU extensions that Swift's Glibc module does not import. Each can go
 * when the Glibc overlay exports it.
 *
 * The header declares only; sys.c defines _GNU_SOURCE and implements. Defining _GNU_SOURCE
 * here would change glibc's own structs (fd_set's member is fds_bits with it, __fds_bits
 * without), and clang refuses a module that imports this one beside another C module (XCB)
 * built without it. */
#ifndef SHOTGUARD_SYS_H
#define SHOTGUARD_SYS_H

#include <signal.h>
#include <stddef.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/types.h>
#include <pthread.h>

/* signalfd(2). */
int sg_signalfd(int fd, const sigset_t *mask, int flags);

/* memmem(3), for finding a row of pixels in a screen capture. */
void *sg_memmem(const void *haystack, size_t haystack_length, const void *needle,
                size_t needle_length);

/* renameat2(2) with RENAME_EXCHANGE: guard swaps the redacted file with the original in one
 * step, then checks that what it swapped out is the file it read (and swaps back if not). */
int sg_rename_exchange(const char *from, const char *to);

/* renameat2(2) with RENAME_NOREPLACE: the quarantine completes an entry, or puts a file back
 * where it was, without ever replacing what is at the destination (EEXIST instead). */
int sg_rename_noreplace(const char *from, const char *to);

/* eventfd(2), non-blocking and close-on-exec: one thread wakes another's poll(). */
int sg_eventfd(void);

/* posix_spawnattr_setflags' POSIX_SPAWN_SETSID (glibc 2.26), a GNU extension the Glibc
 * module leaves out: the child starts its own session, out of the parent's process group. */
extern const short sg_posix_spawn_setsid;

/* pidfd_open(2) (Linux 5.3) through syscall(2), which Swift cannot call (it is variadic): a
 * descriptor that becomes readable when process `pid` exits. -1 with errno ENOSYS on an older
 * kernel, ESRCH when there is no such process. */
int sg_pidfd_open(pid_t pid);

/* The hold helper (shotguard-hold, root): fanotify permission events on single files, so that
 * no program but the agent and the file's writer opens a screenshot until guard has redacted it.
 * fanotify_init with FAN_CLASS_CONTENT, non-blocking and close-on-exec. */
int sg_fanotify_open(void);

/* Adds (or removes) FAN_OPEN_PERM on the inode `fd` is open on. */
int sg_fanotify_mark_file(int fanotify, int fd, int add);

/* Adds (or removes) FAN_OPEN_PERM on the files of the folder `fd` is open on. */
int sg_fanotify_mark_folder(int fanotify, int fd, int add);

/* One open of a marked file: the event's descriptor on the file (the helper answers with it and
 * closes it) and the opening process. */
struct sg_fan_event {
    int fd;
    int pid;
    int permission;
};

/* The events waiting (at most `capacity`); 0 when none, -1 with errno on a failure. */
int sg_fanotify_read(int fanotify, struct sg_fan_event *events, int capacity);

/* Lets the open waiting on `fd` go on. The helper never denies an open. */
int sg_fanotify_allow(int fanotify, int fd);

/* sendmsg of `length` bytes with `fd` attached (SCM_RIGHTS) when it is not negative. */
ssize_t sg_send_with_fd(int socket, const void *bytes, size_t length, int fd);

/* recvmsg, non-blocking: the bytes, and in `fd` the descriptor attached, or -1. */
ssize_t sg_receive_with_fd(int socket, void *bytes, size_t capacity, int *fd);

/* SO_PEERCRED: the process and user at the other end of a Unix socket. */
int sg_peer_credentials(int socket, pid_t *pid, uid_t *uid);

/* pthread_timedjoin_np: joins `thread` within `seconds`; 0 when it was joined, else an error
 * number (ETIMEDOUT) and the thread is left running. */
int sg_thread_join_within(pthread_t thread, int seconds);

#endif
