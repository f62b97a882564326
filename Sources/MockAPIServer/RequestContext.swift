import MockAPICore
import Synchronization

/// Everything one request accumulates between its headers and its answer: where the responder
/// routed it (`RoutedHead`) and its body, kept as that head's plan says, with hard limits.
///
/// Lives from the first access-handler call to MHD's request-completed callback; only the
/// connection's own thread touches it, one call at a time.
final class RequestContext {
    /// The serving state the request began with; a reload meanwhile does not change it.
    let lease: StateLease
    var state: ServingState { lease.state }
    /// The lease's responder and prepared responses, unretained: the lease keeps them alive as
    /// long as this context. The request path borrows them (`withResponder`, `withPrepared`):
    /// a strong read, even of an unowned(unsafe) field, was retained and released around each call.
    private let unmanagedResponder: Unmanaged<Responder>
    private let unmanagedPrepared: Unmanaged<PreparedResponses>
    var responder: Responder { unmanagedResponder.takeUnretainedValue() }
    var prepared: PreparedResponses { unmanagedPrepared.takeUnretainedValue() }

    @inline(__always) func withResponder<Result>(_ body: (Responder) -> Result) -> Result {
        unmanagedResponder._withUnsafeGuaranteedRef(body)
    }

    @inline(__always) func withPrepared<Result>(_ body: (PreparedResponses) -> Result) -> Result {
        unmanagedPrepared._withUnsafeGuaranteedRef(body)
    }
    let method: String
    let head: RoutedHead
    let query: [QueryArgument]
    let headers: HeaderFields
    /// The worker thread's `ThreadSlot`, read once when the request began.
    let threadSlot: Int
    /// The connection's header-deadline watch (`MHDConnection.headersArrived`), told of the
    /// request's body, answer and end.
    var watch: ConnectionWatch?
    /// The length of libmicrohttpd's path (with a session's prefix), measured on the first call.
    var pathLength = 0
    /// The session the request names (`/s/ID/…`, `Mockapi-Session`), or why it cannot be served
    /// in it; nil for most. Set from the path when the request begins, from the header once its
    /// `Host` lines are counted (`RequestHandler.admit`, through `enter`).
    private(set) var scope: SessionScope?

    /// Serves the request in the session its header named (or refuses it, as `scope` says).
    func enter(_ scope: SessionScope) {
        self.scope = scope
        unmanagedSession = scope.session.map { Unmanaged.passUnretained($0) }
    }
    /// The session the request is served in; nil for most.
    var session: SessionState? { scope?.session }
    /// The same, unretained (`scope` keeps it), for the request path to borrow (`withSession`):
    /// reading it out of the scope retained and released it at every use.
    private var unmanagedSession: Unmanaged<SessionState>?

    @inline(__always) func withSession<Result>(_ body: (SessionState?) -> Result) -> Result {
        guard let unmanagedSession else { return body(nil) }
        return unmanagedSession._withUnsafeGuaranteedRef { body($0) }
    }

    /// The session, unretained, for a callee that borrows it in turn.
    var borrowedSession: Unmanaged<SessionState>? { unmanagedSession }
    /// What the head's one walk over the headers found (`HeaderFields.headScan`).
    let scan: HeaderFields.HeadScan
    /// Whether the request has a `Prefer` header.
    var prefers: Bool { scan.prefers }
    /// How many bytes of libmicrohttpd's path the session prefix takes (`/s/ID`): the contracts
    /// see the rest. 0 for a request without one.
    let pathOffset: Int
    let receivedAt = System.epochMilliseconds()
    /// When the request began, for the request log's duration; 0 when there is no log (a clock
    /// read fewer per request).
    let started: UInt64
    private(set) var bodyBytes = 0
    /// Set once the answer has been queued, so later calls only drain.
    var answered = false
    /// Bytes read past the body limit once it was broken, discarded until the body ends and the
    /// 413 can be queued (libmicrohttpd takes no response mid-body). Nil while within the limit.
    var discardedPastLimit: Int?
    /// The owner this request's suspensions are parked under; made only for a request that parks
    /// (most never do: no allocation for them).
    lazy var parking = ParkingOwner()
    /// An answer decided but held back (a delay, a reload) while the connection is suspended;
    /// sent when MHD calls back after the resume.
    var pending: PendingAnswer?

    private enum Body {
        case discard
        /// Held whole, against the budget every connection shares: a JSON or form body to parse, or every
        /// byte as sent for a request forwarded to a real backend (`--proxy-unmatched`, `record`).
        case buffered([UInt8], BufferedKind)
        case multipart(MultipartParser, MultipartCollector)
        /// The body cannot be parsed; the reason is answered as a 400 once it has all arrived.
        case malformed(String)
    }

    private enum BufferedKind { case json, form, raw }

