#ifndef MOCKAPI_CCURLSHIMS_PREPARE_H
#define MOCKAPI_CCURLSHIMS_PREPARE_H

// Shared by the two ways of sending a request (whole answers, streamed answers); not exported.

#include "CCurlShims.h"
#include <curl/curl.h>
#include <stddef.h>

/// A request body in memory, sent from `sent` on (rewound when libcurl sends it again).
typedef struct {
    const unsigned char *bytes;
    size_t length;
    size_t sent;
} CCurlShims_Upload;

/// Resets `handle` and sets the request on it: method, URL, headers (the list returned, for the
/// caller to free after the transfer), body, CA file and connect timeout.
struct curl_slist *CCurlShims_prepare(void *handle, const char *method, const char *url, const char *const *headers,
                                      size_t header_count, CCurlShims_Upload *upload, const char *ca_file, long timeout_seconds);

/// Appends `count` bytes to `buffer`, growing it by doubling; 0 when memory runs out.
int CCurlShims_buffer_append(CCurlShims_Buffer *buffer, const void *data, size_t count);

#endif
