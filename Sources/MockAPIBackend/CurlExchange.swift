import CCurlShims
import Dispatch
import Foundation
import MockAPICore
import Synchronization

/// What the backend answered to one request.
struct BackendAnswer: Sendable {
    /// Which bound the answer met: the part before it is kept, the rest was never read.
    enum Cut: Sendable, Equatable {
        case body, head
    }

    var status: Int
    /// The final head's fields, in order.
    var headers: [HTTPField]
    /// Decoded (gzip, deflate, br, zstd), at most `BackendOptions.maxBodyBytes` of it.
    var body: Data
    var cut: Cut?

    /// The field's value, repeated fields joined with ", " (as `HTTPURLResponse` kept them).
    func value(of name: String) -> String? {
        let values = headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}

/// `verify-backend`'s exchanges, through libcurl on a thread of their own (`exchange.c` says why
/// not URLSession). libcurl reads only as fast as its callbacks take the bytes: the body stops at
/// its bound, the head at its own, and `--timeout` ends the whole exchange (connect, head and
/// body) however slowly the backend trickles. Each exchange has its own handle: no cookie, no
/// connection and no credential is shared between checks, and a redirect or a 401 is the
/// backend's answer, as the checks need.
enum CurlExchange {
    /// Header lines and bytes of a head taken at most; a head past either is cut there, and the
    /// check fails saying so (20,000 headers took URLSession 61 s; a real backend sends dozens).
    static let maxHeaderLines = 1000
    static let maxHeadBytes = 256 * 1024
    /// Sent where the request names none, as any client library sends one (httpbin's echoes, and
    /// the fixtures recorded from them, hold it).
    static let userAgent = "mockapi verify-backend"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static let globalInit: Int32 = CCurlShims_global_init()

    /// Why libcurl (loaded on first use, not at start) cannot be loaded; nil once it is.
    static var loadFailure: String? { CCurlShims_load_failure().map { String(cString: $0) } }

