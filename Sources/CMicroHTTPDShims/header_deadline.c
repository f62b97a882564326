#include "CMicroHTTPDShims.h"
#include "platform.h"

#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

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
// And for uploads that keep just above the minimum rate: 256 of them at 1.6 KB/s held every slot
// an address (or the server) has, for hours. No rate tells them from a slow but honest network,
// and every client of a mock is often on one address (127.0.0.1), so a per-address limit alone
// would lock the good client out with the rest. What is kept instead is room: slow bodies (still
// arriving past the rate's grace, at least a second after their headers) may hold at most three quarters of the server's slots
// and three quarters of one address's; past that the slowest of them are ended with a 503 and
// Retry-After, so a quarter stays free for requests that take no time, such as a GET. Bodies
// that arrive at once never count, and nothing of this runs per request: only the sweep, and
// only beyond the share, looks at addresses (getpeername, once per connection).

struct watched_connection {
    /// First, so the socket context MHD hands back is also the watch the request path uses in line.
    struct CMicroHTTPDShims_Watch hot;
    struct watched_connection *previous;
    struct watched_connection *next;
    int fd;
    /// The watchdog's own (under its lock): the phase the sweep last saw, since when, and whether
    /// it has ended the connection already.
    uint64_t seen_phase;
    uint64_t seen_at;
    bool ended;
    /// The client's address as 16 bytes (IPv4 mapped into IPv6), read by the sweep the first time
    /// it needs it; only the watchdog touches these, under its lock.
    unsigned char peer[16];
    bool peer_known;
};

/// A slow body as the sweep ranks it: by client address, then by its average rate.
struct slow_body {
    struct watched_connection *connection;
    double rate;
};

/// The phases (`CMicroHTTPDShims_Watch.phase`, in the header). The sweep times each change of
/// phase it sees (`seen_at`): a request's phases are timed to within one sweep interval, which is
/// why the sweep runs eight times per limit.
enum {
    PHASE_AWAITING = CMicroHTTPDShims_PHASE_AWAITING,
    PHASE_BODY = CMicroHTTPDShims_PHASE_BODY,
    PHASE_ANSWERING = CMicroHTTPDShims_PHASE_ANSWERING,
    PHASE_STATE = CMicroHTTPDShims_PHASE_STATE
};

static inline uint64_t phase_of(const struct watched_connection *c) { return __atomic_load_n(&c->hot.phase, __ATOMIC_RELAXED); }

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
    /// Most connections open at once since memory was last handed back, and whether it is due
    /// (see `hand_back_memory`).
    unsigned int peak;
    bool hand_back_due;
    /// Most slow bodies held at once on the whole server and from one address (0: no cap).
    unsigned int slow_share;
    unsigned int slow_share_per_address;
    uint64_t slow_age_ns;
    /// The sweep's poll() array and the connections it stands for, grown to `count` as needed.
    struct pollfd *polls;
    struct watched_connection **candidates;
    struct slow_body *slow;
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
    uint64_t since = c->seen_at;
    if (since == 0 || now <= since || now - since <= deadline->body_grace_ns) return false;
    uint64_t owed_ns = now - since - deadline->body_grace_ns;
    // Bytes owed by now at the minimum rate; in 128-bit so no rate or age can overflow it.
    unsigned __int128 owed = (unsigned __int128)owed_ns * deadline->min_body_rate / 1000000000u;
    return __atomic_load_n(&c->hot.body_bytes, __ATOMIC_RELAXED) < owed;
}

/// How often a crowded server looks for clients that have gone: one peek per idle connection.
static const uint64_t crowded_interval = 20000000u;

static void end_connection(struct watched_connection *c) {
    c->ended = true;
    shutdown(c->fd, SHUT_RDWR);
}

/// Whether the connection is still in the phase the sweep last saw it in: reading a body, or
/// awaiting headers, when `state` says so.
static bool still(const struct watched_connection *c, uint64_t state) {
    uint64_t phase = phase_of(c);
    return !c->ended && phase == c->seen_phase && (phase & PHASE_STATE) == state;
}

/// From how long after its headers a body still arriving counts as slow (or the rate's grace if
/// longer: a body too slow for the minimum rate gets its 408 first): long enough that no body
/// sent at once (a form, a JSON document on any usable network) ever does.
static const uint64_t slow_body_age = 1000000000u;

static const char too_many_slow[] =
    "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 10\r\nContent-Type: application/problem+json\r\n"
    "Content-Length: 141\r\n\r\n"
    "{\"title\": \"too many slow request bodies\", \"status\": 503, \"detail\": \"the slowest uploads are ended so that a quarter of the slots stay free\"}\n";