    private var body: Body = .discard
    /// Where a JSON body's bytes are counted against every connection's total, and how many this
    /// request holds; given back when the request ends.
    ///
    /// Unowned: the request handler owns the budget and outlives every request (MHD completes
    /// them all before `MHD_stop_daemon` returns, and holds the handler unretained already). A
    /// strong field cost a retain here and a release in deinit, and deinit retained it once more
    /// around its `release` call: about 80 instructions on every request.
    private unowned(unsafe) let budget: BufferBudget
    private var reserved = 0

    /// The query as sent (still percent-encoded), kept only for a request that will be forwarded.
    let rawQuery: String?

    init(
        lease: StateLease, method: String, head: RoutedHead, query: [QueryArgument],
        headers: HeaderFields, scan: HeaderFields.HeadScan, budget: BufferBudget, rawQuery: String? = nil, threadSlot: Int,
        timed: Bool, scope: SessionScope? = nil, pathOffset: Int = 0
    ) {
        // The body first, from the arguments: planned after the fields were stored, it read the
        // head back from self, and the optimizer retained and released three fields around it.
        // Most requests keep none: their body stays the `.discard` it starts as, with no Body
        // value made here to copy into place (through its value witness: about 150 instructions).
        if case .discard = head.body {
        } else {
            let planned = Self.body(for: head, lease: lease)
            body = planned.body
            collector = planned.collector
        }
        // Read off the argument before it is stored: read back from the field, the scope was
        // copied and its session retained and released.
        if case .session(let session)? = scope { unmanagedSession = Unmanaged.passUnretained(session) }
        self.rawQuery = rawQuery
        self.lease = lease
        unmanagedResponder = Unmanaged.passUnretained(lease.state.responder)
        unmanagedPrepared = Unmanaged.passUnretained(lease.state.prepared)
        self.budget = budget
        self.method = method
        self.head = head
        self.query = query
        self.headers = headers
        self.threadSlot = threadSlot
        self.scan = scan
        self.scope = scope
        self.pathOffset = pathOffset
        started = timed ? System.monotonicNanoseconds() : 0
    }

    deinit { if reserved > 0 { budget.release(reserved) } }

    /// Stops keeping the body: what is left of it is only counted.
    func dropBody() {
        body = .discard
        collector = nil
        budget.release(reserved)
        reserved = 0
    }

    /// Takes a declared JSON body's whole length from the shared budget before any of it is read,
    /// and makes room for it in one allocation; false when the budget cannot hold it.
    func reserveDeclaredBody(_ length: Int) -> Bool {
        guard case .buffered(var buffer, let kind) = body, length > reserved else { return true }
        guard budget.reserve(length - reserved) else { return false }
        reserved = length
        body = .discard // drop the reference so reserving does not copy
        buffer.reserveCapacity(length)
        body = .buffered(buffer, kind)
        return true
    }

    /// Where the body goes, as the responder planned it, and a multipart body's collector.
    private static func body(for head: RoutedHead, lease: StateLease) -> (body: Body, collector: MultipartCollector?) {
        switch head.body {
        case .discard: return (.discard, nil)
        case .json: return (.buffered([], .json), nil)
        case .form: return (.buffered([], .form), nil)
        case .raw: return (.buffered([], .raw), nil)
        case .malformed(let reason): return (.malformed(reason), nil)
        case .multipart(let boundary):
            do throws(MultipartParser.Failure) {
                let parser = try MultipartParser(boundary: boundary)
                let collector = MultipartCollector(keepsText: lease.state.responder.echoesBody(routedTo: head.destination))
                return (.multipart(parser, collector), collector)
            } catch {
                return (.malformed(error.description), nil)
            }
        }
    }

    /// Keeps what the contract can check of `chunk`; false (the body dropped) when a JSON body
    /// would pass the shared buffer budget.
    func consume(_ chunk: UnsafeRawBufferPointer) -> Bool {
        bodyBytes += chunk.count
        switch body {
        case .discard, .malformed:
            return true
        case .buffered(var buffer, let kind):
            if bodyBytes > reserved {
                guard budget.reserve(bodyBytes - reserved) else {
                    dropBody()
                    return false
                }
                reserved = bodyBytes
            }
            body = .discard // drop the reference so the append below does not copy
            buffer.append(contentsOf: chunk)
            body = .buffered(buffer, kind)
        case .multipart(var parser, let collector):
            do throws(MultipartParser.Failure) {
                try parser.feed(chunk) { collector.handle($0) }
                body = .multipart(parser, collector)
            } catch {
                body = .malformed("multipart body: \(error.description)")
                self.collector = nil
            }
        }
        return true
    }

