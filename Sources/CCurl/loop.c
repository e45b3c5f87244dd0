/* A multi handle whose sockets and timer are kept for the caller's poll loop (libcurl's
 * socket and timer callbacks, the curl_multi_socket_action way of driving transfers). */
#include <poll.h>
#include <stdlib.h>
#include "functions.h"
#include "transfer.h"

#define F sg_curl_functions

/* A transfer uses one or two sockets (two while Happy Eyeballs tries IPv6 and IPv4); the
 * reporters run one transfer per destination. A loop that would need more fails that transfer. */
#define SG_CURL_WATCHES 64

struct sg_curl_watch {
    curl_socket_t fd;
    short events;
};

struct sg_curl_loop {
    CURLM *multi;
    struct sg_curl_watch watches[SG_CURL_WATCHES];
    int count;
    long timer;
    int timer_changed;
};

static int socket_changed(CURL *easy, curl_socket_t fd, int what, void *userdata, void *socketdata) {
    (void)easy;
    (void)socketdata;
    struct sg_curl_loop *loop = userdata;
    int index = 0;
    while (index < loop->count && loop->watches[index].fd != fd) index++;
    if (what == CURL_POLL_REMOVE) {
        if (index < loop->count) loop->watches[index] = loop->watches[--loop->count];
        return 0;
    }
    if (index == loop->count) {
        if (loop->count == SG_CURL_WATCHES) return -1;
        loop->count++;
    }
    loop->watches[index].fd = fd;
    loop->watches[index].events = (short)((what & CURL_POLL_IN ? POLLIN : 0) | (what & CURL_POLL_OUT ? POLLOUT : 0));
    return 0;
}

static int timer_changed(CURLM *multi, long milliseconds, void *userdata) {
    (void)multi;
    struct sg_curl_loop *loop = userdata;
    loop->timer = milliseconds;
    loop->timer_changed = 1;
    return 0;
}

struct sg_curl_loop *sg_curl_loop_new(void) {
    struct sg_curl_loop *loop = calloc(1, sizeof *loop);
    if (loop == NULL) return NULL;
    loop->multi = F.curl_multi_init();
    if (loop->multi == NULL) {
        free(loop);
        return NULL;
    }
    loop->timer = -1;
    F.curl_multi_setopt(loop->multi, CURLMOPT_SOCKETFUNCTION, socket_changed);
    F.curl_multi_setopt(loop->multi, CURLMOPT_SOCKETDATA, loop);
    F.curl_multi_setopt(loop->multi, CURLMOPT_TIMERFUNCTION, timer_changed);
    F.curl_multi_setopt(loop->multi, CURLMOPT_TIMERDATA, loop);
    return loop;
}

void sg_curl_loop_free(struct sg_curl_loop *loop) {
    if (loop == NULL) return;
    F.curl_multi_cleanup(loop->multi);
    free(loop);
}

int sg_curl_loop_add(struct sg_curl_loop *loop, struct sg_curl_transfer *transfer) {
    F.curl_easy_setopt(transfer->easy, CURLOPT_HTTPHEADER, transfer->headers);
    return F.curl_multi_add_handle(loop->multi, transfer->easy);
}

int sg_curl_loop_remove(struct sg_curl_loop *loop, struct sg_curl_transfer *transfer) {
    return F.curl_multi_remove_handle(loop->multi, transfer->easy);
}

int sg_curl_loop_watch_count(struct sg_curl_loop *loop) { return loop->count; }

void sg_curl_loop_watch(struct sg_curl_loop *loop, int index, int *fd, short *events) {
    if (index < 0 || index >= loop->count) {
        *fd = -1;
        *events = 0;
        return;
    }
    *fd = loop->watches[index].fd;
    *events = loop->watches[index].events;
}

int sg_curl_loop_take_timer(struct sg_curl_loop *loop, long *milliseconds) {
    if (!loop->timer_changed) return 0;
    loop->timer_changed = 0;
    *milliseconds = loop->timer;
    return 1;
}

int sg_curl_loop_act(struct sg_curl_loop *loop, int fd, short revents, int *running) {
    if (fd < 0) return F.curl_multi_socket_action(loop->multi, CURL_SOCKET_TIMEOUT, 0, running);
    int mask = (revents & POLLIN ? CURL_CSELECT_IN : 0) | (revents & POLLOUT ? CURL_CSELECT_OUT : 0)
        | (revents & (POLLERR | POLLHUP | POLLNVAL) ? CURL_CSELECT_ERR : 0);
    return F.curl_multi_socket_action(loop->multi, fd, mask, running);
}

struct sg_curl_transfer *sg_curl_loop_next_done(struct sg_curl_loop *loop, int *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = F.curl_multi_info_read(loop->multi, &left)) != NULL) {
        if (message->msg != CURLMSG_DONE) continue;
        struct sg_curl_transfer *transfer = NULL;
        F.curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&transfer);
        *result = (int)message->data.result;
        return transfer;
    }
    return NULL;
}