    /// The answer, or `Failure` once `seconds` have passed without a whole one.
    static func send(_ request: BackendRequest, seconds: TimeInterval, maxBodyBytes: Int) async throws -> BackendAnswer {
        _ = globalInit
        let pending = Pending()
        let milliseconds = Int(max(1, (seconds * 1000).rounded()))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.start(continuation)
                // A blocking call: never on the cooperative pool, whose few threads the other checks need.
                let thread = Thread {
                    pending.finish(Result { try perform(request, milliseconds: milliseconds, maxBodyBytes: maxBodyBytes, abandoned: pending.flag) })
                }
                thread.name = "mockapi.verify-backend"
                thread.start()
                // libcurl's own timer ends the exchange at `seconds`; this one, a second later,
                // answers the caller even where that timer cannot reach (a resolver without threads).
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds + 1000)) {
                    pending.finish(.failure(Failure(description: "not complete within --timeout \(Self.seconds(seconds)) s")))
                }
            }
        } onCancel: {
            pending.finish(.failure(CancellationError()))
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The request's header lines as libcurl takes them, with a User-Agent where it names none.
    static func headerLines(_ headers: [HTTPField]) -> [String] {
        // The body's framing is libcurl's: a declared length could contradict the body sent.
        let sent = headers.filter { !["content-length", "transfer-encoding"].contains($0.name.lowercased()) }
        // `Name;` is libcurl's spelling of a header with an empty value (`Name:` would remove it).
        var lines = sent.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        if !sent.contains(where: { $0.name.lowercased() == "user-agent" }) { lines.append("User-Agent: \(userAgent)") }
        return lines
    }

    private static func perform(_ request: BackendRequest, milliseconds: Int, maxBodyBytes: Int, abandoned: UnsafePointer<Int32>) throws -> BackendAnswer {
        guard let handle = CCurlShims_handle_new() else { throw Failure(description: loadFailure ?? "libcurl could not start") }
        defer { CCurlShims_handle_free(handle) }
        let lines = headerLines(request.headers).map { strdup($0) }
        // A private CA for a staging backend, named the way OpenSSL's own tools take it.
        let environment = ProcessInfo.processInfo.environment
        let caFile = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : strdup($0) }
        let caFolder = environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : strdup($0) }
        defer { (lines + [caFile, caFolder]).forEach { free($0) } }
        var bounds = CCurlShims_ExchangeBounds(
            timeout_milliseconds: milliseconds, max_body_bytes: max(0, maxBodyBytes), max_header_lines: maxHeaderLines, max_head_bytes: maxHeadBytes,
            ca_file: caFile.map { UnsafePointer($0) }, ca_folder: caFolder.map { UnsafePointer($0) }, abandoned: abandoned)
        var answer = CCurlShims_Answer()
        defer { CCurlShims_answer_free(&answer) }
        var cuts = CCurlShims_ExchangeCuts()
        let body = request.body ?? Data()
        let code = lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerLines in
            body.withUnsafeBytes { bytes in
                CCurlShims_exchange(
                    handle, request.method, request.url.absoluteString, headerLines.baseAddress, headerLines.count, bytes.baseAddress, bytes.count,
                    &bounds, &answer, &cuts)
            }
        }
        guard code == 0 else {
            let why = withUnsafeBytes(of: answer.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            // 28: CURLE_OPERATION_TIMEDOUT.
            throw Failure(description: code == 28 ? "not complete within --timeout \(seconds(Double(milliseconds) / 1000)) s (\(why))" : why)
        }
        let head = answer.headers.count > 0 ? String(decoding: UnsafeBufferPointer(start: answer.headers.bytes, count: answer.headers.count), as: UTF8.self) : ""
        let (statusLine, headers) = parse(head)
        let status = answer.status != 0 ? answer.status : statusLine
        guard status > 0 else { throw Failure(description: "an answer without a status line") }
        let data = answer.body.count > 0 ? Data(bytes: answer.body.bytes, count: answer.body.count) : Data()
        return BackendAnswer(status: status, headers: headers, body: data, cut: cuts.head_cut != 0 ? .head : cuts.body_cut != 0 ? .body : nil)
    }

    /// The status line's code and the fields of a head block; a folded line continues the field above it.
    static func parse(_ head: String) -> (status: Int, headers: [HTTPField]) {
        var lines = head.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" })[...]
        let status = lines.popFirst().flatMap { line in line.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
        var headers: [HTTPField] = []
        for line in lines {
            if let first = line.first, first == " " || first == "\t", !headers.isEmpty {
                headers[headers.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                HTTPField(String(line[..<colon]).trimmingCharacters(in: .whitespaces), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        return (status, headers)
    }

    /// One exchange's answer handed over once, from whichever comes first: libcurl's thread, the
    /// deadline, or cancellation. Whoever comes first raises `flag`, which ends libcurl's transfer
    /// at its next progress callback.
    private final class Pending: @unchecked Sendable {
        // Why unchecked: `flag` is written only through `CCurlShims_flag_raise` and read by
        // libcurl's thread with an atomic load; the rest is behind the mutex.
        let flag: UnsafeMutablePointer<Int32>
        private struct State {
            var continuation: CheckedContinuation<BackendAnswer, any Error>?
            /// Set by the first `finish`, kept for a `start` that comes after it.
            var result: Result<BackendAnswer, any Error>?
            var finished = false
        }

        private let state = Mutex(State())

        init() {
            flag = .allocate(capacity: 1)
            flag.initialize(to: 0)
        }

        deinit { flag.deallocate() }

        func start(_ continuation: CheckedContinuation<BackendAnswer, any Error>) {
            let early = state.withLock { state -> Result<BackendAnswer, any Error>? in
                if !state.finished { state.continuation = continuation }
                return state.result // cancelled before it started
            }
            if let early { continuation.resume(with: early) }
        }

        func finish(_ result: Result<BackendAnswer, any Error>) {
            let (first, continuation) = state.withLock { state -> (Bool, CheckedContinuation<BackendAnswer, any Error>?) in
                guard !state.finished else { return (false, nil) }
                state.finished = true
                state.result = result
                defer { state.continuation = nil }
                return (true, state.continuation)
            }
            guard first else { return }
            CCurlShims_flag_raise(flag)
            continuation?.resume(with: result)
        }
    }
}
