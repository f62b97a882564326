// libcurl, loaded when first used rather than when mockapi starts.
//
// Why: libcurl is the only reason the binary mapped 20 more shared libraries (OpenSSL, Kerberos,
// LDAP, SASL, SSH, RTMP, brotli, zstd, ...): at every start the loader opened, mapped and relocated
// them (4 to 5 ms of the 17 to 21 ms a `serve` took to its first 200) and they held 3.7 MB resident,
// though only `record`, `--proxy-unmatched`, `verify-backend` and URLSession (`verify`) ever send
// through libcurl. So the binary does not link libcurl: every libcurl function it calls, its own
// shims' and FoundationNetworking's alike, is defined here, hidden, and calls the real one through
// a pointer resolved by `dlopen("libcurl.so.4")` on the first call. The package that ships
// libcurl.so.4 (Debian: libcurl4) stays a runtime dependency.

#define CURL_DISABLE_TYPECHECK 1
#include "CCurlShims.h"
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// curl.h makes these macros (to check that three arguments are passed); here they are defined.
#undef curl_easy_setopt
#undef curl_easy_getinfo
#undef curl_multi_setopt

// Every libcurl function the binary calls: its return type, name, parameters, and the value a
// call returns when libcurl could not be loaded.
#define MOCKAPI_CURL_FUNCTIONS(X)                                                                               \
    X(CURL *, curl_easy_init, (void), (), NULL)                                                                \
    X(CURLcode, curl_easy_perform, (CURL * handle), (handle), CURLE_FAILED_INIT)                               \
    X(CURLcode, curl_easy_pause, (CURL * handle, int bitmask), (handle, bitmask), CURLE_FAILED_INIT)           \
    X(const char *, curl_easy_strerror, (CURLcode code), (code), "libcurl could not be loaded")                \
    X(struct curl_slist *, curl_slist_append, (struct curl_slist * list, const char *string), (list, string), \
      NULL)                                                                                                    \
    X(CURLM *, curl_multi_init, (void), (), NULL)                                                              \
    X(CURLMcode, curl_multi_add_handle, (CURLM * multi, CURL * handle), (multi, handle), CURLM_INTERNAL_ERROR) \
    X(CURLMcode, curl_multi_remove_handle, (CURLM * multi, CURL * handle), (multi, handle),                    \
      CURLM_INTERNAL_ERROR)                                                                                    \
    X(CURLMcode, curl_multi_assign, (CURLM * multi, curl_socket_t socket, void *pointer), (multi, socket, pointer), \
      CURLM_INTERNAL_ERROR)                                                                                    \
    X(CURLMcode, curl_multi_cleanup, (CURLM * multi), (multi), CURLM_INTERNAL_ERROR)                           \
    X(CURLMsg *, curl_multi_info_read, (CURLM * multi, int *queued), (multi, queued), NULL)                   \
    X(CURLMcode, curl_multi_socket_action, (CURLM * multi, curl_socket_t socket, int mask, int *running),      \
      (multi, socket, mask, running), CURLM_INTERNAL_ERROR)                                                    \
    X(CURLU *, curl_url, (void), (), NULL)                                                                     \
    X(CURLUcode, curl_url_get, (CURLU * url, CURLUPart part, char **value, unsigned int flags),                \
      (url, part, value, flags), CURLUE_OUT_OF_MEMORY)                                                         \
    X(CURLUcode, curl_url_set, (CURLU * url, CURLUPart part, const char *value, unsigned int flags),           \
      (url, part, value, flags), CURLUE_OUT_OF_MEMORY)                                                         \
    X(char *, curl_version, (void), (), (char *)"libcurl could not be loaded")                                 \
    X(curl_version_info_data *, curl_version_info, (CURLversion age), (age), NULL)

// The ones that return nothing.
#define MOCKAPI_CURL_VOID(X) \
    X(curl_easy_cleanup, (CURL * handle), (handle)) \
    X(curl_easy_reset, (CURL * handle), (handle)) \
    X(curl_free, (void *pointer), (pointer)) \
    X(curl_slist_free_all, (struct curl_slist * list), (list))

// The variadic ones: each takes exactly one argument after the option, of the type the option
// number's range says (curl.h's CURLOPTTYPE_* and CURLINFO_*), passed on as that type.
#define MOCKAPI_CURL_VARIADIC(X)                                                       \
    X(CURLcode, curl_easy_setopt, (CURL * handle, CURLoption option, ...), CURLE_FAILED_INIT) \
    X(CURLcode, curl_easy_getinfo, (CURL * handle, CURLINFO info, ...), CURLE_FAILED_INIT)    \
    X(CURLMcode, curl_multi_setopt, (CURLM * multi, CURLMoption option, ...), CURLM_INTERNAL_ERROR)

static struct {
#define MOCKAPI_POINTER(type, name, parameters, arguments, failed) type(*name) parameters;
    MOCKAPI_CURL_FUNCTIONS(MOCKAPI_POINTER)
#undef MOCKAPI_POINTER
#define MOCKAPI_POINTER(type, name, parameters, failed) type(*name) parameters;
    MOCKAPI_CURL_VARIADIC(MOCKAPI_POINTER)
#undef MOCKAPI_POINTER
#define MOCKAPI_POINTER(name, parameters, arguments) void(*name) parameters;
    MOCKAPI_CURL_VOID(MOCKAPI_POINTER)
#undef MOCKAPI_POINTER
    CURLcode (*curl_global_init)(long flags);
} real;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

