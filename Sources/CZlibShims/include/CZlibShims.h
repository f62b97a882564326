#ifndef MOCKAPI_CZLIBSHIMS_H
#define MOCKAPI_CZLIBSHIMS_H

#include <stddef.h>

/// How `CZlibShims_inflate` ended.
typedef enum {
    CZlibShims_decoded = 0,
    /// The bytes are not a gzip, zlib or raw deflate stream (or end too early).
    CZlibShims_notCompressed = 1,
    /// Decoded, they would pass `limit` bytes.
    CZlibShims_tooLarge = 2,
} CZlibShims_Result;

/// Decodes a gzip (one or more members), zlib or raw deflate stream into `*out` (malloc'd; the
/// caller frees it), at most `limit` bytes. Why a shim: zlib's init functions are macros.
CZlibShims_Result CZlibShims_inflate(const unsigned char *bytes, size_t count, size_t limit, unsigned char **out, size_t *out_count);

#endif
