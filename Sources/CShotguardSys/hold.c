/* The hold helper's system calls: fanotify permission events on single files, and descriptors
 * passed over a Unix socket with the sender's credentials. Swift cannot reach fanotify's
 * structures or SCM_RIGHTS' control messages comfortably; these do the byte work. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/socket.h>
#include <unistd.h>
#include "shotguard_sys.h"

int sg_fanotify_open(void) {
    return fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY | O_LARGEFILE | O_CLOEXEC);
}

int sg_fanotify_mark_file(int fanotify, int fd, int add) {
    /* A NULL path marks the inode `fd` is open on: that file alone, whatever its names. */
    return fanotify_mark(fanotify, add ? FAN_MARK_ADD : FAN_MARK_REMOVE, FAN_OPEN_PERM, fd, NULL);
}

int sg_fanotify_mark_folder(int fanotify, int fd, int add) {
    /* The folder `fd` is open on, for the opens of the files in it (not of the folder itself): a
     * name is held there before its file exists. */
    return fanotify_mark(fanotify, add ? FAN_MARK_ADD : FAN_MARK_REMOVE, FAN_OPEN_PERM | FAN_EVENT_ON_CHILD, fd, NULL);
}

int sg_fanotify_read(int fanotify, struct sg_fan_event *events, int capacity) {
    /* Aligned for the metadata records the kernel writes into it. */
    unsigned long long buffer[4096 / sizeof(unsigned long long)];
    ssize_t length = read(fanotify, buffer, sizeof buffer);
    if (length < 0) {
        return errno == EAGAIN ? 0 : -1;
    }
    int count = 0;
    struct fanotify_event_metadata *metadata = (struct fanotify_event_metadata *)buffer;
    while (FAN_EVENT_OK(metadata, length)) {
        if (metadata->vers != FANOTIFY_METADATA_VERSION) {
            errno = EPROTO;
            return -1;
        }
        if (count < capacity) {
            events[count].fd = metadata->fd;
            events[count].pid = metadata->pid;
            events[count].permission = (metadata->mask & FAN_OPEN_PERM) != 0;
            count++;
        } else if (metadata->fd >= 0) {
            /* No room: allowed at once rather than left waiting (never happens with a full buffer's worth). */
            struct fanotify_response response = {.fd = metadata->fd, .response = FAN_ALLOW};
            if (write(fanotify, &response, sizeof response) < 0) { /* the opener is then released by the kernel at close */ }
            close(metadata->fd);
        }
        metadata = FAN_EVENT_NEXT(metadata, length);
    }
    return count;
}

int sg_fanotify_allow(int fanotify, int fd) {
    struct fanotify_response response = {.fd = fd, .response = FAN_ALLOW};
    ssize_t written;
    do {
        written = write(fanotify, &response, sizeof response);
    } while (written < 0 && errno == EINTR);
    return written == (ssize_t)sizeof response ? 0 : -1;
}

ssize_t sg_send_with_fd(int socket, const void *bytes, size_t length, int fd) {
    struct iovec part = {.iov_base = (void *)bytes, .iov_len = length};
    union {
        char space[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
    if (fd >= 0) {
        message.msg_control = control.space;
        message.msg_controllen = sizeof control.space;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &fd, sizeof fd);
    }
    ssize_t sent;
    do {
        sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t sg_receive_with_fd(int socket, void *bytes, size_t capacity, int *fd) {
    struct iovec part = {.iov_base = bytes, .iov_len = capacity};
    union {
        char space[CMSG_SPACE(sizeof(int) * 4)];
        struct cmsghdr align;
    } control;
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space,
                             .msg_controllen = sizeof control.space};
    *fd = -1;
    ssize_t received;
    do {
        received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    } while (received < 0 && errno == EINTR);
    if (received < 0) {
        return -1;
    }
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) {
            continue;
        }
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int passed[4];
        memcpy(passed, CMSG_DATA(header), count * sizeof(int) < sizeof passed ? count * sizeof(int) : sizeof passed);
        for (size_t index = 0; index < count && index < 4; index++) {
            /* One descriptor a message: any more are closed, never leaked. */
            if (*fd < 0) {
                *fd = passed[index];
            } else {
                close(passed[index]);
            }
        }
    }
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        if (*fd >= 0) {
            close(*fd);
            *fd = -1;
        }
        errno = EMSGSIZE;
        return -1;
    }
    return received;
}

int sg_peer_credentials(int socket, pid_t *pid, uid_t *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) {
        return -1;
    }
    *pid = credentials.pid;
    *uid = credentials.uid;
    return 0;
}
