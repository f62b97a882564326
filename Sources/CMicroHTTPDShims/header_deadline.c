#include "CMicroHTTPDShims.h"
#include "platform.h"

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
        uint64_t wake_at = (uint64_t)clock_now.tv_sec * 1000000000u + (uint64_t)clock_now.tv_nsec + interval;
        struct timespec until = {(time_t)(wake_at / 1000000000u), (long)(wake_at % 1000000000u)};
        pthread_cond_timedwait(&deadline->wake, &deadline->lock, &until);
        if (deadline->stopping) break;
        uint64_t now = monotonic_ns();
        // Under the lock, so no connection here has been closed by MHD yet: its fd is still its own.
        for (struct watched_connection *c = deadline->head; c != NULL; c = c->next) {
            uint64_t since = atomic_load_explicit(&c->waiting_since, memory_order_relaxed);
            bool reading_body = atomic_load_explicit(&c->reading_body, memory_order_relaxed);
            if (since == 0 && !reading_body) continue; // being answered: never cut
            // Also a client that has stopped sending (FIN, nothing unread) while its request is
            // unfinished or not begun: MHD 0.9.75 on epoll sometimes misses that edge, and would
            // hold the connection until the idle timeout.
            char byte;
            // `since` may have been set after `now` was read: unsigned, `now - since` would wrap.
            bool late = deadline->limit_ns > 0 && since != 0 && now > since && now - since > deadline->limit_ns;
            if (reading_body && body_too_slow(deadline, c, now)) {
                // MHD takes no response mid-body, so the 408 goes on the socket (a short write on a
                // plain connection whose previous answer is out; on TLS the close alone).
                if (deadline->plain_http) (void)send(c->fd, too_slow, sizeof too_slow - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
                late = true;
            }
            if (late || recv(c->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0) {
                atomic_store_explicit(&c->waiting_since, 0, memory_order_relaxed);
                atomic_store_explicit(&c->reading_body, false, memory_order_relaxed);
                shutdown(c->fd, SHUT_RDWR);
            }
        }
    }
    pthread_mutex_unlock(&deadline->lock);
    return NULL;
}

struct CMicroHTTPDShims_HeaderDeadline *CMicroHTTPDShims_header_deadline_start(unsigned int header_seconds,
                                                                              unsigned int min_body_rate,
                                                                              unsigned int body_grace_seconds,
                                                                              int plain_http) {
    struct CMicroHTTPDShims_HeaderDeadline *deadline = calloc(1, sizeof *deadline);
    if (deadline == NULL) return NULL;
    deadline->limit_ns = (uint64_t)header_seconds * 1000000000u;
    deadline->min_body_rate = min_body_rate;
    deadline->body_grace_ns = (uint64_t)body_grace_seconds * 1000000000u;
    deadline->plain_http = plain_http != 0;
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
        pthread_mutex_unlock(&deadline->lock);
        *socket_context = watched;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        struct watched_connection *watched = *socket_context;
        if (watched == NULL) return;
        // MHD closes the fd only after this returns, so the watchdog never shuts down a reused one.
        pthread_mutex_lock(&deadline->lock);
        if (watched->previous != NULL) watched->previous->next = watched->next; else deadline->head = watched->next;
        if (watched->next != NULL) watched->next->previous = watched->previous;
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
