#include "CMicroHTTPDShims.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
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
                                                 struct CMicroHTTPDShims_HeaderDeadline *header_deadline,
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
        // `::` takes IPv4 connections too (as 0.0.0.0 would), whatever the system's
        // net.ipv6.bindv6only says: `--host ::` means every address of the machine.
        flags |= IN6_IS_ADDR_UNSPECIFIED(&v6.sin6_addr) ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
    } else {
        *bad_host = 1;
        return NULL;
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_URI_LOG_CALLBACK, CMicroHTTPDShims_take_query, NULL,
                            MHD_OPTION_UNESCAPE_CALLBACK, CMicroHTTPDShims_unescape_path, NULL,
                            MHD_OPTION_NOTIFY_CONNECTION, CMicroHTTPDShims_header_deadline_notify, header_deadline,
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

// Why: MHD_get_connection_info is variadic. A response decided mid-body is written on the
// socket directly (MHD queues none until the body has ended).
static ssize_t no_body(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)cls; (void)pos; (void)buf; (void)max;
    return MHD_CONTENT_READER_END_WITH_ERROR;
}

struct MHD_Response *CMicroHTTPDShims_response_without_body(uint64_t length) {
    return MHD_create_response_from_callback(length, 1024, no_body, NULL, NULL);
}

struct MHD_Response *CMicroHTTPDShims_response_without_length(void) {
    struct MHD_Response *response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, no_body, NULL, NULL);
    // Why the flag: with an unknown size MHD would use chunked encoding for an HTTP/1.1 client;
    // HTTP/1.0 framing states nothing and ends the answer by closing.
    if (response) MHD_set_response_options(response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
    return response;
}

int CMicroHTTPDShims_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

struct header_copy {
    uint8_t *buffer;
    size_t capacity;
    size_t used;
    struct CMicroHTTPDShims_HeadScan *scan;
};

// Whether a header name is `lowercase` in any case. The name is a token (a malformed one was
// given an empty name), so `| 0x20` lowercases its letters and changes none of its other bytes
// into one of `lowercase`'s: the same test `HeaderFields.headScan` makes.
static inline __attribute__((always_inline)) bool names(const char *name, const char *lowercase, size_t size) {
    for (size_t i = 0; i < size; i++) {
        if ((uint8_t)(name[i] | 0x20) != (uint8_t)lowercase[i]) return false;
    }
    return true;
}

// One header's part of the head scan, by its name's length first: most names are none of these.
static inline __attribute__((always_inline)) void scan_header(struct CMicroHTTPDShims_HeadScan *scan, const char *name, size_t size) {
    switch (size) {
    case 0: scan->malformed = true; break;
    case 4: if (names(name, "host", 4)) scan->hosts++; break;
    case 6: if (names(name, "prefer", 6)) scan->prefers = true; break;
    case 14: if (names(name, "content-length", 14)) scan->framed = true; break;
    case 15: if (names(name, "mockapi-session", 15)) scan->names_session = true; break;
    case 17: if (names(name, "transfer-encoding", 17)) scan->framed = true; break;
    default: break;
    }
}

void CMicroHTTPDShims_scan_packed_headers(const uint8_t *buffer, size_t size, struct CMicroHTTPDShims_HeadScan *scan) {
    *scan = (struct CMicroHTTPDShims_HeadScan){0};
    size_t offset = 0;
    while (offset + 8 <= size) {
        uint32_t lengths[2];
        memcpy(lengths, buffer + offset, sizeof lengths);
        if (offset + 8 + lengths[0] > size) break;
        scan_header(scan, (const char *)buffer + offset + 8, lengths[0]);
        offset += 8 + (size_t)lengths[0] + lengths[1];
    }
}

// 1 for each byte a header name may not hold: all but RFC 9110 §5.6.2's `tchar`.
static const uint8_t not_token[256] = {
    [0 ... 0x20] = 1, ['"'] = 1, ['('] = 1, [')'] = 1, [','] = 1, ['/'] = 1, [':'] = 1, [';'] = 1, ['<'] = 1, ['='] = 1,
    ['>'] = 1, ['?'] = 1, ['@'] = 1, ['['] = 1, ['\\'] = 1, [']'] = 1, ['{'] = 1, ['}'] = 1, [0x7f ... 0xff] = 1,
};

