import CZlibShims
import Foundation
import MockAPICore

/// A compressed answer kept as the client that asked for it reads it: decoded, without its
/// `Content-Encoding`. Why not the compressed bytes with the header: every client that accepts
/// gzip decodes it before the app sees a byte, so the app gets the same body and type either way;
/// a decoded fixture can be read and edited, learnt from (JSON schemas, rules), scrubbed of the
/// secrets an answer echoes (which compressed bytes would hide), and a HAR file holds bodies
/// decoded anyway (HAR 1.2 `content.text`), so `import har` and `record` write the same set.
/// An encoding zlib cannot read (`br`, `zstd`) is kept as it came, bytes and header, which a
/// client replays exactly as it got it from the backend.
extension RecordedExchange {
    /// Decoded bodies are capped: a few KiB of gzip can claim gigabytes.
    static let maxDecodedBytes = 64 * 1024 * 1024

    /// The exchange with a gzip or deflate answer decoded and its `Content-Encoding` dropped.
    /// `bodyIsDecoded`: the body is already the decoded one (a HAR file's), so the header only
    /// says how the backend sent it; dropped unless the bytes are plainly still gzip.
    package func decodingContent(bodyIsDecoded: Bool) -> RecordedExchange {
        guard responseHeaders.contains(where: { $0.name.caseInsensitiveCompare("Content-Encoding") == .orderedSame }) else { return self }
        let codings = responseHeaders.filter { $0.name.caseInsensitiveCompare("Content-Encoding") == .orderedSame }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        var decoded = self
        decoded.responseHeaders.removeAll { $0.name.caseInsensitiveCompare("Content-Encoding") == .orderedSame }
        if codings.isEmpty || responseBody.isEmpty { return decoded }
        let zlibReadable = codings.allSatisfy { ["gzip", "x-gzip", "deflate"].contains($0) }
        if bodyIsDecoded {
            // A writer that kept the raw bytes: gzip's magic number says so.
            if zlibReadable, responseBody.starts(with: [0x1f, 0x8b]), let body = Self.inflated(responseBody, times: codings.count) {
                decoded.responseBody = body
            }
            return decoded
        }
        guard zlibReadable, let body = Self.inflated(responseBody, times: codings.count) else { return self }
        decoded.responseBody = body
        return decoded
    }

    /// `bytes` inflated `times` times (`Content-Encoding: gzip, gzip`), or nil.
    static func inflated(_ bytes: [UInt8], times: Int) -> [UInt8]? {
        var current = bytes
        for _ in 0..<times {
            var out: UnsafeMutablePointer<UInt8>?
            var count = 0
            let result = current.withUnsafeBufferPointer { CZlibShims_inflate($0.baseAddress, $0.count, maxDecodedBytes, &out, &count) }
            defer { free(out) }
            guard result == CZlibShims_decoded else { return nil }
            current = count == 0 ? [] : Array(UnsafeBufferPointer(start: out, count: count))
        }
        return current
    }
}
