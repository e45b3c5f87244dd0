/* The transfer's fields, shared by transfer.c and loop.c. */
#ifndef SG_CURL_TRANSFER_H
#define SG_CURL_TRANSFER_H

#include <curl/curl.h>
#include <stdint.h>

struct sg_curl_transfer {
    CURL *easy;
    struct curl_slist *headers;
    curl_mime *mime;
    char error[CURL_ERROR_SIZE];
    char retry_after[64];
    uint8_t body[512];
    size_t body_length;
};

#endif
