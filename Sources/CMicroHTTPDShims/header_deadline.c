#include "CMicroHTTPDShims.h"
#include "platform.h"

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

// Why: MHD 0.9.75's only timeout is for inactivity, so a client that trickles a header byte
// every few seconds holds its connection for ever, and enough of them lock everyone out. MHD has
// no option for a deadline on the headers as a whole; this adds one from outside: a watchdog
// thread shuts down connections that have waited too long for a request's headers, and MHD,
// seeing the socket end, closes them. It can go if MHD grows a header timeout (and stops
// missing a client's FIN; see `watch`).
// The same holds for bodies: MHD cuts none that keeps trickling (one byte every few seconds), so
// the watchdog also closes a connection whose body arrives slower than a minimum average rate,
// with a 408 saying so.
// And for clients that have gone: with about a thousand connections, MHD 0.9.75 on epoll misses
// some clients' FIN, and holds their slots until the idle timeout (30 s by default): at the
// connection limit no new client is served meanwhile (measured: a `wrk -c1000` run right after
// another got 0 answers in 5 s). The watchdog finds them by peeking; near the limit it looks
// every 20 ms instead of every half second, so new clients wait milliseconds, not a sweep.

struct watched_connection {
    struct watched_connection *previous;
    struct watched_connection *next;
    int fd;
    /// Monotonic time since which headers are awaited; 0 while a request is being handled.
    _Atomic uint64_t waiting_since;
    /// True while a request's body is being read (headers in, answer not yet queued).
    _Atomic bool reading_body;
    /// When the request's headers arrived, and how many body bytes have come since.
    _Atomic uint64_t body_since;
    _Atomic uint64_t body_bytes;
};

struct CMicroHTTPDShims_HeaderDeadline {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct watched_connection *head;
    uint64_t limit_ns;
    uint64_t min_body_rate;
    uint64_t body_grace_ns;
    bool plain_http;
    /// Connections open now, and from how many on the server counts as crowded (0: never).
    unsigned int count;
    unsigned int crowded_at;
    /// The sweep's poll() array and the connections it stands for, grown to `count` as needed.
    struct pollfd *polls;
    struct watched_connection **candidates;
    size_t capacity;
    bool stopping;
    pthread_t thread;
};

static uint64_t monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static const char too_slow[] =
    "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/problem+json\r\nContent-Length: 125\r\n\r\n"
    "{\"title\": \"the request body arrived too slowly\", \"status\": 408, \"detail\": \"below --min-body-rate; the connection is closed\"}\n";

/// True when a body has come in slower than the minimum rate, counted after the grace period.
static bool body_too_slow(const struct CMicroHTTPDShims_HeaderDeadline *deadline, const struct watched_connection *c, uint64_t now) {
    if (deadline->min_body_rate == 0) return false;
    uint64_t since = atomic_load_explicit(&c->body_since, memory_order_relaxed);
    if (since == 0 || now <= since || now - since <= deadline->body_grace_ns) return false;
    uint64_t owed_ns = now - since - deadline->body_grace_ns;
    // Bytes owed by now at the minimum rate; in 128-bit so no rate or age can overflow it.
    unsigned __int128 owed = (unsigned __int128)owed_ns * deadline->min_body_rate / 1000000000u;
    return atomic_load_explicit(&c->body_bytes, memory_order_relaxed) < owed;
}

/// How often a crowded server looks for clients that have gone: one peek per idle connection.
static const uint64_t crowded_interval = 20000000u;

