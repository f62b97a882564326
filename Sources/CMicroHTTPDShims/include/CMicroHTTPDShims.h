#ifndef MOCKAPI_CMICROHTTPDSHIMS_H
#define MOCKAPI_CMICROHTTPDSHIMS_H

#include "../../CMicroHTTPD/shim.h"
#include <stdbool.h>

/// A watchdog that closes connections whose request headers have not all arrived within a limit,
/// or whose request body arrives slower than a minimum rate.
struct CMicroHTTPDShims_HeaderDeadline;

/// Starts the watchdog thread; NULL if it cannot. `header_seconds` 0: no header deadline;
/// `min_body_rate` 0 (bytes per second, averaged from `body_grace_seconds` after the headers):
/// no body minimum. `plain_http`: a cut body gets a 408 written before the close (not on TLS).
/// `connection_limit`: MHD's; near it, connections whose client has gone are looked for every
/// 20 ms, so they free their slots for new clients (0: no limit). `per_address_limit`: MHD's per
/// client address (0: none). Slow bodies (still arriving after `body_grace_seconds`, at least one) may hold
/// three quarters of either limit; beyond, the slowest get a 503 and are closed.
struct CMicroHTTPDShims_HeaderDeadline *CMicroHTTPDShims_header_deadline_start(unsigned int header_seconds,
                                                                              unsigned int min_body_rate,
                                                                              unsigned int body_grace_seconds,
                                                                              int plain_http,
                                                                              unsigned int connection_limit,
                                                                              unsigned int per_address_limit);

/// Stops and frees it; call after MHD_stop_daemon, when no connection remains.
void CMicroHTTPDShims_header_deadline_stop(struct CMicroHTTPDShims_HeaderDeadline *deadline);

/// MHD_OPTION_NOTIFY_CONNECTION: registers connections as they open (awaiting headers) and close.
void CMicroHTTPDShims_header_deadline_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                                             enum MHD_ConnectionNotificationCode code);

/// What the watchdog keeps of a connection that its own MHD thread reads and writes on every
/// request: the first member of the watchdog's record (the connection's socket context), so the
/// calls below are in line (as calls into this module they cost about 80 instructions a
/// request). The sweep reads `phase` and `body_bytes` from its own thread: both are loaded and
/// stored as relaxed atomics (`__atomic`, as C11 atomics on `_Atomic` fields).
struct CMicroHTTPDShims_Watch {
    /// What the connection is doing (`CMicroHTTPDShims_PHASE_*`, the low two bits) and how many
    /// times that has changed (the rest), written by its MHD thread with a plain store: no clock
    /// is read on the request path; the sweep times each change it sees.
    uint64_t phase;
    /// Body bytes that have come since the request's headers.
    uint64_t body_bytes;
    /// The server's number for the thread that serves the connection (-1 until its first
    /// request): a connection never changes thread, so it is read once per connection.
    intptr_t slot;
    /// An answer decided from the request's head (`CMicroHTTPDShims_hold_answer`): only the
    /// connection's MHD thread touches these, between a request's first access call and its end.
    struct MHD_Response *held_response;
    unsigned int held_status;
    void *held_owner;
};

/// Headers awaited (the header deadline runs), a body being read (the body rate is checked), an
/// answer decided (never cut); `STATE` masks them out of `phase`.
enum {
    CMicroHTTPDShims_PHASE_AWAITING = 0,
    CMicroHTTPDShims_PHASE_BODY = 1,
    CMicroHTTPDShims_PHASE_ANSWERING = 2,
    CMicroHTTPDShims_PHASE_STATE = 3
};

static inline void CMicroHTTPDShims_set_phase(struct CMicroHTTPDShims_Watch *watch, uint64_t state) {
    uint64_t phase = __atomic_load_n(&watch->phase, __ATOMIC_RELAXED);
    __atomic_store_n(&watch->phase, (phase | CMicroHTTPDShims_PHASE_STATE) + 1 + state, __ATOMIC_RELAXED);
}

