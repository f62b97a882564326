import MockAPICore

extension RequestHandler {
    /// Hands the request's log line to the log, if there is one (`--quiet`: nothing at all).
    /// Only copies here: the text is built on the log's queue.
    func log(_ context: RequestContext, path: UnsafeBufferPointer<UInt8>, status: Int, contract: String?, response: String?,
             problem: String?) {
        guard let log = configuration.requestLog else { return }
        let verbose = log.options.verbose
        log.request(RequestLogEntry(receivedAt: context.receivedAt, method: context.method, path: String(decoding: path, as: UTF8.self),
                                    query: context.query, status: status, contract: contract, response: response, problem: problem,
                                    nanoseconds: System.monotonicNanoseconds() - context.started,
                                    headers: verbose ? context.headers : nil, redaction: journal.redaction,
                                    contracts: verbose ? context.state.responder.set : nil))
    }
}