#define EVERY_BYTE(byte) (0x0101010101010101ull * (byte))

// True when one of the 8 bytes may be a control byte (below 0x20, or 0x7f); never false when one
// is. The usual word-at-a-time tests (bytes of 0x80 and up are not flagged: obs-text is allowed).
static inline uint64_t maybe_control(uint64_t word) {
    uint64_t below_space = (word - EVERY_BYTE(0x20)) & ~word & EVERY_BYTE(0x80);
    uint64_t delete = word ^ EVERY_BYTE(0x7f);
    return below_space | ((delete - EVERY_BYTE(0x01)) & ~delete & EVERY_BYTE(0x80));
}

static inline uint64_t load_word(const char *bytes) {
    uint64_t word;
    memcpy(&word, bytes, sizeof word);
    return word;
}

// A control byte other than HTAB in `value` (RFC 9110 §5.5: CR, LF and NUL must not be sent on;
// the others are invalid too). Eight bytes at a time, the last word overlapping the one before;
// a word that may hold one (a tab does too) is looked at byte by byte.
static bool holds_control(const char *value, size_t size) {
    uint64_t flagged = 0;
    if (size >= 8) {
        for (size_t i = 0; i + 8 <= size; i += 8) flagged |= maybe_control(load_word(value + i));
        flagged |= maybe_control(load_word(value + size - 8));
        if (!flagged) return false;
    }
    for (size_t i = 0; i < size; i++) {
        uint8_t byte = (uint8_t)value[i];
        if ((byte < 0x20 && byte != '\t') || byte == 0x7f) return true;
    }
    return false;
}

// The bytes of `word` that lie in [lo, hi], as their high bits; every byte must be below 0x80
// (then neither sum carries into the next byte).
static inline uint64_t in_range(uint64_t word, uint8_t lo, uint8_t hi) {
    return (word + EVERY_BYTE(0x80 - lo)) & ~(word + EVERY_BYTE(0x7f - hi)) & EVERY_BYTE(0x80);
}

// The bytes of `word` equal to `byte`, as their high bits (exact per byte, unlike the usual test
// for any zero byte, whose borrow can flag the byte above a match).
static inline uint64_t equal_bytes(uint64_t word, uint8_t byte) {
    uint64_t v = word ^ EVERY_BYTE(byte);
    return ~(((v & EVERY_BYTE(0x7f)) + EVERY_BYTE(0x7f)) | v) & EVERY_BYTE(0x80);
}

// Whether all 8 bytes are letters, digits or '-', which is what most header names are made of.
static inline bool common_name_word(uint64_t word) {
    if (word & EVERY_BYTE(0x80)) return false;
    uint64_t ok = in_range(word | EVERY_BYTE(0x20), 'a', 'z') | in_range(word, '0', '9') | equal_bytes(word, '-');
    return ok == EVERY_BYTE(0x80);
}

// Whether every byte of a header name is a `tchar`. Eight bytes at a time while they are letters,
// digits and '-' (the last word overlapping the one before), the table for the rest: a byte at a
// time, the check cost about 6 instructions a byte of every header name of every request.
static inline __attribute__((always_inline)) bool is_token(const char *name, size_t size) {
    size_t checked = 0;
    if (size >= 8) {
        while (checked + 8 <= size && common_name_word(load_word(name + checked))) checked += 8;
        // Only once every whole word passed: a word that failed is left to the table.
        if (checked + 8 > size && checked < size && common_name_word(load_word(name + size - 8))) checked = size;
    }
    uint8_t bad = 0;
    for (size_t i = checked; i < size; i++) bad |= not_token[(uint8_t)name[i]];
    return bad == 0;
}

bool CMicroHTTPDShims_is_token(const char *name, size_t size) { return is_token(name, size); }