/// The connection's watch: its socket context, which the watchdog set when it opened (NULL
/// without a watchdog).
static inline struct CMicroHTTPDShims_Watch *CMicroHTTPDShims_watch(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : (struct CMicroHTTPDShims_Watch *)info->socket_context;
}

/// A request's headers are complete: off the clock, but cut if the client stops mid-body.
/// Returns the connection's watch (NULL without a watchdog), for the calls below: looked up once
/// per request, not at each.
static inline void *CMicroHTTPDShims_headers_arrived(struct MHD_Connection *connection) {
    struct CMicroHTTPDShims_Watch *watch = CMicroHTTPDShims_watch(connection);
    if (watch == NULL) return NULL;
    __atomic_store_n(&watch->body_bytes, 0, __ATOMIC_RELAXED);
    CMicroHTTPDShims_set_phase(watch, CMicroHTTPDShims_PHASE_BODY);
    return watch;
}

/// The thread slot kept with the watch (-1 before one is set, or without a watch), and setting it.
static inline intptr_t CMicroHTTPDShims_watch_slot(void *watched) {
    return watched == NULL ? -1 : ((struct CMicroHTTPDShims_Watch *)watched)->slot;
}
static inline void CMicroHTTPDShims_watch_set_slot(void *watched, intptr_t slot) {
    if (watched != NULL) ((struct CMicroHTTPDShims_Watch *)watched)->slot = slot;
}

/// `bytes` more of the request's body have arrived (for the minimum body rate).
static inline void CMicroHTTPDShims_body_received(void *watched, size_t bytes) {
    if (watched != NULL) __atomic_fetch_add(&((struct CMicroHTTPDShims_Watch *)watched)->body_bytes, bytes, __ATOMIC_RELAXED);
}

/// The answer is decided: never cut from here on.
static inline void CMicroHTTPDShims_answering(void *watched) {
    if (watched != NULL) CMicroHTTPDShims_set_phase(watched, CMicroHTTPDShims_PHASE_ANSWERING);
}

/// A response is done: the clock runs for the next request's headers.
static inline void CMicroHTTPDShims_awaiting_headers(void *watched) {
    if (watched != NULL) CMicroHTTPDShims_set_phase(watched, CMicroHTTPDShims_PHASE_AWAITING);
}

/// The same, for a connection whose request left no watch behind (refused before it began).
void CMicroHTTPDShims_connection_awaiting_headers(struct MHD_Connection *connection);

/// An answer decided from a request's head alone (a plain request to a prepared response), held
/// on the connection's watch from the request's first access call to its last, which queues it.
/// `owner` (what keeps `response` alive) stays held until the request ends.
static inline void CMicroHTTPDShims_hold_answer(void *watched, struct MHD_Response *response, unsigned int status, void *owner) {
    struct CMicroHTTPDShims_Watch *watch = watched;
    watch->held_response = response;
    watch->held_status = status;
    watch->held_owner = owner;
}

/// Queues the answer held on `watched` (`CMicroHTTPDShims_hold_answer`).
static inline enum MHD_Result CMicroHTTPDShims_queue_held_answer(struct MHD_Connection *connection, void *watched) {
    struct CMicroHTTPDShims_Watch *watch = watched;
    return MHD_queue_response(connection, watch->held_status, watch->held_response);
}

/// Ends the hold: returns its owner, for the caller to let go.
static inline void *CMicroHTTPDShims_release_held_answer(void *watched) {
    struct CMicroHTTPDShims_Watch *watch = watched;
    void *owner = watch->held_owner;
    watch->held_response = NULL;
    watch->held_owner = NULL;
    return owner;
}

/// The request state of a request answered from its head: its watch, tagged (bit 1; a query
/// copy's tag is bit 0, and both are 16-byte aligned allocations). Inline: asked on every call.
static inline void *CMicroHTTPDShims_held_state(void *watched) { return (void *)((uintptr_t)watched | 2); }

/// The watch a request state holds an answer on, or NULL when the state is not one.
static inline void *CMicroHTTPDShims_held_watch(void *request_state) {
    return ((uintptr_t)request_state & 2) ? (void *)((uintptr_t)request_state & ~(uintptr_t)2) : NULL;
}

