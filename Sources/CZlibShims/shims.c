#include "CZlibShims.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// window_bits: 15 + 32 reads gzip and zlib headers; -15 is a raw deflate stream (what some
// servers send as `Content-Encoding: deflate`, though RFC 9110 names the zlib format).
static CZlibShims_Result run(const unsigned char *bytes, size_t count, size_t limit, int window_bits, unsigned char **out,
                             size_t *out_count) {
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (inflateInit2(&stream, window_bits) != Z_OK) return CZlibShims_notCompressed;
    size_t capacity = count * 4 + 256, used = 0;
    if (capacity > limit + 1) capacity = limit + 1;
    unsigned char *buffer = malloc(capacity);
    if (!buffer) { inflateEnd(&stream); return CZlibShims_tooLarge; }
    stream.next_in = (unsigned char *)bytes;
    size_t left = count;
    CZlibShims_Result result = CZlibShims_notCompressed;
    for (;;) {
        // avail_in is 32 bits: feed a large input in slices.
        if (stream.avail_in == 0 && left > 0) {
            uInt slice = left > (1u << 30) ? (1u << 30) : (uInt)left;
            stream.avail_in = slice;
            left -= slice;
        }
        if (used == capacity) {
            if (capacity > limit) { result = CZlibShims_tooLarge; break; }
            size_t grown = capacity * 2 > limit + 1 ? limit + 1 : capacity * 2;
            unsigned char *bigger = realloc(buffer, grown);
            if (!bigger) { result = CZlibShims_tooLarge; break; }
            buffer = bigger;
            capacity = grown;
        }
        size_t room = capacity - used;
        stream.next_out = buffer + used;
        stream.avail_out = room > (1u << 30) ? (1u << 30) : (uInt)room;
        uInt before = stream.avail_out;
        int code = inflate(&stream, Z_NO_FLUSH);
        used += before - stream.avail_out;
        if (used > limit) { result = CZlibShims_tooLarge; break; }
        if (code == Z_STREAM_END) {
            // Another gzip member may follow (concatenated gzip is one body).
            if ((stream.avail_in > 0 || left > 0) && window_bits > 0 && stream.next_in[0] == 0x1f) {
                if (inflateReset(&stream) != Z_OK) break;
                continue;
            }
            if (stream.avail_in == 0 && left == 0) result = CZlibShims_decoded;
            break;
        }
        if (code == Z_BUF_ERROR && stream.avail_in == 0 && left == 0) break; // the stream ends too early
        if (code != Z_OK && code != Z_BUF_ERROR) break;
    }
    inflateEnd(&stream);
    if (result != CZlibShims_decoded) {
        free(buffer);
        return result;
    }
    *out = buffer;
    *out_count = used;
    return CZlibShims_decoded;
}

CZlibShims_Result CZlibShims_inflate(const unsigned char *bytes, size_t count, size_t limit, unsigned char **out, size_t *out_count) {
    *out = NULL;
    *out_count = 0;
    if (count == 0) return CZlibShims_notCompressed;
    CZlibShims_Result result = run(bytes, count, limit, 15 + 32, out, out_count);
    if (result == CZlibShims_notCompressed) result = run(bytes, count, limit, -15, out, out_count);
    return result;
}
