/* Loads libcurl on first use (sg_curl.h says why not at start-up). */
#include <pthread.h>
#include <stdio.h>
#include "functions.h"
#include "sg_library.h"

/* Debian's libcurl4 (OpenSSL) first; libcurl3-gnutls ships the same ABI under another soname. */
static const char *const libraries[] = { "libcurl.so.4", "libcurl-gnutls.so.4" };

struct sg_curl_functions sg_curl_functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int outcome = -1;
static char reason[512];
static char version[32];

#define SG_CURL_ENTRY(name) { #name, (void **)&sg_curl_functions.name },

static void load(void) {
    const struct sg_symbol entries[] = { SG_CURL_SYMBOLS(SG_CURL_ENTRY) };
    for (size_t index = 0; index < sizeof libraries / sizeof libraries[0]; index++) {
        char why[256];
        if (sg_library_load(libraries[index], entries, sizeof entries / sizeof entries[0], why, sizeof why) != 0) {
            if (index == 0) snprintf(reason, sizeof reason, "%s", why);
            continue;
        }
        /* Once, before any handle and before any other thread uses libcurl. */
        CURLcode code = sg_curl_functions.curl_global_init(CURL_GLOBAL_DEFAULT);
        if (code != CURLE_OK) {
            snprintf(reason, sizeof reason, "cannot initialise %s (error %d)", libraries[index], (int)code);
            return;
        }
        const curl_version_info_data *info = sg_curl_functions.curl_version_info(CURLVERSION_NOW);
        snprintf(version, sizeof version, "%s", info != NULL && info->version != NULL ? info->version : "?");
        outcome = 0;
        return;
    }
}

int sg_curl_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (outcome != 0 && error != NULL && size > 0) snprintf(error, size, "%s", reason);
    return outcome;
}

const char *sg_curl_version(void) { return version; }
