/* The resolved libcurl functions, filled by load.c and used by transfer.c and loop.c. Each slot
 * has the type of the declaration in <curl/curl.h>, so the compiler checks every call. */
#ifndef SG_CURL_FUNCTIONS_H
#define SG_CURL_FUNCTIONS_H

#include <curl/curl.h>
#include "sg_curl.h"

#define SG_CURL_SYMBOLS(X)                                                                                     \
    X(curl_global_init) X(curl_version_info) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_setopt)        \
    X(curl_easy_getinfo) X(curl_easy_strerror) X(curl_slist_append) X(curl_slist_free_all) X(curl_mime_init)  \
    X(curl_mime_free) X(curl_mime_addpart) X(curl_mime_name) X(curl_mime_data) X(curl_mime_filedata)          \
    X(curl_mime_type) X(curl_mime_filename) X(curl_multi_init) X(curl_multi_cleanup) X(curl_multi_setopt)     \
    X(curl_multi_add_handle) X(curl_multi_remove_handle) X(curl_multi_socket_action) X(curl_multi_info_read)

/* __typeof__ names the declaration's type without referencing the symbol: nothing here makes
 * the linker look for libcurl. */
#define SG_CURL_SLOT(name) __typeof__(name) *name;
struct sg_curl_functions {
    SG_CURL_SYMBOLS(SG_CURL_SLOT)
};
#undef SG_CURL_SLOT

/* Valid once sg_curl_load returned 0. */
extern struct sg_curl_functions sg_curl_functions;

#endif
