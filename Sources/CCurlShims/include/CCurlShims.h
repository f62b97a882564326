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
/// header lines, CRLF-separated) and the body, exactly as sent (`CCurlShims_perform` never
/// decompresses it; `CCurlShims_exchange` does).
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

/// libcurl's process-wide setup; call once before any other function. libcurl itself is loaded
/// on first use (lazy_curl.c): when it cannot be, this fails and `CCurlShims_load_failure` says why.
int CCurlShims_global_init(void);

/// NULL once libcurl is loaded (it loads it); else why it could not be, for a person to read.
const char *CCurlShims_load_failure(void);

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

/// Bounds on one `CCurlShims_exchange` (`verify-backend`'s checks of a real backend).
typedef struct {
    /// The whole exchange (resolving, connecting, TLS, head and body) ends after this long,
    /// however slowly the backend trickles.
    long timeout_milliseconds;
    /// Body bytes kept, after decoding; past them the exchange ends with what fit, `body_cut` set.
    size_t max_body_bytes;
    /// Lines and bytes of the final head; past either the exchange ends, `head_cut` set.
    size_t max_header_lines;
    size_t max_head_bytes;
    /// The CAs to trust for https (a PEM file, a hashed folder); NULL for libcurl's default.
    const char *ca_file;
    const char *ca_folder;
    /// Polled while the exchange runs (at least once a second): set (`CCurlShims_flag_raise`)
    /// from another thread, it ends the exchange. NULL: none.
    const int *abandoned;
} CCurlShims_ExchangeBounds;

/// Which bound an exchange met (either is a success: the answer so far is in `answer`).
typedef struct {
    int body_cut;
    int head_cut;
} CCurlShims_ExchangeCuts;

/// One exchange as a client checking a backend makes it: exactly the request given (no cookie,
/// no proxy, no redirect followed, no authentication challenge answered, http and https only,
/// `Accept: */*` where the headers name no `Accept`), with compressed bodies decoded, bounded
/// by `bounds`. Returns 0, or a libcurl code with `answer->error` filled in.
int CCurlShims_exchange(void *handle, const char *method, const char *url, const char *const *headers, size_t header_count,
                        const void *body, size_t body_length, const CCurlShims_ExchangeBounds *bounds, CCurlShims_Answer *answer,
                        CCurlShims_ExchangeCuts *cuts);

/// Sets `*flag` to 1 so that another thread's reads see it (an exchange's `abandoned`).
void CCurlShims_flag_raise(int *flag);

/// An exchange whose answer body is passed on as it arrives, through a buffer of fixed size:
/// the forwarding thread (`CCurlShims_stream_perform`) writes into it and waits while it is full,
/// so a client that reads slowly slows the read from the target instead of filling memory; the
/// server's connection (`CCurlShims_stream_read`) takes from it. Reference-counted: the creator
/// holds one reference, `CCurlShims_stream_retain` adds one (for a reader).
typedef struct CCurlShims_Stream CCurlShims_Stream;

/// What the forwarding thread tells its caller during `CCurlShims_stream_perform`, on its thread.
typedef struct {
    /// The final head is in: its status and header block (status line and header lines,
    /// CRLF-separated). Returns 1 to pass the body on through the stream, 0 to let the exchange
    /// end with no body passed on (a `HEAD`, a 304), -1 to end the exchange here.
    int (*head)(void *context, CCurlShims_Stream *stream, long status, const unsigned char *block, size_t count);
    /// A reader that found the buffer empty (and parked) has something to take now: bytes, the
    /// end, or a failure.
    void (*readable)(void *context);
    void *context;
} CCurlShims_StreamEvents;

/// A stream with a buffer of `capacity` bytes that also keeps the body's first `keep` bytes
/// (what `record` writes; 0 keeps none).
CCurlShims_Stream *CCurlShims_stream_new(size_t capacity, size_t keep);
void CCurlShims_stream_retain(CCurlShims_Stream *stream);
void CCurlShims_stream_release(CCurlShims_Stream *stream);

/// Sends one request as `CCurlShims_perform` does, and calls `events` as the answer arrives.
/// `timeout_seconds` bounds the wait for the head, and then each silence of the target mid-body
/// (time spent waiting for the reader does not count). Returns 0 when the whole answer came,
/// else a libcurl code with `CCurlShims_stream_error` saying why. Either way a reader then
/// finds the end (-1) or a failure (-2).
int CCurlShims_stream_perform(void *handle, const char *method, const char *url, const char *const *headers,
                              size_t header_count, const void *body, size_t body_length, const char *ca_file,
                              long timeout_seconds, CCurlShims_Stream *stream, CCurlShims_StreamEvents events);

/// After `CCurlShims_stream_perform`: the final status (0 before a head), the final head's
/// block, the kept body bytes, the body's whole length, whether bytes past `keep` were dropped
/// from what is kept, and why the exchange failed ("" when it did not).
long CCurlShims_stream_status(const CCurlShims_Stream *stream);
const unsigned char *CCurlShims_stream_head(const CCurlShims_Stream *stream, size_t *count);
const unsigned char *CCurlShims_stream_kept(const CCurlShims_Stream *stream, size_t *count);
unsigned long long CCurlShims_stream_body_length(const CCurlShims_Stream *stream);
int CCurlShims_stream_cut(const CCurlShims_Stream *stream);
const char *CCurlShims_stream_error(const CCurlShims_Stream *stream);

/// The reader's side: copies up to `max` buffered bytes into `buffer` and returns their count;
/// -1 at the body's end, -2 when the exchange failed or was cancelled. With nothing buffered
/// yet it calls `park(park_context)` while holding the stream's lock (so the writer's
/// `readable` comes only after it) and returns 0; `park` returning 0 (it could not park)
/// makes it return -2.
long CCurlShims_stream_read(CCurlShims_Stream *stream, void *buffer, size_t max, int (*park)(void *), void *park_context);

/// The reader is gone (its client left, the server stops): the forwarding thread stops waiting
/// and ends the exchange.
void CCurlShims_stream_cancel(CCurlShims_Stream *stream);

#endif