/// Starts a daemon bound to `host:port` (IPv4 or IPv6 literal; port 0 picks a free one), with
/// `CMicroHTTPDShims_take_query` and `CMicroHTTPDShims_unescape_path` installed, and
/// `header_deadline` (may be NULL) notified of connections.
/// Returns NULL on failure with errno set where MHD set it; `*bad_host` is 1 when `host` is not an IP literal.
struct MHD_Daemon *CMicroHTTPDShims_start_daemon(unsigned int flags,
                                                 const char *host,
                                                 uint16_t port,
                                                 MHD_AccessHandlerCallback handler,
                                                 void *handler_context,
                                                 MHD_RequestCompletedCallback completed,
                                                 void *completed_context,
                                                 const struct MHD_OptionItem *options,
                                                 struct CMicroHTTPDShims_HeaderDeadline *header_deadline,
                                                 int *bad_host);

/// The port the daemon listens on (the real one when started with port 0), or 0.
uint16_t CMicroHTTPDShims_daemon_port(struct MHD_Daemon *daemon);

/// How many connections the daemon holds open right now.
unsigned int CMicroHTTPDShims_daemon_connection_count(struct MHD_Daemon *daemon);

/// Makes the C allocator hand large blocks (256 KiB and up: buffered JSON bodies) straight back to
/// the system when freed, instead of keeping them (glibc raises its threshold as blocks are freed,
/// and a burst of large bodies then stays in the process). No effect off glibc.
void CMicroHTTPDShims_return_large_blocks(void);

/// The connection's socket, or -1.
int CMicroHTTPDShims_connection_fd(struct MHD_Connection *connection);

/// A response whose head states `length` as its Content-Length but that has no body to send: an
/// answer to HEAD, or a 304 (MHD sends neither's body). Its reader is never called; if it were,
/// it ends the connection with an error rather than send bytes it does not have.
struct MHD_Response *CMicroHTTPDShims_response_without_body(uint64_t length);

/// A response whose head states no length at all (no Content-Length, no Transfer-Encoding): a 304
/// whose backend stated none, where MHD 0.9.75 would write `Content-Length: 0` (RFC 9110 §8.6
/// allows only the 200's length). MHD then closes the connection after it, as HTTP/1.0 would.
struct MHD_Response *CMicroHTTPDShims_response_without_length(void);

/// NULL when GnuTLS accepts the PEM certificate (chain) and private key as a pair, otherwise its
/// reason (a static string).
const char *CMicroHTTPDShims_tls_check(const char *certificate_pem, const char *key_pem);

/// Writes on the connection outside libmicrohttpd: through its TLS session on an HTTPS daemon,
/// on the socket otherwise. Returns the bytes sent, or -1 (errno set for the socket; EINTR: retry).
ssize_t CMicroHTTPDShims_connection_send(struct MHD_Connection *connection, const void *bytes, size_t length);

/// What the server asks of a request's head (`HeaderFields.HeadScan`): how many Host lines,
/// and whether it has a Prefer header, body framing (Content-Length, Transfer-Encoding), a
/// Mockapi-Session header, or a malformed line (copied with an empty name).
struct CMicroHTTPDShims_HeadScan {
    uint32_t hosts;
    bool prefers;
    bool framed;
    bool names_session;
    bool malformed;
};

/// `HeaderFields.HeadScan.isPlain` of a scan the copy made, for the server's plain path (which
/// never makes the Swift scan): well formed, one Host, no body framing, no session header.
static inline bool CMicroHTTPDShims_head_is_plain(const struct CMicroHTTPDShims_HeadScan *scan) {
    return !scan->malformed && scan->hosts == 1 && !scan->framed && !scan->names_session;
}

