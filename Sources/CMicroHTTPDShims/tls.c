#include "CMicroHTTPDShims.h"
#include "platform.h"

#include <gnutls/gnutls.h>
#include <string.h>

// Why: libmicrohttpd only says NULL when its GnuTLS refuses a certificate or key. Loading the
// pair the same way first turns that into GnuTLS's own reason ("The certificate and the given
// key do not match."), which a person can act on. It can go if MHD ever reports why it failed.
const char *CMicroHTTPDShims_tls_check(const char *certificate_pem, const char *key_pem) {
    gnutls_certificate_credentials_t credentials;
    int result = gnutls_certificate_allocate_credentials(&credentials);
    if (result < 0) return gnutls_strerror(result);
    gnutls_datum_t certificate = {(unsigned char *)certificate_pem, (unsigned int)strlen(certificate_pem)};
    gnutls_datum_t key = {(unsigned char *)key_pem, (unsigned int)strlen(key_pem)};
    result = gnutls_certificate_set_x509_key_mem(credentials, &certificate, &key, GNUTLS_X509_FMT_PEM);
    gnutls_certificate_free_credentials(credentials);
    return result < 0 ? gnutls_strerror(result) : NULL;
}

// Why: an answer decided mid-body is written past libmicrohttpd (it queues none until the body
// has ended). On an HTTPS connection those bytes must go through the connection's TLS session;
// plain bytes on the socket would be garbage to the client.
ssize_t CMicroHTTPDShims_connection_send(struct MHD_Connection *connection, const void *bytes, size_t length) {
    const union MHD_ConnectionInfo *tls = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    if (tls != NULL && tls->tls_session != NULL) {
        ssize_t sent = gnutls_record_send((gnutls_session_t)tls->tls_session, bytes, length);
        return sent < 0 ? -1 : sent;
    }
    int descriptor = CMicroHTTPDShims_connection_fd(connection);
    if (descriptor < 0) return -1;
    return send(descriptor, bytes, length, MSG_NOSIGNAL);
}