/// The client's address, mapped into 16 bytes; unknown (all zero) when the socket cannot say.
static void read_peer(struct watched_connection *c) {
    if (c->peer_known) return;
    c->peer_known = true;
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getpeername(c->fd, (struct sockaddr *)&address, &length) != 0) return;
    if (address.ss_family == AF_INET6) {
        memcpy(c->peer, &((struct sockaddr_in6 *)&address)->sin6_addr, 16);
    } else if (address.ss_family == AF_INET) {
        c->peer[10] = 0xff;
        c->peer[11] = 0xff;
        memcpy(c->peer + 12, &((struct sockaddr_in *)&address)->sin_addr, 4);
    }
}

static int by_rate(const void *a, const void *b) {
    double left = ((const struct slow_body *)a)->rate, right = ((const struct slow_body *)b)->rate;
    return (left > right) - (left < right);
}

static int by_peer_then_rate(const void *a, const void *b) {
    int peer = memcmp(((const struct slow_body *)a)->connection->peer, ((const struct slow_body *)b)->connection->peer, 16);
    return peer != 0 ? peer : by_rate(a, b);
}

/// Ends the slowest of `slow` beyond `share` (sorted slowest first), with a 503 on plain HTTP;
/// those ended are taken out of the list. Returns how many are left.
static size_t end_slowest(struct CMicroHTTPDShims_HeaderDeadline *deadline, struct slow_body *slow, size_t count, size_t share) {
    if (count <= share) return count;
    for (size_t i = 0; i < count - share; i++) {
        struct watched_connection *c = slow[i].connection;
        if (!still(c, PHASE_BODY)) continue; // answered meanwhile: never cut
        if (deadline->plain_http) (void)send(c->fd, too_many_slow, sizeof too_many_slow - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
        end_connection(c);
    }
    memmove(slow, slow + (count - share), share * sizeof *slow);
    return share;
}

/// Keeps slow bodies to their share of the server's slots and of each address's (see the top).
static void cap_slow_bodies(struct CMicroHTTPDShims_HeaderDeadline *deadline, size_t count) {
    struct slow_body *slow = deadline->slow;
    if (deadline->slow_share_per_address > 0 && count > deadline->slow_share_per_address) {
        for (size_t i = 0; i < count; i++) read_peer(slow[i].connection);
        qsort(slow, count, sizeof *slow, by_peer_then_rate);
        size_t kept = 0;
        for (size_t start = 0; start < count;) {
            size_t end = start + 1;
            while (end < count && memcmp(slow[end].connection->peer, slow[start].connection->peer, 16) == 0) end++;
            size_t left = end_slowest(deadline, slow + start, end - start, deadline->slow_share_per_address);
            memmove(slow + kept, slow + start, left * sizeof *slow);
            kept += left;
            start = end;
        }
        count = kept;
    }
    if (deadline->slow_share > 0 && count > deadline->slow_share) {
        qsort(slow, count, sizeof *slow, by_rate);
        (void)end_slowest(deadline, slow, count, deadline->slow_share);
    }
}

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
        struct slow_body *slow = realloc(deadline->slow, deadline->count * sizeof *slow);
        if (slow != NULL) deadline->slow = slow;
        if (polls != NULL && candidates != NULL && slow != NULL) deadline->capacity = deadline->count;
    }
    size_t n = 0, slow_count = 0;
    for (struct watched_connection *c = deadline->head; c != NULL; c = c->next) {
        uint64_t phase = phase_of(c);
        if (phase != c->seen_phase) {
            c->seen_phase = phase;
            c->seen_at = now;
        }
        if (n >= deadline->capacity || c->ended || (phase & PHASE_STATE) == PHASE_ANSWERING) continue; // being answered: never cut
        deadline->polls[n] = (struct pollfd){.fd = c->fd, .events = POLLIN};
        deadline->candidates[n++] = c;
    }
    if (n > 0 && poll(deadline->polls, n, 0) < 0) {
        for (size_t i = 0; i < n; i++) deadline->polls[i].revents = POLLIN; // cannot tell: peek at each
    }
    for (size_t i = 0; i < n; i++) {
        struct watched_connection *c = deadline->candidates[i];
        // Moved on since it was collected (answered, or a new request): not late.
        if (phase_of(c) != c->seen_phase) continue;
        bool reading_body = (c->seen_phase & PHASE_STATE) == PHASE_BODY;
        uint64_t since = c->seen_at;
        // `since` may be later than `now` (a connection that started meanwhile): unsigned, `now - since` would wrap.
        bool late = deadline->limit_ns > 0 && !reading_body && now > since && now - since > deadline->limit_ns;
        if (reading_body && body_too_slow(deadline, c, now)) {
            // MHD takes no response mid-body, so the 408 goes on the socket (a short write on a
            // plain connection whose previous answer is out; on TLS the close alone).
            if (deadline->plain_http) (void)send(c->fd, too_slow, sizeof too_slow - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            late = true;
        }
        char byte;
        bool readable = (deadline->polls[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0;
        if (late || (readable && recv(c->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0)) {
            end_connection(c);
        } else if (reading_body) {
            uint64_t body_since = c->seen_at;
            if (body_since != 0 && now > body_since && now - body_since > deadline->slow_age_ns) {
                double rate = (double)__atomic_load_n(&c->hot.body_bytes, __ATOMIC_RELAXED) * 1e9 / (double)(now - body_since);
                deadline->slow[slow_count++] = (struct slow_body){.connection = c, .rate = rate};
            }
        }
    }
    cap_slow_bodies(deadline, slow_count);
}

/// From how many connections open at once (32 KiB of MHD memory each) their freeing is worth a
/// malloc_trim once they have all gone.
static const unsigned int hand_back_after = 64;

/// Hands the memory of closed connections back to the system, once every connection of a burst
/// of at least `hand_back_after` has closed. Each MHD worker thread allocates its connections'
/// memory in its own malloc arena, and glibc keeps what a thread freed for that thread: after
/// two bursts of 256 connections spread differently over 16 threads, the arenas held both
/// (measured: peak RSS 45.6 MB where one burst gave 37.4 MB). Called unlocked: malloc_trim walks
/// every arena (milliseconds at most), which no connection waits for.
static void hand_back_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

static void *watch(void *context) {
    struct CMicroHTTPDShims_HeaderDeadline *deadline = context;
    // A phase is timed from the first sweep that sees it, up to one interval late, and cut at
    // the sweep after its limit: checking eight times per limit overshoots it by at most a
    // quarter; twice a second at most for the body rate; never more than a second apart.
    uint64_t interval = 1000000000u;
    if (deadline->limit_ns > 0 && deadline->limit_ns / 8 < interval) interval = deadline->limit_ns / 8;
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
        if (deadline->hand_back_due) {
            deadline->hand_back_due = false;
            deadline->peak = deadline->count;
            pthread_mutex_unlock(&deadline->lock);
            hand_back_memory();
            pthread_mutex_lock(&deadline->lock);
        }
    }
    pthread_mutex_unlock(&deadline->lock);
    return NULL;
}

struct CMicroHTTPDShims_HeaderDeadline *CMicroHTTPDShims_header_deadline_start(unsigned int header_seconds,
                                                                              unsigned int min_body_rate,
                                                                              unsigned int body_grace_seconds,
                                                                              int plain_http,
                                                                              unsigned int connection_limit,
                                                                              unsigned int per_address_limit) {
    struct CMicroHTTPDShims_HeaderDeadline *deadline = calloc(1, sizeof *deadline);
    if (deadline == NULL) return NULL;
    deadline->limit_ns = (uint64_t)header_seconds * 1000000000u;
    deadline->min_body_rate = min_body_rate;
    deadline->body_grace_ns = (uint64_t)body_grace_seconds * 1000000000u;
    deadline->plain_http = plain_http != 0;
    // Nine tenths: with a thread pool MHD splits the limit per thread, so one thread fills first.
    deadline->crowded_at = connection_limit - connection_limit / 10;
    deadline->slow_share = connection_limit - connection_limit / 4;
    deadline->slow_share_per_address = per_address_limit - per_address_limit / 4;
    deadline->slow_age_ns = deadline->body_grace_ns > slow_body_age ? deadline->body_grace_ns : slow_body_age;
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
    free(deadline->slow);
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
        watched->hot.slot = -1;
        // Awaiting its first headers from now: timed here, not at the next sweep.
        uint64_t now = monotonic_ns();
        pthread_mutex_lock(&deadline->lock);
        watched->seen_phase = phase_of(watched);
        watched->seen_at = now;
        watched->next = deadline->head;
        if (deadline->head != NULL) deadline->head->previous = watched;
        deadline->head = watched;
        // Becoming crowded: look now rather than at the end of a long wait.
        if (++deadline->count == deadline->crowded_at) pthread_cond_signal(&deadline->wake);
        if (deadline->count > deadline->peak) deadline->peak = deadline->count;
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
        if (deadline->count == 0 && deadline->peak >= hand_back_after) {
            deadline->hand_back_due = true;
            pthread_cond_signal(&deadline->wake);
        }
        pthread_mutex_unlock(&deadline->lock);
        free(watched);
        *socket_context = NULL;
    }
}

void CMicroHTTPDShims_connection_awaiting_headers(struct MHD_Connection *connection) {
    CMicroHTTPDShims_awaiting_headers(CMicroHTTPDShims_watch(connection));
}

