#ifndef MOCKAPI_CCURLSHIMS_H
#define MOCKAPI_CCURLSHIMS_H

#include <stddef.h>

/// A growable byte buffer the caller frees with CCurlShims_buffer_free.
typedef struct {
    unsigned char *bytes;
    size_t count;
    size_t capacity;
} CCurlShims_Buffer;

/// What came back: the status, the header block of the final response (status line and
/// header lines, CRLF-separated) and the body, exactly as sent (never decompressed).
typedef struct {
    long status;
    CCurlShims_Buffer headers;
    CCurlShims_Buffer body;
    /// Why the exchange failed when status is 0 (libcurl's message).
    char error[256];
} CCurlShims_Answer;

/// The most bytes the final response's status line and header lines may take; a larger head
/// ends the exchange with `error` saying so (libmicrohttpd could not send it on).
enum { CCurlShims_max_header_bytes = 16 * 1024 };

/// libcurl's process-wide setup; call once before any other function.
int CCurlShims_global_init(void);

/// A reusable handle (it keeps its connections open between requests); NULL on failure.
void *CCurlShims_handle_new(void);
void CCurlShims_handle_free(void *handle);

/// Sends one request and waits for its answer (call off the server's threads). `headers` are
/// `Name: value` lines; `ca_file` NULL trusts the system's CAs. Redirects are not followed.
/// Returns 0 on success, else a libcurl code with `answer->error` filled in.
int CCurlShims_perform(void *handle, const char *method, const char *url, const char *const *headers, size_t header_count,
                       const void *body, size_t body_length, const char *ca_file, long timeout_seconds,
                       CCurlShims_Answer *answer);

void CCurlShims_answer_free(CCurlShims_Answer *answer);

#endif
