import CCurlShims
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `verify-backend`'s exchanges, through libcurl on a thread of their own.
///
/// Why not URLSession: on Linux, Foundation reads a large answer ahead of the delegate that cuts
/// it (2.3 GB held for a 2 GB body), and an answer with 20,000 headers stalled every concurrent
/// exchange past its deadline. libcurl reads only as fast as its callbacks take the bytes, the
/// body callback stops at the bound, and `CURLOPT_TIMEOUT_MS` ends the whole exchange (connect,
/// head and body) at `--timeout`, however slowly the backend trickles. Each exchange has its own
/// handle: no cookie, no connection and no credential is shared between checks, and redirects
/// and authentication challenges are the backend's answer, as the checks need.
enum CurlExchange {
    /// The most bytes of status line and headers taken; a longer head fails the exchange.
    static let maxHeadBytes = 1024 * 1024

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static let globalInit: Int32 = CCurlShims_global_init()

    /// The answer's body (at most `maxBodyBytes` of it), its head, and whether the body was cut.
    static func send(_ request: URLRequest, seconds: TimeInterval, maxBodyBytes: Int) async throws -> (Data, HTTPURLResponse, cut: Bool) {
        _ = globalInit
        guard let url = request.url else { throw Failure(description: "the request has no URL") }
        let method = request.httpMethod ?? "GET"
        let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key):\($0.value.isEmpty ? "" : " " + $0.value)" }
        let body = request.httpBody ?? Data()
        let milliseconds = Int(max(1, (seconds * 1000).rounded()))
        return try await withCheckedThrowingContinuation { continuation in
            // A blocking call: never on the cooperative pool, whose few threads the other checks need.
            let thread = Thread {
                continuation.resume(with: Result { try perform(method: method, url: url, headers: headers, body: body, milliseconds: milliseconds, maxBodyBytes: maxBodyBytes) })
            }
            thread.name = "mockapi.verify-backend"
            thread.start()
        }
    }

    private static func perform(method: String, url: URL, headers: [String], body: Data, milliseconds: Int, maxBodyBytes: Int) throws -> (Data, HTTPURLResponse, cut: Bool) {
        guard let handle = CCurlShims_handle_new() else { throw Failure(description: "libcurl could not start") }
        defer { CCurlShims_handle_free(handle) }
        // libcurl adds `Accept: */*` where the request names none, as URLSession did; a User-Agent
        // is added here (libcurl sends none): backends that echo or require them see a client's request.
        let lines = (headers.contains { $0.lowercased().hasPrefix("user-agent:") } ? headers : headers + ["User-Agent: mockapi verify-backend"]).map { strdup($0) }
        defer { lines.forEach { free($0) } }
        var answer = CCurlShims_Answer()
        defer { CCurlShims_answer_free(&answer) }
        var cut: Int32 = 0
        let code = lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerLines in
            body.withUnsafeBytes { bytes in
                CCurlShims_exchange(
                    handle, method, url.absoluteString, headerLines.baseAddress, headerLines.count, bytes.baseAddress, bytes.count,
                    milliseconds, max(0, maxBodyBytes), maxHeadBytes, &answer, &cut)
            }
        }
        guard code == 0 else {
            throw Failure(description: withUnsafeBytes(of: answer.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        let head = answer.headers.count > 0 ? String(decoding: UnsafeBufferPointer(start: answer.headers.bytes, count: answer.headers.count), as: UTF8.self) : ""
        var fields: [String: String] = [:]
        /// The first spelling of each name, by its lowercased form: one lookup per line (20,000 headers).
        var spelling: [String: String] = [:]
        for line in head.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }).dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            // Repeated headers are one field, comma-joined, as HTTPURLResponse keeps them.
            let key = spelling[name.lowercased(), default: name]
            spelling[name.lowercased()] = key
            fields[key] = fields[key].map { $0 + ", " + value } ?? value
        }
        guard let response = HTTPURLResponse(url: url, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: fields) else {
            throw Failure(description: "an answer with status \(answer.status) could not be read")
        }
        let data = answer.body.count > 0 ? Data(bytes: answer.body.bytes, count: answer.body.count) : Data()
        return (data, response, cut != 0)
    }
}
