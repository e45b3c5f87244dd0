/* libcurl for the reporters (HTTP and HTTPS uploads of reports), loaded on first use: libcurl
 * brings OpenSSL, nghttp2, libssh2, librtmp, LDAP, Kerberos and their dependencies, about thirty
 * libraries that every command would load and relocate at start-up if it were linked; only an
 * agent with a reporter, and `reports send`, upload anything.
 *
 * Swift sees no curl type: a transfer (one easy handle and what it collects) and a loop (one
 * multi handle whose sockets and timer are kept here for the caller's poll loop) are opaque.
 * <curl/curl.h> is used by the C files alone, for its types and constants; the functions are
 * resolved at run time (functions.h). Call sg_curl_load first and only when it returned 0. */
#ifndef SG_CURL_H
#define SG_CURL_H

#include <stddef.h>
#include <stdint.h>

/* Loads libcurl.so.4 (or libcurl-gnutls.so.4) and initialises it, once per process; later calls
 * return the first outcome. 0 when loaded; -1 with a one-line reason in `error`. Thread-safe. */
int sg_curl_load(char *error, size_t size);

/* libcurl's version, e.g. "7.88.1", once loaded. */
const char *sg_curl_version(void);

/* One upload: an easy handle, its header list, its form, and what the answer brought. */
struct sg_curl_transfer;

/* A POST transfer to nobody yet, with the options every upload has: no signals (the caller's
 * loop owns them), HTTP and HTTPS only, no redirects followed, proxies from the environment,
 * `user_agent`, the given connect timeout, a stall limit (less than 1 byte/s for `stall_seconds`)
 * and an overall limit. NULL when out of memory. */
struct sg_curl_transfer *sg_curl_transfer_new(const char *user_agent, long connect_seconds, long stall_seconds,
                                              long total_seconds);
void sg_curl_transfer_free(struct sg_curl_transfer *transfer);

/* Each returns a CURLcode (0 on success); sg_curl_strerror says what another value means. */
int sg_curl_transfer_set_url(struct sg_curl_transfer *transfer, const char *url);
/* One request header, `Name: value`. */
int sg_curl_transfer_add_header(struct sg_curl_transfer *transfer, const char *line);
/* The request body, copied: `length` bytes. */
int sg_curl_transfer_set_body(struct sg_curl_transfer *transfer, const uint8_t *bytes, size_t length);
/* A multipart/form-data part from memory (copied), or from a file read while sending.
 * `filename` may be NULL (no filename in the part's header). */
int sg_curl_transfer_add_part_data(struct sg_curl_transfer *transfer, const char *name, const uint8_t *bytes,
                                   size_t length, const char *type, const char *filename);
int sg_curl_transfer_add_part_file(struct sg_curl_transfer *transfer, const char *name, const char *path,
                                   const char *type, const char *filename);

/* After the transfer finished: the HTTP status (0 when no answer came), the Retry-After header's
 * value ("" when none), libcurl's error text ("" when none) and the first bytes of the answer's
 * body (at most 512, not terminated: `length` says how many). */
long sg_curl_transfer_status(struct sg_curl_transfer *transfer);
const char *sg_curl_transfer_retry_after(struct sg_curl_transfer *transfer);
const char *sg_curl_transfer_error(struct sg_curl_transfer *transfer);
const uint8_t *sg_curl_transfer_body(struct sg_curl_transfer *transfer, size_t *length);

const char *sg_curl_strerror(int code);

/* A multi handle shaped for a poll loop: libcurl says which sockets to wait on and when to call
 * back (its socket and timer callbacks, kept here); the caller polls them with its own. */
struct sg_curl_loop;

struct sg_curl_loop *sg_curl_loop_new(void);
void sg_curl_loop_free(struct sg_curl_loop *loop);
/* Adds or removes a transfer (a CURLMcode: 0 on success). A transfer is removed before it is
 * freed; removing one that is not added is harmless. */
int sg_curl_loop_add(struct sg_curl_loop *loop, struct sg_curl_transfer *transfer);
int sg_curl_loop_remove(struct sg_curl_loop *loop, struct sg_curl_transfer *transfer);

/* The sockets libcurl waits on: how many, and each one's descriptor and poll events. */
int sg_curl_loop_watch_count(struct sg_curl_loop *loop);
void sg_curl_loop_watch(struct sg_curl_loop *loop, int index, int *fd, short *events);

/* The timer libcurl asked for since the last call: 1 with `milliseconds` set (-1: none, 0: at
 * once) when it changed, 0 when it did not. Take it after every call that enters libcurl. */
int sg_curl_loop_take_timer(struct sg_curl_loop *loop, long *milliseconds);

/* Tells libcurl that `fd` is ready with `revents` (poll's), or, with fd -1, that its timer ran
 * out. `running` gets how many transfers are still under way. A CURLMcode. */
int sg_curl_loop_act(struct sg_curl_loop *loop, int fd, short revents, int *running);

/* A finished transfer and its CURLcode, or NULL when none is waiting. */
struct sg_curl_transfer *sg_curl_loop_next_done(struct sg_curl_loop *loop, int *result);

#endif
