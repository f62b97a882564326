/*
 * Reference server for scripts/bench/run: the least work libmicrohttpd can do to serve the
 * bundled example API's benchmarked routes. mockapi is measured against it, so it uses the
 * same daemon mode (internal polling thread + epoll, a thread pool of one thread per core,
 * a connection limit) and serves the same fixture bytes, prepared once at startup.
 *
 * Routes:
 *   GET  /v1/activities                               -> --activities FILE
 *   GET  /v1/projects/<int>/backers/<int>             -> --backing FILE
 *   POST /v1/projects/<int>/updates/draft/images      -> --image FILE (status --image-status)
 *        multipart/form-data with one file part "image" (image/jpeg|png|gif), parsed with
 *        MHD_PostProcessor; the part's SHA-256 is computed with nettle, as mockapi's journal does.
 *
 * Prints "reference listening on http://127.0.0.1:PORT" as its first stdout line and stops
 * cleanly on SIGINT/SIGTERM.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <microhttpd.h>
#include <nettle/sha2.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#if MHD_VERSION < 0x00097500
#error "reference.c needs libmicrohttpd 0.9.75 or newer"
#endif

/* A file's bytes, read once and kept for the process lifetime. */
struct blob {
  char *data;
  size_t size;
};

static struct MHD_Response *activities_response;
static struct MHD_Response *backing_response;
static struct MHD_Response *image_response;
static struct MHD_Response *not_found_response;
static struct MHD_Response *unprocessable_response;
static unsigned int image_status = 200;
static uint64_t max_image_bytes = UINT64_MAX;

/* Per-request state; the address of `get_marker` flags a GET that has seen its first call. */
static int get_marker;

struct upload_state {
  struct MHD_PostProcessor *post;
  struct sha256_ctx sha;
  uint64_t image_bytes;
  int image_seen;
  int invalid;
  uint8_t digest[SHA256_DIGEST_SIZE];
};

static void die(const char *what) {
  fprintf(stderr, "reference: %s\n", what);
  exit(2);
}

static struct blob read_file(const char *path) {
  struct blob b = {NULL, 0};
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "reference: cannot open %s: %s\n", path, strerror(errno));
    exit(2);
  }
  size_t cap = 1 << 16;
  b.data = malloc(cap);
  if (!b.data) die("out of memory");
  size_t n;
  while ((n = fread(b.data + b.size, 1, cap - b.size, f)) > 0) {
    b.size += n;
    if (b.size == cap) {
      cap *= 2;
      b.data = realloc(b.data, cap);
      if (!b.data) die("out of memory");
    }
  }
  fclose(f);
  return b;
}

static struct MHD_Response *json_response(const char *data, size_t size) {
  struct MHD_Response *r =
      MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_PERSISTENT);
  if (!r || MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json") != MHD_YES)
    die("cannot create a response");
  return r;
}

static struct MHD_Response *fixture_response(const char *path) {
  struct blob b = read_file(path);
  return json_response(b.data, b.size);
}

/* Consumes "<int>" (optional '-', then one or more digits) and returns the rest, or NULL. */
static const char *skip_int(const char *p) {
  if (*p == '-') p++;
  const char *start = p;
  while (*p >= '0' && *p <= '9') p++;
  return p == start ? NULL : p;
}

static const char *skip_literal(const char *p, const char *literal) {
  size_t n = strlen(literal);
  return p && strncmp(p, literal, n) == 0 ? p + n : NULL;
}

/* /v1/projects/<int>/backers/<int> */
static int is_backing_path(const char *url) {
  const char *p = skip_literal(url, "/v1/projects/");
  if (p) p = skip_int(p);
  p = skip_literal(p, "/backers/");
  if (p) p = skip_int(p);
  return p && *p == '\0';
}

/* /v1/projects/<int>/updates/draft/images */
static int is_upload_path(const char *url) {
  const char *p = skip_literal(url, "/v1/projects/");
  if (p) p = skip_int(p);
  p = skip_literal(p, "/updates/draft/images");
  return p && *p == '\0';
}

static int allowed_image_type(const char *content_type) {
  if (!content_type) return 0;
  static const char *const types[] = {"image/jpeg", "image/png", "image/gif"};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    size_t n = strlen(types[i]);
    if (strncasecmp(content_type, types[i], n) == 0 &&
        (content_type[n] == '\0' || content_type[n] == ';' || content_type[n] == ' '))
      return 1;
  }
  return 0;
}

