import CCurlShims
import Foundation
import MockAPICore
import Synchronization

/// Sends requests to the target with libcurl on threads of its own, so a server worker thread
/// never waits for a backend: the connection is suspended meanwhile and resumed with the answer.
/// Handles are pooled, and keep their connections to the target open between requests.
final class Forwarder: Sendable {
    let configuration: ProxyConfiguration
    private let handles = Mutex<[HandleBox]>([])
    /// Exchanges waiting for a forwarding thread. libcurl blocks the thread it runs on, so these
    /// are threads of our own: on dispatch's pool, blocked calls starve the server's timers.
    private let work = NSCondition()
    // Why nonisolated(unsafe): these three are read and written only while holding `work`.
    nonisolated(unsafe) private var waiting: [(Request, @Sendable (Answer) -> Void)] = []
    nonisolated(unsafe) private var threads = 0
    nonisolated(unsafe) private var idle = 0

    /// Why unchecked: a libcurl easy handle is used by one thread at a time, which the pool ensures.
    private struct HandleBox: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    init(_ configuration: ProxyConfiguration) {
        self.configuration = configuration
        _ = Self.globalInit
    }

    private static let globalInit: Int32 = CCurlShims_global_init()

    deinit {
        for handle in handles.withLock({ $0 }) { CCurlShims_handle_free(handle.pointer) }
    }

    /// Headers the client's connection to us owns, not the request (RFC 9110 §7.6.1), and the
    /// ones libcurl sets itself from the target and the body.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding",
        "upgrade", "host", "content-length", "expect", "proxy-authorization",
    ]

    struct Request: Sendable {
        var method: String
        var pathAndQuery: String
        var headers: [HTTPField]
        var body: [UInt8]
    }

    struct Answer: Sendable {
        var status: Int
        var headers: [HTTPField]
        var body: [UInt8]
        var error: String?
    }

    /// Calls `done` on a forwarding thread with the target's answer (status 0 and an error when it
    /// could not be had).
    func send(_ request: Request, done: @escaping @Sendable (Answer) -> Void) {
        work.lock()
        waiting.append((request, done))
        // A new thread when the idle ones cannot take every waiting exchange, up to the limit.
        let startThread = waiting.count > idle && threads < max(1, configuration.concurrency)
        if startThread { threads += 1 }
        work.signal()
        work.unlock()
        if startThread {
            let thread = Thread { [self] in serve() }
            thread.name = "mockapi.forward"
            thread.start()
        }
    }

    /// A forwarding thread: takes waiting exchanges until none has come for 10 s, then ends.
    private func serve() {
        while true {
            work.lock()
            idle += 1
            let deadline = Date(timeIntervalSinceNow: 10)
            while waiting.isEmpty, work.wait(until: deadline) {}
            idle -= 1
            guard !waiting.isEmpty else {
                threads -= 1
                work.unlock()
                return
            }
            let (request, done) = waiting.removeFirst()
            work.unlock()
            done(perform(request))
        }
    }

    private func perform(_ request: Request) -> Answer {
        // The URL is the origin and this text: anything but `/…` could name another host.
        guard request.pathAndQuery.hasPrefix("/") else {
            return Answer(status: 0, headers: [], body: [], error: "not an origin-form path: \(request.pathAndQuery)")
        }
        guard let handle = handles.withLock({ $0.popLast() })?.pointer ?? CCurlShims_handle_new() else {
            return Answer(status: 0, headers: [], body: [], error: "libcurl could not start")
        }
        defer { handles.withLock { $0.append(HandleBox(pointer: handle)) } }
        let named = Self.connectionOptions(request.headers)
        var kept = request.headers.filter { header in
            let name = header.name.lowercased()
            return !Self.hopByHop.contains(name) && !named.contains(name) && !(configuration.identityEncoding && name == "accept-encoding")
        }
        // An empty value stops libcurl adding its own `Accept: */*`: the target sees what the client sent.
        if !kept.contains(where: { $0.name.lowercased() == "accept" }) { kept.append(HTTPField("Accept", "")) }
        let lines = kept.map { strdup("\($0.name):\($0.value.isEmpty ? "" : " " + $0.value)") }
        defer { lines.forEach { free($0) } }
        var answer = CCurlShims_Answer()
        defer { CCurlShims_answer_free(&answer) }
        let url = configuration.target + request.pathAndQuery
        let code = lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerLines in
            request.body.withUnsafeBytes { body in
                CCurlShims_perform(
                    handle, request.method, url, headerLines.baseAddress, headerLines.count, body.baseAddress, body.count,
                    configuration.caFile, configuration.timeoutSeconds, &answer)
            }
        }
        guard code == 0 else {
            let message = withUnsafeBytes(of: answer.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return Answer(status: 0, headers: [], body: [], error: message)
        }
        let body = answer.body.count > 0 ? Array(UnsafeBufferPointer(start: answer.body.bytes, count: answer.body.count)) : []
        let head = answer.headers.count > 0 ? String(decoding: UnsafeBufferPointer(start: answer.headers.bytes, count: answer.headers.count), as: UTF8.self) : ""
        return Answer(status: answer.status, headers: Self.headers(head), body: body, error: nil)
    }

    /// The headers a message's `Connection` names (lowercased): they belong to that connection,
    /// like the hop-by-hop ones, and are never sent on (RFC 9110 §7.6.1).
    static func connectionOptions(_ headers: [HTTPField]) -> Set<String> {
        var named: Set<String> = []
        for header in headers where header.name.lowercased() == "connection" {
            for option in header.value.split(separator: ",") {
                let name = option.trimmingCharacters(in: .whitespaces).lowercased()
                if !name.isEmpty { named.insert(name) }
            }
        }
        return named
    }

    /// `Name: value` lines after the status line.
    static func headers(_ block: String) -> [HTTPField] {
        block.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }).dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return HTTPField(
                String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
    }
}
