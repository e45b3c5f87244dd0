/* One upload (an easy handle) and what its answer brought: the status, Retry-After, the first
 * bytes of the body for the log. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "functions.h"
#include "transfer.h"

#define F sg_curl_functions

/* Keeps Retry-After from each answer's headers (a 100 Continue's are forgotten at the next
 * status line). Header lines are hostile input: only the first 63 bytes of the value are kept. */
static size_t header_line(char *buffer, size_t size, size_t count, void *userdata) {
    struct sg_curl_transfer *transfer = userdata;
    size_t length = size * count;
    static const char name[] = "retry-after:";
    if (length >= 5 && strncmp(buffer, "HTTP/", 5) == 0) transfer->retry_after[0] = 0;
    if (length > sizeof name - 1 && strncasecmp(buffer, name, sizeof name - 1) == 0) {
        size_t start = sizeof name - 1, end = length;
        while (start < end && (buffer[start] == ' ' || buffer[start] == '\t')) start++;
        while (end > start && isspace((unsigned char)buffer[end - 1])) end--;
        size_t keep = end - start < sizeof transfer->retry_after - 1 ? end - start : sizeof transfer->retry_after - 1;
        memcpy(transfer->retry_after, buffer + start, keep);
        transfer->retry_after[keep] = 0;
    }
    return length;
}

/* Keeps the first bytes of the answer's body and drops the rest (a service's error page). */
static size_t body_bytes(char *buffer, size_t size, size_t count, void *userdata) {
    struct sg_curl_transfer *transfer = userdata;
    size_t length = size * count;
    size_t room = sizeof transfer->body - transfer->body_length;
    size_t keep = length < room ? length : room;
    memcpy(transfer->body + transfer->body_length, buffer, keep);
    transfer->body_length += keep;
    return length;
}

struct sg_curl_transfer *sg_curl_transfer_new(const char *user_agent, long connect_seconds, long stall_seconds,
                                              long total_seconds) {
    struct sg_curl_transfer *transfer = calloc(1, sizeof *transfer);
    if (transfer == NULL) return NULL;
    transfer->easy = F.curl_easy_init();
    if (transfer->easy == NULL) {
        free(transfer);
        return NULL;
    }
    CURL *easy = transfer->easy;
    /* The caller's loop owns the signals: no SIGALRM for DNS time-outs. */
    F.curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    if (F.curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK) {
        F.curl_easy_setopt(easy, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    }
    F.curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    F.curl_easy_setopt(easy, CURLOPT_USERAGENT, user_agent);
    F.curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT, connect_seconds);
    F.curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    F.curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, stall_seconds);
    F.curl_easy_setopt(easy, CURLOPT_TIMEOUT, total_seconds);
    F.curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer->error);
    F.curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, header_line);
    F.curl_easy_setopt(easy, CURLOPT_HEADERDATA, transfer);
    F.curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, body_bytes);
    F.curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer);
    F.curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer);
    /* No "Expect: 100-continue" wait before a large body: a service that ignores it costs a second. */
    transfer->headers = F.curl_slist_append(NULL, "Expect:");
    return transfer;
}

void sg_curl_transfer_free(struct sg_curl_transfer *transfer) {
    if (transfer == NULL) return;
    F.curl_easy_cleanup(transfer->easy);
    F.curl_slist_free_all(transfer->headers);
    if (transfer->mime != NULL) F.curl_mime_free(transfer->mime);
    free(transfer);
}

int sg_curl_transfer_set_url(struct sg_curl_transfer *transfer, const char *url) {
    return F.curl_easy_setopt(transfer->easy, CURLOPT_URL, url);
}

int sg_curl_transfer_add_header(struct sg_curl_transfer *transfer, const char *line) {
    struct curl_slist *list = F.curl_slist_append(transfer->headers, line);
    if (list == NULL) return CURLE_OUT_OF_MEMORY;
    transfer->headers = list;
    return CURLE_OK;
}

int sg_curl_transfer_set_body(struct sg_curl_transfer *transfer, const uint8_t *bytes, size_t length) {
    /* The size first: COPYPOSTFIELDS copies that many bytes (the body may hold zeros). */
    CURLcode code = F.curl_easy_setopt(transfer->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)length);
    if (code != CURLE_OK) return code;
    return F.curl_easy_setopt(transfer->easy, CURLOPT_COPYPOSTFIELDS, length == 0 ? "" : (const char *)bytes);
}

/* The form, made at its first part and handed to the handle once. */
static curl_mimepart *new_part(struct sg_curl_transfer *transfer, const char *name, const char *type,
                               const char *filename, CURLcode *code) {
    if (transfer->mime == NULL) {
        transfer->mime = F.curl_mime_init(transfer->easy);
        if (transfer->mime == NULL || (*code = F.curl_easy_setopt(transfer->easy, CURLOPT_MIMEPOST, transfer->mime)) != CURLE_OK) {
            if (transfer->mime == NULL) *code = CURLE_OUT_OF_MEMORY;
            return NULL;
        }
    }
    curl_mimepart *part = F.curl_mime_addpart(transfer->mime);
    if (part == NULL) {
        *code = CURLE_OUT_OF_MEMORY;
        return NULL;
    }
    if ((*code = F.curl_mime_name(part, name)) != CURLE_OK) return NULL;
    if ((*code = F.curl_mime_type(part, type)) != CURLE_OK) return NULL;
    if (filename != NULL && (*code = F.curl_mime_filename(part, filename)) != CURLE_OK) return NULL;
    return part;
}

int sg_curl_transfer_add_part_data(struct sg_curl_transfer *transfer, const char *name, const uint8_t *bytes,
                                   size_t length, const char *type, const char *filename) {
    CURLcode code = CURLE_OK;
    curl_mimepart *part = new_part(transfer, name, type, filename, &code);
    if (part == NULL) return code;
    return F.curl_mime_data(part, length == 0 ? "" : (const char *)bytes, length);
}

int sg_curl_transfer_add_part_file(struct sg_curl_transfer *transfer, const char *name, const char *path,
                                   const char *type, const char *filename) {
    CURLcode code = CURLE_OK;
    curl_mimepart *part = new_part(transfer, name, type, NULL, &code);
    if (part == NULL) return code;
    /* curl_mime_filedata sets the part's filename to the file's base name: set ours after it. */
    if ((code = F.curl_mime_filedata(part, path)) != CURLE_OK) return code;
    return filename != NULL ? F.curl_mime_filename(part, filename) : CURLE_OK;
}

long sg_curl_transfer_status(struct sg_curl_transfer *transfer) {
    long status = 0;
    if (F.curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK) return 0;
    return status;
}

const char *sg_curl_transfer_retry_after(struct sg_curl_transfer *transfer) { return transfer->retry_after; }
const char *sg_curl_transfer_error(struct sg_curl_transfer *transfer) { return transfer->error; }

const uint8_t *sg_curl_transfer_body(struct sg_curl_transfer *transfer, size_t *length) {
    *length = transfer->body_length;
    return transfer->body;
}

const char *sg_curl_strerror(int code) { return F.curl_easy_strerror((CURLcode)code); }