static void load(void) {
    // $MOCKAPI_LIBCURL names another file (a libcurl elsewhere, or none, as the tests do).
    const char *name = getenv("MOCKAPI_LIBCURL");
#ifdef __APPLE__
    if (!name || !*name) name = "/usr/lib/libcurl.4.dylib";
#else
    if (!name || !*name) name = "libcurl.so.4";
#endif
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof(load_error), "libcurl could not be loaded (%s): install libcurl (Debian: libcurl4)",
                 reason ? reason : name);
        return;
    }
    void *symbol;
#define MOCKAPI_RESOLVE_VOID(name, ...) MOCKAPI_RESOLVE(void, name)
#define MOCKAPI_RESOLVE(type, name, ...)                                                                         \
    if (!(symbol = dlsym(library, #name))) {                                                                    \
        snprintf(load_error, sizeof(load_error), "libcurl could not be loaded (%s has no %s): install libcurl 7.62 or later", \
                 name_of_library, #name);                                                               \
        return;                                                                                                  \
    }                                                                                                            \
    memcpy(&real.name, &symbol, sizeof(symbol));
    const char *name_of_library = name;
    MOCKAPI_CURL_FUNCTIONS(MOCKAPI_RESOLVE)
    MOCKAPI_CURL_VARIADIC(MOCKAPI_RESOLVE)
    MOCKAPI_CURL_VOID(MOCKAPI_RESOLVE_VOID)
    MOCKAPI_RESOLVE(CURLcode, curl_global_init)
#undef MOCKAPI_RESOLVE_VOID
#undef MOCKAPI_RESOLVE
    loaded = 1;
}

const char *CCurlShims_load_failure(void) {
    pthread_once(&load_once, load);
    return loaded ? NULL : load_error;
}

/// Whether libcurl is in; a call that cannot do without it (FoundationNetworking's, which would
/// go on with a NULL handle) ends the process saying why instead.
static int available(int fatal) {
    pthread_once(&load_once, load);
    if (!loaded && fatal) {
        fprintf(stderr, "mockapi: %s\n", load_error);
        abort();
    }
    return loaded;
}

// The functions that hand out what the others take (a handle, a list, a string) return their
// failure value, so that the shims can say why; the rest are only reached with such a thing.
#define MOCKAPI_DEFINE(type, name, parameters, arguments, failed)        \
    __attribute__((visibility("hidden"))) type name parameters {        \
        if (!available(0)) return failed;                               \
        return real.name arguments;                                     \
    }
MOCKAPI_CURL_FUNCTIONS(MOCKAPI_DEFINE)
#undef MOCKAPI_DEFINE
#define MOCKAPI_DEFINE(name, parameters, arguments)                     \
    __attribute__((visibility("hidden"))) void name parameters {        \
        if (available(0)) real.name arguments;                          \
    }
MOCKAPI_CURL_VOID(MOCKAPI_DEFINE)
#undef MOCKAPI_DEFINE

// FoundationNetworking's first call (URLSession, `verify`): it would stop at a `try!` saying only
// "libcurl.Easy Code=2". The shims' own first call, CCurlShims_global_init, asks first.
__attribute__((visibility("hidden"))) CURLcode curl_global_init(long flags) {
    available(1);
    return real.curl_global_init(flags);
}

/// Passes on the one argument after `option` as the type its number's range gives it.
#define MOCKAPI_FORWARD_OPTION(function, first, option)                                   \
    va_list arguments;                                                                    \
    va_start(arguments, option);                                                          \
    long kind = (long)(option) / 10000 * 10000;                                           \
    __typeof__(real.function(first, option, 0L)) result;                                  \
    if (kind == CURLOPTTYPE_LONG) {                                                       \
        result = real.function(first, option, va_arg(arguments, long));                  \
    } else if (kind == CURLOPTTYPE_OFF_T) {                                               \
        result = real.function(first, option, va_arg(arguments, curl_off_t));            \
    } else if (kind == CURLOPTTYPE_FUNCTIONPOINT) {                                       \
        result = real.function(first, option, va_arg(arguments, void (*)(void)));         \
    } else {                                                                              \
        result = real.function(first, option, va_arg(arguments, void *));                 \
    }                                                                                     \
    va_end(arguments);                                                                    \
    return result;

__attribute__((visibility("hidden"))) CURLcode curl_easy_setopt(CURL *handle, CURLoption option, ...) {
    available(1);
    MOCKAPI_FORWARD_OPTION(curl_easy_setopt, handle, option)
}

__attribute__((visibility("hidden"))) CURLMcode curl_multi_setopt(CURLM *multi, CURLMoption option, ...) {
    available(1);
    MOCKAPI_FORWARD_OPTION(curl_multi_setopt, multi, option)
}

__attribute__((visibility("hidden"))) CURLcode curl_easy_getinfo(CURL *handle, CURLINFO info, ...) {
    available(1);
    // Every CURLINFO_* takes a pointer to where the answer goes.
    va_list arguments;
    va_start(arguments, info);
    CURLcode result = real.curl_easy_getinfo(handle, info, va_arg(arguments, void *));
    va_end(arguments);
    return result;
}
