#include "CCurlShims.h"
#include "prepare.h"
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Why a shim: curl_easy_setopt is variadic, which Swift cannot call.

int CCurlShims_global_init(void) {
    // Without libcurl, a failure the caller reports (`CCurlShims_load_failure`), not the abort
    // that lazy_curl.c's curl_global_init gives FoundationNetworking.
    if (CCurlShims_load_failure()) return CURLE_FAILED_INIT;
    return (int)curl_global_init(CURL_GLOBAL_DEFAULT);
}

void *CCurlShims_handle_new(void) { return curl_easy_init(); }

void CCurlShims_handle_free(void *handle) { if (handle) curl_easy_cleanup((CURL *)handle); }

int CCurlShims_buffer_append(CCurlShims_Buffer *buffer, const void *data, size_t count) {
    if (buffer->count + count > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->count + count) capacity *= 2;
        unsigned char *grown = realloc(buffer->bytes, capacity);
        if (!grown) return 0;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->count, data, count);
    buffer->count += count;
    return 1;
}

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    CCurlShims_Answer *answer = user;
    return CCurlShims_buffer_append(&answer->body, data, size * count) ? size * count : 0;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
    CCurlShims_Answer *answer = user;
    size_t length = size * count;
    // A new status line (after a 100 Continue) starts the block over: keep the final response's.
    if (length >= 5 && memcmp(data, "HTTP/", 5) == 0) answer->headers.count = 0;
    // Why a bound: the client's answer is written from libmicrohttpd's per-connection memory
    // (32 KiB, shared with the request), and a head that does not fit there made it close the
    // connection without a byte (20,000 headers). Past the bound the exchange ends, and the
    // client gets a 502 saying why.
    if (answer->headers.count + length > CCurlShims_max_header_bytes) {
        snprintf(answer->error, sizeof(answer->error), "its answer's header block is over %d bytes, more than can be sent on",
                 CCurlShims_max_header_bytes);
        return 0;
    }
    return CCurlShims_buffer_append(&answer->headers, data, length) ? length : 0;
}

static size_t on_read(char *buffer, size_t size, size_t count, void *user) {
    CCurlShims_Upload *upload = user;
    size_t left = upload->length - upload->sent, room = size * count;
    size_t take = left < room ? left : room;
    memcpy(buffer, upload->bytes + upload->sent, take);
    upload->sent += take;
    return take;
}

// Why: libcurl sends a request again on a fresh connection when the kept one turns out closed
// (a backend that drops idle keep-alive connections); with an upload it must rewind the body
// first, and without a seek callback that fails ("rewinding of the data stream failed", a 502).
// The body is in memory, so any offset can be had again.
static int on_seek(void *user, curl_off_t offset, int origin) {
    CCurlShims_Upload *upload = user;
    if (origin != SEEK_SET || offset < 0 || (size_t)offset > upload->length) return CURL_SEEKFUNC_CANTSEEK;
    upload->sent = (size_t)offset;
    return CURL_SEEKFUNC_OK;
}

struct curl_slist *CCurlShims_prepare(void *handle, const char *method, const char *url, const char *const *headers,
                                      size_t header_count, CCurlShims_Upload *upload, const char *ca_file, long timeout_seconds) {
    CURL *curl = handle;
    curl_easy_reset(curl); // keeps the handle's open connections
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < header_count; i++) list = curl_slist_append(list, headers[i]);
    // libcurl would add `Expect: 100-continue` to a large upload: the target sees what the client sent.
    list = curl_slist_append(list, "Expect:");
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, timeout_seconds < 10 ? timeout_seconds : 10L);
    if (strcmp(method, "HEAD") == 0) curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    if (upload->length > 0 || (strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0 || strcmp(method, "PATCH") == 0)) {
        // The body byte for byte, with its length: never chunked, never re-encoded.
        curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(curl, CURLOPT_READFUNCTION, on_read);
        curl_easy_setopt(curl, CURLOPT_READDATA, upload);
        curl_easy_setopt(curl, CURLOPT_SEEKFUNCTION, on_seek);
        curl_easy_setopt(curl, CURLOPT_SEEKDATA, upload);
        curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)upload->length);
    }
    if (ca_file) curl_easy_setopt(curl, CURLOPT_CAINFO, ca_file);
    return list;
}

int CCurlShims_perform(void *handle, const char *method, const char *url, const char *const *headers, size_t header_count,
                       const void *body, size_t body_length, const char *ca_file, long timeout_seconds,
                       CCurlShims_Answer *answer) {
    CURL *curl = handle;
    memset(answer, 0, sizeof(*answer));
    CCurlShims_Upload upload = {body, body_length, 0};
    struct curl_slist *list = CCurlShims_prepare(handle, method, url, headers, header_count, &upload, ca_file, timeout_seconds);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, timeout_seconds);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, answer);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, answer);
    CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(list);
    if (code != CURLE_OK) {
        // A callback's own reason (a bound) says more than libcurl's "failed writing".
        if (answer->error[0] == '\0') strncpy(answer->error, curl_easy_strerror(code), sizeof(answer->error) - 1);
        answer->status = 0;
        return (int)code;
    }
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &answer->status);
    return 0;
}

void CCurlShims_answer_free(CCurlShims_Answer *answer) {
    free(answer->headers.bytes);
    free(answer->body.bytes);
    memset(answer, 0, sizeof(*answer));
}
