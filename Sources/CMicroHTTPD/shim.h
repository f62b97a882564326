#ifndef MOCKAPI_CMICROHTTPD_SHIM_H
#define MOCKAPI_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// SHA-256 for the request journal. nettle ships with libmicrohttpd-dev's own dependency chain
// (libgnutls28-dev -> nettle-dev), so it adds nothing to install; its assembly beats a Swift loop.
#include <nettle/sha2.h>

#endif