/// Copies the request's headers into `buffer` as records of a 32-bit native-endian name length,
/// a 32-bit value length, the name's bytes and the value's bytes, in arrival order.
/// Returns the bytes the records take; when that exceeds `capacity`, the buffer's contents are
/// unspecified and the caller retries with the returned size.
///
/// `scan` is filled as the headers are copied: what `HeaderFields.headScan` would say of the
/// copy, with no second walk over it (`HeadScanAgreementTests` holds the two equal).
size_t CMicroHTTPDShims_copy_headers(struct MHD_Connection *connection, uint8_t *buffer, size_t capacity,
                                     struct CMicroHTTPDShims_HeadScan *scan);

/// The same copy into the calling thread's own scratch buffer, which the next call on that thread
/// overwrites: the bytes are read within the access handler's call only. Sets `*size` to the
/// bytes the records take, and returns NULL (the buffer unspecified) when they pass its room.
const uint8_t *CMicroHTTPDShims_copy_headers_to_scratch(struct MHD_Connection *connection, size_t *size,
                                                       struct CMicroHTTPDShims_HeadScan *scan);

/// The scan `copy_headers` makes, of headers already in its layout (records of two 32-bit
/// lengths, then name and value), for the tests that hold it to `HeaderFields.headScan`.
void CMicroHTTPDShims_scan_packed_headers(const uint8_t *buffer, size_t size, struct CMicroHTTPDShims_HeadScan *scan);

/// Whether every byte of `name` is an RFC 9110 `tchar` (the check `copy_headers` makes of each
/// header name), for the tests that hold it to the grammar.
bool CMicroHTTPDShims_is_token(const char *name, size_t size);

/// A request's query string, copied before libmicrohttpd could index it; or, with
/// `target_has_space`, word that the request target has a space in it (and no bytes).
struct CMicroHTTPDShims_Query {
    size_t length;
    bool target_has_space;
    char bytes[];
};

/// MHD_OPTION_URI_LOG_CALLBACK: returns NULL for a request without a query, otherwise a tagged
/// pointer (low bit set) to a malloc'd `CMicroHTTPDShims_Query`, and ends the query MHD would
/// parse at the '?'. The pointer becomes the request's state for the access handler. A target
/// with a space in it (which RFC 9112 §3.2 forbids; MHD, not strict, takes the last space as the
/// one before the version) gets a query that says so, so it leaves the path every plain request
/// takes and is refused in the access handler.
void *CMicroHTTPDShims_take_query(void *cls, const char *uri, struct MHD_Connection *connection);

/// A query copy's bytes (`length` of them).
static inline const uint8_t *CMicroHTTPDShims_query_bytes(const struct CMicroHTTPDShims_Query *query) {
    return (const uint8_t *)query->bytes;
}

/// The query copy a request state holds, or NULL when the state is not one (free it with free()).
/// Inline: the access handler asks on each of a request's calls, and a call cost more than the test.
static inline struct CMicroHTTPDShims_Query *CMicroHTTPDShims_query(void *request_state) {
    return ((uintptr_t)request_state & 1) ? (struct CMicroHTTPDShims_Query *)((uintptr_t)request_state & ~(uintptr_t)1) : NULL;
}

/// MHD_OPTION_UNESCAPE_CALLBACK: decodes %HH in place except %2F and %00; returns the new length.
size_t CMicroHTTPDShims_unescape_path(void *cls, struct MHD_Connection *connection, char *text);

/// The calling thread's last serving-state lease and the cell it is for (`ServingStateCell`, whose
/// pthread key holds the lease's retain): one thread-local read on every request.
struct CMicroHTTPDShims_LeaseCache {
    uint64_t cell;
    void *lease;
};
extern _Thread_local struct CMicroHTTPDShims_LeaseCache CMicroHTTPDShims_lease_cache;

/// The lease cached for `cell`, or NULL when the thread's cache holds another cell's (or none).
static inline void *CMicroHTTPDShims_cached_lease(uint64_t cell) {
    return CMicroHTTPDShims_lease_cache.cell == cell ? CMicroHTTPDShims_lease_cache.lease : NULL;
}

static inline void CMicroHTTPDShims_cache_lease(uint64_t cell, void *lease) {
    CMicroHTTPDShims_lease_cache.cell = cell;
    CMicroHTTPDShims_lease_cache.lease = lease;
}

#endif
