import MockAPICore
import Synchronization

/// Everything one request accumulates between its headers and its answer: where it was routed
/// and its body, streamed through with hard limits.
///
/// Lives from the first access-handler call to MHD's request-completed callback; only the
/// connection's own thread touches it, one call at a time.
final class RequestContext {
    /// The serving state the request began with; a reload meanwhile does not change it.
    let lease: StateLease
    var state: ServingState { lease.state }
    let method: String
    let route: Responder.Route
    let query: [(name: String, value: String?)]
    let headers: HeaderFields
    /// Read only when the contract expects a JSON or multipart body, the only checks that use it.
    let contentType: String?
    let receivedAt = System.epochMilliseconds()
    let started = System.monotonicNanoseconds()
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
    /// queued when MHD calls back after the resume.
    var pending: PendingAnswer?

    private enum Body {
        case discard
        /// Held whole, against the budget every connection shares: a JSON body to parse, or every
        /// byte as sent for a request forwarded to a real backend (`--proxy-unmatched`, `record`).
        case buffered([UInt8], BufferedKind)
        case multipart(MultipartParser, MultipartCollector)
        /// The body cannot be parsed; the reason is answered as a 400 once it has all arrived.
        case malformed(String)
    }

    private enum BufferedKind { case json, raw }

    private var body: Body
    /// Where a JSON body's bytes are counted against every connection's total, and how many this
    /// request holds; given back when the request ends.
    private let budget: BufferBudget
    private var reserved = 0

    /// The query as sent (still percent-encoded), kept only for a request that will be forwarded.
    let rawQuery: String?

    init(lease: StateLease, method: String, route: Responder.Route, query: [(name: String, value: String?)],
         headers: HeaderFields, contract: Contract?, budget: BufferBudget, forwarding: Bool = false, rawQuery: String? = nil) {
        self.rawQuery = rawQuery
        self.lease = lease
        self.budget = budget
        self.method = method
        self.route = route
        self.query = query
        self.headers = headers
        // Only a contract that expects a body looks at its type; most requests skip the lookup.
        let expectsBody = contract.map { $0.request.json != nil || $0.request.multipart != nil } ?? false
        let contentType = expectsBody ? headers.value(for: "Content-Type") : nil
        self.contentType = contentType
        body = forwarding ? .buffered([], .raw) : Self.plan(for: contract, contentType: contentType)
        if case .buffered(_, .json) = body { buffersJSON = true } else { buffersJSON = false }
    }

    /// A JSON body is buffered whole to be parsed, so it has its own, smaller limit.
    let buffersJSON: Bool

    deinit { budget.release(reserved) }

    /// Stops keeping the body: what is left of it is only counted.
    func dropBody() {
        body = .discard
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

    /// What to keep of the body: only what the contract can check.
    private static func plan(for contract: Contract?, contentType: String?) -> Body {
        guard let expectation = contract?.request else { return .discard }
        let essence = contentType.map(MediaType.essence)
        if expectation.multipart != nil, essence == "multipart/form-data" {
            guard let boundary = MediaType.parameter("boundary", in: contentType!) else {
                return .malformed("Content-Type multipart/form-data has no boundary parameter")
            }
            do throws(MultipartParser.Failure) {
                return .multipart(try MultipartParser(boundary: boundary), MultipartCollector())
            } catch {
                return .malformed(error.description)
            }
        }
        if expectation.json != nil, essence == "application/json" { return .buffered([], .json) }
        return .discard
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
        case .multipart(var parser, let collector):
            do throws(MultipartParser.Failure) {
                try parser.finish { collector.handle($0) }
                return .success(.multipart(collector.parts))
            } catch {
                return .failure(MalformedBody(reason: "multipart body: \(error.description)"))
            }
        }
    }

    /// The body as sent, for forwarding; empty unless the request is forwarded.
    var rawBody: [UInt8] {
        if case .buffered(let bytes, .raw) = body { return bytes }
        return []
    }

    var receivedParts: [ReceivedPart] {
        if case .multipart(_, let collector) = body { return collector.parts }
        return []
    }

    func incomingRequest(body: IncomingRequest.Body) -> IncomingRequest {
        IncomingRequest(query: query, headers: headers, contentType: contentType, body: body)
    }
}

struct MalformedBody: Error {
    var reason: String
}

/// Turns multipart parser events into journaled parts: name, filename, type, size and SHA-256.
final class MultipartCollector {
    private(set) var parts: [ReceivedPart] = []
    private var current: MultipartParser.PartHeaders?
    private var hasher = SHA256()
    private var count = 0

    func handle(_ event: MultipartParser.Event) {
        switch event {
        case .begin(let headers):
            current = headers
            hasher = SHA256()
            count = 0
        case .data(let bytes):
            hasher.update(bytes)
            count += bytes.count
        case .end:
            guard let headers = current else { return }
            parts.append(ReceivedPart(name: headers.name, filename: headers.filename, contentType: headers.contentType,
                                      bytes: count, sha256: hasher.finalizeHex()))
            current = nil
        }
    }
}

/// What a suspended request is answered with once MHD calls back.
enum PendingAnswer {
    /// A contract's response, held back by a delay.
    case prepared(contract: Int, response: Int)
    case generated(GeneratedResponse, contract: String?, response: String?)
    /// A fault that waits: the connection is closed when it is woken.
    case hang
    /// Filled in by another thread (a reload) before it resumes the connection.
    case deferred(DeferredReply)
    /// A real backend's answer, filled in by the forwarding thread; journaled as proxied.
    case proxied(DeferredReply)
}

/// An answer another thread produces while the request's connection is suspended.
/// Who parked a connection (`Suspensions`): one per request, so a timer or a reply never wakes a
/// later request that libmicrohttpd gave the same connection pointer.
final class ParkingOwner: Sendable {}

final class DeferredReply: Sendable {
    let reply = Mutex<GeneratedResponse?>(nil)
}
