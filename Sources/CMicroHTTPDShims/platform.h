#ifndef MOCKAPI_CMICROHTTPDSHIMS_PLATFORM_H
#define MOCKAPI_CMICROHTTPDSHIMS_PLATFORM_H

// What differs between Linux and Darwin for the shims, in one place.

#include <pthread.h>
#include <sys/socket.h>
#include <time.h>

// Why: a peer that has gone must raise no SIGPIPE. Linux says so per call (MSG_NOSIGNAL);
// Darwin has no such flag, and there libmicrohttpd sets SO_NOSIGPIPE on every socket it accepts.
#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

// Why: the watchdog's timed waits should not jump with the wall clock. Linux lets a condition
// variable wait on CLOCK_MONOTONIC; Darwin has no pthread_condattr_setclock, and its waits are
// on CLOCK_REALTIME, so there the deadlines are taken on that clock.
#if defined(__APPLE__)
#define MOCKAPI_WAIT_CLOCK CLOCK_REALTIME
static inline void mockapi_cond_init(pthread_cond_t *condition) { pthread_cond_init(condition, NULL); }
#else
#define MOCKAPI_WAIT_CLOCK CLOCK_MONOTONIC
static inline void mockapi_cond_init(pthread_cond_t *condition) {
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(condition, &attributes);
    pthread_condattr_destroy(&attributes);
}
#endif

#endif