static enum MHD_Result on_part(void *cls, enum MHD_ValueKind kind, const char *key,
                               const char *filename, const char *content_type,
                               const char *transfer_encoding, const char *data, uint64_t off,
                               size_t size) {
  (void)kind; (void)transfer_encoding; (void)off;
  struct upload_state *st = cls;
  if (!key || strcmp(key, "image") != 0 || !filename || !allowed_image_type(content_type)) {
    st->invalid = 1;
    return MHD_YES; /* keep reading so the connection stays usable for keep-alive */
  }
  st->image_seen = 1;
  st->image_bytes += size;
  if (st->image_bytes > max_image_bytes) st->invalid = 1;
  if (size > 0) sha256_update(&st->sha, size, (const uint8_t *)data);
  return MHD_YES;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls) {
  (void)cls; (void)version;
  int is_get = strcmp(method, MHD_HTTP_METHOD_GET) == 0;
  int is_post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;

  if (*con_cls == NULL) {
    /* First call: headers only. Queueing now would make MHD 0.9.75 close the connection. */
    if (is_post && is_upload_path(url)) {
      struct upload_state *st = calloc(1, sizeof *st);
      if (!st) return MHD_NO;
      sha256_init(&st->sha);
      st->post = MHD_create_post_processor(connection, 64 * 1024, on_part, st);
      if (!st->post) st->invalid = 1; /* not multipart/form-data with a boundary */
      *con_cls = st;
    } else {
      *con_cls = &get_marker;
    }
    return MHD_YES;
  }

  if (*con_cls != &get_marker) {
    struct upload_state *st = *con_cls;
    if (*upload_data_size > 0) {
      if (st->post && MHD_post_process(st->post, upload_data, *upload_data_size) != MHD_YES)
        st->invalid = 1;
      *upload_data_size = 0;
      return MHD_YES;
    }
    if (!st->image_seen) st->invalid = 1;
    sha256_digest(&st->sha, sizeof st->digest, st->digest);
    if (st->invalid)
      return MHD_queue_response(connection, MHD_HTTP_UNPROCESSABLE_CONTENT, unprocessable_response);
    return MHD_queue_response(connection, image_status, image_response);
  }

  if (*upload_data_size > 0) { /* a body on a route that takes none: drain it */
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (is_get && strcmp(url, "/v1/activities") == 0)
    return MHD_queue_response(connection, MHD_HTTP_OK, activities_response);
  if (is_get && is_backing_path(url))
    return MHD_queue_response(connection, MHD_HTTP_OK, backing_response);
  return MHD_queue_response(connection, MHD_HTTP_NOT_FOUND, not_found_response);
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                         enum MHD_RequestTerminationCode toe) {
  (void)cls; (void)connection; (void)toe;
  if (*con_cls && *con_cls != &get_marker) {
    struct upload_state *st = *con_cls;
    if (st->post) MHD_destroy_post_processor(st->post);
    free(st);
  }
  *con_cls = NULL;
}

static void usage(void) {
  fprintf(stderr,
          "usage: reference --activities FILE --backing FILE --image FILE\n"
          "                 [--image-status N] [--image-max-bytes N] [--port N]\n"
          "                 [--threads N] [--connection-limit N] [--connection-timeout S]\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *activities = NULL, *backing = NULL, *image = NULL;
  unsigned int port = 0, connection_limit = 1024, connection_timeout = 30;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned int threads = cores > 0 ? (unsigned int)cores : 1;

  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) usage();
    const char *flag = argv[i], *value = argv[++i];
    if (strcmp(flag, "--activities") == 0) activities = value;
    else if (strcmp(flag, "--backing") == 0) backing = value;
    else if (strcmp(flag, "--image") == 0) image = value;
    else if (strcmp(flag, "--image-status") == 0) image_status = (unsigned int)atoi(value);
    else if (strcmp(flag, "--image-max-bytes") == 0) max_image_bytes = strtoull(value, NULL, 10);
    else if (strcmp(flag, "--port") == 0) port = (unsigned int)atoi(value);
    else if (strcmp(flag, "--threads") == 0) threads = (unsigned int)atoi(value);
    else if (strcmp(flag, "--connection-limit") == 0) connection_limit = (unsigned int)atoi(value);
    else if (strcmp(flag, "--connection-timeout") == 0) connection_timeout = (unsigned int)atoi(value);
    else usage();
  }
  if (!activities || !backing || !image || port > 65535 || threads == 0) usage();

  activities_response = fixture_response(activities);
  backing_response = fixture_response(backing);
  image_response = fixture_response(image);
  static const char not_found[] = "{\"error\":\"not found\"}";
  static const char unprocessable[] = "{\"error\":\"invalid upload\"}";
  not_found_response = json_response(not_found, sizeof not_found - 1);
  unprocessable_response = json_response(unprocessable, sizeof unprocessable - 1);

  /* Block the stop signals before MHD starts its threads, so they inherit the mask and only
     sigwait() below sees SIGINT/SIGTERM. */
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, NULL);
  signal(SIGPIPE, SIG_IGN);

  struct sockaddr_in addr;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

  /* The options mockapi's MockServer passes (its MHD_USE_AUTO_INTERNAL_THREAD picks epoll on
     Linux), so only the request handling differs. */
  struct MHD_Daemon *daemon = MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC, (uint16_t)port, NULL, NULL,
      on_request, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
      MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout, MHD_OPTION_NOTIFY_COMPLETED, on_completed,
      NULL, MHD_OPTION_END);
  if (!daemon) die("MHD_start_daemon failed");

  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  if (!info) die("cannot read the bound port");
  printf("reference listening on http://127.0.0.1:%u\n", (unsigned int)info->port);
  fflush(stdout);

  int sig;
  while (sigwait(&stop, &sig) != 0) {
  }
  MHD_stop_daemon(daemon);
  return 0;
}
