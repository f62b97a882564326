#include "CCurlShims.h"
#include "prepare.h"
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

// `verify-backend`'s exchanges: a check of a backend nobody here controls, so every part of the
// answer is bounded (its time, its head, its body) and nothing but the request given is sent
// anywhere. Why not URLSession: on Linux it read a 2 GB answer ahead of the delegate that cut it
// (hundreds of MB held), 20,000 headers held every exchange's deadline for a minute, and a 401
// with `WWW-Authenticate: Basic` waited for ever.

typedef struct {
    CURL *curl;
    CCurlShims_Answer *answer;
    const CCurlShims_ExchangeBounds *bounds;
    CCurlShims_ExchangeCuts cuts;
    int head_request;  // HEAD: the announced length is the GET's, no body comes
    size_t lines;      // header lines of the current head (the status line not counted)
    size_t head_bytes; // bytes of the current head, trailers included
    int encoded;       // the current head names a Content-Encoding
    int body_started;  // header lines from here on are trailers: counted, not kept
} Exchange;

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    Exchange *exchange = user;
    CCurlShims_Buffer *body = &exchange->answer->body;
    size_t length = size * count, room = exchange->bounds->max_body_bytes - body->count;
    exchange->body_started = 1;
    if (length > room) {
        // What fits is kept, and the exchange ends here: the rest is never read.
        if (room > 0 && !CCurlShims_buffer_append(body, data, room)) return 0;
        exchange->cuts.body_cut = 1;
        return 0;
    }
    return CCurlShims_buffer_append(body, data, length) ? length : 0;
}

/// Whether the final head (ending now) announces a body longer than the bound: then none of it
/// is read. Not for a HEAD, a 1xx, a 204 or a 304 (no body follows whatever the length says),
/// nor an encoded body (the bound is on the decoded bytes).
static int announces_too_much(Exchange *exchange, CURL *curl) {
    long status = 0;
    curl_off_t length = -1;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    if (exchange->head_request || exchange->encoded || status < 200 || status == 204 || status == 304) return 0;
    return length >= 0 && (unsigned long long)length > (unsigned long long)exchange->bounds->max_body_bytes;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
    Exchange *exchange = user;
    CCurlShims_Buffer *head = &exchange->answer->headers;
    size_t length = size * count;
    int status_line = length >= 5 && memcmp(data, "HTTP/", 5) == 0;
    int blank = length <= 2 && (length == 0 || data[0] == '\r' || data[0] == '\n');
    if (status_line && !exchange->body_started) {
        // A new head (after a 1xx) starts over: the final one is the answer.
        head->count = 0;
        exchange->lines = 0;
        exchange->head_bytes = 0;
        exchange->encoded = 0;
    } else if (!blank) {
        exchange->lines++;
    }
    exchange->head_bytes += length;
    if (exchange->lines > exchange->bounds->max_header_lines || exchange->head_bytes > exchange->bounds->max_head_bytes) {
        // 20,000 headers: the head so far is kept, and nothing more is read.
        exchange->cuts.head_cut = 1;
        return 0;
    }
    if (exchange->body_started) return length;
    if (length > 17 && strncasecmp(data, "content-encoding:", 17) == 0) exchange->encoded = 1;
    if (!CCurlShims_buffer_append(head, data, length)) return 0;
    if (blank && announces_too_much(exchange, exchange->curl)) {
        exchange->cuts.body_cut = 1;
        return 0;
    }
    return length;
}

static int on_progress(void *user, curl_off_t download_total, curl_off_t downloaded, curl_off_t upload_total, curl_off_t uploaded) {
    (void)download_total, (void)downloaded, (void)upload_total, (void)uploaded;
    const Exchange *exchange = user;
    // Non-zero ends the exchange (CURLE_ABORTED_BY_CALLBACK): its caller has stopped waiting.
    return exchange->bounds->abandoned && __atomic_load_n(exchange->bounds->abandoned, __ATOMIC_ACQUIRE);
}

void CCurlShims_flag_raise(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }

int CCurlShims_exchange(void *handle, const char *method, const char *url, const char *const *headers, size_t header_count,
                        const void *body, size_t body_length, const CCurlShims_ExchangeBounds *bounds, CCurlShims_Answer *answer,
                        CCurlShims_ExchangeCuts *cuts) {
    CURL *curl = handle;
    memset(answer, 0, sizeof(*answer));
    Exchange exchange = {.curl = curl, .answer = answer, .bounds = bounds, .head_request = strcmp(method, "HEAD") == 0};
    CCurlShims_Upload upload = {body, body_length, 0};
    long seconds = (bounds->timeout_milliseconds + 999) / 1000;
    // Method, URL, headers (`Expect:` removed), the body with its length, no redirect followed.
    struct curl_slist *list = CCurlShims_prepare(handle, method, url, headers, header_count, &upload, bounds->ca_file, seconds);
    char error[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    // The whole exchange, not each silence in it: a backend trickling 1 byte a second ends here.
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, bounds->timeout_milliseconds);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, bounds->timeout_milliseconds);
    // Only the host it was given: `$http_proxy` and friends never route a check elsewhere.
    curl_easy_setopt(curl, CURLOPT_PROXY, "");
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    // No credential but the request's own headers: a 401's challenge is the backend's answer.
    curl_easy_setopt(curl, CURLOPT_NETRC, (long)CURL_NETRC_IGNORED);
    // Compressed answers are decoded, as URLSession did: the checks read JSON. The body bound is
    // on the decoded bytes, so a small gzip of gigabytes is cut too.
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    if (bounds->ca_folder) curl_easy_setopt(curl, CURLOPT_CAPATH, bounds->ca_folder);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &exchange);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &exchange);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &exchange);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(list);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, NULL);
    *cuts = exchange.cuts;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &answer->status);
    if (code == CURLE_OK || (code == CURLE_WRITE_ERROR && (cuts->body_cut || cuts->head_cut))) return 0;
    snprintf(answer->error, sizeof(answer->error), "%s", error[0] ? error : curl_easy_strerror(code));
    return (int)code;
}
