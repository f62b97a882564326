import CMicroHTTPD
import MockAPICore
import Synchronization

/// The bridge from libmicrohttpd's C callbacks to the `Responder`.
///
/// MHD calls the access handler several times per request: once with the headers, then with
/// body chunks, then once with none. We answer on that last call: queueing on the first,
/// headers-only call makes MHD 0.9.75 close the connection, and keep-alive is lost.
final class RequestHandler: Sendable {
    let responder: Responder
    let prepared: PreparedResponses
    let configuration: ServerConfiguration
    /// Requests between their first callback and their completion, counted per thread so the
    /// workers never write a shared counter; shutdown waits for the sum to reach zero.
    private let inFlightBySlot: [InFlightCounter] = (0..<16).map { _ in InFlightCounter() }

    var inFlight: Int { inFlightBySlot.reduce(0) { $0 + $1.count.load(ordering: .acquiring) } }

    private var inFlightHere: InFlightCounter { inFlightBySlot[ThreadSlot.current % inFlightBySlot.count] }

    init(responder: Responder, prepared: PreparedResponses, configuration: ServerConfiguration) {
        self.responder = responder
        self.prepared = prepared
        self.configuration = configuration
    }

    static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, requestState in
        let handler = Unmanaged<RequestHandler>.fromOpaque(cls!).takeUnretainedValue()
        guard let connection, let requestState, let uploadDataSize else { return .NO }
        if let existing = requestState.pointee {
            let context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
            return handler.continueRequest(context, connection: connection, data: uploadData, size: uploadDataSize)
        }
        let context = handler.beginRequest(connection: connection, url: url, method: method)
        requestState.pointee = Unmanaged.passRetained(context).toOpaque()
        handler.inFlightHere.count.add(1, ordering: .relaxed)
        return handler.checkDeclaredLength(context, connection: connection)
    }

    static let completed: MHD_RequestCompletedCallback = { cls, _, requestState, _ in
        guard let cls, let requestState, let state = requestState.pointee else { return }
        Unmanaged<RequestContext>.fromOpaque(state).release()
        requestState.pointee = nil
        // Completion runs on the connection's own worker thread, the one that counted it in.
        Unmanaged<RequestHandler>.fromOpaque(cls).takeUnretainedValue().inFlightHere.count.subtract(1, ordering: .relaxed)
    }

    private func beginRequest(connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?) -> RequestContext {
        let path = url.map { String(cString: $0) } ?? "/"
        let methodName = method.map { String(cString: $0) } ?? "GET"
        let route = responder.route(method: methodName, path: path)
        var contract: Contract?
        if case .contract(let index) = route { contract = responder.set.contracts[index] }
        return RequestContext(method: methodName, path: path, route: route, query: ConnectionValues.arguments(connection),
                              headers: ConnectionValues.headers(connection), contract: contract)
    }

    /// A declared body over the limit is refused before any of it is read.
    private func checkDeclaredLength(_ context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        guard let declared = context.headers.value(for: "Content-Length").flatMap({ Int($0) }),
              declared > configuration.maxBodyBytes else { return .YES }
        return answerTooLarge(context, connection: connection)
    }

    private func continueRequest(_ context: RequestContext, connection: OpaquePointer,
                                 data: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>) -> MHD_Result {
        if size.pointee > 0 {
            let count = size.pointee
            size.pointee = 0
            if context.answered { return .YES }
            guard context.bodyBytes + count <= configuration.maxBodyBytes else { return answerTooLarge(context, connection: connection) }
            context.consume(UnsafeRawBufferPointer(start: data, count: count))
            return .YES
        }
        if context.answered { return .YES }
        return answer(context, connection: connection)
    }

    private func answer(_ context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        context.answered = true
        switch context.route {
        case .admin:
            return queue(responder.respondAdmin(method: context.method, path: context.path), context, connection, journal: false)
        case .notFound, .methodNotAllowed:
            return queue(responder.respondUnrouted(context.route, rawMethod: context.method, path: context.path), context, connection)
        case .contract(let index):
            let contract = responder.set.contracts[index]
            switch context.finishBody() {
            case .failure(let malformed):
                return queue(ErrorResponses.malformed(malformed.reason, contract: contract), context, connection, contract: contract.name)
            case .success(let body):
                let (reply, responseName) = responder.respond(toContract: index, request: context.incomingRequest(body: body))
                switch reply {
                case .generated(let generated):
                    return queue(generated, context, connection, contract: contract.name)
                case .prepared(let contractIndex, let responseIndex):
                    let status = contract.responses[responseIndex].status
                    let result = MHD_queue_response(connection, UInt32(status), prepared.response(contract: contractIndex, response: responseIndex))
                    record(context, status: status, contract: contract.name, response: responseName)
                    return result
                }
            }
        }
    }

    private func answerTooLarge(_ context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        context.answered = true
        // Queued before the body is read, so MHD closes the connection after it: the rest of
        // the oversized body is never read.
        return queue(ErrorResponses.tooLarge(limit: configuration.maxBodyBytes), context, connection)
    }

    private func queue(_ generated: GeneratedResponse, _ context: RequestContext, _ connection: OpaquePointer,
                       contract: String? = nil, journal: Bool = true) -> MHD_Result {
        let response = MHDResponse.make(generated)
        let result = MHD_queue_response(connection, UInt32(generated.status), response)
        MHD_destroy_response(response)
        if journal { record(context, status: generated.status, contract: contract, response: nil) }
        return result
    }

    private func record(_ context: RequestContext, status: Int, contract: String?, response: String?) {
        responder.journal.record(JournalEntry(
            receivedAt: context.receivedAt, method: context.method, path: context.path,
            query: JournalEntry.encodeQuery(context.query), headers: context.headers, bodyBytes: context.bodyBytes,
            parts: context.receivedParts, contract: contract, response: response, status: status))
        configuration.requestLog?.request(method: context.method, path: context.path, status: status, contract: contract,
                                          nanoseconds: System.monotonicNanoseconds() - context.started)
    }
}

final class InFlightCounter: Sendable {
    let count = Atomic<Int>(0)
}