    /// The body as validation sees it, or why it is malformed.
    func finishBody() -> Result<IncomingRequest.Body, MalformedBody> {
        switch body {
        case .discard, .buffered(_, .raw):
            return .success(bodyBytes == 0 ? .none : .other(bytes: bodyBytes))
        case .malformed(let reason):
            return .failure(MalformedBody(reason: reason))
        case .buffered(let buffer, .json):
            if buffer.isEmpty { return .success(.none) }
            do throws(JSONParser.Failure) { return .success(.json(try JSONParser.parse(buffer))) } catch { return .success(.invalidJSON(error)) }
        case .buffered(let buffer, .form):
            return .success(buffer.isEmpty ? .none : .form(buffer.withUnsafeBytes(QueryString.arguments)))
        case .multipart(var parser, let collector):
            do throws(MultipartParser.Failure) {
                try parser.finish { collector.handle($0) }
                return .success(.multipart(collector.parts))
            } catch {
                return .failure(MalformedBody(reason: "multipart body: \(error.description)"))
            }
        }
    }

    /// The body as an answer's `{{body…}}` placeholders read it: a JSON or form body the head's
    /// plan kept, or a multipart body's text parts (the responder keeps them for a contract whose
    /// answers echo the body), else none.
    var echoBody: EchoBody {
        switch body {
        case .buffered(let bytes, .json): .json(bytes)
        case .buffered(let bytes, .form): .form(bytes)
        case .multipart: .fields(collector?.textFields ?? [])
        default: .none
        }
    }

    /// The body as sent, for forwarding; empty unless the request is forwarded.
    var rawBody: [UInt8] {
        if case .buffered(let bytes, .raw) = body { return bytes }
        return []
    }

    /// The multipart body's parts, while `body` is `.multipart`: every request reads them when it
    /// is journaled, and matching on `body` would copy the enum (a retain and release per payload).
    private var collector: MultipartCollector?

    var receivedParts: [ReceivedPart] { collector?.parts ?? [] }

}

/// Turns multipart parser events into journaled parts: name, filename, type, size and SHA-256;
/// and, for a contract whose answers echo the body, the text of parts that are not files.
final class MultipartCollector {
    private(set) var parts: [ReceivedPart] = []
    /// The parts without a file name, as text, when `keepsText`: what `{{body.NAME}}` reads.
    private(set) var textFields: [QueryArgument] = []
    private var current: MultipartParser.PartHeaders?
    private var hasher = SHA256()
    private var count = 0
    private let keepsText: Bool
    /// The current part's bytes while it may still be kept; nil once it is a file or too long.
    private var text: [UInt8]?
    /// Bytes kept for all text parts so far.
    private var keptBytes = 0
    /// A text part longer than this is not kept (it is a file in all but name), nor any past
    /// `keptLimit` in all: a request cannot make the server hold its whole body twice.
    static let partLimit = 64 * 1024
    static let keptLimit = 1024 * 1024

    /// The part's first bytes, for a contract that checks them against the part's type.
    private var leading: [UInt8] = []

    init(keepsText: Bool = false) {
        self.keepsText = keepsText
    }

    func handle(_ event: MultipartParser.Event) {
        switch event {
        case .begin(let headers):
            current = headers
            hasher = SHA256()
            count = 0
            text = keepsText && headers.filename == nil ? [] : nil
            leading = []
        case .data(let bytes):
            hasher.update(bytes)
            count += bytes.count
            if leading.count < ContentSignature.prefixLength { leading += bytes.prefix(ContentSignature.prefixLength - leading.count) }
            if text != nil {
                if count > Self.partLimit || keptBytes + count > Self.keptLimit { text = nil } else { text?.append(contentsOf: bytes) }
            }
        case .end:
            guard let headers = current else { return }
            parts.append(
                ReceivedPart(
                    name: headers.name, filename: headers.filename, contentType: headers.contentType,
                    bytes: count, sha256: hasher.finalizeHex(), leadingBytes: leading))
            if let text {
                keptBytes += text.count
                textFields.append(QueryArgument(headers.name, String(decoding: text, as: UTF8.self)))
            }
            text = nil
            current = nil
        }
    }
}

/// What a suspended request is answered with once MHD calls back.
/// Boxed (indirect): rare, and inline a `Decision` made every request's context larger and its
/// release an outlined destroy of the whole enum; boxed it is one pointer, nil for most.
indirect enum PendingAnswer {
    /// A decision held back by its delay.
    case delayed(Decision)
    /// A fault that waits: the connection is closed when it is woken.
    case hang
    /// Filled in by another thread (an admin action, a real backend) before it resumes the
    /// connection; the decision's headers and journal note go with the reply, and `fallback` is
    /// sent when the server stopped before the reply came.
    case deferred(DeferredReply, Decision, fallback: GeneratedResponse)
}

/// An answer another thread produces while the request's connection is suspended.
/// Who parked a connection (`Suspensions`): one per request, so a timer or a reply never wakes a
/// later request that libmicrohttpd gave the same connection pointer.
final class ParkingOwner: Sendable {}

final class DeferredReply: Sendable {
    let reply = Mutex<GeneratedResponse?>(nil)
    /// A proxied answer's body, passed on as it arrives; `reply` is its head then.
    let body = Mutex<PassedOnBody?>(nil)
}