// Why a check here: MHD 0.9.75 takes a header line that starts with a space or tab (obs-fold,
// RFC 9112 §5.2) as a continuation and appends it to the previous header's *name*
// (`X-Fold: a\r\n b` becomes `X-Foldb: a`), accepts any byte but the colon in a name (`X Y`,
// `X(a)`), and keeps a bare CR or other control bytes in a value; the proxy would send all of it
// on. Such a header is copied as a record with an empty name and, as its value, why it is
// malformed, and the request is refused with 400 (`HeaderFields.headScan`).
//
// A fold is recognised by where MHD left the name: it ends the name by writing NUL over the
// colon and points the value past the colon and the blanks after it, in the same line, so the
// two are adjacent. A folded name was grown (in place, over the value, or moved elsewhere in the
// connection's pool), so the value no longer starts right after it. Both pointers are in that one
// pool, so reading between them stays in it; the scan stops at the first byte that is not blank.
// That layout is 0.9.75's (the version tested); later versions handle obs-fold themselves
// (RFC 9112 §5.2), so there only the name and value checks run.
static const char *malformation(const char *key, size_t key_size, const char *value, size_t value_size) {
    if (key_size == 0) return "a header line has an empty name";
#if MHD_VERSION <= 0x00097500
    static const char folded[] = "a header line continues on the next (obs-fold, RFC 9112 §5.2)";
    const char *end = key + key_size;
    if (value <= end || *end != '\0') return folded;
    for (const char *between = end + 1; between < value; between++) {
        if (*between != ' ' && *between != '\t') return folded;
    }
#endif
    if (!is_token(key, key_size)) return "a header name holds a byte that is not a token character (RFC 9110 §5.1)";
    if (holds_control(value, value_size)) return "a header value holds a control byte (CR, LF, NUL or another; RFC 9110 §5.5)";
    return NULL;
}

// Copies `size` bytes a word at a time, the last word overlapping the one before, for the short
// names and values most headers have: two calls to memcpy cost more than one header's checks.
// Writes only within out[0, size).
static inline void copy_bytes(uint8_t *out, const char *in, size_t size) {
    if (size >= 8 && size <= 64) {
        for (size_t i = 0; i + 8 < size; i += 8) memcpy(out + i, in + i, 8);
        memcpy(out + size - 8, in + size - 8, 8);
    } else if (size >= 4 && size < 8) {
        uint32_t head, tail;
        memcpy(&head, in, 4);
        memcpy(&tail, in + size - 4, 4);
        memcpy(out, &head, 4);
        memcpy(out + size - 4, &tail, 4);
    } else if (size < 4) {
        for (size_t i = 0; i < size; i++) out[i] = (uint8_t)in[i];
    } else {
        memcpy(out, in, size);
    }
}

static enum MHD_Result copy_header(void *context, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                   const char *value, size_t value_size) {
    (void)kind;
    struct header_copy *copy = context;
    const char *malformed = malformation(key, key_size, value, value_size);
    if (malformed) {
        key_size = 0;
        value = malformed;
        value_size = strlen(malformed);
    }
    size_t record = 2 * sizeof(uint32_t) + key_size + value_size;
    if (copy->used + record <= copy->capacity) {
        uint32_t lengths[2] = {(uint32_t)key_size, (uint32_t)value_size};
        uint8_t *out = copy->buffer + copy->used;
        memcpy(out, lengths, sizeof lengths);
        copy_bytes(out + sizeof lengths, key, key_size);
        copy_bytes(out + sizeof lengths + key_size, value, value_size);
    }
    copy->used += record;
    scan_header(copy->scan, key, key_size);
    return MHD_YES;
}

// Why: copying headers through a Swift closure cost a thunk, two strlen calls and a growing
// array append per header; this is one C loop over lengths MHD already knows.
size_t CMicroHTTPDShims_copy_headers(struct MHD_Connection *connection, uint8_t *buffer, size_t capacity,
                                     struct CMicroHTTPDShims_HeadScan *scan) {
    *scan = (struct CMicroHTTPDShims_HeadScan){0};
    struct header_copy copy = {buffer, capacity, 0, scan};
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, copy_header, &copy);
    return copy.used;
}

