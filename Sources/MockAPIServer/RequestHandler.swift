import CMicroHTTPD
import CMicroHTTPDShims
import MockAPICore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bridge from libmicrohttpd's C callbacks to the `Responder`.
///
/// MHD calls the access handler several times per request: once with the headers, then with
/// body chunks, then once with none. We answer on that last call: queueing on the first,
/// headers-only call makes MHD 0.9.75 close the connection, and keep-alive is lost.
final class RequestHandler: Sendable {
    /// The current contract set's responder and prepared responses, swapped whole by a reload.
    let serving: ServingStateCell
    /// Shared by every serving state: a reload keeps the journal.
    let journal: RequestJournal
    let configuration: ServerConfiguration
    let suspensions = Suspensions()
    /// JSON bodies held across every connection (`--max-buffered-bytes`).
    let bufferBudget: BufferBudget
    /// Sends requests no contract takes to a real backend; nil unless the server proxies them.
    let forwarder: Forwarder?
    /// Reloads the set from disk; nil for a server started from a set in memory.
    let reload: (@Sendable () -> GeneratedResponse)?
    /// Requests between their first callback and their completion, counted per thread so the
    /// workers never write a shared counter; shutdown waits for the sum to reach zero.
    private let inFlightBySlot: [InFlightCounter] = (0..<16).map { _ in InFlightCounter() }

    var inFlight: Int { inFlightBySlot.reduce(0) { $0 + $1.count.load(ordering: .acquiring) } }

    private var inFlightHere: InFlightCounter { inFlightBySlot[ThreadSlot.current % inFlightBySlot.count] }

    init(serving: ServingStateCell, journal: RequestJournal, configuration: ServerConfiguration,
         reload: (@Sendable () -> GeneratedResponse)?) {
        self.serving = serving
        self.journal = journal
        self.configuration = configuration
        self.reload = reload
        bufferBudget = BufferBudget(limit: configuration.maxBufferedBytes)
        forwarder = configuration.proxy.map(Forwarder.init)
    }

