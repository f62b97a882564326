#ifndef MOCKAPI_CMICROHTTPDSHIMS_H
#define MOCKAPI_CMICROHTTPDSHIMS_H

#include "../../CMicroHTTPD/shim.h"

/// Starts a daemon bound to `host:port` (IPv4 or IPv6 literal; port 0 picks a free one).
/// Returns NULL on failure with errno set where MHD set it; `*bad_host` is 1 when `host` is not an IP literal.
struct MHD_Daemon *CMicroHTTPDShims_start_daemon(unsigned int flags,
                                                 const char *host,
                                                 uint16_t port,
                                                 MHD_AccessHandlerCallback handler,
                                                 void *handler_context,
                                                 MHD_RequestCompletedCallback completed,
                                                 void *completed_context,
                                                 const struct MHD_OptionItem *options,
                                                 int *bad_host);

/// The port the daemon listens on (the real one when started with port 0), or 0.
uint16_t CMicroHTTPDShims_daemon_port(struct MHD_Daemon *daemon);

/// How many connections the daemon holds open right now.
unsigned int CMicroHTTPDShims_daemon_connection_count(struct MHD_Daemon *daemon);

/// The connection's socket, or -1.
int CMicroHTTPDShims_connection_fd(struct MHD_Connection *connection);

/// Copies the request's headers into `buffer` as records of a 32-bit native-endian name length,
/// a 32-bit value length, the name's bytes and the value's bytes, in arrival order.
/// Returns the bytes the records take; when that exceeds `capacity`, the buffer's contents are
/// unspecified and the caller retries with the returned size.
size_t CMicroHTTPDShims_copy_headers(struct MHD_Connection *connection, uint8_t *buffer, size_t capacity);

#endif