// Why: a request answered from its head needs its headers only while the access handler runs
// (to scan them and to journal them). Copied here, with no buffer to claim and no reference to
// count, rather than into a `HeaderFields` of their own. 8 KiB a thread holds any usual head;
// only the pages a thread writes are ever touched.
static _Thread_local uint8_t scratch_headers[8192] __attribute__((aligned(16)));

const uint8_t *CMicroHTTPDShims_copy_headers_to_scratch(struct MHD_Connection *connection, size_t *size,
                                                       struct CMicroHTTPDShims_HeadScan *scan) {
    size_t used = CMicroHTTPDShims_copy_headers(connection, scratch_headers, sizeof scratch_headers, scan);
    *size = used;
    return used <= sizeof scratch_headers ? scratch_headers : NULL;
}

// The thread's serving-state lease cache (`CMicroHTTPDShims_cached_lease`, in the header): a
// plain thread-local, read in line on every request.
_Thread_local struct CMicroHTTPDShims_LeaseCache CMicroHTTPDShims_lease_cache;

// A query state with no bytes that says the target has a space in it. NULL when out of memory:
// the request then goes on as if it had no query (MHD's own limits still hold).
static void *target_with_space(void) {
    struct CMicroHTTPDShims_Query *marker = malloc(sizeof *marker);
    if (marker == NULL) return NULL;
    marker->length = 0;
    marker->target_has_space = true;
    return (void *)((uintptr_t)marker | 1);
}

// Why: MHD parses query arguments into its per-connection memory pool (32 KiB by default), about
// 56 bytes a record; around 450 arguments exhaust it, and MHD 0.9.75 then neither answers nor
// closes. As the URI log callback (called before MHD splits the query), this takes a copy of the
// query and ends the string MHD is about to parse at the '?', so MHD indexes no arguments and
// mockapi parses the copy itself. If a later MHD hands the callback a copy of the URI, MHD
// parses the arguments as before and mockapi still reads its own copy.
//
// The same one scan finds a space in the target (RFC 9112 §3.2), which MHD finds only when told
// to be strict, at the cost of a search for Host in every request's headers (the server checks
// Host itself, in the walk over the headers it makes anyway): about 120 instructions a request.
void *CMicroHTTPDShims_take_query(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls;
    (void)connection;
    char *mark = (char *)uri + strcspn(uri, "? ");
    if (*mark == ' ') {
        // Refused, but its query is still cut: MHD must not index it (the pool, above).
        char *question = strchr(mark, '?');
        if (question != NULL) question[1] = '\0';
        return target_with_space();
    }
    if (*mark == '\0' || mark[1] == '\0') return NULL;
    size_t length = strlen(mark + 1);
    if (memchr(mark + 1, ' ', length) != NULL) {
        mark[1] = '\0';
        return target_with_space();
    }
    struct CMicroHTTPDShims_Query *copy = malloc(sizeof *copy + length);
    if (copy == NULL) return NULL;
    copy->length = length;
    copy->target_has_space = false;
    memcpy(copy->bytes, mark + 1, length);
    mark[1] = '\0';
    return (void *)((uintptr_t)copy | 1);
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Why: MHD's own unescaper decodes every %HH in the path before the access handler sees it, so
// `%2F` split segments and `%00` cut the path short. This one leaves those two encoded (an encoded
// slash is data, not a separator; a NUL is never a path byte) and decodes the rest in place.
size_t CMicroHTTPDShims_unescape_path(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    // Most paths have no escape at all: found with the vector scans, not a loop per byte.
    char *out = strchr(text, '%');
    if (out == NULL) return strlen(text);
    for (const char *in = out; *in != '\0'; ) {
        if (in[0] == '%') {
            int high = hex_value(in[1]);
            int low = high < 0 ? -1 : hex_value(in[2]);
            int byte = high * 16 + low;
            if (high >= 0 && low >= 0 && byte != '/' && byte != 0) {
                *out++ = (char)byte;
                in += 3;
                continue;
            }
        }
        *out++ = *in++;
    }
    *out = '\0';
    return (size_t)(out - text);
}

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void CMicroHTTPDShims_return_large_blocks(void) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
}