    // Both callbacks borrow the handler and the request's context with
    // `_withUnsafeGuaranteedRef`: MHD keeps them alive for the call, so the retain and release
    // `takeUnretainedValue()` costs per use are pure overhead on every request.
    static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, requestState in
        guard let cls, let connection, let requestState, let uploadDataSize else { return .NO }
        // MHD passes the url on every call; its bytes are read there, never kept past a call.
        let path = bytes(url)
        return Unmanaged<RequestHandler>.fromOpaque(cls)._withUnsafeGuaranteedRef { handler in
            // Before the first call the state is nil, or the query copy `take_query` made (tagged).
            let query = CMicroHTTPDShims_query(requestState.pointee)
            if let existing = requestState.pointee, query == nil {
                return Unmanaged<RequestContext>.fromOpaque(existing)._withUnsafeGuaranteedRef { context in
                    handler.continueRequest(context, connection: connection, path: path, data: uploadData, size: uploadDataSize)
                }
            }
            CMicroHTTPDShims_headers_arrived(connection)
            let context = handler.beginRequest(connection: connection, path: path, method: method, query: query)
            free(query)
            requestState.pointee = Unmanaged.passRetained(context).toOpaque()
            handler.inFlightHere.count.add(1, ordering: .relaxed)
            return handler.checkFraming(context, connection: connection, path: path)
        }
    }

    static let completed: MHD_RequestCompletedCallback = { cls, connection, requestState, _ in
        if let connection { CMicroHTTPDShims_awaiting_headers(connection) }
        guard let cls, let requestState, let state = requestState.pointee else { return }
        requestState.pointee = nil
        if let query = CMicroHTTPDShims_query(state) {
            free(query) // the request ended before the access handler saw it (MHD refused it)
            return
        }
        Unmanaged<RequestContext>.fromOpaque(state).release()
        // Completion runs on the connection's own worker thread, the one that counted it in.
        Unmanaged<RequestHandler>.fromOpaque(cls)._withUnsafeGuaranteedRef { _ = $0.inFlightHere.count.subtract(1, ordering: .relaxed) }
    }

    private func beginRequest(connection: OpaquePointer, path: UnsafeBufferPointer<UInt8>, method: UnsafePointer<CChar>?,
                              query: UnsafeMutablePointer<CMicroHTTPDShims_Query>?) -> RequestContext {
        let knownMethod = HTTPMethod(bytes: bytes(method))
        let lease = serving.lease()
        let responder = lease.state.responder
        let route = responder.route(method: knownMethod, path: path)
        var contract: Contract?
        if case .contract(let index) = route { contract = responder.contractForBody(routedTo: index) }
        // A known method's name is a static string: no allocation.
        let methodName = knownMethod?.rawValue ?? method.map { String(cString: $0) } ?? "GET"
        let rawQuery = query.map { UnsafeRawBufferPointer(start: UnsafeRawPointer($0) + MemoryLayout<CMicroHTTPDShims_Query>.size, count: $0.pointee.length) }
        let arguments = rawQuery.map(QueryString.arguments) ?? []
        // Only a request no contract takes, on a server that forwards those, keeps its body and raw query.
        let forwarding = forwarder != nil && route.isUnmatched
        return RequestContext(lease: lease, method: methodName, route: route, query: arguments,
                              headers: ConnectionValues.headers(connection), contract: contract, budget: bufferBudget,
                              forwarding: forwarding, rawQuery: forwarding ? rawQuery.map { String(decoding: $0, as: UTF8.self) } : nil)
    }

    /// Framing refused outright, and a declared body over the limit, are answered on the first
    /// call, before any of the body is read; MHD closes the connection after such an answer, so
    /// the rest of an oversized body is never read. So is more than one Host line (RFC 9112
    /// §3.2 asks for 400 even when they agree): which one names the server is unknowable.
    private func checkFraming(_ context: RequestContext, connection: OpaquePointer, path: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        let refusal: GeneratedResponse
        var hosts = 0
        context.headers.forEachValue(of: "Host") { _ in
            hosts += 1
            return hosts < 2
        }
        if hosts > 1 {
            context.answered = true
            CMicroHTTPDShims_answering(connection)
            return queue(ErrorResponses.malformed("Host is given more than once (RFC 9112 §3.2)", contract: nil), context, connection, path: path)
        }
        switch BodyFraming(headers: context.headers) {
        case .none, .chunked:
            return .YES
        case .length(let declared):
            if declared > bodyLimit(context).bytes {
                refusal = tooLarge(context)
            } else if !context.reserveDeclaredBody(declared) {
                refusal = ErrorResponses.bufferBudgetFull(limit: bufferBudget.limit)
            } else {
                return .YES
            }
        case .lengthTooLarge:
            refusal = tooLarge(context)
        case .conflictingLengths:
            refusal = ErrorResponses.malformed("Content-Length is given more than once with different values", contract: nil)
        case .unsupportedEncoding(let encoding):
            refusal = ErrorResponses.unsupportedTransferEncoding(encoding)
        }
        context.answered = true
        CMicroHTTPDShims_answering(connection)
        return queue(refusal, context, connection, path: path)
    }

    /// The limit this request's body must keep, and the flag that sets it.
    private func bodyLimit(_ context: RequestContext) -> (bytes: Int, flag: String) {
        context.buffersJSON && configuration.maxJSONBytes < configuration.maxBodyBytes
            ? (configuration.maxJSONBytes, "--max-json-bytes") : (configuration.maxBodyBytes, "--max-body-bytes")
    }

    private func continueRequest(_ context: RequestContext, connection: OpaquePointer, path: UnsafeBufferPointer<UInt8>,
                                 data: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>) -> MHD_Result {
        if size.pointee > 0 {
            let count = size.pointee
            size.pointee = 0
            CMicroHTTPDShims_body_received(connection, count)
            if context.answered { return .YES }
            if let discarded = context.discardedPastLimit {
                return discardPastLimit(context, count: count, alreadyDiscarded: discarded, connection: connection, path: path)
            }
            guard context.bodyBytes + count <= bodyLimit(context).bytes else {
                context.dropBody()
                return discardPastLimit(context, count: count, alreadyDiscarded: 0, connection: connection, path: path)
            }
            guard context.consume(UnsafeRawBufferPointer(start: data, count: count)) else {
                return refuseMidBody(ErrorResponses.bufferBudgetFull(limit: bufferBudget.limit), context, connection: connection, path: path)
            }
            return .YES
        }
        if let pending = context.pending {
            context.pending = nil
            return answerPending(pending, context, connection: connection, path: path)
        }
        if context.answered { return .YES }
        CMicroHTTPDShims_answering(connection)
        if context.discardedPastLimit != nil { return answerTooLarge(context, connection: connection, path: path) }
        return answer(context, connection: connection, path: path)
    }

    /// A body with no usable length broke its limit mid-way. MHD takes no response until the body
    /// has ended, so the rest is read and dropped, and the 413 queued at its end. A client that
    /// keeps sending past another `--max-body-bytes` gets the 413 written on the socket and the
    /// connection closed: never an unbounded read, never a silent close.
    private func discardPastLimit(_ context: RequestContext, count: Int, alreadyDiscarded: Int, connection: OpaquePointer,
                                  path: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        let discarded = alreadyDiscarded + count
        context.discardedPastLimit = discarded
        guard discarded > configuration.maxBodyBytes else { return .YES }
        return refuseMidBody(tooLarge(context), context, connection: connection, path: path)
    }

    /// An answer decided mid-body, which MHD cannot queue: written on the socket, journaled, and
    /// the connection closed.
    private func refuseMidBody(_ response: GeneratedResponse, _ context: RequestContext, connection: OpaquePointer,
                               path: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        context.answered = true
        CMicroHTTPDShims_answering(connection)
        RawResponse.sendAndClose(response, on: connection)
        record(context, path: path, status: response.status, contract: nil, response: nil, problem: response.problem)
        return .NO
    }

    private func answer(_ context: RequestContext, connection: OpaquePointer, path: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        context.answered = true
        let responder = context.state.responder
        switch context.route {
        case .admin:
            if let action = configuration.adminActions["\(context.method) \(String(decoding: path, as: UTF8.self))"] {
                if let refusal = responder.adminAccess.refusal(method: context.method, headers: context.headers) {
                    return queue(refusal, context, connection, path: path, journal: false)
                }
                return startAdminAction(action, context, connection: connection, path: path)
            }
            switch responder.respondAdmin(method: context.method, path: String(decoding: path, as: UTF8.self), query: context.query,
                                          headers: context.headers) {
            case .response(let response):
                return queue(response, context, connection, path: path, journal: false)
            case .journal(let query, let lastID):
                let response = JournalStream.response(journal: journal, query: query, lastID: lastID)
                defer { MHD_destroy_response(response) }
                return MHD_queue_response(connection, 200, response)
            case .reload:
                return startReload(context, connection: connection, path: path)
            }
        case .notFound, .methodNotAllowed:
            if configuration.cors, let preflight = responder.preflight(method: context.method, path: path, headers: context.headers) {
                return queue(preflight, context, connection, path: path)
            }
            if forwarder != nil { return startForwarding(context, connection: connection, path: path) }
            let response = responder.respondUnrouted(context.route, rawMethod: context.method, path: String(decoding: path, as: UTF8.self))
            return queue(response, context, connection, path: path)
        case .contract(let index):
            let contract = responder.set.contracts[index]
            if configuration.delay == nil,
               let response = responder.plainResponse(toContract: index, query: context.query, bodyBytes: context.bodyBytes,
                                                      headers: context.headers) {
                return queuePrepared(contract: index, response: response, context, connection, path: path)
            }
            switch context.finishBody() {
            case .failure(let malformed):
                return queue(ErrorResponses.malformed(malformed.reason, contract: contract), context, connection, path: path, contract: contract.name)
            case .success(let body):
                switch responder.respond(toContract: index, request: context.incomingRequest(body: body)) {
                case .generated(let generated, let about):
                    return queue(generated, context, connection, path: path, contract: about.map { responder.set.contracts[$0].name })
                case .prepared(let contractIndex, let responseIndex):
                    return answerTimed(contract: contractIndex, response: responseIndex, context, connection, path: path)
                }
            }
        }
    }

    /// Queues a response prepared at start and journals it.
    func queuePrepared(contract index: Int, response: Int, _ context: RequestContext, _ connection: OpaquePointer,
                               path: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        let state = context.state
        let contract = state.responder.set.contracts[index]
        guard let ready = state.prepared.response(contract: index, response: response) else {
            // A body with request placeholders ({{path.id}}): rendered for this request.
            let rendered = state.prepared.render(contract: index, response: response, path: String(decoding: path, as: UTF8.self), query: context.query)
            return queue(rendered, context, connection, path: path, contract: contract.name, response: contract.responses[response].name)
        }
        // Fields read in place: copying the ResponseDefinition (body, headers) cost more.
        let status = contract.responses[response].status
        let result = MHD_queue_response(connection, UInt32(status), ready)
        record(context, path: path, status: status, contract: contract.name, response: contract.responses[response].name)
        return result
    }

    /// Queued at the body's end, once the part past the limit has been drained: keep-alive holds.
    private func answerTooLarge(_ context: RequestContext, connection: OpaquePointer, path: UnsafeBufferPointer<UInt8>) -> MHD_Result {
        context.answered = true
        return queue(tooLarge(context), context, connection, path: path)
    }

    private func tooLarge(_ context: RequestContext) -> GeneratedResponse {
        let limit = bodyLimit(context)
        return ErrorResponses.tooLarge(limit: limit.bytes, flag: limit.flag)
    }

    func queue(_ generated: GeneratedResponse, _ context: RequestContext, _ connection: OpaquePointer,
                       path: UnsafeBufferPointer<UInt8>, contract: String? = nil, response responseName: String? = nil,
                       journal: Bool = true) -> MHD_Result {
        var generated = generated
        if configuration.cors { generated.headers += Responder.corsHeaders }
        let response = MHDResponse.make(generated)
        let result = MHD_queue_response(connection, UInt32(generated.status), response)
        MHD_destroy_response(response)
        if journal {
            record(context, path: path, status: generated.status, contract: contract, response: responseName, problem: generated.problem)
        }
        return result
    }

    func record(_ context: RequestContext, path: UnsafeBufferPointer<UInt8>, status: Int, contract: String?, response: String?,
                        problem: String? = nil) {
        journal.record(receivedAt: context.receivedAt, method: context.method, path: UnsafeRawBufferPointer(path),
                                 query: context.query, headers: context.headers, bodyBytes: context.bodyBytes,
                                 parts: context.receivedParts, contract: contract, response: response, status: status, problem: problem)
        log(context, path: path, status: status, contract: contract, response: response, problem: problem)
    }
}

/// A C string's bytes, not copied; empty for nil.
private func bytes(_ text: UnsafePointer<CChar>?) -> UnsafeBufferPointer<UInt8> {
    guard let text else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
}

extension Responder.Route {
    /// No contract takes the request (404 or 405): what `--proxy-unmatched` forwards.
    var isUnmatched: Bool {
        switch self {
        case .notFound, .methodNotAllowed: true
        case .contract, .admin: false
        }
    }
}

final class InFlightCounter: Sendable {
    let count = Atomic<Int>(0)
}
