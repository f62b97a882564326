#include "CMicroHTTPDShims.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

// Earlier MHD versions lack MHD_DAEMON_INFO_BIND_PORT and keep-alive semantics we rely on.
#if MHD_VERSION < 0x00097000
#error "mockapi needs libmicrohttpd 0.9.70 or newer"
#endif

// Why: MHD_start_daemon is variadic, which Swift cannot call. This fixed-arity wrapper passes the
// caller's options through MHD_OPTION_ARRAY. It can go if MHD ever grows a non-variadic start call.
struct MHD_Daemon *CMicroHTTPDShims_start_daemon(unsigned int flags,
                                                 const char *host,
                                                 uint16_t port,
                                                 MHD_AccessHandlerCallback handler,
                                                 void *handler_context,
                                                 MHD_RequestCompletedCallback completed,
                                                 void *completed_context,
                                                 const struct MHD_OptionItem *options,
                                                 int *bad_host) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *address = NULL;
    *bad_host = 0;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        address = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        address = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        *bad_host = 1;
        return NULL;
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

// Why: MHD_get_daemon_info is variadic. Reading the bound port is how port 0 becomes a real port.
uint16_t CMicroHTTPDShims_daemon_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// Why: MHD_get_daemon_info is variadic. Graceful shutdown waits for this to reach zero.
unsigned int CMicroHTTPDShims_daemon_connection_count(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}
