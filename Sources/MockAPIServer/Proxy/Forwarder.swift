import CCurlShims
import Foundation
import MockAPICore
import Synchronization

/// Sends requests to the target with libcurl on threads of its own, so a server worker thread
/// never waits for a backend: the connection is suspended meanwhile and resumed with the answer's
/// head, and the body is passed on as it arrives (`PassedOnBody`), never held whole.
/// Handles are pooled, and keep their connections to the target open between requests.
final class Forwarder: Sendable {
    let configuration: ProxyConfiguration
    private let handles = Mutex<[HandleBox]>([])
    /// Exchanges waiting for a forwarding thread. libcurl blocks the thread it runs on, so these
    /// are threads of our own: on dispatch's pool, blocked calls starve the server's timers.
    private let work = NSCondition()
    // Why nonisolated(unsafe): these three are read and written only while holding `work`.
    nonisolated(unsafe) private var waiting: [Job] = []
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

    /// The target's final head, as it arrived.
    struct Head: Sendable {
        var status: Int
        var headers: [HTTPField]
    }

    /// What to do with an answer once its head is in (said on the forwarding thread).
    enum HeadDecision {
        /// Pass the body on as it comes: a reader takes it from `stream`; `readable` wakes a reader
        /// that found nothing and parked.
        case passOn(readable: @Sendable () -> Void)
        /// No body is passed on (a `HEAD`, a 304): the exchange ends and `done` has the answer.
        case finish
        /// The answer cannot be sent on: the exchange ends here (the caller has answered already).
        case refuse
    }

    struct Answer: Sendable {
        var status: Int
        var headers: [HTTPField]
        /// The body's first bytes, up to the `keep` the exchange was sent with.
        var body: [UInt8]
        /// The whole body's length as it arrived, and whether it was longer than `body`.
        var bodyLength: Int = 0
        var cut = false
        var error: String?
        /// The body went to a reader as it came (the head's decision was `passOn`).
        var passedOn = false
        /// The head's decision was `refuse`.
        var refused = false
    }

    /// An exchange waiting for a forwarding thread.
    private struct Job {
        var request: Request
        var keep: Int
        var head: @Sendable (Head, StreamHandle) -> HeadDecision
        var done: @Sendable (Answer) -> Void
    }

    /// The exchange's stream, for the head's handler to take a reader's reference on.
    struct StreamHandle: @unchecked Sendable {
        // Why unchecked: the stream is reference-counted and locked in C.
        let pointer: OpaquePointer
    }

    /// Bytes of an answer's body held per exchange while its client reads: the ring between the
    /// forwarding thread and the connection.
    static let streamCapacity = 128 * 1024

    /// Sends `request`; `head` is called on a forwarding thread once the target's head is in,
    /// then `done` when the exchange is over (status 0 and an error when no head came). The
    /// answer's first `keep` bytes are kept for `done`.
    func send(
        _ request: Request, keep: Int = 0, head: @escaping @Sendable (Head, StreamHandle) -> HeadDecision,
        done: @escaping @Sendable (Answer) -> Void
    ) {
        work.lock()
        waiting.append(Job(request: request, keep: keep, head: head, done: done))
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
            let job = waiting.removeFirst()
            work.unlock()
            job.done(perform(job))
        }
    }

    /// What the C stream's events reach, for one exchange, on its forwarding thread.
    private final class Events {
        let head: @Sendable (Head, StreamHandle) -> HeadDecision
        var readable: (@Sendable () -> Void)?
        var passedOn = false
        var refused = false

        init(head: @escaping @Sendable (Head, StreamHandle) -> HeadDecision) { self.head = head }

        static let onHead: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, Int, UnsafePointer<UInt8>?, Int) -> Int32 = {
            context, stream, status, block, count in
            guard let context, let stream else { return -1 }
            let events = Unmanaged<Events>.fromOpaque(context).takeUnretainedValue()
            let text = block.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
            switch events.head(Head(status: status, headers: Forwarder.headers(text)), StreamHandle(pointer: stream)) {
            case .passOn(let readable):
                events.readable = readable
                events.passedOn = true
                return 1
            case .finish:
                return 0
            case .refuse:
                events.refused = true
                return -1
            }
        }

        static let onReadable: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
            guard let context else { return }
            Unmanaged<Events>.fromOpaque(context).takeUnretainedValue().readable?()
        }
    }

    private func perform(_ job: Job) -> Answer {
        let request = job.request
        // The URL is the origin and this text: anything but `/…` could name another host.
        guard request.pathAndQuery.hasPrefix("/") else {
            return Answer(status: 0, headers: [], body: [], error: "not an origin-form path: \(request.pathAndQuery)")
        }
        guard let handle = handles.withLock({ $0.popLast() })?.pointer ?? CCurlShims_handle_new(),
            let stream = CCurlShims_stream_new(Self.streamCapacity, max(0, job.keep))
        else {
            return Answer(status: 0, headers: [], body: [], error: CCurlShims_load_failure().map { String(cString: $0) } ?? "libcurl could not start")
        }
        defer {
            CCurlShims_stream_release(stream)
            handles.withLock { $0.append(HandleBox(pointer: handle)) }
        }
        let named = Self.connectionOptions(request.headers)
        var kept = request.headers.filter { header in
            let name = header.name.lowercased()
            return !Self.hopByHop.contains(name) && !named.contains(name) && !(configuration.identityEncoding && name == "accept-encoding")
        }
        // An empty value stops libcurl adding its own `Accept: */*`: the target sees what the client sent.
        if !kept.contains(where: { $0.name.lowercased() == "accept" }) { kept.append(HTTPField("Accept", "")) }
        let lines = kept.map { strdup("\($0.name):\($0.value.isEmpty ? "" : " " + $0.value)") }
        defer { lines.forEach { free($0) } }
        let events = Events(head: job.head)
        let url = configuration.target + request.pathAndQuery
        let code = withExtendedLifetime(events) {
            let callbacks = CCurlShims_StreamEvents(
                head: Events.onHead, readable: Events.onReadable, context: Unmanaged.passUnretained(events).toOpaque())
            return lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerLines in
                request.body.withUnsafeBytes { body in
                    CCurlShims_stream_perform(
                        handle, request.method, url, headerLines.baseAddress, headerLines.count, body.baseAddress, body.count,
                        configuration.caFile, configuration.timeoutSeconds, stream, callbacks)
                }
            }
        }
        var headCount = 0, keptCount = 0
        let head = CCurlShims_stream_head(stream, &headCount).map { String(decoding: UnsafeBufferPointer(start: $0, count: headCount), as: UTF8.self) } ?? ""
        let body = CCurlShims_stream_kept(stream, &keptCount).map { Array(UnsafeBufferPointer(start: $0, count: keptCount)) } ?? []
        var answer = Answer(
            status: CCurlShims_stream_status(stream), headers: Self.headers(head), body: body,
            bodyLength: Int(clamping: CCurlShims_stream_body_length(stream)), cut: CCurlShims_stream_cut(stream) != 0,
            passedOn: events.passedOn, refused: events.refused)
        if code != 0 {
            answer.error = CCurlShims_stream_error(stream).map { String(cString: $0) } ?? "libcurl failed"
            if !events.passedOn { answer.status = 0 }
        }
        return answer
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
