#include "CMicroHTTPDShims.h"

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

struct watched_connection {
    struct watched_connection *previous;
    struct watched_connection *next;
    int fd;
    /// Monotonic time since which headers are awaited; 0 while a request is being handled.
    _Atomic uint64_t waiting_since;
    /// True while a request's body is being read (headers in, answer not yet queued).
    _Atomic bool reading_body;
};

struct CMicroHTTPDShims_HeaderDeadline {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct watched_connection *head;
    uint64_t limit_ns;
    bool stopping;
    pthread_t thread;
};

static uint64_t monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static void *watch(void *context) {
    struct CMicroHTTPDShims_HeaderDeadline *deadline = context;
    // Checking four times per limit overshoots it by at most a quarter.
    uint64_t interval = deadline->limit_ns / 4;
    if (interval > 1000000000u) interval = 1000000000u;
    pthread_mutex_lock(&deadline->lock);
    while (!deadline->stopping) {
        uint64_t wake_at = monotonic_ns() + interval;
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
            bool late = since != 0 && now > since && now - since > deadline->limit_ns;
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

struct CMicroHTTPDShims_HeaderDeadline *CMicroHTTPDShims_header_deadline_start(unsigned int seconds) {
    struct CMicroHTTPDShims_HeaderDeadline *deadline = calloc(1, sizeof *deadline);
    if (deadline == NULL) return NULL;
    deadline->limit_ns = (uint64_t)seconds * 1000000000u;
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&deadline->wake, &attributes);
    pthread_condattr_destroy(&attributes);
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
    atomic_store_explicit(&watched->reading_body, true, memory_order_relaxed);
}

void CMicroHTTPDShims_answering(struct MHD_Connection *connection) {
    struct watched_connection *watched = watched_connection(connection);
    if (watched != NULL) atomic_store_explicit(&watched->reading_body, false, memory_order_relaxed);
}

void CMicroHTTPDShims_awaiting_headers(struct MHD_Connection *connection) {
    struct watched_connection *watched = watched_connection(connection);
    if (watched == NULL) return;
    atomic_store_explicit(&watched->reading_body, false, memory_order_relaxed);
    atomic_store_explicit(&watched->waiting_since, monotonic_ns(), memory_order_relaxed);
}
