#include "CCurlShims.h"
#include "prepare.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// Why: an answer used to be read whole before the client saw a byte (a 1 GiB answer held
// 1.9 GB, its first byte came after 4.5 s). Here the forwarding thread hands the body over as it
// comes, through a ring of fixed size, and waits while the ring is full: the client's reading
// sets the pace of the read from the target, and memory stays at the ring per connection.
// Waiting in the write callback (rather than pausing a multi handle) keeps one thread per
// exchange, as before; the forwarder's threads are its own, never the server's.

struct CCurlShims_Stream {
    pthread_mutex_t lock;
    pthread_cond_t room; // the reader took bytes, or cancelled
    _Atomic int references;

    unsigned char *ring;
    size_t capacity, start, count;
    int streaming;      // the head said to pass the body on
    int finished;       // the whole body is in the ring (or was taken)
    int failed;         // the exchange ended early: the reader gets -2
    int cancelled;      // the reader is gone
    int reader_waiting; // a reader found the ring empty and parked

    // Only the forwarding thread touches these, during and after perform.
    size_t keep;
    CCurlShims_Buffer head, kept;
    unsigned long long body_length;
    int cut;
    int head_done;
    long status;
    char error[256];
    long timeout_seconds;
    double started, last_arrival;
    CCurlShims_StreamEvents events;
};

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

CCurlShims_Stream *CCurlShims_stream_new(size_t capacity, size_t keep) {
    CCurlShims_Stream *stream = calloc(1, sizeof(*stream));
    if (!stream) return NULL;
    stream->ring = malloc(capacity ? capacity : 1);
    if (!stream->ring) {
        free(stream);
        return NULL;
    }
    stream->capacity = capacity ? capacity : 1;
    stream->keep = keep;
    atomic_init(&stream->references, 1);
    pthread_mutex_init(&stream->lock, NULL);
    pthread_cond_init(&stream->room, NULL);
    return stream;
}

void CCurlShims_stream_retain(CCurlShims_Stream *stream) { atomic_fetch_add(&stream->references, 1); }

void CCurlShims_stream_release(CCurlShims_Stream *stream) {
    if (!stream || atomic_fetch_sub(&stream->references, 1) != 1) return;
    pthread_mutex_destroy(&stream->lock);
    pthread_cond_destroy(&stream->room);
    free(stream->ring);
    free(stream->head.bytes);
    free(stream->kept.bytes);
    free(stream);
}

/// Ends what the reader will see (under the lock) and says whether a parked reader must be woken.
static int end_locked(CCurlShims_Stream *stream, int failed) {
    if (failed) stream->failed = 1;
    else stream->finished = 1;
    int wake = stream->reader_waiting;
    stream->reader_waiting = 0;
    return wake;
}

static size_t on_stream_header(char *data, size_t size, size_t count, void *user) {
    CCurlShims_Stream *stream = user;
    size_t length = size * count;
    // Trailers of a chunked body come here too: the head passed on is the one before the body.
    if (stream->head_done) return length;
    // A new status line (after a 100 Continue) starts the block over: keep the final response's.
    if (length >= 5 && memcmp(data, "HTTP/", 5) == 0) stream->head.count = 0;
    // The bound `CCurlShims_perform` keeps (see there): past it, a 502 saying why.
    if (stream->head.count + length > CCurlShims_max_header_bytes) {
        snprintf(stream->error, sizeof(stream->error), "its answer's header block is over %d bytes, more than can be sent on",
                 CCurlShims_max_header_bytes);
        return 0;
    }
    if (!CCurlShims_buffer_append(&stream->head, data, length)) return 0;
    if (!(length <= 2 && (data[0] == '\r' || data[0] == '\n'))) return length;
    // The blank line ends a head: a 1xx one is followed by another, any other is the answer's.
    long status = 0;
    const char *space = memchr(stream->head.bytes, ' ', stream->head.count);
    if (space) status = strtol(space + 1, NULL, 10);
    if (status >= 100 && status < 200) return length;
    stream->status = status;
    stream->head_done = 1;
    stream->last_arrival = now();
    int decision = stream->events.head(stream->events.context, stream, status, stream->head.bytes, stream->head.count);
    if (decision < 0) {
        if (stream->error[0] == '\0') snprintf(stream->error, sizeof(stream->error), "its answer could not be sent on");
        return 0;
    }
    pthread_mutex_lock(&stream->lock);
    stream->streaming = decision > 0;
    pthread_mutex_unlock(&stream->lock);
    return length;
}