/// Cuts what is late or too slow, and finds clients that have gone (FIN, nothing unread) while a
/// request is unfinished or not begun: MHD 0.9.75 on epoll sometimes misses that edge and would
/// hold the connection until the idle timeout. One poll() over every candidate tells which have
/// something to read (data, or the FIN); only those are peeked at: a thousand idle connections
/// cost one system call, not a thousand. Called under the lock, so no connection here has been
/// closed by MHD yet: its fd is still its own.
static void sweep(struct CMicroHTTPDShims_HeaderDeadline *deadline, uint64_t now) {
    if (deadline->capacity < deadline->count) {
        struct pollfd *polls = realloc(deadline->polls, deadline->count * sizeof *polls);
        if (polls != NULL) deadline->polls = polls;
        struct watched_connection **candidates = realloc(deadline->candidates, deadline->count * sizeof *candidates);
        if (candidates != NULL) deadline->candidates = candidates;
        if (polls != NULL && candidates != NULL) deadline->capacity = deadline->count;
    }
    size_t n = 0;
    for (struct watched_connection *c = deadline->head; c != NULL && n < deadline->capacity; c = c->next) {
        if (atomic_load_explicit(&c->waiting_since, memory_order_relaxed) == 0 && !atomic_load_explicit(&c->reading_body, memory_order_relaxed))
            continue; // being answered: never cut
        deadline->polls[n] = (struct pollfd){.fd = c->fd, .events = POLLIN};
        deadline->candidates[n++] = c;
    }
    if (n > 0 && poll(deadline->polls, n, 0) < 0) {
        for (size_t i = 0; i < n; i++) deadline->polls[i].revents = POLLIN; // cannot tell: peek at each
    }
    for (size_t i = 0; i < n; i++) {
        struct watched_connection *c = deadline->candidates[i];
        uint64_t since = atomic_load_explicit(&c->waiting_since, memory_order_relaxed);
        bool reading_body = atomic_load_explicit(&c->reading_body, memory_order_relaxed);
        if (since == 0 && !reading_body) continue; // answered since it was collected
        // `since` may have been set after `now` was read: unsigned, `now - since` would wrap.
        bool late = deadline->limit_ns > 0 && since != 0 && now > since && now - since > deadline->limit_ns;
        if (reading_body && body_too_slow(deadline, c, now)) {
            // MHD takes no response mid-body, so the 408 goes on the socket (a short write on a
            // plain connection whose previous answer is out; on TLS the close alone).
            if (deadline->plain_http) (void)send(c->fd, too_slow, sizeof too_slow - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            late = true;
        }
        char byte;
        bool readable = (deadline->polls[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0;
        if (late || (readable && recv(c->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0)) {
            atomic_store_explicit(&c->waiting_since, 0, memory_order_relaxed);
            atomic_store_explicit(&c->reading_body, false, memory_order_relaxed);
            shutdown(c->fd, SHUT_RDWR);
        }
    }
}

static void *watch(void *context) {
    struct CMicroHTTPDShims_HeaderDeadline *deadline = context;
    // Checking four times per limit overshoots it by at most a quarter; twice a second at most
    // for the body rate; never more than a second apart.
    uint64_t interval = 1000000000u;
    if (deadline->limit_ns > 0 && deadline->limit_ns / 4 < interval) interval = deadline->limit_ns / 4;
    if (deadline->min_body_rate > 0 && interval > 500000000u) interval = 500000000u;
    if (interval < 10000000u) interval = 10000000u;
    pthread_mutex_lock(&deadline->lock);
    while (!deadline->stopping) {
        struct timespec clock_now;
        clock_gettime(MOCKAPI_WAIT_CLOCK, &clock_now);
        bool crowded = deadline->crowded_at > 0 && deadline->count >= deadline->crowded_at;
        uint64_t wait = crowded && interval > crowded_interval ? crowded_interval : interval;
        uint64_t wake_at = (uint64_t)clock_now.tv_sec * 1000000000u + (uint64_t)clock_now.tv_nsec + wait;
        struct timespec until = {(time_t)(wake_at / 1000000000u), (long)(wake_at % 1000000000u)};
        pthread_cond_timedwait(&deadline->wake, &deadline->lock, &until);
        if (deadline->stopping) break;
        sweep(deadline, monotonic_ns());
    }
    pthread_mutex_unlock(&deadline->lock);
    return NULL;
}

struct CMicroHTTPDShims_HeaderDeadline *CMicroHTTPDShims_header_deadline_start(unsigned int header_seconds,
                                                                              unsigned int min_body_rate,
                                                                              unsigned int body_grace_seconds,
                                                                              int plain_http,
                                                                              unsigned int connection_limit) {
    struct CMicroHTTPDShims_HeaderDeadline *deadline = calloc(1, sizeof *deadline);
    if (deadline == NULL) return NULL;
    deadline->limit_ns = (uint64_t)header_seconds * 1000000000u;
    deadline->min_body_rate = min_body_rate;
    deadline->body_grace_ns = (uint64_t)body_grace_seconds * 1000000000u;
    deadline->plain_http = plain_http != 0;
    // Nine tenths: with a thread pool MHD splits the limit per thread, so one thread fills first.
    deadline->crowded_at = connection_limit - connection_limit / 10;
    mockapi_cond_init(&deadline->wake);
    pthread_mutex_init(&deadline->lock, NULL);
    if (pthread_create(&deadline->thread, NULL, watch, deadline) != 0) {
        pthread_cond_destroy(&deadline->wake);
        pthread_mutex_destroy(&deadline->lock);
        free(deadline);
        return NULL;
    }
    return deadline;
}

void CMicroHTTPDShims_header_deadline_stop(struct CMicroHTTPDShims_HeaderDeadline *deadline) {
    if (deadline == NULL) return;
    pthread_mutex_lock(&deadline->lock);
    deadline->stopping = true;
    pthread_cond_signal(&deadline->wake);
    pthread_mutex_unlock(&deadline->lock);
    pthread_join(deadline->thread, NULL);
    pthread_cond_destroy(&deadline->wake);
    pthread_mutex_destroy(&deadline->lock);
    free(deadline->polls);
    free(deadline->candidates);
    free(deadline);
}

void CMicroHTTPDShims_header_deadline_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                                             enum MHD_ConnectionNotificationCode code) {
    struct CMicroHTTPDShims_HeaderDeadline *deadline = cls;
    if (deadline == NULL) return;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        struct watched_connection *watched = calloc(1, sizeof *watched);
        if (watched == NULL) return;
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        watched->fd = info == NULL ? -1 : info->connect_fd;
        atomic_store_explicit(&watched->waiting_since, monotonic_ns(), memory_order_relaxed);
        pthread_mutex_lock(&deadline->lock);
        watched->next = deadline->head;
        if (deadline->head != NULL) deadline->head->previous = watched;
        deadline->head = watched;
        // Becoming crowded: look now rather than at the end of a long wait.
        if (++deadline->count == deadline->crowded_at) pthread_cond_signal(&deadline->wake);
        pthread_mutex_unlock(&deadline->lock);
        *socket_context = watched;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        struct watched_connection *watched = *socket_context;
        if (watched == NULL) return;
        // MHD closes the fd only after this returns, so the watchdog never shuts down a reused one.
        pthread_mutex_lock(&deadline->lock);
        if (watched->previous != NULL) watched->previous->next = watched->next; else deadline->head = watched->next;
        if (watched->next != NULL) watched->next->previous = watched->previous;
        deadline->count--;
        pthread_mutex_unlock(&deadline->lock);
        free(watched);
        *socket_context = NULL;
    }
}

static struct watched_connection *watched_connection(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

void CMicroHTTPDShims_headers_arrived(struct MHD_Connection *connection) {
    struct watched_connection *watched = watched_connection(connection);
    if (watched == NULL) return;
    atomic_store_explicit(&watched->waiting_since, 0, memory_order_relaxed);
    atomic_store_explicit(&watched->body_bytes, 0, memory_order_relaxed);
    atomic_store_explicit(&watched->body_since, monotonic_ns(), memory_order_relaxed);
    atomic_store_explicit(&watched->reading_body, true, memory_order_relaxed);
}

void CMicroHTTPDShims_body_received(struct MHD_Connection *connection, size_t bytes) {
    struct watched_connection *watched = watched_connection(connection);
    if (watched != NULL) atomic_fetch_add_explicit(&watched->body_bytes, bytes, memory_order_relaxed);
}

void CMicroHTTPDShims_answering(struct MHD_Connection *connection) {
    struct watched_connection *watched = watched_connection(connection);
    if (watched == NULL) return;
    atomic_store_explicit(&watched->reading_body, false, memory_order_relaxed);
    atomic_store_explicit(&watched->body_since, 0, memory_order_relaxed);
}

void CMicroHTTPDShims_awaiting_headers(struct MHD_Connection *connection) {
    struct watched_connection *watched = watched_connection(connection);
    if (watched == NULL) return;
    atomic_store_explicit(&watched->reading_body, false, memory_order_relaxed);
    atomic_store_explicit(&watched->waiting_since, monotonic_ns(), memory_order_relaxed);
}