static size_t on_stream_body(char *data, size_t size, size_t count, void *user) {
    CCurlShims_Stream *stream = user;
    size_t length = size * count;
    stream->body_length += length;
    if (stream->kept.count < stream->keep) {
        size_t take = stream->keep - stream->kept.count < length ? stream->keep - stream->kept.count : length;
        if (!CCurlShims_buffer_append(&stream->kept, data, take)) return 0;
    }
    if (stream->kept.count == stream->keep && stream->body_length > stream->keep) stream->cut = 1;
    pthread_mutex_lock(&stream->lock);
    if (!stream->streaming) {
        pthread_mutex_unlock(&stream->lock);
        stream->last_arrival = now();
        return length;
    }
    size_t written = 0;
    while (written < length) {
        while (stream->count == stream->capacity && !stream->cancelled) pthread_cond_wait(&stream->room, &stream->lock);
        if (stream->cancelled) {
            pthread_mutex_unlock(&stream->lock);
            snprintf(stream->error, sizeof(stream->error), "the client left before the answer's end");
            return 0;
        }
        size_t end = (stream->start + stream->count) % stream->capacity;
        size_t room = stream->capacity - stream->count;
        size_t contiguous = stream->capacity - end < room ? stream->capacity - end : room;
        size_t take = length - written < contiguous ? length - written : contiguous;
        memcpy(stream->ring + end, data + written, take);
        stream->count += take;
        written += take;
        if (stream->reader_waiting) {
            stream->reader_waiting = 0;
            pthread_mutex_unlock(&stream->lock);
            stream->events.readable(stream->events.context);
            pthread_mutex_lock(&stream->lock);
        }
    }
    pthread_mutex_unlock(&stream->lock);
    // Time spent waiting for the reader is not the target's silence.
    stream->last_arrival = now();
    return length;
}

/// libcurl calls this about once a second, and on every transfer: the target's time limits.
static int on_stream_progress(void *user, curl_off_t download_total, curl_off_t downloaded, curl_off_t upload_total,
                              curl_off_t uploaded) {
    (void)download_total, (void)downloaded, (void)upload_total, (void)uploaded;
    CCurlShims_Stream *stream = user;
    double at = now();
    if (!stream->head_done && at - stream->started > (double)stream->timeout_seconds) {
        snprintf(stream->error, sizeof(stream->error), "Timeout: no answer within %ld s", stream->timeout_seconds);
        return 1;
    }
    if (stream->head_done && at - stream->last_arrival > (double)stream->timeout_seconds) {
        snprintf(stream->error, sizeof(stream->error), "Timeout: the body stopped for %ld s", stream->timeout_seconds);
        return 1;
    }
    return 0;
}

int CCurlShims_stream_perform(void *handle, const char *method, const char *url, const char *const *headers,
                              size_t header_count, const void *body, size_t body_length, const char *ca_file,
                              long timeout_seconds, CCurlShims_Stream *stream, CCurlShims_StreamEvents events) {
    CURL *curl = handle;
    stream->events = events;
    stream->timeout_seconds = timeout_seconds;
    stream->started = now();
    CCurlShims_Upload upload = {body, body_length, 0};
    struct curl_slist *list = CCurlShims_prepare(handle, method, url, headers, header_count, &upload, ca_file, timeout_seconds);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_stream_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, stream);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_stream_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, stream);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_stream_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, stream);
    CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(list);
    if (code != CURLE_OK && stream->error[0] == '\0') strncpy(stream->error, curl_easy_strerror(code), sizeof(stream->error) - 1);
    if (code != CURLE_OK && !stream->head_done) stream->status = 0;
    pthread_mutex_lock(&stream->lock);
    int wake = end_locked(stream, code != CURLE_OK);
    pthread_mutex_unlock(&stream->lock);
    if (wake) events.readable(events.context);
    return (int)code;
}

long CCurlShims_stream_status(const CCurlShims_Stream *stream) { return stream->status; }

const unsigned char *CCurlShims_stream_head(const CCurlShims_Stream *stream, size_t *count) {
    *count = stream->head.count;
    return stream->head.bytes;
}

const unsigned char *CCurlShims_stream_kept(const CCurlShims_Stream *stream, size_t *count) {
    *count = stream->kept.count;
    return stream->kept.bytes;
}

unsigned long long CCurlShims_stream_body_length(const CCurlShims_Stream *stream) { return stream->body_length; }

int CCurlShims_stream_cut(const CCurlShims_Stream *stream) { return stream->cut; }

const char *CCurlShims_stream_error(const CCurlShims_Stream *stream) { return stream->error; }

long CCurlShims_stream_read(CCurlShims_Stream *stream, void *buffer, size_t max, int (*park)(void *), void *park_context) {
    pthread_mutex_lock(&stream->lock);
    long result;
    if (stream->count > 0) {
        size_t contiguous = stream->capacity - stream->start < stream->count ? stream->capacity - stream->start : stream->count;
        size_t take = max < contiguous ? max : contiguous;
        memcpy(buffer, stream->ring + stream->start, take);
        stream->start = (stream->start + take) % stream->capacity;
        stream->count -= take;
        pthread_cond_signal(&stream->room);
        result = (long)take;
    } else if (stream->failed || stream->cancelled) {
        result = -2;
    } else if (stream->finished) {
        result = -1;
    } else if (park(park_context)) {
        stream->reader_waiting = 1;
        result = 0;
    } else {
        result = -2;
    }
    pthread_mutex_unlock(&stream->lock);
    return result;
}

void CCurlShims_stream_cancel(CCurlShims_Stream *stream) {
    pthread_mutex_lock(&stream->lock);
    stream->cancelled = 1;
    pthread_cond_broadcast(&stream->room);
    pthread_mutex_unlock(&stream->lock);
}
